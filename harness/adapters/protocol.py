"""The protocol's messages: building requests, checking both directions against spec/schemas/protocol.

Transport-free: it knows JSON and the schemas, not pipes, processes or sockets.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any, Protocol

import msgspec

from harness.host.text import LONE_SURROGATE, cut, has_lone_surrogate
from harness.spec import gamespec as specs

PROTOCOL_VERSION = 1
MAX_LINE = 1 << 20  # 1 MiB: far above any real answer, low enough to stop a runaway engine early
MAX_DEPTH = 64  # real messages nest about 6 deep; past this a validator or an engine could exhaust the stack
SPEC_HINT = "see spec/protocol.md"
STDIO_ADVICE = "write exactly one JSON object per line on stdout, and any log on stderr"
HTTP_ADVICE = "answer every POST with 200 and one JSON object as the body"
JSONL = "application/jsonl"  # a POST of several messages, one per line, answered line for line (declared: jsonl)
MAX_POST = 16 * MAX_LINE  # the largest such POST, and its answer
# msgspec's coders, several times the standard library's (json.loads and dumps are a third of the
# protocol's cost), built once. Its decoder's no is not the last word: what it refuses goes to the
# standard decoder, which accepts what it always did (NaN, a lone surrogate) or words the error.
_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder()
_STANDARD = json.JSONDecoder()


class Decoder(Protocol):
    """What makes a line (or an HTTP body) an answer: ``decode``, unless the caller of a transport says otherwise."""

    def __call__(self, data: bytes, what: str, advice: str = STDIO_ADVICE) -> Any: ...


class AdapterError(Exception):
    """The engine broke the protocol (bad message, crash, hang): never a rule failure."""

    def __init__(self, message: str) -> None:
        super().__init__(f"protocol error: {message}")
        self.reason = message


class StrayOutput(AdapterError):
    """Output the engine wrote before the first answer it owed: the fault of the exchange before."""


class GroupFailure(AdapterError):
    """A message carrying several exchanges failed as a whole (an HTTP POST): none of them can be charged with it."""


class PartialAnswers(Exception):
    """A pipelined exchange that failed part-way: the answers that came, then the failure."""

    def __init__(self, answers: list[Any], error: AdapterError) -> None:
        super().__init__(str(error))
        self.answers, self.error = answers, error


class EngineError(Exception):
    """The engine answered a request with ``{"error": ...}``: it failed, it did not refuse."""


@cache
def _validator(name: str) -> Any:
    """The validator of one message schema, built once per process."""
    return specs.validator(f"protocol/{name}.json")


def error_text(error: BaseException) -> str:
    """An exception's text for a message: the kit's own protocol errors whole (their parts are cut), any other cut."""
    return str(error) if isinstance(error, (AdapterError, EngineError)) else cut(error)


def schema_problem(name: str, message: Any) -> str | None:
    """Why ``message`` does not follow ``spec/schemas/protocol/<name>.json``, or None."""
    validator = _validator(name)
    if validator.is_valid(message):  # the fast path: is_valid stops at the first error
        return None
    error = min(validator.iter_errors(message), key=lambda e: (len(e.absolute_path), str(e.message)))
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"{where}: {cut(error.message)}"  # the message quotes the value, which may be 64 KiB


def request(cmd: str, seq: int, **fields: Any) -> dict[str, Any]:
    """A request, checked against its schema (a failure here is the harness's own bug)."""
    message = {"cmd": cmd, "protocol": PROTOCOL_VERSION} if cmd == "hello" else {"seq": seq, "cmd": cmd, **fields}
    problem = schema_problem(f"{cmd}-request", message)
    if problem:
        raise AdapterError(f"the harness built an invalid {cmd} request ({problem}); "
                           "please report this as a bug of the kit")
    return message


def encode(message: dict[str, Any]) -> bytes:
    """One message as one line of UTF-8 JSON."""
    return _ENCODER.encode(message) + b"\n"


def decode(data: bytes, what: str, advice: str = STDIO_ADVICE, max_depth: int | None = None) -> Any:
    """A line (or an HTTP body) as JSON, or a protocol error quoting what came instead.

    Past the interpreter's recursion limit the decoder cannot go: that is a protocol error too.
    ``max_depth`` bounds the nesting before decoding (``serve`` uses it: a hostile request must
    not reach the engine); the harness leaves it off, as a bracket count per answer costs time.
    """
    if max_depth is not None and data.count(b"[") + data.count(b"{") > max_depth and nesting(data, max_depth) > max_depth:
        raise AdapterError(f"{what} is nested deeper than {max_depth} levels: {quote(data)}; {SPEC_HINT}")
    if has_lone_surrogate(data):  # it would decode to a string that no output (a report, the console) can hold
        raise AdapterError(f"{what}: {LONE_SURROGATE}: {quote(data)}; {advice}")
    try:
        return _DECODER.decode(data)
    except (msgspec.DecodeError, RecursionError):
        pass
    try:
        return _STANDARD.decode(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        why = "nested too deeply to parse" if isinstance(error, RecursionError) else str(error)
        raise AdapterError(f"{what} is not JSON ({why}): {quote(data)}; {advice}") from None


_QUOTED = re.compile(rb'"[^"]*"')
_QUOTED_ESCAPES = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
_ONE_BRACKET = bytes.maketrans(b"{}", b"[]")


def nesting(data: bytes, limit: int) -> int:
    """How deep lists and objects nest in the JSON text ``data``, counted up to ``limit + 1``, without parsing it.

    Everything but brackets and quotes is dropped, then the strings: first the quotes side by side (an
    end and the next start, or an empty string: most strings are ``""`` by then), which leaves every
    bracket inside or outside a string as it was; each round of deleting ``[]`` pairs takes away one
    level, all in C.
    """
    if b"\\" in data:  # an escaped quote would end a string early for the plain pattern
        data = _QUOTED_ESCAPES.sub(b"", data)
    brackets = data.translate(_ONE_BRACKET, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in brackets:
        brackets = _QUOTED.sub(b"", brackets)
    for level in range(limit + 1):
        if not brackets:
            return level
        brackets = brackets.replace(b"[]", b"")
    return limit + 1


def quote(data: bytes) -> str:
    """The start of what came, for an error message."""
    shown = data[:120].decode("utf-8", "replace").rstrip("\n")
    return f"{shown!r}{'...' if len(data) > 120 else ''}"


def check_answer(cmd: str, seq: int | None, answer: Any, what: str) -> dict[str, Any]:
    """The answer to ``cmd``, checked against its schema and its seq; an engine error raises EngineError."""
    if not isinstance(answer, dict):
        raise AdapterError(f"{what} is {type(answer).__name__}, not a JSON object; {SPEC_HINT}")
    name = "error-response" if "error" in answer else f"{cmd}-response"
    try:
        problem = schema_problem(name, answer)
    except RecursionError:  # parsed, but too deep for a validator: no real answer is
        problem = "$: nested too deeply"
    if problem:
        raise AdapterError(f"{what} does not follow spec/schemas/protocol/{name}.json: {problem}; {SPEC_HINT}")
    if answer.get("seq") != seq:
        echoed = "no seq" if "seq" not in answer else f"seq {answer['seq']}"
        raise AdapterError(f"{what} carries {echoed}: every answer echoes its request's seq, one answer per "
                           "request, in order")
    if "error" in answer:
        raise EngineError(f"the engine answered {cmd} with an error: {cut(answer['error'])}")
    return answer


@cache
def _list_validator(name: str) -> Any:
    """A validator of a list of messages, each against ``spec/schemas/protocol/<name>.json``, built once."""
    each = {k: v for k, v in specs.schema(f"protocol/{name}.json").items() if k not in ("$id", "$schema")}
    return specs.Validator({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "array", "items": each})


def all_good(calls: list[tuple[str, dict[str, Any]]], seqs: list[int], answers: list[Any]) -> bool:
    """Whether every answer is its request's, on its schema and no error: one check per kind of request, not one
    per answer (a batch holds hundreds); when not, ``check_answer`` one by one says what is wrong."""
    if len(answers) != len(calls):
        return False
    kinds: dict[str, list[Any]] = {}
    for (cmd, _), seq, answer in zip(calls, seqs, answers):
        if type(answer) is not dict or answer.get("seq") != seq or "error" in answer:
            return False
        kinds.setdefault(f"{cmd}-response", []).append(answer)
    return each_follows(kinds)


def each_follows(groups: dict[str, list[Any]]) -> bool:
    """Whether every message of each group follows its schema, ``spec/schemas/protocol/<name>.json``."""
    try:
        return all(_list_validator(name).is_valid(many) for name, many in groups.items())
    except RecursionError:
        return False


def check_hello(answer: dict[str, Any]) -> dict[str, Any]:
    """The engine's description from its handshake, once its protocol version matches ours."""
    if answer["protocol"] != PROTOCOL_VERSION:
        raise AdapterError(f"the engine speaks protocol {answer['protocol']}; this kit speaks protocol "
                           f"{PROTOCOL_VERSION}: update the adapter to version {PROTOCOL_VERSION} ({SPEC_HINT}) "
                           "or use a kit that speaks its version")
    return {"name": answer["name"], "version": answer["version"], "games": answer["games"]}
