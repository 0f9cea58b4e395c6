"""The reference engine behind the protocol, with hooks to misbehave: the base of every fake engine here.

A fake is run as ``python <fake>.py [SEQ]``; SEQ is the harness's request number at which it
misbehaves. The harness numbers requests across restarts, so a fake misbehaves once per run.
With ``FAKE_BATCH=1`` in its environment it declares and answers batches (a hook then sees a
batch whole: its seq, and its answer line).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from reference_engine import create

Hook = Callable[[dict[str, Any], dict[str, Any]], "bytes | dict[str, Any]"]


def at() -> int:
    """The request number to misbehave at, from the command line."""
    return int(sys.argv[1]) if len(sys.argv) > 1 else 0


class Server:
    """A minimal adapter over the reference engine (no schema checks: it starts fast, like a real one)."""

    def __init__(self) -> None:
        self.engine, self.game, self.stopped = create(), None, False

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        cmd, keyed = message["cmd"], {"seq": message["seq"]} if "seq" in message else {}
        if cmd == "hello":  # a minimal adapter: it answers no fork, so it declares no clone
            description = self.engine.describe()
            for game in description["games"].values():
                game.get("features", {})["clone"] = False
            return {"protocol": 1, **description, **({"batch": True} if os.environ.get("FAKE_BATCH") else {})}
        if cmd == "batch":
            return {**keyed, "answers": [self.handle(inner) for inner in message["requests"]]}
        if cmd == "start":
            self.game = self.engine.start(message["setup"])
            return {**keyed, "result": None}
        if cmd == "apply":
            reason = self.game.apply(message["seat"], message["action"])
            return {**keyed, "accepted": True} if reason is None else {**keyed, "accepted": False, "reason": reason}
        if cmd == "stop":
            self.stopped = True
            return {**keyed, "result": None}
        if cmd == "observation":
            return {**keyed, "result": self.game.observation(message["seat"])}
        if cmd == "choose":  # the reference's computer players (spec/players.md)
            return {**keyed, "result": self.engine.choose(message["view"])}
        return {**keyed, "result": getattr(self.game, cmd)()}  # legal_actions, state


def serve(hook: Hook | None = None) -> None:
    """Answer JSON lines like ``serve``, passing each request and answer through ``hook`` first."""
    server = Server()
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        answer: bytes | dict[str, Any] = server.handle(message)
        if hook is not None:
            answer = hook(message, answer)  # type: ignore[arg-type]
        out.write(answer if isinstance(answer, bytes) else (json.dumps(answer) + "\n").encode())
        out.flush()
        if server.stopped:
            return
