"""``--engine-url``: the same messages, each the body of one HTTP/1.1 POST on one kept-alive connection.

Or, to an engine declaring ``jsonl`` in hello, several messages in one POST (JSON lines), so that
the batches of several scenarios cost one round trip.

Responsible for the transport only (http.client, stdlib); the session logic is in ``remote.py``.
A session keeps one connection (a server that closes it after an answer gets a new one for the
next request); after a failure the connection is closed, and the next request opens a new one
with a new handshake. Every request has one deadline, the ``--timeout``, for all of it: a server
that trickles its answer a byte at a time cannot hold a request past it.
"""

from __future__ import annotations

import http.client
import io
import socket
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from harness.adapters.protocol import (
    HTTP_ADVICE,
    JSONL,
    MAX_LINE,
    MAX_POST,
    AdapterError,
    GroupFailure,
    PartialAnswers,
    decode,
    encode,
    quote,
)
from harness.adapters.remote import RemoteEngine
from harness.adapters.subprocess import DEFAULT_TIMEOUT


class _DeadlineSocket:
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
        return _Answer(_Reads(self))

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


class _Answer(io.BufferedReader):
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


class _Reads(io.RawIOBase):
    """The receiving side of a ``_DeadlineSocket`` as a raw stream, for http.client's buffered reader."""

    def __init__(self, sock: _DeadlineSocket) -> None:
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


def _connection_class(base: type[http.client.HTTPConnection]) -> type[http.client.HTTPConnection]:
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
            self.sock = _DeadlineSocket(connected)

    return Connection


_HTTP = _connection_class(http.client.HTTPConnection)
_HTTPS = _connection_class(http.client.HTTPSConnection)


class _Surplus(http.client.HTTPException):
    """More bytes came with an answer than its Content-Length says."""


