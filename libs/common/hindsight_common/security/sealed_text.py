"""Text sealed with a user's data key, stored where text is expected (a column, a
property): ``prefix`` + the key id + ``.`` + base64 of :func:`data_keys.seal`'s bytes.
Used by the cluster's reflect state and graph, whose stores keep what they were given
long after a delete (``sealed_reflect_state``, ``sealed_graph``)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable

from hindsight_common.security.data_keys import DataKey, DataKeys, SealError, sealer, unseal


def text_sealer(key: DataKey, prefix: str) -> Callable[[str, bytes], str]:
    """Seal strings with ``key`` (one cipher set up for many values)."""
    seal = sealer(key.secret)

    def sealed(value: str, aad: bytes) -> str:
        return f"{prefix}{key.key_id}.{base64.b64encode(seal(value.encode(), aad)).decode()}"

    return sealed


async def open_text(keys: DataKeys, tenant: str, user: str, value: str, aad: bytes, prefix: str) -> str | None:
    """The plaintext of a stored value: as it is without ``prefix`` (written before
    sealing), None when its key was destroyed. Raises SealError when it does not open
    with a key that exists (altered, or moved from another row)."""
    if not value.startswith(prefix):
        return value
    key_id, _, body = value[len(prefix):].partition(".")
    key = await keys.for_read(tenant, user, key_id)
    if key is None:
        return None
    try:
        return unseal(key.secret, base64.b64decode(body, validate=True), aad).decode()
    except (binascii.Error, UnicodeDecodeError) as e:
        raise SealError(f"a sealed value under key {key_id} is malformed") from e
