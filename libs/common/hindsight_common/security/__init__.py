"""Security layers: credentials and tenants, PII redaction, injection screening, signing,
audit and erasure. Each layer is a module of its own; docs/architecture.md says where each
one is applied."""
