"""The MCP server, driven by the official MCP client over stdio and over streamable HTTP.

Everything is real: ``hindsight serve`` runs as a subprocess, the MCP server runs as
another (started by the MCP client for stdio, by the test for HTTP), and the tools reach
the gateway through the SDK. Waits are on the gateway's /v1/status, never on sleeps.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from hindsight_client import AsyncHindsight
from hindsight_services.mcp.server import McpSettings, build_server
from tests.e2e.conftest import Server, free_port

pytestmark = pytest.mark.e2e

MCP_SERVER = [sys.executable, "-m", "hindsight_services.mcp.server"]
TOOLS = {"retain", "recall", "reflect", "forget", "session_context", "list_memories", "memory_history",
         "pin_memory", "unpin_memory", "restore_memory", "expire_memory", "consolidate"}
DEFAULT_USER = "ann"


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("mcp")
    server = Server(tmp / "data", tmp / "serve.log")
    server.start()
    yield server
    server.stop(signal.SIGTERM)


@pytest.fixture(scope="module")
def http_mcp(gateway: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The MCP server over streamable HTTP, without a default user; yields its endpoint."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("mcp-http") / "mcp.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("HINDSIGHT_MCP_")}
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            [*MCP_SERVER, "--transport", "http", "--port", str(port), "--url", gateway.url],
            stdout=log, stderr=subprocess.STDOUT, env=env,
        )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 60
        while True:  # any HTTP answer means the endpoint is up
            if proc.poll() is not None:
                raise RuntimeError(f"MCP server exited: {log_path.read_text()[-3000:]}")
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"MCP server not ready: {log_path.read_text()[-3000:]}") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


@asynccontextmanager
async def connect(transport: str, gateway: Server, http_url: str, tmp_path: Path) -> AsyncIterator[Client]:
    if transport == "stdio":
        params = StdioServerParameters(
            command=MCP_SERVER[0],
            args=[*MCP_SERVER[1:], "--transport", "stdio", "--url", gateway.url],
            env={**os.environ, "HINDSIGHT_MCP_USER": DEFAULT_USER},
        )
        with open(tmp_path / "mcp-stdio.log", "w") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                yield client
    else:
        async with Client(http_url) as client:
            yield client


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text(result)
    assert result.structured_content is not None
    return result.structured_content


def text(result: CallToolResult) -> str:
    return " ".join(c.text for c in result.content if isinstance(c, TextContent))


async def caught_up(gateway: Server) -> None:
    async with AsyncHindsight(gateway.url) as hs:
        await hs.wait_until_caught_up(timeout=60)


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_memory_tools_end_to_end(transport: str, gateway: Server, http_mcp: str, tmp_path: Path) -> None:
    # stdio runs with HINDSIGHT_MCP_USER=ann; over HTTP every call names its user.
    user = DEFAULT_USER if transport == "stdio" else "bea"
    who = {} if transport == "stdio" else {"user": user}
    session = f"trip-{transport}"
    async with connect(transport, gateway, http_mcp, tmp_path) as client:
        listed = (await client.list_tools()).tools
        assert {t.name for t in listed} == TOOLS
        for tool in listed:
            assert tool.description and len(tool.description) > 80, tool.name
            props = tool.input_schema["properties"]
            assert all(p.get("description") for p in props.values()), tool.name
            assert tool.output_schema is not None, tool.name
        recall_tool = next(t for t in listed if t.name == "recall")
        assert recall_tool.input_schema["required"] == ["query"]
        assert recall_tool.annotations is not None and recall_tool.annotations.read_only_hint

        kept = data(await client.call_tool("retain", {
            "content": "I love hiking in the Alps.", "session": session, **who,
            "occurred_at": "2024-05-01T10:00:00Z", "external_id": "m1"}))
        assert kept["offset"] > 0 and kept["replayed"] is False
        data(await client.call_tool("retain", {
            "content": "I work as a nurse in Leeds.", "session": session, **who}))
        data(await client.call_tool("retain", {
            "content": "Noted!", "role": "assistant", "session": session, **who}))
        await caught_up(gateway)

        found = data(await client.call_tool("recall", {"query": "Where does she go hiking?", "k": 3, **who}))
        assert found["items"][0]["id"] == kept["event_id"]
        assert found["items"][0]["content"] == "I love hiking in the Alps."
        assert found["items"][0]["type"] == "episodic" and found["items"][0]["speaker"] == user

        context = data(await client.call_tool("session_context", {"session": session, **who}))
        assert [(t["role"], t["content"]) for t in context["turns"]][-1] == ("assistant", "Noted!")

        data(await client.call_tool("reflect", {"session": session, "close": True, **who}))
        await caught_up(gateway)
        memories = data(await client.call_tool("list_memories", {**who}))["items"]
        kinds = {m["kind"]: m for m in memories}
        assert {"preference", "fact"} <= set(kinds) and all(m["type"] == "semantic" for m in memories)
        liked = kinds["preference"]
        assert "hiking" in liked["content"].lower()
        history = data(await client.call_tool("memory_history", {"memory_id": liked["id"]}))
        assert history["live"] == liked["id"] and [v["id"] for v in history["versions"]] == [liked["id"]]

        data(await client.call_tool("forget", {"memory_id": liked["id"], "reason": "asked to", **who}))
        await caught_up(gateway)
        after = data(await client.call_tool("recall", {
            "query": "What does she love doing outdoors?", "types": ["semantic"], **who}))
        assert liked["id"] not in [i["id"] for i in after["items"]]
        remaining = data(await client.call_tool("list_memories", {"kinds": ["fact"], **who}))["items"]
        assert [m["kind"] for m in remaining] == ["fact"]

        data(await client.call_tool("restore_memory", {"memory_id": liked["id"], **who}))
        data(await client.call_tool("pin_memory", {"memory_id": liked["id"], "reason": "always", **who}))
        await caught_up(gateway)
        back = {m["id"]: m for m in data(await client.call_tool("list_memories", {**who}))["items"]}
        assert back[liked["id"]]["pinned"] is True and back[liked["id"]]["content"] == liked["content"]
        data(await client.call_tool("unpin_memory", {"memory_id": liked["id"], **who}))
        await caught_up(gateway)
        back = {m["id"]: m for m in data(await client.call_tool("list_memories", {**who}))["items"]}
        assert back[liked["id"]]["pinned"] is False and back[liked["id"]]["expires_at"] is None

        # An expiry in the past: recall leaves it out; a pass (dry first) would forget it but
        # for the guard (at most a tenth of the user's live memories: none of two).
        data(await client.call_tool("expire_memory", {
            "memory_id": liked["id"], "expires_at": "2024-06-01T00:00:00Z", **who}))
        await caught_up(gateway)
        back = {m["id"]: m for m in data(await client.call_tool("list_memories", {**who}))["items"]}
        assert back[liked["id"]]["expires_at"].startswith("2024-06-01")
        after = data(await client.call_tool("recall", {
            "query": "What does she love doing outdoors?", "types": ["semantic"], **who}))
        assert liked["id"] not in [i["id"] for i in after["items"]]
        dry = data(await client.call_tool("consolidate", {"dry_run": True, **who}))
        assert dry["dry_run"] is True and dry["events"] == [] and dry["live"] >= 2
        done = data(await client.call_tool("consolidate", {**who}))
        assert done["dry_run"] is False and done["forgotten"] == dry["forgotten"]
        assert len(done["events"]) == len(done["forgotten"])
        data(await client.call_tool("expire_memory", {"memory_id": liked["id"], **who}))  # cleared
        await caught_up(gateway)
        back = {m["id"]: m for m in data(await client.call_tool("list_memories", {**who}))["items"]}
        assert back[liked["id"]]["expires_at"] is None

        data(await client.call_tool("reflect", {**who}))  # every session with new turns


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_bad_calls_are_tool_errors_with_the_message(
    transport: str, gateway: Server, http_mcp: str, tmp_path: Path
) -> None:
    who = {} if transport == "stdio" else {"user": "bea"}
    async with connect(transport, gateway, http_mcp, tmp_path) as client:
        empty = await client.call_tool("recall", {"query": "", **who})
        assert empty.is_error and "query" in text(empty)
        blank = await client.call_tool("recall", {"query": "   ", **who})
        assert blank.is_error and "must not be blank" in text(blank) and "422" in text(blank)
        not_an_id = await client.call_tool("forget", {"memory_id": "not-a-uuid", **who})
        assert not_an_id.is_error and "memory_id: must be a UUID" in text(not_an_id)
        not_a_pin = await client.call_tool("pin_memory", {"memory_id": "not-a-uuid", **who})
        assert not_a_pin.is_error and "memory_id: must be a UUID" in text(not_a_pin)
        bad_time = await client.call_tool("recall", {"query": "x", "since": "yesterday", **who})
        assert bad_time.is_error and "since" in text(bad_time)
        no_session = await client.call_tool("reflect", {"close": True, **who})
        assert no_session.is_error and "needs the session" in text(no_session)
        # The server is still serving after the errors.
        assert data(await client.call_tool("list_memories", {**who, "limit": 1}))["items"] is not None
        if transport == "http":
            anonymous = await client.call_tool("retain", {"content": "hello", "session": "s"})
            assert anonymous.is_error and "HINDSIGHT_MCP_USER" in text(anonymous)


async def test_an_unreachable_gateway_is_a_tool_error_not_a_crash() -> None:
    port = free_port()  # nothing listens there
    server = build_server(McpSettings(url=f"http://127.0.0.1:{port}", user=DEFAULT_USER, timeout_s=5))
    async with Client(server) as client:
        result = await client.call_tool("recall", {"query": "anything"})
        assert result.is_error and "unreachable" in text(result) and str(port) in text(result)
        assert {t.name for t in (await client.list_tools()).tools} == TOOLS
