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
import socket
import time
import urllib.parse
from collections import deque
from collections.abc import Callable
from typing import Any

from harness.adapters.http_connection import HTTP, HTTPS, DeadlineSocket, Surplus
from harness.adapters.protocol import (
    HTTP_ADVICE,
    JSONL,
    MAX_LINE,
    MAX_POST,
    AdapterError,
    Decoder,
    GroupFailure,
    PartialAnswers,
    decode,
    encode,
    quote,
)
from harness.adapters.remote import RemoteEngine
from harness.adapters.subprocess import DEFAULT_TIMEOUT


class _Aside(Exception):
    """The work done while the server answers raised ``error``."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class HttpChannel:
    """POSTs one message per request to one URL, on one connection kept alive for the session."""

    takes_decoder = True  # exchange_many(decoder=...): the caller may say how a line becomes an answer

    def __init__(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"--engine-url {url!r}: give an http:// or https:// URL, e.g. http://127.0.0.1:8080/")
        self.url, self.timeout = url, timeout
        self.path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.factory = HTTPS if parts.scheme == "https" else HTTP
        self.address = (parts.hostname, parts.port)
        self.connection: http.client.HTTPConnection | None = None
        self.live = False
        self.connections = 0  # how many connections were opened: one per session
        self.ahead: deque[list[dict[str, Any]]] = deque()  # writes sent ahead (see send_ahead), their answers unread
        self.posted: tuple[list[dict[str, Any]], AdapterError | None] | None = None  # the one on the wire, how it went

    def open(self) -> None:
        """A new session: the connection opens with the handshake's POST."""
        self.live = True

    def is_open(self) -> bool:
        """Whether a session is live."""
        return self.live

    def pipelines(self, hello: dict[str, Any]) -> bool:
        """Whether several messages may go in one POST (``exchange_many``): the engine declared ``jsonl``."""
        return hello.get("jsonl") is True

    def send_ahead(self, messages: list[dict[str, Any]]) -> None:
        """``messages`` to be answered by a later ``exchange_many(messages)``: POSTed now if no POST is waiting
        for its answer, else as soon as that answer is read, so that the server answers them while the
        harness works on the answer before (one POST on the wire at a time: no HTTP pipelining).

        A failure to send is left for that read to find, as a failure of the POST as a whole.
        """
        self.ahead.append(messages)
        if self.posted is None:
            self._post_ahead()

    def _post_ahead(self) -> None:
        """The first write sent ahead POSTed, if it fits in one POST (else the read sends it as usual)."""
        messages = self.ahead[0]
        data = b"".join(encode(message) for message in messages)
        if len(data) > MAX_POST:
            return
        failure = None
        try:
            self._checked(data, "the POST sent ahead", JSONL, None, MAX_POST, reading=False)
        except AdapterError as error:
            failure = error
        self.posted = (messages, failure)

    def _forget_ahead(self) -> None:
        """A session ended: whatever was sent ahead went with it."""
        self.ahead.clear()
        self.posted = None

    def exchange(self, message: dict[str, Any], what: str) -> Any:
        """POST ``message``; the decoded body of the answer, all within one deadline."""
        assert not self.ahead, "an exchange while answers to messages sent ahead are unread: please report this kit bug"
        body = self._checked(encode(message), what, "application/json", None, MAX_LINE)
        return decode(body, what, HTTP_ADVICE)

    def exchange_many(self, messages: list[dict[str, Any]], whats: list[str], fenced: bool = False,
                      meanwhile: Callable[[], None] | None = None, decoder: Decoder = decode) -> list[Any]:
        """Several messages as JSON lines in one POST (more if they pass MAX_POST); their decoded answers, in order.

        A line that is not an answer is the failure of its own message, raised as ``PartialAnswers``
        after the answers before it. A POST failing as a whole (the connection, the deadline, a
        status, a body with another number of lines) is a ``GroupFailure``: no message of it can
        be charged with it. ``meanwhile`` runs once the first POST is sent, outside its deadline.
        ``fenced`` changes nothing: a framed answer cannot carry stray output. ``decoder`` makes a line an answer.
        """
        answers: list[Any] = []
        if self.ahead and self.ahead[0] is messages:
            self.ahead.popleft()
            if self.posted is not None and self.posted[0] is messages:  # encoded and POSTed whole already
                answers = self._read_ahead(whats, len(messages), decoder)
        else:
            assert not self.ahead, "an exchange before the answers to messages sent ahead: please report this kit bug"
        lines = [encode(message) for message in messages] if len(answers) < len(messages) else []
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
            answers += self._lines(body, answers, whats[first:last], decoder)
        return answers

    def _read_ahead(self, whats: list[str], count: int, decoder: Decoder) -> list[Any]:
        """The answers to the POST sent ahead, which holds every message of its write; the next write sent ahead
        goes out as soon as they are in (before they are decoded), so that the server is never idle."""
        assert self.posted is not None
        _, failure = self.posted
        self.posted = None
        shown = whats[0] if count == 1 else f"{whats[0]} and the {count - 1} after it"
        body = b""
        if failure is None:
            try:
                body = self._checked(b"", shown, JSONL, None, MAX_POST, sending=False)
            except AdapterError as error:
                failure = error
        if failure is not None:
            raise PartialAnswers([], GroupFailure(failure.reason.replace("the POST sent ahead", shown)))
        if self.ahead:
            self._post_ahead()
        return self._lines(body, [], whats, decoder)

    def _lines(self, body: bytes, before: list[Any], whats: list[str], decoder: Decoder) -> list[Any]:
        """The decoded answers of one JSON-lines answer to ``len(whats)`` messages (``before``: the answers to
        the POSTs before it, for the failure)."""
        got = body.split(b"\n")
        if got[-1] == b"":
            got.pop()
        if len(got) != len(whats):
            raise PartialAnswers(before, GroupFailure(
                f"{self.url} answered {len(got)} lines to {len(whats)} messages in one {JSONL} POST (from "
                f"{whats[0]}): answer each line with one line, in order"))
        answers: list[Any] = []
        for what, line in zip(whats, got):
            try:
                if len(line) > MAX_LINE:
                    raise AdapterError(f"{what} is longer than {MAX_LINE} bytes; {HTTP_ADVICE}")
                answers.append(decoder(line, what, HTTP_ADVICE))
            except AdapterError as error:
                raise PartialAnswers(before + answers, error) from None
        return answers

    def _checked(self, data: bytes, what: str, kind: str, meanwhile: Callable[[], None] | None,
                 limit: int, sending: bool = True, reading: bool = True) -> bytes:
        """POST ``data``; the body of a 200 answer, or the protocol error saying what went wrong.

        Not ``reading``: only sent (its answer read by a later call, not ``sending``)."""
        try:
            status, reason, body = self._post(data, time.monotonic() + self.timeout, kind, meanwhile, limit,
                                              sending, reading)
            if not reading:
                return b""
        except _Aside as aside:  # the harness's own work failed, not the server: its answer is left unread
            self._disconnect()
            raise aside.error from None
        except (TimeoutError, socket.timeout):
            raise AdapterError(f"{what} did not come from {self.url} within {self.timeout:g} s: the server hangs "
                               "or is too slow (raise --timeout if it is only slow)") from None
        except ConnectionRefusedError as error:
            raise AdapterError(f"cannot reach {self.url} ({error}) for {what}: is the server running, and is "
                               "the URL right?") from None
        except Surplus as error:
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
              limit: int, sending: bool = True, reading: bool = True) -> tuple[int, str, bytes]:
        """One POST and its whole answer on the session's connection (opened if needed): its request only
        when not ``reading``, its answer only (to the request sent last) when not ``sending``.

        ``meanwhile`` runs once the request is sent, while the server answers; the deadline restarts after it.
        """
        if self.connection is None:
            if not sending:
                raise OSError("the connection closed before the answer came")
            host, port = self.address
            self.connection = self.factory(host, port, timeout=max(0.001, deadline - time.monotonic()))
            self.connection.connect()
            self.connections += 1
        sock = self.connection.sock
        assert isinstance(sock, DeadlineSocket)
        sock.deadline = deadline
        if sending:
            sock.surplus = False
            self.connection.request("POST", self.path, body=data, headers={"Content-Type": kind})
        if not reading:
            return 0, "", b""
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
            raise Surplus(f"more bytes than its Content-Length ({response.getheader('Content-Length')}) says")
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
        self._forget_ahead()
        self.live = False
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def http_engine(url: str, timeout: float = DEFAULT_TIMEOUT) -> RemoteEngine:
    """An engine reached by POSTing protocol messages to ``url``."""
    return RemoteEngine(HttpChannel(url, timeout))
