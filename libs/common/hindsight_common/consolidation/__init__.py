"""Consolidation: deduplication, reinforcement and supersession of semantic memories.

``rules`` holds the pure comparisons (normalised values, similarity, combined
confidence); ``state`` the deterministic fold that consolidate runs over the memories
stream and that decides ``MemoriesMerged``, ``MemorySuperseded`` and
``MemoryConflicted``; ``lifecycle`` what the projections do with those events (and with
``MemoryReinforced``). Nothing here reads a clock or calls a model, so replaying the
log reproduces the same decisions. Modules are imported directly; this package
re-exports nothing (``documents`` imports ``lifecycle`` without pulling in the rest).
"""
