"""The Python SDK (hindsight_client) against the real embedded gateway on a localhost port.

The gateway runs for real (uvicorn in a background thread, real storage, the real model);
every SDK method is driven, async and sync, including how errors map to the exception tree.
"""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import uvicorn

from hindsight_client import (
    AsyncHindsight,
    Conflict,
    Forbidden,
    Hindsight,
    HindsightError,
    Interaction,
    InvalidRequest,
    NotFound,
    TransportError,
    Unauthorized,
)
from hindsight_common.ports.embedder import Embedder
from hindsight_common.security.credentials import new_key
from hindsight_common.security.credentials_access import now
from hindsight_common.settings import Settings
from hindsight_services.embedded import create_app
from tests.support.auth import store_keys

ADMIN_TOKEN, ADMIN_KEY = new_key("default", ["read", "write", "admin"], now())  # the key with the admin scope

class Gateway:
    """``create_app`` served by uvicorn on a socket bound to a free localhost port."""

    def __init__(self, data_dir: Path, embedder: Embedder, settings: Settings | None = None) -> None:
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}"
        settings = settings or Settings(data_dir=data_dir)
        store_keys(settings.credentials_path, ADMIN_KEY)
        config = uvicorn.Config(create_app(settings, embedder), log_level="warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True)

    def start(self, timeout_s: float = 120) -> None:
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        # uvicorn sets ``started`` once the lifespan (storage, consumers) finished starting.
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the gateway thread exited during start-up")
            if time.monotonic() > deadline:
                raise TimeoutError("the gateway did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=60)
        self._sock.close()


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[Gateway]:
    gw = Gateway(tmp_path_factory.mktemp("sdk") / "data", embedder)
    gw.start()
    yield gw
    gw.stop()


def unique(prefix: str) -> str:
    """Users and sessions per test, so tests sharing the gateway never see each other's data."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


async def test_async_client_drives_every_call(gateway: Gateway) -> None:
    user, session = unique("ann"), unique("s")
    async with AsyncHindsight(gateway.url, timeout=30) as hs:
        first = await hs.retain(
            "I love hiking in the Alps.", user=user, session=session, speaker="Ann",
            occurred_at=datetime(2024, 5, 1, 10, 0, tzinfo=UTC), external_id="t1")
        assert len(first.events) == 1 and first.events[0].offset > 0 and not first.replayed
        batch = await hs.retain_many([
            Interaction("I work as a nurse in Leeds.", user=user, session=session, speaker="Ann",
                        occurred_at="2024-05-01T10:01:00Z", external_id="t2"),
            {"user": user, "session": session, "speaker": "Bot", "role": "assistant",
             "content": "Nice! Leeds has lovely parks.", "occurred_at": "2024-05-01T10:02:00Z"},
        ])
        assert [e.offset for e in batch.events] == [first.events[0].offset + 1, first.events[0].offset + 2]

        status = await hs.wait_until_caught_up(timeout=60)
        assert status.caught_up and status.log and set(status.consumers) >= {"embed", "project"}

        recalled = await hs.recall("Where does Ann go hiking?", user=user, k=3)
        top = recalled.items[0]
        assert top.content == "I love hiking in the Alps." and top.type == "episodic"
        assert top.provenance.external_ids == ("t1",) and top.id == first.events[0].event_id
        assert top.occurred_at == datetime(2024, 5, 1, 10, 0, tzinfo=UTC) and top.score > 0
        assert top.speaker == "Ann" and top.role == "user" and top.session == session and top.ranks
        window = await hs.recall("job", user=user, types=["episodic"],
                                 since=datetime(2024, 5, 1, 10, 0, 30, tzinfo=UTC), until="2024-05-01T10:01:30Z")
        assert [i.content for i in window.items] == ["I work as a nurse in Leeds."]

        context = await hs.session_context(session, user=user, budget=1000)
        assert [t.content for t in context.turns][-1] == "Nice! Leeds has lovely parks."
        assert context.session == session and context.budget == 1000 and not context.omitted_turns
        assert 0 < context.tokens <= 1000 and context.turns[0].occurred_at < context.turns[-1].occurred_at

        closed = await hs.close_session(session, user=user)
        assert closed.offset > batch.events[-1].offset
        await hs.wait_until_caught_up()
        page = await hs.list_memories(user=user)
        assert {m.kind for m in page.items} >= {"preference", "fact"} and page.next_offset is None
        assert all(m.type == "semantic" and m.user == user for m in page.items)
        [pref] = (await hs.list_memories(user=user, kinds="preference")).items
        assert pref.key and pref.confidence is not None
        first_page = await hs.list_memories(user=user, limit=1)
        assert len(first_page.items) == 1 and first_page.next_offset == 1
        episodes = await hs.list_memories(user=user, session=session, types=["episodic"], limit=10)
        assert len(episodes.items) == 3

        detail = await hs.get_memory(pref.id)
        assert detail.memory.id == pref.id and detail.memory.content == pref.content
        assert [s.external_id for s in detail.sources] == ["t1"]
        assert detail.sources[0].content == "I love hiking in the Alps."

        forgotten = await hs.forget(pref.id, user=user, reason="asked to")
        assert forgotten.offset > 0
        await hs.wait_until_caught_up()
        after = await hs.recall("What does Ann love doing outdoors?", user=user, types="semantic")
        assert pref.id not in [i.id for i in after.items]
        with pytest.raises(NotFound) as missing:
            await hs.get_memory(pref.id)
        assert missing.value.status == 404 and missing.value.code == "not_found"

        asked = await hs.reflect(user=user, session=session)
        assert asked.event_id and asked.event_id != forgotten.event_id
        assert (await hs.reflect(user=user, task="onboarding")).offset > asked.offset


def test_sync_client_drives_every_call(gateway: Gateway) -> None:
    user, session = unique("bob"), unique("s")
    with Hindsight(gateway.url, timeout=30) as hs:
        written = hs.retain("I hate mushrooms on pizza.", user=user, session=session, speaker="Bob")
        hs.retain_many([Interaction("Noted, no mushrooms.", user=user, session=session, speaker="Bot",
                                    role="assistant")])
        hs.wait_until_caught_up()
        [item] = hs.recall("mushrooms", user=user, k=1).items
        assert item.id == written.events[0].event_id and item.content == "I hate mushrooms on pizza."
        assert [t.speaker for t in hs.session_context(session, user=user).turns] == ["Bob", "Bot"]

        hs.reflect(user=user, session=session)
        hs.wait_until_caught_up()
        [memory] = hs.list_memories(user=user, kinds=["preference"]).items
        assert "mushroom" in memory.content.lower() and memory.type == "semantic"
        assert hs.get_memory(memory.id).sources[0].id == written.events[0].event_id
        hs.close_session(session, user=user)

        hs.forget(memory.id, user=user)
        hs.wait_until_caught_up()
        assert memory.id not in [m.id for m in hs.list_memories(user=user).items]
        assert hs.status().caught_up


async def test_pin_unpin_restore_and_a_dry_consolidation(gateway: Gateway) -> None:
    user, session = unique("pia"), unique("s")
    async with AsyncHindsight(gateway.url, timeout=30) as hs:
        await hs.retain("I love hiking in the Alps.", user=user, session=session, speaker="Pia",
                        occurred_at=datetime(2024, 5, 1, 10, 0, tzinfo=UTC))
        await hs.close_session(session, user=user)
        for _ in range(200):
            await hs.wait_until_caught_up()
            if (await hs.list_memories(user=user)).items:
                break
        [memory] = (await hs.list_memories(user=user)).items
        assert not memory.pinned
        pinned = await hs.pin(memory.id, user=user, reason="keep")
        await hs.wait_until_caught_up()
        got = (await hs.get_memory(memory.id)).memory
        assert pinned.offset > 0 and got.pinned and got.importance == 1.0
        await hs.unpin(memory.id, user=user)
        await hs.wait_until_caught_up()
        assert not (await hs.get_memory(memory.id)).memory.pinned
        await hs.forget(memory.id, user=user)
        await hs.wait_until_caught_up()
        assert (await hs.list_memories(user=user)).items == ()
        await hs.restore(memory.id, user=user)
        await hs.wait_until_caught_up()
        assert [m.id for m in (await hs.list_memories(user=user)).items] == [memory.id]
        await hs.expire(memory.id, user=user, expires_at=datetime(2999, 1, 1, tzinfo=UTC))
        await hs.wait_until_caught_up()
        assert (await hs.get_memory(memory.id)).memory.expires_at == datetime(2999, 1, 1, tzinfo=UTC)
        dry = await hs.consolidate(user=user, dry_run=True)
        assert dry.dry_run and dry.live == 1 and dry.events == ()  # a share of one memory is none
        with pytest.raises(InvalidRequest):
            await hs.pin("not-a-uuid", user=user)
    with Hindsight(gateway.url, timeout=30) as sync:
        assert sync.pin(memory.id, user=user).offset > pinned.offset
        assert sync.consolidate(user=user, dry_run=True).live == 1


async def test_tenant_applies_to_every_call(gateway: Gateway) -> None:
    user, session = unique("cy"), unique("s")
    async with AsyncHindsight(gateway.url, tenant="acme") as acme, AsyncHindsight(gateway.url) as default:
        assert acme.tenant == "acme"
        await acme.retain("The acme launch is on Friday.", user=user, session=session, speaker="Cy")
        await acme.wait_until_caught_up()
        assert [i.content for i in (await acme.recall("launch", user=user)).items] == [
            "The acme launch is on Friday."]
        assert (await default.recall("launch", user=user)).items == ()
        assert len((await acme.list_memories(user=user, types="episodic")).items) == 1
        assert (await default.list_memories(user=user, types="episodic")).items == ()


async def test_errors_map_to_the_exception_tree(gateway: Gateway) -> None:
    user = unique("dee")
    async with AsyncHindsight(gateway.url) as hs:
        with pytest.raises(InvalidRequest) as bad:
            await hs.retain_many([{"user": user, "session": "s", "speaker": "Dee", "content": ""}])
        assert bad.value.status == 422 and bad.value.code == "invalid_request"
        assert [p.field for p in bad.value.problems] == ["interactions.0.content"]
        assert "interactions.0.content" in str(bad.value)

        with pytest.raises(InvalidRequest) as blank:
            await hs.recall("   ")
        assert [(p.field, p.message) for p in blank.value.problems] == [("query", "must not be blank")]
        with pytest.raises(InvalidRequest) as bad_time:
            await hs.recall("x", since="yesterday")
        assert bad_time.value.problems[0].field == "since"
        with pytest.raises(InvalidRequest):
            await hs.forget("not-a-uuid", user=user)
        with pytest.raises(NotFound):
            await hs.get_memory(str(uuid.uuid4()))

        turn = Interaction("Remember the milk.", user=user, session="s", speaker="Dee")
        key = unique("key")
        once = await hs.retain_many([turn], idempotency_key=key)
        again = await hs.retain_many([turn], idempotency_key=key)
        assert again.replayed and again.events == once.events and not once.replayed
        with pytest.raises(Conflict) as conflict:
            await hs.retain("Something else.", user=user, session="s", speaker="Dee", idempotency_key=key)
        assert conflict.value.status == 409 and conflict.value.code == "idempotency_conflict"
        assert isinstance(conflict.value, HindsightError)

    with Hindsight(gateway.url) as sync:
        with pytest.raises(InvalidRequest) as sync_bad:
            sync.recall("x", k=0)
        assert sync_bad.value.problems[0].field == "k"
        with pytest.raises(NotFound):
            sync.get_memory(str(uuid.uuid4()))


async def test_transport_failures_and_timeouts_are_transport_errors() -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    async with AsyncHindsight(f"http://127.0.0.1:{port}", timeout=5) as nobody:
        with pytest.raises(TransportError, match="cannot reach"):
            await nobody.status()
    # A server that accepts connections and never answers: the timeout ends the call.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with Hindsight(url, timeout=0.3) as hs, pytest.raises(TransportError, match="in time"):
            hs.recall("anything")
        async with AsyncHindsight(url, timeout=0.3) as ahs:
            with pytest.raises(TransportError, match="in time"):
                await ahs.wait_until_caught_up(timeout=5)


def test_wait_until_caught_up_gives_up_after_its_timeout(gateway: Gateway) -> None:
    with Hindsight(gateway.url) as hs:
        hs.retain("One more turn.", user=unique("eve"), session="s", speaker="Eve")
        # A zero budget still reads the status once, but leaves no time to confirm it.
        with pytest.raises(TimeoutError, match="did not catch up"):
            hs.wait_until_caught_up(timeout=0)


async def test_an_admin_key_unlocks_include(gateway: Gateway) -> None:
    user, session = unique("fay"), unique("s")
    async with AsyncHindsight(gateway.url, admin_token=ADMIN_TOKEN) as admin, AsyncHindsight(gateway.url) as hs:
        await hs.retain("I love sailing on the lake.", user=user, session=session, speaker="Fay")
        await hs.close_session(session, user=user)
        await hs.wait_until_caught_up()
        [memory] = (await hs.list_memories(user=user, kinds="preference")).items
        await hs.forget(memory.id, user=user)
        await hs.wait_until_caught_up()
        question = "What does Fay love doing?"
        assert memory.id not in [i.id for i in (await admin.recall(question, user=user)).items]

        found = await admin.recall(question, user=user, types="semantic", include="forgotten")
        [gone] = [i for i in found.items if i.id == memory.id]
        assert gone.type == "forgotten" and gone.content == memory.content
        page = await admin.list_memories(user=user, include=["forgotten"])
        assert [m.type for m in page.items if m.id == memory.id] == ["forgotten"]
        opened = await admin.get_memory(memory.id, include="forgotten")
        assert opened.memory.type == "forgotten" and opened.memory.content == memory.content
        with pytest.raises(NotFound):
            await admin.get_memory(memory.id)  # not asked for: gone, as for everyone
        with pytest.raises(Forbidden) as refused:
            await hs.recall(question, user=user, include=["forgotten"])
        assert refused.value.status == 403 and refused.value.code == "forbidden"
        assert isinstance(refused.value, Unauthorized)  # what a 403 raised before Forbidden existed
        assert [p.field for p in refused.value.problems] == ["include"]

    with Hindsight(gateway.url, admin_token=ADMIN_TOKEN) as sync_admin, Hindsight(gateway.url) as sync:
        assert [i.type for i in sync_admin.recall(question, user=user, include="forgotten").items
                if i.id == memory.id] == ["forgotten"]
        with pytest.raises(Forbidden):
            sync.list_memories(user=user, include="forgotten")


def test_the_admin_token_travels_only_with_admin_calls() -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        body = {"items": []} if request.url.path == "/v1/recall" else {"items": [], "next_offset": None}
        return httpx.Response(200, json=body)

    with Hindsight("http://hs", api_key="key", admin_token="admin", transport=httpx.MockTransport(answer)) as hs:
        hs.recall("x")
        hs.recall("x", include="forgotten")
        hs.list_memories()
        hs.list_memories(include=["forgotten", "superseded"])
    assert [r.headers["authorization"] for r in seen] == [
        "Bearer key", "Bearer admin", "Bearer key", "Bearer admin"]
    assert b'"include":["forgotten"]' in seen[1].content and "include" not in seen[0].content.decode()
    assert seen[3].url.params.get_list("include") == ["forgotten", "superseded"]
