"""mcp: Hindsight as an MCP server, so agents remember through tool calls.

``handler`` holds the tools (what each does, through the ``hindsight_client`` SDK);
``server`` wires them into an MCP server over stdio or streamable HTTP and talks to a
running gateway. This module stays import-light: the ``hindsight`` command builds its
parser from ``add_arguments`` without loading the MCP SDK.
"""

from __future__ import annotations

import argparse

DEFAULT_URL = "http://127.0.0.1:8080"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8081
HTTP_PATH = "/mcp"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``hindsight mcp`` (and ``python -m hindsight_services.mcp.server``)."""
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                        help="stdio (the client starts this process) or streamable HTTP (default stdio)")
    parser.add_argument("--url", default=None,
                        help=f"the Hindsight gateway (HINDSIGHT_URL, default {DEFAULT_URL})")
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"http transport: bind address (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"http transport: port (default {DEFAULT_PORT}); the endpoint is {HTTP_PATH}")
    parser.add_argument("--tenant", default=None, help="tenant for every call (HINDSIGHT_MCP_TENANT)")
    parser.add_argument("--user", default=None,
                        help="user when a tool call names none (HINDSIGHT_MCP_USER)")
