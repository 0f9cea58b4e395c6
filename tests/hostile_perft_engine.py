"""A stdio engine (the reference behind serve) that misbehaves under perft in one way, for the perft bound tests.

    python hostile_perft_engine.py MODE

MODE is one of MODES below; every other request is answered as ``serve`` answers it.
"""

from __future__ import annotations

import json
import sys

from harness.serve.serve import ProtocolServer, answer_line
from reference_engine import ReferenceEngine

MODES = {
    "plain": "answers as serve does, without perft: the kit walks the tree",
    "wide": "lists 50,000 actions at every position",
    "surrogate-error": "answers legal_actions with an error holding a lone surrogate",
    "surrogate-action": "lists an action holding a lone surrogate",
    "stray": "writes a line nobody asked for before each answer to legal_actions",
    "exits": "exits at its first legal_actions",
    "no-list": "answers legal_actions with a number",
}


def main() -> int:
    mode = sys.argv[1]
    server = ProtocolServer(ReferenceEngine(), {"perft": False})  # the kit walks the tree: legal_actions is asked
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        commands = [r.get("cmd") for r in message.get("requests", [])] + [message.get("cmd")]
        answer = answer_line(server, line)
        if "legal_actions" in commands:
            if mode == "exits":
                return 3
            if mode == "stray":
                out.write(b'{"debug": "thinking"}\n')
            answers = answer.get("answers") if message.get("cmd") == "batch" else None
            for inner, request in zip(answers or [answer], message.get("requests", [message])):
                if request.get("cmd") != "legal_actions" or "result" not in inner:
                    continue
                if mode == "wide":
                    inner["result"] = [{"draw": "stock"}] * 50_000
                elif mode == "surrogate-error":
                    inner.pop("result")
                    inner["error"] = "bad \ud800 state"
                elif mode == "surrogate-action":
                    inner["result"] = [{"draw": "st\udfffock"}]
                elif mode == "no-list":
                    inner["result"] = 7
        out.write(json.dumps(answer).encode("utf-8", "surrogatepass").replace(b"\xed\xa0\x80", b"\\ud800")
                  .replace(b"\xed\xbf\xbf", b"\\udfff") + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
