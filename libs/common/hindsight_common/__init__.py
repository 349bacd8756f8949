"""Hindsight's shared library: events, ports, recall logic, settings and adapters."""
