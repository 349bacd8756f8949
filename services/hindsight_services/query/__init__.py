"""query: the gateway's read side (recall, session context, browsing)."""
