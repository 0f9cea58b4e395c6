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
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

import msgspec

from harness.adapters.engine import Engine, Game
from harness.adapters.polling import Poller
from harness.adapters.protocol import (
    MAX_DEPTH,
    MAX_LINE,
    MAX_POST,
    PROTOCOL_VERSION,
    AdapterError,
    decode,
    each_follows,
    encode,
    nesting,
    schema_problem,
)
from harness.host.collector import collector_paused
from harness.host.text import cut
from harness.serve.counting import perft

ANSWER_FACTOR = 4  # the refusals of a body's bad lines may answer at most this many times the body...
ANSWER_ALLOWANCE = 1 << 16  # ...plus this, so a small body with a few bad lines is answered line for line
MAX_ANSWER = MAX_POST  # the answer to one body stops here (16 MiB, as the body)
BODY_SECONDS = 60.0  # and after this long
NOT_JSON = "protocol error: the request is not JSON; send one JSON object per line"


class ProtocolServer:
    """Answers the protocol messages of one session with an in-process engine."""

    def __init__(self, engine: Engine, declares: dict[str, Any] | None = None) -> None:
        self.engine = engine
        # what hello declares beyond the engine's description: the transport's (HTTP: jsonl), or perft switched off
        self.declares = {"batch": True, "perft": True, **(declares or {})}
        self.games: list[Game] = []  # [0]: the game of the latest start; then the copies made by fork
        self.greeted = False
        self.stopped = False

    def handle(self, message: Any) -> dict[str, Any]:
        """The answer to one message; never raises."""
        seq = message.get("seq") if isinstance(message, dict) else None
        cmd = message.get("cmd") if isinstance(message, dict) else None
        keyed = {"seq": seq} if isinstance(seq, int) and not isinstance(seq, bool) and seq >= 1 else {}
        problem = self.problem(message, cmd, self.greeted)
        if problem:
            return {**keyed, "error": problem}
        try:
            return {**keyed, **HANDLERS[str(cmd)](self, message)}
        except Exception as error:  # an engine's failure is an answer, never the server's end
            return {**keyed, "error": f"{type(error).__name__}: {cut(error)}"}

    @staticmethod
    def problem(message: Any, cmd: Any, greeted: bool) -> str | None:
        """Why a decoded message gets an error answer before it reaches the engine, or None; short, quoting little."""
        if not isinstance(cmd, str) or cmd not in HANDLERS:  # a list or an object cannot even be looked up
            return f"protocol error: unknown cmd {cut(repr(cmd), 40)}; expected one of {', '.join(HANDLERS)}"
        try:
            problem = schema_problem(f"{cmd}-request", message)
        except RecursionError:
            problem = "$: nested too deeply"
        if problem:
            return f"protocol error: spec/schemas/protocol/{cmd}-request.json: {problem}"
        if not greeted and cmd != "hello":
            return (f"protocol error: {cmd} before hello: a session starts with "
                    f'{{"cmd": "hello", "protocol": {PROTOCOL_VERSION}}} (spec/protocol.md)')
        return None

    def hello(self, message: dict[str, Any]) -> dict[str, Any]:
        """The handshake: our version, batches, counting, and the engine's description, whatever version was asked."""
        self.greeted = True
        return {"protocol": PROTOCOL_VERSION, **self.declares, **declare_clone(self.engine.describe())}

    def batch(self, message: dict[str, Any]) -> dict[str, Any]:
        """Each request of the batch answered in order, as if sent alone."""
        requests = message["requests"]
        kinds: dict[str, list[Any]] = {}
        for inner in requests:  # the batch's schema says each is an object with a cmd of the batchable ones
            kinds.setdefault(f"{inner['cmd']}-request", []).append(inner)
        if not each_follows(kinds):  # someone's bad request: each answered alone, its error its own
            return {"answers": [self.handle(inner) for inner in requests]}
        answers = []
        with collector_paused():  # hundreds of answers and copies, and as many games held as perft keeps
            for inner in requests:  # checked above, one schema check per kind of request instead of one each
                try:
                    answers.append({"seq": inner["seq"], **HANDLERS[inner["cmd"]](self, inner)})
                except Exception as error:  # as in handle: an engine's failure is an answer
                    answers.append({"seq": inner["seq"], "error": f"{type(error).__name__}: {cut(error)}"})
        return {"answers": answers}

    def start(self, message: dict[str, Any]) -> dict[str, Any]:
        """A new game, replacing any game in progress and its copies."""
        self.games = []  # a start that fails leaves no game: the next request is about no stale one
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

    def perft(self, message: dict[str, Any]) -> dict[str, Any]:
        """The counts per depth and the divide below a game held (on copies) or a setup's start; nothing held changes."""
        if not self.declares.get("perft"):
            raise RuntimeError("this server does not count (it was started with --no-perft): send legal_actions, "
                               "apply and fork instead")
        game = self.engine.start(message["setup"]) if "setup" in message else self.current({"game": message["fork"]})
        return {"result": perft(game, message["depth"])}

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
    "perft": ProtocolServer.perft,  # protocol 1.1
    "stop": ProtocolServer.stop,
    "choose": serve_choose,  # spec/players.md
    "choose_seat": serve_choose_seat,
}


