"""Online rebuild of the projections: new versions filled from the log beside the live
ones, swapped in through aliases (cluster) or the pointer record (embedded)."""
