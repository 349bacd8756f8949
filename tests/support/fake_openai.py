"""A real HTTP server speaking the OpenAI chat completions API, answering from a script.

Tests drive LLM adapters (and later the reflection service through them) against it over
real sockets, so timeouts, status codes, headers and bodies behave as with a real server::

    with FakeOpenAIServer([ErrorReply(429, retry_after="0.05"), JsonReply({"ok": True})]) as srv:
        config = OpenAIChatConfig(base_url=srv.base_url, model="m")
        ...
        assert len(srv.requests) == 2
        assert srv.requests[0].body["model"] == "m"

Each ``POST .../chat/completions`` takes the next step of the script:

* ``JsonReply(data)``: 200 with ``data`` serialised as the message content, plus usage.
* ``TextReply(text)``: 200 with raw text as the content (malformed output, refusals).
* ``ErrorReply(status)``: that status with an OpenAI-style error body, optionally with a
  ``Retry-After`` header.
* ``Stall(seconds, then=...)``: holds the request (longer than the client's timeout), then
  answers ``then``; closing the server ends the wait.
* a callable ``(RecordedRequest) -> step``: decides from the request (e.g. echo its input).

When the script runs out, ``default`` answers, or, without one, HTTP 410 with the error code
``script_exhausted`` (a 4xx clients do not retry, so an unexpected extra call fails fast).
Every request is recorded, in order, in ``requests``. The server binds 127.0.0.1 on a free
port and runs in its own threads, so it works from sync and async tests alike.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "ErrorReply",
    "FakeOpenAIServer",
    "JsonReply",
    "RecordedRequest",
    "Reply",
    "Stall",
    "Step",
    "TextReply",
]


@dataclass(frozen=True)
class JsonReply:
    """Answer 200 with ``data`` serialised as JSON in ``choices[0].message.content``.

    Token counts of None are left out of ``usage`` (``usage`` is omitted when both are).
    ``model`` defaults to the model the request named.
    """

    data: Any
    prompt_tokens: int | None = 20
    completion_tokens: int | None = 10
    finish_reason: str = "stop"
    model: str | None = None


@dataclass(frozen=True)
class TextReply:
    """Answer 200 with ``text`` as the content, verbatim (None sends ``"content": null``).

    ``refusal`` fills ``message.refusal`` as OpenAI does when a model declines.
    """

    text: str | None
    prompt_tokens: int | None = 20
    completion_tokens: int | None = 10
    finish_reason: str = "stop"
    model: str | None = None
    refusal: str | None = None


@dataclass(frozen=True)
class ErrorReply:
    """Answer ``status`` with ``{"error": {"message", "type", "code"}}``.

    ``retry_after`` is sent as the ``Retry-After`` header; ``raw_body`` replaces the JSON
    error body when set (to mimic servers that answer plain text or HTML).
    """

    status: int
    message: str = "scripted error"
    code: str | None = None
    retry_after: str | None = None
    raw_body: str | None = None


Reply = JsonReply | TextReply | ErrorReply


@dataclass(frozen=True)
class Stall:
    """Hold the request ``seconds`` before answering ``then`` (the client is usually gone)."""

    seconds: float
    then: Reply = field(default_factory=lambda: JsonReply({}))


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    raw_body: bytes
    received_at: float  # time.monotonic()

    @property
    def body(self) -> Any:
        """The body parsed as JSON, or None when it is not JSON."""
        try:
            return json.loads(self.raw_body)
        except ValueError:
            return None

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The ``messages`` the request sent."""
        body = self.body
        return list(body.get("messages", [])) if isinstance(body, dict) else []

    @property
    def response_format(self) -> dict[str, Any] | None:
        """The ``response_format`` the request sent, or None."""
        body = self.body
        return body.get("response_format") if isinstance(body, dict) else None


Step = Reply | Stall | Callable[[RecordedRequest], "Reply | Stall"]


