"""``serve --http``: the protocol over HTTP/1.1 on 127.0.0.1, one thread and one session per connection.

A connection is a session (hello first, one game at a time), kept alive between requests. A POST
is one message, or (``Content-Type: application/jsonl``, declared as ``jsonl`` in hello) several,
one per line, answered by a body of their answers, one per line, in order.
Slow and idle clients are bounded so that none holds the others up: a request must arrive whole
within ``REQUEST_SECONDS`` of its first byte, and a connection idle for ``IDLE_SECONDS`` is closed.
"""

from __future__ import annotations

import io
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from harness.adapters.engine import Engine
from harness.adapters.protocol import (
    JSONL,
    MAX_LINE,
    MAX_POST,
    PROTOCOL_VERSION,
    encode,
)
from harness.serve.serve import ProtocolServer, answer_body, answer_line

REQUEST_SECONDS = 10.0
IDLE_SECONDS = 120.0


class _DeadlineReader(io.RawIOBase):
    """A connection's reads, each given what is left of its request's deadline (or the idle limit between requests)."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection
        self.deadline: float | None = None  # None: between requests

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.deadline is None:
            self.connection.settimeout(IDLE_SECONDS)
        else:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the request did not arrive in time")
            self.connection.settimeout(remaining)
        count = self.connection.recv_into(buffer)
        if self.deadline is None and count:
            self.deadline = time.monotonic() + REQUEST_SECONDS
        return count


class _Handler(BaseHTTPRequestHandler):
    """POSTs of one session; each body one message (or JSON lines of them), each answer likewise."""

    server: _Server
    protocol_version = "HTTP/1.1"  # keep-alive: one connection for a whole session
    wbufsize = 1 << 16  # an answer's headers and body leave in one segment, flushed after each request

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = _DeadlineReader(self.connection)
        self.rfile = io.BufferedReader(self.reader)
        self.session = ProtocolServer(self.server.engine, {"jsonl": True, **self.server.declares})

    def handle_one_request(self) -> None:
        self.reader.deadline = None  # waiting for the next request is idling, not being slow
        try:
            super().handle_one_request()
        except (TimeoutError, OSError):  # a slow, idle or vanished client: close its connection, quietly
            self.close_connection = True

    def handle_expect_100(self) -> bool:
        """``100 Continue`` sent at once (the writes are buffered): a client such as curl waits for it."""
        going_on = super().handle_expect_100()
        self.wfile.flush()
        return going_on

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        lines = self.headers.get_content_type() == JSONL
        length = self._length(MAX_POST if lines else MAX_LINE)
        if length is None:
            return
        try:
            body = self.rfile.read(length)
        except TimeoutError:
            self._answer(408, {"error": f"protocol error: the body did not arrive within {REQUEST_SECONDS:g} s"},
                         close=True)
            return
        if len(body) < length:
            self.close_connection = True  # the client went away mid-body: nobody to answer
            return
        if lines:  # each line answered in turn, as if POSTed alone
            answered, answers = answer_body(self.session, body)
            self._send(200 if answered else 400, JSONL if answered else "application/json", answers)
            return
        self._answer(200, answer_line(self.session, body))

    def _length(self, limit: int) -> int | None:
        """The body's length from Content-Length, or None after answering why it cannot be read."""
        given = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding") or given is None:
            self._answer(411, {"error": "protocol error: send the body with a Content-Length header"}, close=True)
            return None
        if not given.strip().isdigit():
            self._answer(400, {"error": f"protocol error: Content-Length {given!r} is not a number of bytes"},
                         close=True)
            return None
        length = int(given)
        if length > limit:
            what = "a message" if limit == MAX_LINE else f"an {JSONL} body"
            self._answer(413, {"error": f"protocol error: {what} is at most {limit} bytes"}, close=True)
            return None
        return length

    def do_GET(self) -> None:  # noqa: N802
        body = (f"CardVerse engine protocol {PROTOCOL_VERSION}: POST one JSON message per request, or several as "
                f"{JSONL} (spec/protocol.md)\n")
        self._send(200, "text/plain; charset=utf-8", body.encode())

    def _answer(self, status: int, answer: dict[str, Any], close: bool = False) -> None:
        if close:
            self.close_connection = True
        self._send(status, "application/json", encode(answer))

    def _send(self, status: int, kind: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's signature
        pass  # a line per request would drown the harness's own output


class _Server(ThreadingHTTPServer):
    """A thread per connection, each with its own session."""

    daemon_threads = True  # an idle client must not keep the server from exiting

    def __init__(self, port: int, engine: Engine, declares: dict[str, Any] | None = None) -> None:
        super().__init__(("127.0.0.1", port), _Handler)  # loopback only: this is a test tool, not a service
        self.engine, self.declares = engine, declares or {}

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client's fault ends its connection; a traceback on stderr would only alarm


def http_server(engine: Engine, port: int = 0, declares: dict[str, Any] | None = None) -> _Server:
    """A server bound to 127.0.0.1:``port`` (0: any free port), declaring ``declares`` beyond the usual in hello;
    call serve_forever() on it."""
    return _Server(port, engine, declares)


def serve_http(engine: Engine, port: int, declares: dict[str, Any] | None = None) -> int:
    """Serve on 127.0.0.1:``port`` until interrupted; the address goes to stderr first."""
    try:
        server = http_server(engine, port, declares)
    except OSError as error:
        sys.stderr.write(f"cannot listen on 127.0.0.1:{port} ({error.strerror or error}): choose another "
                         "--http PORT (0 picks a free one)\n")
        return 2
    sys.stderr.write(f"serving engine protocol {PROTOCOL_VERSION} on http://127.0.0.1:{server.server_address[1]}/ "
                     "(a session per connection; Ctrl-C stops)\n")
    sys.stderr.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
