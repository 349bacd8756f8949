"""Hindsight's services: ingest, embed, project, reflect, consolidate, query."""
