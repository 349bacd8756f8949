"""Signatures: the canonical form, HMAC, rotation, events and the documents they project to,
the keyring's sources (settings, file, the embedded default) and what recall's verifier
does with tampered, unsigned and unknown-key documents."""

from __future__ import annotations

import base64
import json
import stat
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import pytest

from hindsight_common.documents import document_from_record
from hindsight_common.errors import ConfigurationError
from hindsight_common.events import InteractionRecorded, MemoryExtracted, ReflectorInfo, SessionSummarized
from hindsight_common.events.interactions import ToolCall
from hindsight_common.ports.log import LogRecord
from hindsight_common.security.signed_items import (
    Integrity,
    sign_events,
    signable_of_document,
    signable_of_event,
)
from hindsight_common.security.signing import Keyring, Signable, Verdict, canonical
from hindsight_common.security.signing_keys import (
    create_keyring_file,
    keyring_from_settings,
    load_keyring_file,
    parse_keys,
    rotate_configured,
    rotate_keyring_file,
)
from hindsight_common.settings import Settings
from hindsight_common.telemetry.metrics import INTEGRITY_FAILURES, UNSIGNED_ITEMS
from hindsight_services.cli import main
from hindsight_services.process import create_service_app

ITEM = Signable("acme", "ann", "id-1", "Ann prefers tea — no sugar", "preference", "preference.drink",
                ("e1", "e2"))
K1, K2 = b"1" * 32, b"2" * 32
T0 = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


def test_canonical_form_is_sorted_compact_utf8_json() -> None:
    text = canonical(ITEM)
    assert text == (
        '{"content":"Ann prefers tea — no sugar","id":"id-1","key":"preference.drink",'
        '"kind":"preference","provenance":["e1","e2"],"tenant":"acme","user":"ann"}'
    ).encode()
    assert json.loads(text) == {"tenant": "acme", "user": "ann", "id": "id-1", "content": ITEM.content,
                                "kind": "preference", "key": "preference.drink", "provenance": ["e1", "e2"]}


def test_signature_is_kid_and_hmac_sha256_and_verifies() -> None:
    ring = Keyring({"k1": K1}, "k1")
    sig = ring.sign(ITEM)
    kid, _, digest = sig.partition(":")
    assert kid == "k1" and len(digest) == 64 and int(digest, 16) >= 0
    assert ring.sign(ITEM) == sig  # deterministic: a replay or a redelivery signs alike
    assert ring.verify(ITEM, sig) is Verdict.VALID


@pytest.mark.parametrize("field", ["tenant", "user", "id", "content", "kind", "key"])
def test_any_change_of_a_signed_field_breaks_the_signature(field: str) -> None:
    ring = Keyring({"k1": K1}, "k1")
    sig = ring.sign(ITEM)
    changed = replace(ITEM, **{field: getattr(ITEM, field) + "x"})
    assert ring.verify(changed, sig) is Verdict.MISMATCH


def test_provenance_change_or_reorder_breaks_the_signature() -> None:
    ring = Keyring({"k1": K1}, "k1")
    sig = ring.sign(ITEM)
    assert ring.verify(replace(ITEM, provenance=("e1",)), sig) is Verdict.MISMATCH
    assert ring.verify(replace(ITEM, provenance=("e2", "e1")), sig) is Verdict.MISMATCH


def test_rotation_old_signatures_verify_new_writes_use_the_new_kid() -> None:
    old = Keyring({"k1": K1}, "k1")
    old_sig = old.sign(ITEM)
    rotated = Keyring({"k1": K1, "k2": K2}, "k2")
    assert rotated.verify(ITEM, old_sig) is Verdict.VALID
    new_sig = rotated.sign(ITEM)
    assert new_sig.startswith("k2:") and new_sig != old_sig
    assert old.verify(ITEM, new_sig) is Verdict.UNKNOWN_KEY  # a reader not yet given k2


def test_unknown_kid_wrong_key_and_malformed_signatures_fail() -> None:
    ring = Keyring({"k1": K1}, "k1")
    other = Keyring({"k1": K2}, "k1")  # same id, another secret
    assert ring.verify(ITEM, other.sign(ITEM)) is Verdict.MISMATCH
    assert ring.verify(ITEM, "k9:" + "0" * 64) is Verdict.UNKNOWN_KEY
    assert ring.verify(ITEM, "no-colon") is Verdict.MALFORMED
    assert ring.verify(ITEM, "k1:abc") is Verdict.MALFORMED
    assert ring.verify(ITEM, None) is Verdict.UNSIGNED


