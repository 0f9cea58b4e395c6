"""The socket under ``--engine-url``'s HTTP connection: one deadline per request, and bytes beyond an answer noticed."""

from __future__ import annotations

import http.client
import io
import socket
import time
from typing import Any


class DeadlineSocket:
    """A socket whose every send and receive gets what is left of the current request's deadline."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.deadline = time.monotonic()
        self.readers = 0  # answers still being read: http.client closes the connection before reading one
        self.closing = False
        self.polling = False  # reads that do not wait: to see whether more came than was asked for
        self.surplus = False  # bytes came after an answer, on its own segment or later

    def _arm(self) -> None:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the deadline passed")
        self.sock.settimeout(remaining)

    def sendall(self, data: bytes) -> None:
        self._arm()
        self.sock.sendall(data)

    def recv_into(self, buffer: Any, size: int = 0) -> int:
        self._arm()
        return self.sock.recv_into(buffer, size)

    def makefile(self, mode: str) -> io.BufferedReader:
        self.readers += 1
        return Answer(Reads(self))

    def close(self) -> None:
        """Close the socket once no answer is being read from it (as ``socket.makefile`` arranges)."""
        self.closing = True
        if not self.readers:
            self.sock.close()

    def reader_closed(self) -> None:
        self.readers -= 1
        if self.closing and not self.readers:
            self.sock.close()

    def pending(self) -> bool:
        """Whether bytes have arrived that no request asked for."""
        self.sock.settimeout(0)
        try:
            return bool(self.sock.recv(1, socket.MSG_PEEK))
        except (BlockingIOError, OSError):
            return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)  # close, setsockopt, fileno: as the socket has them


class Answer(io.BufferedReader):
    """One answer's reader; when http.client is done with it, it notes any bytes beyond the answer."""

    def close(self) -> None:
        if not self.closed:
            sock = self.raw.sock  # type: ignore[attr-defined]
            sock.polling = True
            try:
                sock.surplus = sock.surplus or bool(self.peek(1))
            except (OSError, ValueError):
                pass
            finally:
                sock.polling = False
        super().close()


class Reads(io.RawIOBase):
    """The receiving side of a ``DeadlineSocket`` as a raw stream, for http.client's buffered reader."""

    def __init__(self, sock: DeadlineSocket) -> None:
        self.sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        if not self.sock.polling:
            return self.sock.recv_into(buffer)
        self.sock.sock.settimeout(0)
        try:
            return self.sock.sock.recv_into(buffer)
        except (BlockingIOError, OSError):
            return None  # nothing there: a raw stream's "no data yet"

    def close(self) -> None:
        if not self.closed:
            super().close()
            self.sock.reader_closed()


def connection_class(base: type[http.client.HTTPConnection]) -> type[http.client.HTTPConnection]:
    """``base`` with its socket wrapped for deadlines, once connected (TCP_NODELAY is http.client's own)."""

    class Connection(base):  # type: ignore[valid-type, misc]
        held = b""

        def send(self, data: Any) -> None:
            """The header block held back and sent with the body: one segment per request, not two."""
            if not self.held and isinstance(data, bytes) and data.endswith(b"\r\n\r\n"):
                self.held = data
                return
            data, self.held = self.held + data, b""
            super().send(data)

        def connect(self) -> None:
            super().connect()
            connected: Any = getattr(self, "sock")  # noqa: B009 - typeshed leaves sock untyped until connected
            self.sock = DeadlineSocket(connected)

    return Connection


HTTP = connection_class(http.client.HTTPConnection)
HTTPS = connection_class(http.client.HTTPSConnection)


class Surplus(http.client.HTTPException):
    """More bytes came with an answer than its Content-Length says."""
