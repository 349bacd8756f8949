"""embed: turns events into vectors and keeps the vector projection."""