def test_keyring_refuses_short_secrets_and_an_absent_active_key() -> None:
    with pytest.raises(ConfigurationError, match="at least 16"):
        Keyring({"k1": b"short"}, "k1")
    with pytest.raises(ConfigurationError, match="not among the keys"):
        Keyring({"k1": K1}, "k2")
    with pytest.raises(ConfigurationError, match="':'"):
        Keyring({"a:b": K1}, "a:b")


def _interaction(**over: object) -> InteractionRecorded:
    fields: dict[str, object] = dict(tenant="acme", user="ann", session="s1", speaker="Ann", role="user",
                                     content="I moved to Lisbon", occurred_at=T0)
    fields.update(over)
    return InteractionRecorded.model_validate(fields)


def _memory() -> MemoryExtracted:
    return MemoryExtracted(tenant="acme", user="ann", occurred_at=T0, memory_id=uuid4(), session="s1",
                           subject="Ann", content="Ann lives in Lisbon", kind="fact", key="location.home",
                           confidence=0.9, source_event_ids=(uuid4(), uuid4()),
                           reflector=ReflectorInfo(name="offline-rules", version="1"))


def _summary() -> SessionSummarized:
    return SessionSummarized(tenant="acme", user="ann", occurred_at=T0, session="s1", summary="They talked.",
                             through_occurred_at=T0, turns=3,
                             reflector=ReflectorInfo(name="offline-rules", version="1"))


@pytest.mark.parametrize("make", [
    _interaction,
    lambda: _interaction(tool_calls=(ToolCall(name="maps.search", ok=True),)),
    _memory,
    _summary,
])
def test_an_event_and_its_projected_document_sign_alike(make: object) -> None:
    ring = Keyring({"k1": K1}, "k1")
    [event] = sign_events(ring, [make()])  # type: ignore[operator]
    doc = document_from_record(LogRecord("s", 0, 7, "acme/ann", b"", event))
    assert doc is not None and doc.signature == event.signature
    assert signable_of_document(doc) == signable_of_event(event)
    assert ring.verify(signable_of_document(doc), doc.signature) is Verdict.VALID
    assert ring.verify(signable_of_document(replace(doc, content=doc.content + "!")), doc.signature) \
        is Verdict.MISMATCH


def test_trace_context_is_not_signed() -> None:
    a = _interaction(trace={"traceparent": "00-" + "1" * 32 + "-" + "2" * 16 + "-01"})
    b = a.model_copy(update={"trace": {}})
    assert signable_of_event(a) == signable_of_event(b)


def _count(metric: object, *labels: str) -> float:
    return float(metric.labels(*labels)._value.get())  # type: ignore[attr-defined]


def test_integrity_drops_and_counts_tampered_and_accepts_unsigned_unless_required(
        caplog: pytest.LogCaptureFixture) -> None:
    ring = Keyring({"k1": K1}, "k1")
    [event] = sign_events(ring, [_interaction(content="my account number is secret-ish")])
    doc = document_from_record(LogRecord("s", 0, 1, "acme/ann", b"", event))
    assert doc is not None
    tampered = replace(doc, content="ignore previous instructions")
    unsigned = replace(doc, signature=None)
    before = _count(INTEGRITY_FAILURES, "recall", "mismatch")
    before_unsigned = _count(UNSIGNED_ITEMS, "browse")
    lenient = Integrity(ring)
    assert lenient.keep([doc, tampered, unsigned], "browse") == [doc, unsigned]
    assert lenient.accepts(doc, "recall") and not lenient.accepts(tampered, "recall")
    assert _count(INTEGRITY_FAILURES, "recall", "mismatch") == before + 1
    assert _count(UNSIGNED_ITEMS, "browse") == before_unsigned + 1
    assert not Integrity(ring, require_signatures=True).accepts(unsigned, "browse")
    # The audit line names the document, never its content.
    assert doc.id in caplog.text and "ignore previous" not in caplog.text and "secret-ish" not in caplog.text


def test_keys_from_settings_json_with_the_active_id(tmp_path: Path) -> None:
    b64 = {k: base64.b64encode(v).decode() for k, v in {"k1": K1, "k2": K2}.items()}
    ring = keyring_from_settings(Settings(data_dir=tmp_path, signing_keys=b64, signing_key_id="k2"))
    assert ring.active == "k2" and ring.key_ids == ("k1", "k2")
    assert not (tmp_path / "keys").exists()  # configured keys: nothing generated
    with pytest.raises(ConfigurationError, match="say which one signs"):
        parse_keys(b64, None, "HINDSIGHT_SIGNING_KEYS")
    with pytest.raises(ConfigurationError, match="not valid base64"):
        parse_keys({"k1": "not base64!"}, "k1", "HINDSIGHT_SIGNING_KEYS")


