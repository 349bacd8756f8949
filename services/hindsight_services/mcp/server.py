"""mcp's wiring: the memory tools served over MCP (stdio or streamable HTTP).

The server holds no state of its own: every tool call goes to a running Hindsight
gateway through the ``hindsight_client`` SDK. Configuration is read once, at start-up,
from the command line and the environment (``settings_from_env``):

    HINDSIGHT_URL           the gateway (default http://127.0.0.1:8080)
    HINDSIGHT_MCP_TENANT    tenant for every call (default: the gateway's default tenant)
    HINDSIGHT_MCP_USER      user for tool calls that name none
    HINDSIGHT_API_KEY       the API key every call sends (needed when the gateway runs
                            with HINDSIGHT_AUTH=required; its tenant is the one used)

    python -m hindsight_services.mcp.server [--transport stdio|http] [--url U] [--port P]
"""

from __future__ import annotations

import argparse
import inspect
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from hindsight_client import AsyncHindsight
from hindsight_services.mcp import DEFAULT_HOST, DEFAULT_PORT, DEFAULT_URL, HTTP_PATH, add_arguments
from hindsight_services.mcp.handler import (
    Gateway,
    forget,
    list_memories,
    memory_history,
    pin_memory,
    recall,
    reflect,
    restore_memory,
    retain,
    session_context,
    unpin_memory,
)
from hindsight_services.mcp.lifecycle import consolidate, expire_memory

INSTRUCTIONS = """\
Hindsight is your long-term memory across conversations. Save what is worth remembering
with retain (facts, preferences, decisions, outcomes); search it with recall before you
answer; call reflect when a conversation ends so Hindsight distills lasting memories from
it; browse them with list_memories (memory_history shows how one changed); forget what the
user wants forgotten or what is wrong; pin_memory what must never be forgotten
(unpin_memory undoes it) and restore_memory what was forgotten by mistake; expire_memory
what holds only for a while; consolidate runs a forgetting pass now (dry_run to preview).
"""

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

TOOLS: tuple[tuple[Callable[..., Any], str, ToolAnnotations], ...] = (
    (retain, "Remember a conversation turn", WRITE),
    (recall, "Recall relevant memories", READ_ONLY),
    (reflect, "Learn from a conversation", WRITE),
    (forget, "Forget a memory", DESTRUCTIVE),
    (session_context, "Get a conversation's working memory", READ_ONLY),
    (list_memories, "Browse memories", READ_ONLY),
    (memory_history, "How a memory changed", READ_ONLY),
    (pin_memory, "Pin a memory", WRITE),
    (unpin_memory, "Unpin a memory", WRITE),
    (restore_memory, "Restore a forgotten memory", WRITE),
    (expire_memory, "Give a memory an expiry", WRITE),
    (consolidate, "Run a forgetting pass", DESTRUCTIVE),
)


@dataclass(frozen=True)
class McpSettings:
    url: str = DEFAULT_URL
    tenant: str | None = None
    user: str | None = None
    timeout_s: float = 30.0
    api_key: str | None = field(default=None, repr=False)


def settings_from_env(environ: Mapping[str, str] | None = None) -> McpSettings:
    """Settings from HINDSIGHT_URL, HINDSIGHT_MCP_TENANT, HINDSIGHT_MCP_USER and HINDSIGHT_API_KEY."""
    env = os.environ if environ is None else environ
    return McpSettings(
        url=env.get("HINDSIGHT_URL") or DEFAULT_URL,
        tenant=env.get("HINDSIGHT_MCP_TENANT") or None,
        user=env.get("HINDSIGHT_MCP_USER") or None,
        api_key=env.get("HINDSIGHT_API_KEY") or None,
    )


def build_server(settings: McpSettings) -> MCPServer[Gateway]:
    """The MCP server with Hindsight's memory tools, talking to the gateway at ``settings.url``."""

    @asynccontextmanager
    async def lifespan(_: MCPServer[Gateway]) -> AsyncIterator[Gateway]:
        async with AsyncHindsight(settings.url, tenant=settings.tenant, api_key=settings.api_key,
                                  timeout=settings.timeout_s) as client:
            yield Gateway(client, settings.user)

    server: MCPServer[Gateway] = MCPServer(
        "hindsight",
        title="Hindsight memory",
        instructions=INSTRUCTIONS,
        version="0.1.0",
        lifespan=lifespan,
    )
    for fn, title, hints in TOOLS:
        server.add_tool(fn, title=title, description=inspect.getdoc(fn), annotations=hints,
                        structured_output=True)
    return server


def run(
    settings: McpSettings,
    transport: Literal["stdio", "http"] = "stdio",
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
) -> None:
    """Serve until stopped: over stdin/stdout, or streamable HTTP at http://host:port/mcp."""
    server = build_server(settings)
    # httpx logs every request at INFO; on stderr that drowns the MCP server's own log.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port, streamable_http_path=HTTP_PATH)


def run_from_args(args: argparse.Namespace) -> int:
    """Run with options parsed by a parser that ``add_arguments`` built."""
    settings = settings_from_env()
    settings = replace(
        settings,
        url=args.url or settings.url,
        tenant=args.tenant or settings.tenant,
        user=args.user or settings.user,
    )
    run(settings, args.transport, host=args.host, port=args.port)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="hindsight mcp", description="Hindsight's memory tools for agents, over MCP.")
    add_arguments(parser)
    return run_from_args(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
