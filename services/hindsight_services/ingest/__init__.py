"""ingest: validates writes and appends them durably to the log."""
