"""consolidate: merges, supersedes, decays and forgets memories (consolidation issue)."""
