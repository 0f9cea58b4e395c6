"""An engine that never started, in the user's words: what went wrong, and the command that shows it by hand."""

from __future__ import annotations

import argparse
import json
import re
import shlex
from typing import Any

from harness import NeverStarted
from harness.adapters.protocol import AdapterError, encode, error_text, request

# What the adapters put before the reason itself: the method that raised, the exception's class, the fault's kind.
PREFIXES = re.compile(r"^(?:describe\(\) raised AdapterError: |the engine raised while starting: AdapterError: )?"
                      r"(?:protocol error: )?")
BY_HAND = "; run it by hand with the request to see why"
RESTARTED = "; the engine was stopped and is restarted for the next scenario"


def hello_line() -> str:
    """The handshake the kit sends first (spec/protocol.md), as one line of JSON."""
    return encode(request("hello", 0)).decode("utf-8").strip()


def by_hand(args: argparse.Namespace | Any) -> str:
    """The shell command that sends the engine the kit's hello and shows its answer (or why there is none)."""
    hello = hello_line()
    if getattr(args, "engine_cmd", None):
        return f"printf '%s\\n' {shlex.quote(hello)} | {args.engine_cmd}"
    if getattr(args, "engine_url", None):
        return (f"curl -sS -X POST -H 'Content-Type: application/json' --data {shlex.quote(hello)} "
                f"{shlex.quote(args.engine_url)}")
    if getattr(args, "engine_page", None):
        return (f"open {args.engine_page} in Chromium and run in its console: "
                f"await window.cardverseEngine.handle({json.dumps(hello)})")
    factory = getattr(args, "engine", None) or "reference_engine:create"
    module, _, name = factory.partition(":")
    return f"python -c {shlex.quote(f'from {module} import {name}; print({name}().describe())')}"


def reason(error: str) -> str:
    """The first line of an adapter's error, without the prefixes and advice that are the kit's, not the user's."""
    first = error.splitlines()[0] if error else "no answer to hello"
    said = PREFIXES.sub("", first.replace(RESTARTED, "").replace(BY_HAND, ""))
    return "it " + said.removeprefix("the engine ") if said.startswith("the engine ") else said


def stderr_tail(message: str, lines: int = 12) -> list[str]:
    """The last ``lines`` of the engine's stderr quoted in an error ``message`` (none when it quotes none)."""
    quoted = [line for line in message.splitlines() if line.startswith("| ")]
    return quoted[-lines:]


def never_started_words(args: argparse.Namespace | Any, error: str, tail: list[str]) -> str:
    """The whole message, for stderr: what happened, the engine's last words, the command to see it by hand."""
    lines = [f"error: the engine never started: {reason(error)}"]
    if tail:
        lines += ["the engine's stderr ends with:", *tail]
    lines += ["to see the handshake fail by hand, run:", f"  {by_hand(args)}",
              "nothing of the engine's rules was checked (spec/protocol.md, The handshake, says what hello must answer)"]
    return "\n".join(lines) + "\n"


def start_error(error: BaseException) -> str:
    """An exception from the handshake as the adapters word it (an engine's own exception with its class)."""
    if isinstance(error, AdapterError):
        return error_text(error)
    return f"describe() raised {type(error).__name__}: {error_text(error)}"


def described(engine: Any) -> dict[str, Any]:
    """The engine's description (its answer to hello); NeverStarted when there is none."""
    try:
        description = engine.describe()
    except Exception as error:  # a remote engine that does not start, an in-process one whose describe() raises
        raise NeverStarted(start_error(error)) from None
    if not isinstance(description, dict):
        raise NeverStarted(f"describe() returned {type(description).__name__}, not a mapping")
    return description
