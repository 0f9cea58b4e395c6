"""HTTP engines wrong in known ways: the reference behind `serve`'s session logic, on a raw socket that misbehaves.

Each fake answers like `serve --http` (HTTP/1.1, keep-alive; one session for the whole server) until its ``at``-th POST (hello is
the first; `serve` takes batches, so each scenario is one POST) or the command ``cmd``, which it
answers its own way: a bad status line, a body that trickles,
a connection closed, and so on. Raw sockets, so that it can send what http.server never would.

With ``jsonl`` it also declares and answers POSTs of several messages (JSON lines), and with
``seq`` it misbehaves at every POST carrying that seq: the whole POST, or (the ``*_line`` kinds)
only that message's answer line, so that the same batch fails whether it is sent alone or with others.
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

from harness.serve.serve import ProtocolServer, answer_line
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


def _wrong_seq(answer: bytes, seq: int) -> bytes:
    return answer.replace(b'{"seq": %d' % seq, b'{"seq": %d' % (seq + 100), 1)


# How the ``*_line`` kinds change the faulty message's answer line (an empty line: none at all).
LINE_FAULTS: dict[str, Callable[[bytes, int], bytes]] = {
    "garbage_line": lambda answer, seq: b"this is not JSON",
    "wrong_seq_line": _wrong_seq,
    "missing_line": lambda answer, seq: b"",
}

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
                lines = body.split(b"\n")[:-1] if b"application/jsonl" in head.lower() else [body]
                self.server.lined += len(lines) > 1
                messages = [json.loads(line) for line in lines]
                answers = [json.dumps(answer_line(session, line)).encode() for line in lines]
                hit = self.server.matches(messages)
                if hit is not None and self.server.kind in LINE_FAULTS:
                    answers[hit] = LINE_FAULTS[self.server.kind](answers[hit], messages[hit].get("seq", 0))
                    hit = None
                normal = response(b"".join(answer + b"\n" for answer in answers if answer) if len(lines) > 1
                                  else answers[0])
                if hit is not None:
                    if not self.server.fault(self.request, normal, messages[hit]):
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

    def __init__(self, kind: str, at: int | None, cmd: str | None, seq: int | None, jsonl: bool) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.kind, self.at, self.cmd, self.seq = kind, at, cmd, seq
        self.posts = 0
        self.lined = 0  # POSTs that carried several messages
        # one session for the server, as a simple engine would hold it
        self.session = ProtocolServer(ReferenceEngine(), {"jsonl": True} if jsonl else None)

    def matches(self, messages: list[dict[str, Any]]) -> int | None:
        """Which message of this POST to misbehave at, if any."""
        self.posts += 1
        if self.at is not None:
            return 0 if self.posts == self.at else None
        key, value = ("seq", self.seq) if self.seq is not None else ("cmd", self.cmd)
        return next((i for i, message in enumerate(messages) if message.get(key) == value), None)

    def fault(self, connection: socket.socket, normal: bytes, message: dict[str, Any]) -> bool:
        return FAULTS[self.kind](connection, normal, message.get("seq", 0))

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


@contextmanager
def fake_http(kind: str, at: int | None = None, cmd: str | None = None, seq: int | None = None,
              jsonl: bool = False) -> Iterator[str]:
    """The URL of a fake of ``kind`` misbehaving at its ``at``-th POST (or at command ``cmd``, or at every POST
    carrying ``seq``), while in the block."""
    with fake_http_server(kind, at, cmd, seq, jsonl) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}/"


@contextmanager
def fake_http_server(kind: str, at: int | None = None, cmd: str | None = None, seq: int | None = None,
                     jsonl: bool = False) -> Iterator[_FakeServer]:
    """``fake_http``'s server itself (to count what it was sent)."""
    server = _FakeServer(kind, at, cmd, seq, jsonl)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
