"""``cardverse-conformance serve``: an in-process engine (the reference by default) as a protocol server.

On stdio (JSON lines) or on HTTP at 127.0.0.1 only (``http.py``). A session (the stdio
stream, or one HTTP connection) starts with hello and holds one game at a time, plus the copies
made by fork. Every request is bounded (size, nesting) and checked against the protocol's schemas;
a bad one gets an error answer and the server goes on.
"""

from __future__ import annotations

import copy
import io
import sys
import time
from collections.abc import Callable
from typing import Any, BinaryIO

from harness.adapters.engine import Engine, Game
from harness.adapters.polling import Poller
from harness.adapters.protocol import (
    MAX_DEPTH,
    MAX_LINE,
    PROTOCOL_VERSION,
    AdapterError,
    decode,
    encode,
    schema_problem,
)


class ProtocolServer:
    """Answers the protocol messages of one session with an in-process engine."""

    def __init__(self, engine: Engine, declares: dict[str, Any] | None = None) -> None:
        self.engine = engine
        self.declares = declares or {}  # what the transport adds to hello (HTTP: jsonl)
        self.games: list[Game] = []  # [0]: the game of the latest start; then the copies made by fork
        self.greeted = False
        self.stopped = False

    def handle(self, message: Any) -> dict[str, Any]:
        """The answer to one message; never raises."""
        seq = message.get("seq") if isinstance(message, dict) else None
        cmd = message.get("cmd") if isinstance(message, dict) else None
        keyed = {"seq": seq} if isinstance(seq, int) and not isinstance(seq, bool) and seq >= 1 else {}
        if cmd not in HANDLERS:
            return {**keyed, "error": f"protocol error: unknown cmd {cmd!r}; expected one of {', '.join(HANDLERS)}"}
        try:
            problem = schema_problem(f"{cmd}-request", message)
        except RecursionError:
            problem = "$: nested too deeply"
        if problem:
            return {**keyed, "error": f"protocol error: spec/schemas/protocol/{cmd}-request.json: {problem}"}
        if not self.greeted and cmd != "hello":
            return {**keyed, "error": f"protocol error: {cmd} before hello: a session starts with "
                                      f'{{"cmd": "hello", "protocol": {PROTOCOL_VERSION}}} (spec/protocol.md)'}
        try:
            return {**keyed, **HANDLERS[cmd](self, message)}
        except Exception as error:  # an engine's failure is an answer, never the server's end
            return {**keyed, "error": f"{type(error).__name__}: {error}"}

    def hello(self, message: dict[str, Any]) -> dict[str, Any]:
        """The handshake: our version, batches, and the engine's description, whatever version was asked."""
        self.greeted = True
        return {"protocol": PROTOCOL_VERSION, "batch": True, **self.declares, **declare_clone(self.engine.describe())}

    def batch(self, message: dict[str, Any]) -> dict[str, Any]:
        """Each request of the batch answered in order, as if sent alone."""
        return {"answers": [self.handle(inner) for inner in message["requests"]]}

    def start(self, message: dict[str, Any]) -> dict[str, Any]:
        """A new game, replacing any game in progress and its copies."""
        self.games = []
        self.games = [self.engine.start(message["setup"])]
        return {"result": None}

    def current(self, message: dict[str, Any]) -> Game:
        """The game the request names (0, the default: the game of the latest start)."""
        number = message.get("game", 0)
        if not self.games:
            raise RuntimeError("no game in progress: send start first")
        if number >= len(self.games):
            raise RuntimeError(f"no game {number}: fork made games 1 to {len(self.games) - 1} since the last start")
        return self.games[number]

    def legal_actions(self, message: dict[str, Any]) -> dict[str, Any]:
        """The legal actions."""
        return {"result": self.current(message).legal_actions()}

    def apply(self, message: dict[str, Any]) -> dict[str, Any]:
        """Accepted, or refused with the reason."""
        reason = self.current(message).apply(message["seat"], message["action"])
        return {"accepted": True} if reason is None else {"accepted": False, "reason": reason}

    def state(self, message: dict[str, Any]) -> dict[str, Any]:
        """The full state view."""
        return {"result": self.current(message).state()}

    def observation(self, message: dict[str, Any]) -> dict[str, Any]:
        """One seat's view."""
        return {"result": self.current(message).observation(message["seat"])}

    def fork(self, message: dict[str, Any]) -> dict[str, Any]:
        """A copy of a game, going on apart from it: the game's own clone(), else a deep copy."""
        game = self.current(message)
        clone = getattr(game, "clone", None)
        self.games.append(clone() if callable(clone) else copy.deepcopy(game))
        return {"result": {"game": len(self.games) - 1}}

    def stop(self, message: dict[str, Any]) -> dict[str, Any]:
        """Forget the games; over stdio the server then exits."""
        self.games, self.stopped = [], True
        return {"result": None}


