"""Reusable test doubles and helpers (real local servers speaking real protocols)."""
