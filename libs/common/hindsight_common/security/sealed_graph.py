"""The cluster's graph with no user text in clear: documents sealed, entities keyed.

Neo4j keeps what it was given in its transaction logs (retained for days by default) and
in the store records of deleted nodes until they are reused, and Community Edition
offers no way to force either out; a ``DETACH DELETE`` on erasure leaves the user's
words on disk. So the graph never receives them:

- a document goes in as its metadata (id, tenant, user, session, agent, type, time:
  what the graph filters and orders on) with ``content`` holding the whole document,
  sealed with the user's data key (``data_keys``; the associated data binds it to its
  tenant, user and id). Searches open it again; a document whose key was destroyed
  (erased, not yet purged) is left out, and one that does not open with a key that
  exists is an error (tampered), never silently dropped.
- an entity goes in as a keyed token of its normalised key (HMAC-SHA256 under a
  secret derived from the master key, per tenant), not its name: the graph still joins
  the documents that mention the same entity, and a search maps the query's entities
  the same way, but what Neo4j stores reads as nothing without the master key.

The embedded SQLite graph is not wrapped: its files are scrubbed on erasure.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Sequence
from dataclasses import replace

from hindsight_common.documents import from_payload, to_payload
from hindsight_common.errors import ProjectionError
from hindsight_common.ports.graph import GraphItem, GraphLinks, GraphStore
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import Document, Hit, Scope
from hindsight_common.security.data_keys import DataKey, DataKeys, SealError
from hindsight_common.security.sealed_text import open_text, text_sealer
from hindsight_common.text.entities import entity_keys

PREFIX = "\x1fhs-sealed-doc-1\x1f"
_ENTITY_SECRET_LABEL = b"hindsight-graph-entity-tokens-v1"


def _aad(d: Document) -> bytes:
    return f"hindsight-graph\x00{d.tenant}\x00{d.user}\x00{d.id}".encode()


class SealedGraph(GraphStore):
    """``inner`` (owned, closed here) fed sealed documents and entity tokens; ``keys``
    (owned) seal and open them; ``master`` gives the master key on first use."""

    def __init__(self, inner: GraphStore, keys: DataKeys, master: Callable[[], bytes]) -> None:
        self.inner = inner
        self._keys = keys
        self._master = master
        self._secret: bytes | None = None

    @property
    def max_fanout(self) -> int:  # the inner store applies it
        return self.inner.max_fanout

    @max_fanout.setter
    def max_fanout(self, value: int) -> None:
        self.inner.max_fanout = value

    def stored_keys(self, tenant: str, names: Sequence[str]) -> tuple[str, ...]:
        if self._secret is None:
            self._secret = hmac.new(self._master(), _ENTITY_SECRET_LABEL, hashlib.sha256).digest()
        secret = self._secret
        return tuple("k" + hmac.new(secret, f"{tenant}\x00{key}".encode(), hashlib.sha256).hexdigest()[:40]
                     for key in entity_keys(names))

    # -- documents ----------------------------------------------------------------

    @staticmethod
    def _sealed(d: Document, key: DataKey) -> Document:
        box = text_sealer(key, PREFIX)(json.dumps(to_payload(d)), _aad(d))
        return Document(id=d.id, tenant=d.tenant, user=d.user, session=d.session, type=d.type,
                        speaker="", role="", content=box, occurred_at=d.occurred_at, agent=d.agent,
                        stream=d.stream, offset=d.offset)

    async def _opened(self, d: Document) -> Document | None:
        if not d.content.startswith(PREFIX):
            return d  # written before the graph was sealed
        try:
            payload = await open_text(self._keys, d.tenant, d.user, d.content, _aad(d), PREFIX)
            return None if payload is None else from_payload(json.loads(payload))
        except (SealError, ValueError) as e:
            raise ProjectionError(f"graph document {d.id} ({d.tenant}/{d.user}) does not open with its "
                                  "key: tampered or corrupt") from e

    # -- the port -----------------------------------------------------------------

    async def upsert(self, items: Sequence[GraphItem], position: Position) -> None:
        keys: dict[tuple[str, str], DataKey] = {}
        sealed = []
        for item in items:
            d = item.document
            if (d.tenant, d.user) not in keys:
                keys[d.tenant, d.user] = await self._keys.for_write(d.tenant, d.user)
            sealed.append(replace(item, document=self._sealed(d, keys[d.tenant, d.user]),
                                  entities=self.stored_keys(d.tenant, item.entities)))
        await self.inner.upsert(sealed, position)

    async def search(self, scope: Scope, entities: Sequence[str], k: int, hops: int = 1) -> list[Hit]:
        hits = await self.inner.search(scope, self.stored_keys(scope.tenant, entities), k, hops)
        out = []
        for h in hits:
            opened = await self._opened(h.document)
            if opened is not None:
                out.append(replace(h, document=opened))
        return out

    async def entities_of(self, tenant: str, doc_id: str) -> tuple[str, ...]:
        """The document's entity tokens (what :meth:`stored_keys` gives), sorted."""
        return await self.inner.entities_of(tenant, doc_id)

    async def links_of(self, tenant: str, doc_id: str) -> GraphLinks:
        return await self.inner.links_of(tenant, doc_id)

    async def position(self) -> Position:
        return await self.inner.position()

    async def count(self, tenant: str) -> int:
        return await self.inner.count(tenant)

    async def ids(self, tenant: str) -> list[str]:
        return await self.inner.ids(tenant)

    async def purge_user(self, tenant: str, user: str) -> int:
        return await self.inner.purge_user(tenant, user)

    async def close(self) -> None:
        try:
            await self.inner.close()
        finally:
            await self._keys.close()