def serve_choose(server: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Answer ``choose`` with the engine's view players."""
    choose = getattr(server.engine, "choose", None)
    if choose is None:
        raise RuntimeError("this engine has no computer players taking a view (no choose)")
    return {"result": choose(message["view"])}


def serve_choose_seat(server: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Answer ``choose_seat`` with the game's own bots."""
    choose_seat = getattr(server.current(message), "choose_seat", None)
    if choose_seat is None:
        raise RuntimeError("this engine's games have no bots of their own (no choose_seat)")
    return {"result": choose_seat(message["seat"], message["level"], message["seed"])}


Handler = Callable[[ProtocolServer, dict[str, Any]], dict[str, Any]]
# One line per command: a new message is a method above and its name here.
HANDLERS: dict[str, Handler] = {
    "hello": ProtocolServer.hello,
    "batch": ProtocolServer.batch,
    "start": ProtocolServer.start,
    "legal_actions": ProtocolServer.legal_actions,
    "apply": ProtocolServer.apply,
    "state": ProtocolServer.state,
    "observation": ProtocolServer.observation,
    "fork": ProtocolServer.fork,
    "stop": ProtocolServer.stop,
    "choose": serve_choose,  # spec/players.md
    "choose_seat": serve_choose_seat,
}


def declare_clone(description: dict[str, Any]) -> dict[str, Any]:
    """The description with ``clone`` declared for every game: serve forks any game (a deep copy at worst)."""
    games = {name: {**game, "features": {**game.get("features", {}), "clone": True}}
             for name, game in description.get("games", {}).items()}
    return {**description, "games": games}


def answer_line(server: ProtocolServer, line: bytes) -> dict[str, Any]:
    """The answer to one line (or HTTP body) of input, bounded in size and nesting."""
    if len(line) > MAX_LINE:
        return {"error": f"protocol error: a request is longer than {MAX_LINE} bytes"}
    try:
        message = decode(line, "the request", "send one JSON object per line", max_depth=MAX_DEPTH)
    except AdapterError as error:
        return {"error": str(error)}
    return server.handle(message)


def read_next(stdin: Any, poller: Poller) -> bytes:
    """Whatever input is there, waiting only when nothing is (polling first, see ``Poller``)."""
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):  # a stream in memory (tests): never waits
        return stdin.read1(1 << 16)  # type: ignore[no-any-return]
    if poller.ready(fd):
        return stdin.read1(1 << 16)  # type: ignore[no-any-return]
    slept = time.monotonic()
    chunk = stdin.read1(1 << 16)
    poller.slept(time.monotonic() - slept)
    return chunk  # type: ignore[no-any-return]


def serve_stdio(engine: Engine, stdin: io.BufferedIOBase | None = None, stdout: BinaryIO | None = None) -> int:
    """Answer JSON lines until stop or the end of stdin.

    Requests already in the pipe are answered before one write of their answers (a harness that
    pipelines a scenario's requests pays one wake-up, not one per request), except that a batch's
    answer is written at once: it is a scenario's whole exchange, which the harness can judge while
    the next batches are answered. A line past the size limit gets one error answer and is skipped
    to its end, however long it is.
    """
    stdin = stdin or sys.stdin.buffer  # type: ignore[assignment]
    assert stdin is not None
    stdout = stdout or sys.stdout.buffer
    server = ProtocolServer(engine)
    pending, skipping, poller = b"", False, Poller()
    while not server.stopped:
        chunk = read_next(stdin, poller)
        if not chunk:
            break
        *lines, pending = (pending + chunk).split(b"\n")
        answers = []
        if skipping and lines:  # the rest of the overlong line ends here
            lines, skipping = lines[1:], False
        for line in lines:
            answer = answer_line(server, line)
            answers.append(encode(answer))
            if server.stopped:
                break
            if "answers" in answer:  # a batch's: written at once
                stdout.write(b"".join(answers))
                stdout.flush()
                answers = []
        if len(pending) > MAX_LINE and not skipping:  # no newline in sight: answer it once, skip to its end
            answers.append(encode(answer_line(server, pending)))
            skipping = True
        if skipping:
            pending = b""
        if answers:
            stdout.write(b"".join(answers))
            stdout.flush()  # the harness waits for these lines: never leave them in a buffer
    return 0
