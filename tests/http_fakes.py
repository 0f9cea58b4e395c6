"""HTTP engines wrong in known ways: the reference behind `serve`'s session logic, on a raw socket that misbehaves.

Each fake answers like `serve --http` (HTTP/1.1, keep-alive; one session for the whole server) until its ``at``-th POST (hello is
the first; `serve` takes batches, so each scenario is one POST) or the command ``cmd``, which it
answers its own way: a bad status line, a body that trickles,
a connection closed, and so on. Raw sockets, so that it can send what http.server never would.
"""

from __future__ import annotations

import json
import socket
import socketserver
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from harness.serve import ProtocolServer, answer_line
from reference_engine import ReferenceEngine

Fault = Callable[[socket.socket, bytes, int], bool]  # (connection, the normal response, seq) -> keep the connection?


def response(body: bytes, status: str = "200 OK", extra: bytes = b"") -> bytes:
    """A well-formed HTTP/1.1 response carrying ``body``."""
    return (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            + body + extra)


def _send(data: bytes) -> Fault:
    def fault(connection: socket.socket, normal: bytes, seq: int) -> bool:
        connection.sendall(data)
        return True
    return fault


def _trickle(connection: socket.socket, normal: bytes, seq: int) -> bool:
    for byte in normal:  # a byte every 1.5 s: each read is quick, the whole answer takes minutes
        connection.sendall(bytes([byte]))
        time.sleep(1.5)
    return True


def _close(connection: socket.socket, normal: bytes, seq: int) -> bool:
    return False


def _short_body(connection: socket.socket, normal: bytes, seq: int) -> bool:
    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{\"seq\": 1")
    time.sleep(30)
    return False


def _headers_then_body(connection: socket.socket, normal: bytes, seq: int) -> bool:
    head, _, body = normal.partition(b"\r\n\r\n")
    connection.sendall(head.replace(b"HTTP/1.1", b"HTTP/1.0") + b"\r\nConnection: close\r\n\r\n")
    time.sleep(0.3)  # the body in a later segment: read after http.client has let the connection go
    connection.sendall(body)
    return False


def _deep(connection: socket.socket, normal: bytes, seq: int) -> bool:
    connection.sendall(response(b'{"seq": %d, "result": ' % seq + b"[" * 5000 + b"]" * 5000 + b"}"))
    return True


def _extra_bytes(connection: socket.socket, normal: bytes, seq: int) -> bool:
    connection.sendall(normal + b"{}")  # more than its Content-Length
    return True


FAULTS: dict[str, Fault] = {
    "bad_status": _send(b"HTTP/1.1 OK\r\n\r\n"),
    "not_http": _send(b"hello from the engine\r\n\r\n"),
    "trickle": _trickle,
    "close": _close,
    "short_body": _short_body,
    "garbage": _send(response(b"this is not JSON")),
    "deep": _deep,
    "extra_bytes": _extra_bytes,
    "status_500": _send(response(b"Internal Server Error", "500 Internal Server Error")),
    "slow_close": _headers_then_body,
}


class _Handler(socketserver.BaseRequestHandler):
    server: _FakeServer

    def handle(self) -> None:
        session = self.server.session
        reader = self.request.makefile("rb")
        try:
            while True:
                head = b""
                while not head.endswith(b"\r\n\r\n"):
                    line = reader.readline()
                    if not line:
                        return
                    head += line
                length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                                  if line.lower().startswith(b"content-length")))
                body = reader.read(length)
                message = json.loads(body)
                normal = response(json.dumps(answer_line(session, body)).encode())
                if self.server.matches(message):
                    if not self.server.fault(self.request, normal, message):
                        return
                else:
                    self.request.sendall(normal)
        except OSError:
            return
        finally:
            reader.close()


class _FakeServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, kind: str, at: int | None, cmd: str | None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.kind, self.at, self.cmd = kind, at, cmd
        self.posts = 0
        self.session = ProtocolServer(ReferenceEngine())  # one for the server, as a simple engine would hold it

    def matches(self, message: dict[str, Any]) -> bool:
        self.posts += 1
        return self.posts == self.at if self.at is not None else message.get("cmd") == self.cmd

    def fault(self, connection: socket.socket, normal: bytes, message: dict[str, Any]) -> bool:
        return FAULTS[self.kind](connection, normal, message.get("seq", 0))

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


@contextmanager
def fake_http(kind: str, at: int | None = None, cmd: str | None = None) -> Iterator[str]:
    """The URL of a fake of ``kind`` misbehaving at its ``at``-th POST (or at command ``cmd``), while in the block."""
    server = _FakeServer(kind, at, cmd)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