class FakeOpenAIServer:
    """A scripted OpenAI-compatible chat completions server on 127.0.0.1.

    Use as a context manager (or call ``start`` and ``close``). ``base_url`` ends in
    ``/v1``, as OpenAI-compatible clients expect.
    """

    def __init__(self, script: Iterable[Step] = (), *, default: Step | None = None) -> None:
        self._script: deque[Step] = deque(script)
        self._default = default
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> FakeOpenAIServer:
        """Bind a free port and serve in a background thread; return self."""
        if self._httpd is not None:
            raise RuntimeError("the fake server is already started")
        self._httpd = _Server(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving, end any stalled request, and release the port."""
        if self._httpd is None:
            return
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()  # joins the request threads
        if self._thread is not None:
            self._thread.join()
        self._httpd, self._thread = None, None

    @property
    def base_url(self) -> str:
        """The API root to configure clients with, e.g. ``http://127.0.0.1:40123/v1``."""
        if self._httpd is None:
            raise RuntimeError("the fake server is not started")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, oldest first (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def bodies(self) -> list[Any]:
        """The JSON bodies of every request received so far, oldest first."""
        return [request.body for request in self.requests]

    @property
    def remaining(self) -> int:
        """How many scripted steps have not been used yet."""
        with self._lock:
            return len(self._script)

    def enqueue(self, *steps: Step) -> None:
        """Append steps to the script."""
        with self._lock:
            self._script.extend(steps)

    def _take(self, request: RecordedRequest) -> Reply | Stall:
        with self._lock:
            self._requests.append(request)
            step = self._script.popleft() if self._script else self._default
        if step is None:
            return ErrorReply(410, "fake_openai: the script has no step left", "script_exhausted")
        return step(request) if callable(step) else step


class _Server(ThreadingHTTPServer):
    daemon_threads = False  # so that server_close waits for every request thread


def _handler_for(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = RecordedRequest(
                method="POST",
                path=self.path,
                headers={name.lower(): value for name, value in self.headers.items()},
                raw_body=self.rfile.read(length),
                received_at=time.monotonic(),
            )
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(ErrorReply(404, f"no route {self.path}", "not_found"), request)
                return
            step = server._take(request)
            if isinstance(step, Stall):
                server._stopping.wait(step.seconds)
                step = step.then
            self._send(step, request)

        def _send(self, reply: Reply, request: RecordedRequest) -> None:
            headers = {"Content-Type": "application/json"}
            if isinstance(reply, ErrorReply):
                status = reply.status
                if reply.retry_after is not None:
                    headers["Retry-After"] = reply.retry_after
                if reply.raw_body is not None:
                    payload = reply.raw_body.encode()
                    headers["Content-Type"] = "text/plain"
                else:
                    error = {"message": reply.message, "type": "fake_error", "code": reply.code}
                    payload = json.dumps({"error": error}).encode()
            else:
                status, payload = 200, json.dumps(_completion(reply, request)).encode()
            try:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test): nothing to answer

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

    return Handler


def _completion(reply: JsonReply | TextReply, request: RecordedRequest) -> dict[str, Any]:
    body = request.body if isinstance(request.body, dict) else {}
    if isinstance(reply, JsonReply):
        content: str | None = json.dumps(reply.data)
        refusal = None
    else:
        content, refusal = reply.text, reply.refusal
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if refusal is not None:
        message["refusal"] = refusal
    completion: dict[str, Any] = {
        "id": f"chatcmpl-fake-{int(time.monotonic() * 1e6)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": reply.model or body.get("model", "fake-model"),
        "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
    }
    usage: dict[str, int] = {}
    if reply.prompt_tokens is not None:
        usage["prompt_tokens"] = reply.prompt_tokens
    if reply.completion_tokens is not None:
        usage["completion_tokens"] = reply.completion_tokens
    if usage:
        usage["total_tokens"] = sum(usage.values())
        completion["usage"] = usage
    return completion
