"""Events of erasure: a sealed event's wire form, and a subject's erasure.

``SealedEvent`` is how an event carrying user content travels on the interactions and
memories streams (``security/sealed_log.py``): the envelope (id, tenant, user, times,
trace context) stays in clear for routing and ordering; everything else, the inner
event whole, is AES-GCM ciphertext under the user's data key. Readers open it back into
the inner event, so consumers never see this type; once the key is destroyed it stays
shut, and every consumer and every replay skips it.

``SubjectErased`` (control stream) records that a user's data keys were destroyed:
every projection and cache purges the user when it reads it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from hindsight_common.events.base import Event


class SealedEvent(Event):
    """An event whose content is sealed with its user's data key."""

    type: Literal["SealedEvent"] = "SealedEvent"
    schema_version: Literal[1] = 1
    sealed_type: str = Field(min_length=1, max_length=100, description="The inner event's type.")
    key_id: str = Field(min_length=1, max_length=100, description="The data key that seals it.")
    ciphertext: str = Field(min_length=1, description="Base64 of nonce, AES-256-GCM ciphertext and tag.")


class SubjectErased(Event):
    """A user was erased: their data keys are destroyed, so their sealed events on the
    log can never be read again; projections and caches purge what they hold of them."""

    type: Literal["SubjectErased"] = "SubjectErased"
    schema_version: Literal[1] = 1
    keys_destroyed: int = Field(ge=0, description="How many data keys were destroyed.")
    erased_by: str = Field(default="api", max_length=200, description="The credential (key id) or operator.")
    reason: str = Field(default="", max_length=500, description="Why, as the caller gave it; never content.")
