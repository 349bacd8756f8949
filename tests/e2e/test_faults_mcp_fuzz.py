"""The MCP tools get the bad inputs the gRPC fuzz sends (tests/e2e/test_faults_grpc_fuzz.py):
for every tool, arguments built from its published input schema with each value swapped
for a hostile one (a wrong JSON type, a huge or control-character string, a number at or
past its range, null, nested junk, an unknown argument). Every call ends as a result or a
tool error that says what was wrong, never a protocol failure or a traceback, and the
server keeps serving. The MCP server runs in-process over a real ``hindsight serve``.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st
from mcp import Client

from hindsight_services.mcp.server import McpSettings, build_server
from tests.e2e.conftest import Server
from tests.e2e.test_mcp import DEFAULT_USER, TOOLS, gateway, text

__all__ = ["gateway"]  # the module-scoped `hindsight serve` of test_mcp.py
EXAMPLES = 300 if os.environ.get("HINDSIGHT_CHAOS") == "1" else 40  # make chaos: longer

HOSTILE = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.sampled_from([2**63, -(2**63) - 1, 0, -1]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
    st.sampled_from(["", " ", "\x00", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00",
                     "not-a-uuid", "../x", "9" * 5000]),
    st.integers(5_000, 200_000).map(lambda n: "x" * n),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


def hostile_arguments(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    names = sorted(schema.get("properties", {}))
    return st.dictionaries(st.sampled_from([*names, "unexpected"]), HOSTILE, max_size=len(names) + 1)


async def tool_schemas(gw: Server) -> dict[str, dict[str, Any]]:
    async with Client(build_server(McpSettings(url=gw.url, user=DEFAULT_USER, timeout_s=30))) as client:
        return {t.name: t.input_schema for t in (await client.list_tools()).tools}


def test_every_tool_answers_hostile_arguments_with_a_clear_error(gateway: Server) -> None:
    schemas = asyncio.run(tool_schemas(gateway))
    assert set(schemas) == TOOLS

    server = build_server(McpSettings(url=gateway.url, user=DEFAULT_USER, timeout_s=30))

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(tool=st.sampled_from(sorted(TOOLS)), data=st.data())
    def hostile(tool: str, data: st.DataObject) -> None:
        arguments = data.draw(hostile_arguments(schemas[tool]))

        async def call() -> None:
            async with Client(server) as client:
                result = await client.call_tool(tool, arguments)
                said = text(result)
                if result.is_error:
                    assert said.strip(), f"{tool}{arguments}: an error without a message"
                    assert "Traceback" not in said and "Internal" not in said, f"{tool}: {said[:300]}"
                # Still serving after whatever that was.
                assert not (await client.call_tool("list_memories", {"limit": 1})).is_error

        asyncio.run(call())

    hostile()