def declare_clone(description: dict[str, Any]) -> dict[str, Any]:
    """The description with ``clone`` declared for every game: serve forks any game (a deep copy at worst)."""
    games = {name: {**game, "features": {**game.get("features", {}), "clone": True}}
             for name, game in description.get("games", {}).items()}
    return {**description, "games": games}


def decoded(line: bytes) -> tuple[Any, str | None]:
    """One line of input as a message, or why not: a short error that does not repeat the request."""
    if len(line) > MAX_LINE:
        return None, f"protocol error: a request is longer than {MAX_LINE} bytes"
    if not line.lstrip().startswith(b"{"):  # garbage answered without the decoder: a body may hold millions
        return None, NOT_JSON
    if line.count(b"[") + line.count(b"{") > MAX_DEPTH and nesting(line, MAX_DEPTH) > MAX_DEPTH:
        return None, f"protocol error: the request is nested deeper than {MAX_DEPTH} levels"
    try:
        return decode(line, "the request"), None
    except AdapterError:
        return None, NOT_JSON


def answer_line(server: ProtocolServer, line: bytes) -> dict[str, Any]:
    """The answer to one line (or HTTP body) of input, bounded in size and nesting."""
    message, problem = decoded(line)
    return {"error": problem} if problem else server.handle(message)


def body_lines(body: bytes) -> Iterator[bytes]:
    """The non-blank lines of a JSON-lines body, split at newlines only (never at a CR inside a bad line), one at a time."""
    start = 0
    while start < len(body):
        end = body.find(b"\n", start)
        end = len(body) if end < 0 else end
        line = body[start:end]
        start = end + 1
        if line.strip():
            yield line


class Named(msgspec.Struct):
    """What counting a body's refusals needs of a line: its cmd (the rest is parsed, not built)."""

    cmd: Any = None


NAMED = msgspec.json.Decoder(Named)


def names_a_command(line: bytes) -> bool:
    """Whether ``decoded`` takes the line for a message with a known cmd, found at a fraction of its cost: an ASCII
    line (no bytes that are not UTF-8 inside a string skipped) of one JSON object, within the size and the depth
    the bracket count bounds. False says nothing: ``decoded`` decides."""
    if len(line) > MAX_LINE or not line.isascii() or line.count(b"[") + line.count(b"{") > MAX_DEPTH:
        return False
    try:
        cmd = NAMED.decode(line).cmd
    except (msgspec.DecodeError, RecursionError):
        return False
    return isinstance(cmd, str) and cmd in HANDLERS


def too_many_refusals(body: bytes) -> str | None:
    """Why the body is refused whole, or None: its lines that are not requests would answer past the bound.

    Counted from the start and stopped as soon as the bound is passed, so a body of millions of
    tiny bad lines costs a fraction of a second; the costlier checks (the schema) run with the line.
    """
    bound, size, count, lines = ANSWER_FACTOR * len(body) + ANSWER_ALLOWANCE, 0, 0, 0
    for line in body_lines(body):
        lines += 1
        if names_a_command(line):
            continue
        message, problem = decoded(line)
        if problem is None and not (isinstance(message, dict) and isinstance(message.get("cmd"), str)
                                    and message["cmd"] in HANDLERS):
            problem = "protocol error: unknown cmd"
        if problem:
            size, count = size + len(problem) + 24, count + 1  # the answer line around the error text
            if size > bound:
                return (f"protocol error: {count} of the first {lines} lines are not requests, and their error answers "
                        f"would pass {ANSWER_FACTOR} times the body; nothing was run: send one JSON object per line")
    return None


def answer_body(server: ProtocolServer, body: bytes) -> tuple[bool, bytes]:
    """(answered, the answer) to a JSON-lines body: its lines answered in turn, the answer bounded by the body.

    Refusals (not JSON, not a request) are short, but a body of tiny bad lines would still be
    answered many times over: when they alone would pass ``ANSWER_FACTOR`` times the body, the body
    is refused whole before anything runs. The lines that run are bounded too: the answer stops at
    ``MAX_ANSWER`` bytes or after ``BODY_SECONDS``, with one last line saying how many were not run.
    """
    refused = too_many_refusals(body)
    if refused:
        return False, encode({"error": refused})
    answers, done, deadline = bytearray(), 0, time.monotonic() + BODY_SECONDS
    for line in body_lines(body):
        if len(answers) > MAX_ANSWER or time.monotonic() > deadline:
            answers += encode({"error": f"protocol error: the lines after the first {done} were not run (the "
                                        f"answer passed {MAX_ANSWER} bytes or {BODY_SECONDS:g} s): POST fewer"})
            break
        answers += encode(answer_line(server, line))
        done += 1
    return True, bytes(answers)


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


def serve_stdio(engine: Engine, stdin: io.BufferedIOBase | None = None, stdout: BinaryIO | None = None,
                declares: dict[str, Any] | None = None) -> int:
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
    server = ProtocolServer(engine, declares)
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
