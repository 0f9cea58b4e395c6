"""``cardverse-conformance serve``: an in-process engine (the reference by default) as a protocol server.

On stdio (JSON lines) or on HTTP at 127.0.0.1 only. One game at a time per server: a start
replaces the game in progress, so one server serves one harness run at a time. It checks the
requests it receives against the protocol's schemas and answers a bad one with an error.
"""

from __future__ import annotations

import io
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, BinaryIO

from harness.adapters.protocol import MAX_LINE, PROTOCOL_VERSION, AdapterError, decode, encode, schema_problem
from harness.engine import Engine, Game
from harness.players import protocol as players_protocol


class ProtocolServer:
    """Answers protocol messages with an in-process engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.game: Game | None = None
        self.stopped = False

    def handle(self, message: Any) -> dict[str, Any]:
        """The answer to one message; never raises."""
        seq = message.get("seq") if isinstance(message, dict) else None
        cmd = message.get("cmd") if isinstance(message, dict) else None
        keyed = {"seq": seq} if isinstance(seq, int) and not isinstance(seq, bool) and seq >= 1 else {}
        if cmd not in HANDLERS:
            return {**keyed, "error": f"protocol error: unknown cmd {cmd!r}; expected one of {', '.join(HANDLERS)}"}
        problem = schema_problem(f"{cmd}-request", message)
        if problem:
            return {**keyed, "error": f"protocol error: spec/schemas/protocol/{cmd}-request.json: {problem}"}
        try:
            return {**keyed, **HANDLERS[cmd](self, message)}
        except Exception as error:  # an engine's failure is an answer, never the server's end
            return {**keyed, "error": f"{type(error).__name__}: {error}"}

    def hello(self, message: dict[str, Any]) -> dict[str, Any]:
        """The handshake: our version and the engine's description, whatever version was asked."""
        return {"protocol": PROTOCOL_VERSION, **self.engine.describe()}

    def start(self, message: dict[str, Any]) -> dict[str, Any]:
        """A new game, replacing any game in progress."""
        self.game = None
        self.game = self.engine.start(message["setup"])
        return {"result": None}

    def current(self) -> Game:
        """The game in progress."""
        if self.game is None:
            raise RuntimeError("no game in progress: send start first")
        return self.game

    def legal_actions(self, message: dict[str, Any]) -> dict[str, Any]:
        """The legal actions."""
        return {"result": self.current().legal_actions()}

    def apply(self, message: dict[str, Any]) -> dict[str, Any]:
        """Accepted, or refused with the reason."""
        reason = self.current().apply(message["seat"], message["action"])
        return {"accepted": True} if reason is None else {"accepted": False, "reason": reason}

    def state(self, message: dict[str, Any]) -> dict[str, Any]:
        """The full state view."""
        return {"result": self.current().state()}

    def observation(self, message: dict[str, Any]) -> dict[str, Any]:
        """One seat's view."""
        return {"result": self.current().observation(message["seat"])}

    def stop(self, message: dict[str, Any]) -> dict[str, Any]:
        """Forget the game; over stdio the server then exits."""
        self.game, self.stopped = None, True
        return {"result": None}


HANDLERS = {name: getattr(ProtocolServer, name)
            for name in ("hello", "start", "legal_actions", "apply", "state", "observation", "stop")}
HANDLERS.update(players_protocol.server_handlers())  # choose, choose_seat (spec/players.md)


def serve_stdio(engine: Engine, stdin: io.BufferedIOBase | None = None, stdout: BinaryIO | None = None) -> int:
    """Answer JSON lines until stop or the end of stdin.

    Every request already in the pipe is answered before one write of all the answers: a harness
    that pipelines a scenario's requests pays one wake-up per batch, not one per request.
    """
    stdin = stdin or sys.stdin.buffer  # type: ignore[assignment]
    assert stdin is not None
    stdout = stdout or sys.stdout.buffer
    server = ProtocolServer(engine)
    pending = b""
    while not server.stopped:
        chunk = stdin.read1(1 << 16)  # whatever is there, waiting only when nothing is
        if not chunk:
            break
        *lines, pending = (pending + chunk).split(b"\n")
        answers = []
        for line in lines:
            answers.append(encode(_answer(server, line)))
            if server.stopped:
                break
        if len(pending) > MAX_LINE:  # no newline in sight: answer it, drop it, go on
            answers.append(encode({"error": f"protocol error: a request is longer than {MAX_LINE} bytes"}))
            pending = b""
        if answers:
            stdout.write(b"".join(answers))
            stdout.flush()  # the harness waits for these lines: never leave them in a buffer
    return 0


def _answer(server: ProtocolServer, line: bytes) -> dict[str, Any]:
    """The answer to one line of input."""
    try:
        message = decode(line, "the request")
    except AdapterError as error:
        return {"error": str(error)}
    return server.handle(message)


class _Handler(BaseHTTPRequestHandler):
    """One POST, one message; the server object carries the ProtocolServer."""

    server: _Server

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_LINE:
            self._answer(413, {"error": f"protocol error: a message is at most {MAX_LINE} bytes"})
            return
        try:
            message = json.loads(self.rfile.read(length))
        except ValueError as error:
            self._answer(400, {"error": f"protocol error: the body is not JSON ({error})"})
            return
        self._answer(200, self.server.protocol.handle(message))

    def do_GET(self) -> None:  # noqa: N802
        body = f"CardVerse engine protocol {PROTOCOL_VERSION}: POST one JSON message per request (spec/protocol.md)\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.end_headers()
        self.wfile.write(body.encode())

    def _answer(self, status: int, answer: dict[str, Any]) -> None:
        data = encode(answer)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's signature
        pass  # a line per request would drown the harness's own output


class _Server(HTTPServer):
    """A one-request-at-a-time HTTP server holding one ProtocolServer (one game at a time)."""

    def __init__(self, port: int, engine: Engine) -> None:
        super().__init__(("127.0.0.1", port), _Handler)  # loopback only: this is a test tool, not a service
        self.protocol = ProtocolServer(engine)


def http_server(engine: Engine, port: int = 0) -> _Server:
    """A server bound to 127.0.0.1:``port`` (0: any free port); call serve_forever() on it."""
    return _Server(port, engine)


def serve_http(engine: Engine, port: int) -> int:
    """Serve on 127.0.0.1:``port`` until interrupted; the address goes to stderr first."""
    try:
        server = http_server(engine, port)
    except OSError as error:
        sys.stderr.write(f"cannot listen on 127.0.0.1:{port} ({error.strerror or error}): choose another "
                         "--http PORT (0 picks a free one)\n")
        return 2
    sys.stderr.write(f"serving engine protocol {PROTOCOL_VERSION} on http://127.0.0.1:{server.server_address[1]}/ "
                     "(one game at a time; Ctrl-C stops)\n")
    sys.stderr.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
