"""The protocol's messages: building requests, checking both directions against spec/schemas/protocol.

Transport-free: it knows JSON and the schemas, not pipes, processes or sockets.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from harness import spec as specs

PROTOCOL_VERSION = 1
MAX_LINE = 1 << 20  # 1 MiB: far above any real answer, low enough to stop a runaway engine early
COMMANDS = ("hello", "start", "legal_actions", "apply", "state", "observation", "stop")
SPEC_HINT = "see spec/protocol.md"
# Built once: json.dumps/loads with any non-default argument build a new coder on every call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_DECODER = json.JSONDecoder()


class AdapterError(Exception):
    """The engine broke the protocol (bad message, crash, hang): never a rule failure."""

    def __init__(self, message: str) -> None:
        super().__init__(f"protocol error: {message}")
        self.reason = message


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


def schema_problem(name: str, message: Any) -> str | None:
    """Why ``message`` does not follow ``spec/schemas/protocol/<name>.json``, or None."""
    validator = _validator(name)
    if validator.is_valid(message):  # the fast path: is_valid stops at the first error
        return None
    error = min(validator.iter_errors(message), key=lambda e: (len(e.absolute_path), str(e.message)))
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"{where}: {error.message}"


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
    return (_ENCODER.encode(message) + "\n").encode("utf-8")


def decode(data: bytes, what: str) -> Any:
    """A line (or an HTTP body) as JSON, or a protocol error quoting what came instead."""
    try:
        return _DECODER.decode(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        shown = data[:120].decode("utf-8", "replace").rstrip("\n")
        raise AdapterError(f"{what} is not JSON ({error}): {shown!r}{'...' if len(data) > 120 else ''}; "
                           "write exactly one JSON object per line on stdout, and any log on stderr") from None


def check_answer(cmd: str, seq: int | None, answer: Any, what: str) -> dict[str, Any]:
    """The answer to ``cmd``, checked against its schema and its seq; an engine error raises EngineError."""
    if not isinstance(answer, dict):
        raise AdapterError(f"{what} is {type(answer).__name__}, not a JSON object; {SPEC_HINT}")
    name = "error-response" if "error" in answer else f"{cmd}-response"
    problem = schema_problem(name, answer)
    if problem:
        raise AdapterError(f"{what} does not follow spec/schemas/protocol/{name}.json: {problem}; {SPEC_HINT}")
    if answer.get("seq") != seq:
        echoed = "no seq" if "seq" not in answer else f"seq {answer['seq']}"
        raise AdapterError(f"{what} carries {echoed}: every answer echoes its request's seq, one answer per "
                           "request, in order")
    if "error" in answer:
        raise EngineError(f"the engine answered {cmd} with an error: {answer['error']}")
    return answer


def check_hello(answer: dict[str, Any]) -> dict[str, Any]:
    """The engine's description from its handshake, once its protocol version matches ours."""
    if answer["protocol"] != PROTOCOL_VERSION:
        raise AdapterError(f"the engine speaks protocol {answer['protocol']}; this kit speaks protocol "
                           f"{PROTOCOL_VERSION}: update the adapter to version {PROTOCOL_VERSION} ({SPEC_HINT}) "
                           "or use a kit that speaks its version")
    return {"name": answer["name"], "version": answer["version"], "games": answer["games"]}
