"""The PII types the redactor knows, what a policy may do with each, and the placeholder
that replaces a redacted value. Imports nothing of ours, so settings and events can use it.

Placeholders are part of the stored data and of what recall returns, so they are stable:
an upper-case name in square brackets, one per type, never numbered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

PiiType = Literal["email", "phone", "card", "iban", "national_id", "ip_address", "secret"]
PiiAction = Literal["redact", "reject", "allow"]

PII_TYPES: tuple[PiiType, ...] = get_args(PiiType)
PII_ACTIONS: tuple[PiiAction, ...] = get_args(PiiAction)

PLACEHOLDERS: dict[PiiType, str] = {
    "email": "[EMAIL]",
    "phone": "[PHONE]",
    "card": "[CARD]",
    "iban": "[IBAN]",
    "national_id": "[NATIONAL_ID]",
    "ip_address": "[IP]",
    "secret": "[SECRET]",
}

#: What each type is called in an error message.
DESCRIPTIONS: dict[PiiType, str] = {
    "email": "an e-mail address",
    "phone": "a phone number",
    "card": "a payment card number",
    "iban": "an IBAN",
    "national_id": "a national id number",
    "ip_address": "an IP address",
    "secret": "a secret or API key",
}

#: In a policy: every tenant (as a tenant key) or every type (as a type key).
ANY = "*"


def check_policy(rules: Mapping[str, Mapping[str, str]]) -> None:
    """Raise ValueError naming the first unknown type or action in a policy mapping."""
    for tenant, per_type in rules.items():
        for pii_type, action in per_type.items():
            if pii_type != ANY and pii_type not in PII_TYPES:
                raise ValueError(
                    f"tenant {tenant!r}: unknown PII type {pii_type!r}; one of {', '.join(PII_TYPES)} or '*'"
                )
            if action not in PII_ACTIONS:
                raise ValueError(
                    f"tenant {tenant!r}, type {pii_type!r}: unknown action {action!r}; "
                    f"one of {', '.join(PII_ACTIONS)}"
                )
