"""A TCP proxy in front of a real server, to cut the network to it and restore it.

An outage test must not stop a server other tests share, and a private Elasticsearch or
Neo4j takes minutes to start on a busy CI machine (``tests/support/private_servers.py``
has them, for ``make chaos``). The services under test talk to the real, shared server
through this proxy instead; ``cut`` closes its listening socket and every connection
through it (a client sees what it sees when the server is down: refused connections, reset
streams), ``restore`` listens again on the same port. The server keeps its data, as a
server that is restarted would.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any

from tests.support.private_servers import free_port

_CHUNK = 64 * 1024


class FaultProxy:
    """``127.0.0.1:port`` forwards to ``host:target_port`` until ``cut``."""

    def __init__(self, host: str, target_port: int) -> None:
        self.host = host
        self.target_port = target_port
        self.port = free_port()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()
        self._thread.start()
        self.restore()

    def _call(self, work: Coroutine[Any, Any, None]) -> None:
        asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout=30)

    def restore(self) -> None:
        """Accept and forward connections again (a no-op while it does)."""
        self._call(self._listen())

    def cut(self) -> None:
        """Refuse new connections and reset every open one."""
        self._call(self._cut())

    def close(self) -> None:
        self.cut()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    async def _listen(self) -> None:
        if self._server is None:
            self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.target_port)
        except OSError:
            writer.transport.abort()
            return
        self._open.update((writer, up_writer))
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        self._open.difference_update((writer, up_writer))

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while chunk := await reader.read(_CHUNK):
                writer.write(chunk)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()  # one side ended: end the other
