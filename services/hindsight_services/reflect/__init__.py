"""reflect: looks back at episodes and records semantic memories (reflection issue)."""
