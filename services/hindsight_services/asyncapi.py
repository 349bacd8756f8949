"""The AsyncAPI document of our streams, published as ``schemas/asyncapi/v1.json``.

Beside the OpenAPI document (the HTTP API) and the gRPC ``.proto``, this one describes the
log: each stream (a Kafka topic in the cluster, a table of the SQLite log when embedded),
the events that travel on it with their JSON Schemas (the same models ``make schemas``
exports to ``schemas/events/``), which service appends them and which consumer groups read
them. ``python -m hindsight_services.asyncapi schemas`` writes it; ``--check`` exits 1
when the published file differs from what the code says (a test checks too).

Which event goes on which stream is stated here, in :data:`STREAM_EVENTS`; a test checks
that every registered event type is on exactly one stream, so a new event cannot be
forgotten. The consumer groups and their streams come from each service's wiring.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic.json_schema import models_json_schema

from hindsight_common.events import registry
from hindsight_common.events.base import Event
from hindsight_common.streams import AUDIT, CONTROL, EMBEDDINGS, INTERACTIONS, MEMORIES
from hindsight_services.consolidate import wiring as consolidate_wiring
from hindsight_services.embed import wiring as embed_wiring
from hindsight_services.openapi import publish
from hindsight_services.project import wiring as project_wiring
from hindsight_services.reflect import wiring as reflect_wiring

RELATIVE = Path("asyncapi") / "v1.json"
REF = "#/components/schemas/{model}"

#: stream -> (what it holds, who appends, the event types on it)
STREAM_EVENTS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    INTERACTIONS: ("What happened: every turn and every closed session (and a turn's quarantine or "
                   "release); the source of truth. Each travels as a SealedEvent (its user's data key).",
                   "ingest", ("InteractionRecorded", "SessionClosed", "MemoryQuarantined", "MemoryReleased",
                              "SealedEvent")),
    MEMORIES: ("What Hindsight learned and decided about it: memories, summaries, forgets, "
               "recall's access counts, consolidation's merges (and a cluster's merged statement), supersessions, conflicts, "
               "forgets and purges, pins and restores.",
               "reflect, consolidate, ingest (forget, pin, unpin, restore, expire), query (access counts)",
               ("MemoryExtracted", "MemoryReinforced", "SessionSummarized", "MemoryForgotten",
                "MemoryAccessed", "MemoriesMerged", "MemorySuperseded", "MemoryConflicted", "MemoryQuarantined",
                "MemoryReleased", "MemoryPinned", "MemoryUnpinned", "MemoryRestored",
                "MemoryExpirySet", "MemoryPurged", "SealedEvent")),
    CONTROL: ("Requests to the workers, and erasures (every projection purges the user on SubjectErased).",
              "ingest; the gateway (DELETE /v1/users/{user})", ("ReflectionRequested", "SubjectErased")),
    AUDIT: ("Who did what, when, with which credential, and the outcome; never content.",
            "the gateway and ingest (refusals, admin key actions, reads and writes), hindsight keys",
            ("AuditRecorded",)),
}
#: Types on the stream of what they are about (a turn's on interactions, a memory's on
#: memories), so each follows its target in log order: on two streams. SealedEvent is the
#: wire form of every event of both (security/sealed_log.py).
FOLLOW_TARGET = frozenset({"MemoryQuarantined", "MemoryReleased", "SealedEvent"})
CONSUMERS = [consolidate_wiring, embed_wiring, project_wiring, reflect_wiring]


def _slug(stream: str) -> str:
    return stream.removeprefix("hindsight.").replace(".", "-")


def _schemas(models: list[type[Event]]) -> dict[str, Any]:
    _, defs = models_json_schema([(m, "validation") for m in models], ref_template=REF)
    schemas: dict[str, Any] = defs.get("$defs", {})
    return schemas


def build() -> dict[str, Any]:
    channels: dict[str, Any] = {}
    operations: dict[str, Any] = {}
    messages: dict[str, Any] = {}
    models = [registry.EVENT_TYPES[name] for _, _, names in STREAM_EVENTS.values() for name in names]
    for stream, (what, appended_by, names) in STREAM_EVENTS.items():
        slug = _slug(stream)
        channel_messages = {}
        for name in names:
            model = registry.EVENT_TYPES[name]
            version = model.model_fields["schema_version"].default
            messages[name] = {
                "name": name,
                "title": f"{name} v{version}",
                "summary": (model.__doc__ or "").strip().splitlines()[0],
                "contentType": "application/json",
                "payload": {"$ref": REF.format(model=model.__name__)},
            }
            channel_messages[name] = {"$ref": f"#/components/messages/{name}"}
        readers = sorted(w.GROUP for w in CONSUMERS if stream in w.STREAMS)
        channels[slug] = {
            "address": stream,
            "description": f"{what} Key: tenant/user, so one user's events stay in order on one "
                           f"partition. Appended by {appended_by}."
                           + (f" Read by the consumer groups {', '.join(readers)}." if readers else ""),
            "messages": channel_messages,
        }
        operations[f"append-{slug}"] = {
            "action": "send", "channel": {"$ref": f"#/channels/{slug}"},
            "summary": f"Appended by {appended_by}; acknowledged once durable.",
            "messages": [{"$ref": f"#/channels/{slug}/messages/{n}"} for n in names],
        }
        for group in readers:
            operations[f"{group}-reads-{slug}"] = {
                "action": "receive", "channel": {"$ref": f"#/channels/{slug}"},
                "summary": f"The {group} consumer group: commits after its write; a record it "
                           f"cannot apply goes to hindsight.deadletter.{group}.v1.",
                "messages": [{"$ref": f"#/channels/{slug}/messages/{n}"} for n in names],
            }
    channels["embeddings-v1"] = {
        "address": EMBEDDINGS,
        "description": "The embedding cache (compacted): key '<model>\\n<sha256 of the text>', value the "
                       "vector as little-endian float32. Written and read by embed.",
        "messages": {"Vector": {"$ref": "#/components/messages/Vector"}},
    }
    messages["Vector"] = {"name": "Vector", "contentType": "application/octet-stream",
                          "payload": {"type": "string", "format": "binary"}}
    channels["deadletter"] = {
        "address": "hindsight.deadletter.{group}.v1",
        "description": "Records a consumer group could not apply, with the reason; the rest flows on.",
        "parameters": {"group": {"description": "The consumer group (the service name)."}},
        "messages": {"DeadLetter": {"$ref": "#/components/messages/DeadLetter"}},
    }
    messages["DeadLetter"] = {
        "name": "DeadLetter", "contentType": "application/json",
        "payload": {
            "type": "object",
            "required": ["consumer", "stream", "partition", "offset", "key", "error", "payload",
                         "dead_lettered_at"],
            "properties": {
                "consumer": {"type": "string"}, "stream": {"type": "string"},
                "partition": {"type": "integer"}, "offset": {"type": "integer"},
                "key": {"type": ["string", "null"]}, "error": {"type": "string"},
                "payload": {"type": "string", "description": "The record as it was, UTF-8 decoded."},
                "dead_lettered_at": {"type": "string", "format": "date-time"},
            },
        },
    }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Hindsight streams",
            "version": "1",
            "description": "The event log of Hindsight: Kafka topics in the cluster, the SQLite log "
                           "embedded. Events are JSON; a published schema_version is never edited.",
        },
        "defaultContentType": "application/json",
        "channels": channels,
        "operations": operations,
        "components": {"messages": messages, "schemas": _schemas(models)},
    }


def document() -> str:
    return json.dumps(build(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    return publish(argv, RELATIVE, document)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