class _Aside(Exception):
    """The work done while the server answers raised ``error``."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class HttpChannel:
    """POSTs one message per request to one URL, on one connection kept alive for the session."""

    def __init__(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"--engine-url {url!r}: give an http:// or https:// URL, e.g. http://127.0.0.1:8080/")
        self.url, self.timeout = url, timeout
        self.path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.factory = _HTTPS if parts.scheme == "https" else _HTTP
        self.address = (parts.hostname, parts.port)
        self.connection: http.client.HTTPConnection | None = None
        self.live = False
        self.connections = 0  # how many connections were opened: one per session

    def open(self) -> None:
        """A new session: the connection opens with the handshake's POST."""
        self.live = True

    def is_open(self) -> bool:
        """Whether a session is live."""
        return self.live

    def pipelines(self, hello: dict[str, Any]) -> bool:
        """Whether several messages may go in one POST (``exchange_many``): the engine declared ``jsonl``."""
        return hello.get("jsonl") is True

    def exchange(self, message: dict[str, Any], what: str) -> Any:
        """POST ``message``; the decoded body of the answer, all within one deadline."""
        body = self._checked(encode(message), what, "application/json", None, MAX_LINE)
        return decode(body, what, HTTP_ADVICE)

    def exchange_many(self, messages: list[dict[str, Any]], whats: list[str], fenced: bool = False,
                      meanwhile: Callable[[], None] | None = None) -> list[Any]:
        """Several messages as JSON lines in one POST (more if they pass MAX_POST); their decoded answers, in order.

        A line that is not an answer is the failure of its own message, raised as ``PartialAnswers``
        after the answers before it. A POST failing as a whole (the connection, the deadline, a
        status, a body with another number of lines) is a ``GroupFailure``: no message of it can
        be charged with it. ``meanwhile`` runs once the first POST is sent, outside its deadline.
        ``fenced`` changes nothing: a framed answer cannot carry stray output.
        """
        answers: list[Any] = []
        lines = [encode(message) for message in messages]
        while len(answers) < len(lines):
            first, size = len(answers), len(lines[len(answers)])
            last = first + 1
            while last < len(lines) and size + len(lines[last]) <= MAX_POST:
                size += len(lines[last])
                last += 1
            shown = whats[first] if last == first + 1 else f"{whats[first]} and the {last - first - 1} after it"
            try:
                body = self._checked(b"".join(lines[first:last]), shown, JSONL, meanwhile, MAX_POST)
            except AdapterError as error:
                raise PartialAnswers(answers, GroupFailure(error.reason)) from None
            meanwhile = None
            got = body.split(b"\n")
            if got[-1] == b"":
                got.pop()
            if len(got) != last - first:
                raise PartialAnswers(answers, GroupFailure(
                    f"{self.url} answered {len(got)} lines to {last - first} messages in one {JSONL} POST (from "
                    f"{whats[first]}): answer each line with one line, in order"))
            for what, line in zip(whats[first:last], got):
                try:
                    if len(line) > MAX_LINE:
                        raise AdapterError(f"{what} is longer than {MAX_LINE} bytes; {HTTP_ADVICE}")
                    answers.append(decode(line, what, HTTP_ADVICE))
                except AdapterError as error:
                    raise PartialAnswers(answers, error) from None
        return answers

    def _checked(self, data: bytes, what: str, kind: str, meanwhile: Callable[[], None] | None,
                 limit: int) -> bytes:
        """POST ``data``; the body of a 200 answer, or the protocol error saying what went wrong."""
        try:
            status, reason, body = self._post(data, time.monotonic() + self.timeout, kind, meanwhile, limit)
        except _Aside as aside:  # the harness's own work failed, not the server: its answer is left unread
            self._disconnect()
            raise aside.error from None
        except (TimeoutError, socket.timeout):
            raise AdapterError(f"{what} did not come from {self.url} within {self.timeout:g} s: the server hangs "
                               "or is too slow (raise --timeout if it is only slow)") from None
        except ConnectionRefusedError as error:
            raise AdapterError(f"cannot reach {self.url} ({error}) for {what}: is the server running, and is "
                               "the URL right?") from None
        except _Surplus as error:
            raise AdapterError(f"{self.url} sent {error} with {what}; {HTTP_ADVICE}, and nothing after it") from None
        except http.client.HTTPException as error:
            shown = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            raise AdapterError(f"{self.url} did not answer with HTTP/1.1 for {what} ({shown}); {HTTP_ADVICE}, "
                               "on a connection kept alive") from None
        except (OSError, ValueError) as error:
            raise AdapterError(f"the connection to {self.url} failed for {what} ({error}): is the server running, "
                               "and is the URL right?") from None
        if status != 200:
            raise AdapterError(f"{self.url} answered HTTP {status} ({reason}) instead of sending {what}: "
                               f"{quote(body[:300])}; {HTTP_ADVICE}")
        if len(body) > limit:
            raise AdapterError(f"{what} is longer than {limit} bytes; {HTTP_ADVICE}")
        return body

    def _post(self, data: bytes, deadline: float, kind: str, meanwhile: Callable[[], None] | None,
              limit: int) -> tuple[int, str, bytes]:
        """One POST and its whole answer on the session's connection (opened if needed).

        ``meanwhile`` runs once the request is sent, while the server answers; the deadline restarts after it.
        """
        if self.connection is None:
            host, port = self.address
            self.connection = self.factory(host, port, timeout=max(0.001, deadline - time.monotonic()))
            self.connection.connect()
            self.connections += 1
        sock = self.connection.sock
        assert isinstance(sock, _DeadlineSocket)
        sock.deadline, sock.surplus = deadline, False
        self.connection.request("POST", self.path, body=data, headers={"Content-Type": kind})
        if meanwhile is not None:
            try:
                meanwhile()
            except Exception as error:
                raise _Aside(error) from None
            sock.deadline = time.monotonic() + self.timeout
        response = self.connection.getresponse()
        body = response.read(limit + 1)
        if response.will_close:  # the server closes it (HTTP/1.0): the next request connects again
            self.connection.close()
            self.connection = None
        elif sock.surplus or sock.pending():  # bytes no request asked for would be read as the next answer's start
            raise _Surplus(f"more bytes than its Content-Length ({response.getheader('Content-Length')}) says")
        return response.status, response.reason, body

    def abandon(self) -> str:
        """End the session (close its connection); the next request shakes hands again."""
        self._disconnect()
        return "; the next scenario starts a new session with a new handshake"

    def close(self, farewell: dict[str, Any] | None) -> str | None:
        """Post ``farewell`` (stop) if a session is live and close the connection; what went wrong, if anything."""
        problem = None
        if self.live and farewell is not None:
            try:
                self.exchange(farewell, "the answer to stop")
            except AdapterError as error:
                problem = error.reason
        self._disconnect()
        return problem

    def _disconnect(self) -> None:
        self.live = False
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def http_engine(url: str, timeout: float = DEFAULT_TIMEOUT) -> RemoteEngine:
    """An engine reached by POSTing protocol messages to ``url``."""
    return RemoteEngine(HttpChannel(url, timeout))
