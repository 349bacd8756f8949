"""project: keeps the text (BM25) projection, and the graph projection (cluster issue)."""