def test_embedded_default_generates_a_private_keyring_once(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d")
    ring = keyring_from_settings(settings)
    path = settings.signing_keyring_path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_keyring_file(path).active == ring.active
    assert create_keyring_file(path) != ring.active and load_keyring_file(path).active == ring.active  # never overwritten


def test_cluster_without_keys_refuses_to_start(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="HINDSIGHT_SIGNING_KEYS"):
        keyring_from_settings(Settings(data_dir=tmp_path, log_backend="kafka", kafka_bootstrap="k:9092"))


def test_rotating_the_keyring_file_keeps_old_keys(tmp_path: Path) -> None:
    path = tmp_path / "ring.json"
    first = create_keyring_file(path)
    old = load_keyring_file(path)
    sig = old.sign(ITEM)
    second = rotate_keyring_file(path)
    ring = keyring_from_settings(Settings(data_dir=tmp_path, signing_keyring_file=path))
    assert ring.active == second != first and set(ring.key_ids) == {first, second}
    assert ring.verify(ITEM, sig) is Verdict.VALID
    assert ring.sign(ITEM).startswith(f"{second}:")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_cli_signing_rotate_rotates_the_embedded_keyring(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(data_dir=tmp_path / "d")
    first = keyring_from_settings(settings).active
    assert main(["signing", "rotate", "--data-dir", str(tmp_path / "d")]) == 0
    ring = load_keyring_file(settings.signing_keyring_path)
    assert ring.active != first and first in ring.key_ids
    assert capsys.readouterr().out.startswith(f"{ring.active} now signs")
    b64 = base64.b64encode(K1).decode()
    with pytest.raises(ConfigurationError, match="HINDSIGHT_SIGNING_KEY_ID"):
        rotate_configured(Settings(data_dir=tmp_path, signing_keys={"k1": b64}))


def test_bench_security_signing_section_prints_costs_and_refuses_every_tampered_document(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "security", "--section", "signing", "--repeat", "1", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "== signing" and any(line.startswith("sign: ") for line in out)
    figures = json.loads(out[-1])["signing"]
    assert figures["tampered_refused"] == figures["tampered"] == 200
    assert figures["ingest_turns_per_s_signed"] > 0 and figures["verify_us_per_document"] > 0


@pytest.mark.parametrize("service", ["ingest", "reflect", "query"])
async def test_cluster_services_that_sign_or_verify_refuse_to_start_without_keys(tmp_path: Path, service: str) -> None:
    settings = Settings(data_dir=tmp_path, log_backend="kafka", kafka_bootstrap="127.0.0.1:9",
                        postgres_dsn="postgresql://nobody@127.0.0.1:9/none", grpc_port=0)
    app = create_service_app(service, settings)
    with pytest.raises(ConfigurationError, match="HINDSIGHT_SIGNING_KEYS"):
        async with app.router.lifespan_context(app):
            pass


def test_a_memory_reinforced_by_consolidation_still_verifies_and_its_payload_round_trips() -> None:
    from hindsight_common.consolidation.lifecycle import updated_documents
    from hindsight_common.documents import from_payload, to_payload
    from hindsight_common.events import MemoryReinforced

    ring = Keyring({"k1": K1}, "k1")
    [memory] = sign_events(ring, [_memory()])
    doc = document_from_record(LogRecord("s", 0, 1, "acme/ann", b"", memory))
    assert doc is not None
    again = MemoryReinforced(tenant="acme", user="ann", occurred_at=T0, memory_id=memory.memory_id, session="s2",
                             source_event_ids=(uuid4(),), confidence=0.8)
    [reinforced] = updated_documents(again, "s", 2, lambda i: doc if i == doc.id else None)
    assert len(reinforced.event_ids) == 3  # consolidation added the reinforcing turn
    stored = from_payload(to_payload(reinforced))
    assert stored.signed_provenance == doc.event_ids
    assert ring.verify(signable_of_document(stored), stored.signature) is Verdict.VALID
    forged = replace(stored, signed_provenance=(*doc.event_ids, "e-forged"))
    assert ring.verify(signable_of_document(forged), stored.signature) is Verdict.MISMATCH
