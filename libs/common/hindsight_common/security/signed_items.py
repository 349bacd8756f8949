"""Which fields of events and projection documents are signed, signing events before the
append, and verifying documents where recall, browsing and session context read them.

An event and the document it projects to give the same :class:`Signable`:

- an interaction: id = its event id, content = the text the projections hold (its
  content and the ``[tools: ...]`` line, ``documents.interaction_text``), kind = its
  role, key = its speaker, provenance = its own event id;
- a memory (``MemoryExtracted``): id = the memory id, content, kind, key, provenance =
  its source event ids (kept in ``Document.signed_provenance``: the event ids that
  consolidation adds when a memory is reinforced or merged are not covered);
- a session summary: id = its event id, content = the summary, kind = "summary",
  key = the session, no provenance.

The trace context and the other envelope fields are transport, not signed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TypeVar

from hindsight_common.documents import interaction_text
from hindsight_common.events import Event, InteractionRecorded, MemoryExtracted, SessionSummarized
from hindsight_common.ports.projection import Document
from hindsight_common.security.signing import Keyring, Signable, Verdict
from hindsight_common.telemetry.metrics import INTEGRITY_FAILURES, UNSIGNED_ITEMS

log = logging.getLogger(__name__)
E = TypeVar("E", bound=Event)


def signable_of_event(event: Event) -> Signable | None:
    """The signed fields of an event that projects to a recallable item; None otherwise."""
    if isinstance(event, InteractionRecorded):
        return Signable(event.tenant, event.user, str(event.event_id), interaction_text(event),
                        event.role, event.speaker, (str(event.event_id),))
    if isinstance(event, MemoryExtracted):
        return Signable(event.tenant, event.user, str(event.memory_id), event.content, event.kind,
                        event.key, tuple(str(i) for i in event.source_event_ids))
    if isinstance(event, SessionSummarized):
        return Signable(event.tenant, event.user, str(event.event_id), event.summary, "summary",
                        event.session)
    return None


def signable_of_document(doc: Document) -> Signable:
    """The signed fields of a stored document (the same as its event's)."""
    if doc.role == "memory":  # a memory, or a forgotten memory's tombstone
        kind, key = doc.kind or "", doc.key or ""
    elif doc.role == "summary":
        kind, key = "summary", doc.session
    else:
        kind, key = doc.role, doc.speaker
    provenance = doc.event_ids if doc.signed_provenance is None else doc.signed_provenance
    return Signable(doc.tenant, doc.user, doc.id, doc.content, kind, key, provenance)


def sign_events(keyring: Keyring, events: Sequence[E]) -> list[E]:
    """``events`` with their signatures set (events that project to nothing unchanged)."""
    out = []
    for e in events:
        item = signable_of_event(e)
        out.append(e if item is None else e.model_copy(update={"signature": keyring.sign(item)}))
    return out


class Integrity:
    """Verifies documents read from a projection: a document whose stored fields no longer
    match its signature (or whose signature is malformed or by an unknown key) is refused,
    counted in ``hindsight_integrity_failures`` and logged as a warning naming the
    tenant, the document id and the reason, never its content. An unsigned document
    (written before signing existed) is counted in ``hindsight_unsigned_items`` and
    accepted unless ``require_signatures``."""

    def __init__(self, keyring: Keyring, require_signatures: bool = False) -> None:
        self._keyring = keyring
        self._require = require_signatures

    def accepts(self, doc: Document, where: str) -> bool:
        """Whether ``doc`` may be returned; ``where`` (recall, browse, session, memory)
        labels the metrics and the log line."""
        verdict = self._keyring.verify(signable_of_document(doc), doc.signature)
        if verdict is Verdict.VALID:
            return True
        if verdict is Verdict.UNSIGNED:
            UNSIGNED_ITEMS.labels(where).inc()
            if not self._require:
                return True
        INTEGRITY_FAILURES.labels(where, verdict.value).inc()
        log.warning(
            "integrity: dropped a %s document that failed verification: tenant=%s id=%s reason=%s key=%s",
            where, doc.tenant, doc.id, verdict.value, (doc.signature or "").rpartition(":")[0] or "-",
        )
        return False

    def keep(self, docs: Sequence[Document], where: str) -> list[Document]:
        """The documents of ``docs`` that :meth:`accepts`, in order."""
        return [d for d in docs if self.accepts(d, where)]
