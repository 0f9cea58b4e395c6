"""A stdio engine (the reference behind serve) whose computer players answer ``choose`` wrongly in one way.

    python faulty_player_engine.py MODE PIDFILE

MODE: garbage (a result that is no action), notjson (a line that is not JSON), error (an error answer),
illegal (a legal-looking action that is not legal), crash (the process exits), hang (no answer),
escapes (an error answer that would clear and recolour a terminal).
The process writes its pid to PIDFILE first, so a test can check it was ended.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from harness.serve.serve import ProtocolServer, answer_line
from reference_engine import ReferenceEngine


class WithPlayers(ReferenceEngine):
    """The reference, declaring view players for every game."""

    def describe(self) -> dict[str, Any]:
        description = super().describe()
        for declared in description["games"].values():
            declared["players"] = {"levels": ["easy"], "interface": "view"}
        return description


def main() -> int:
    mode, pid_file = sys.argv[1], sys.argv[2]
    with open(pid_file, "a", encoding="ascii") as out:
        out.write(f"{os.getpid()}\n")
    server = ProtocolServer(WithPlayers())
    for line in sys.stdin.buffer:
        message = json.loads(line) if line.strip().startswith(b"{") else {}
        if message.get("cmd") == "choose":
            seq = message["seq"]
            if mode == "crash":
                return 3
            if mode == "hang":
                time.sleep(3600)
            answer: Any = {"none": answer_line(server, line), "garbage": {"seq": seq, "result": "garbage"}, "error": {"seq": seq, "error": "boom"},
                           "escapes": {"seq": seq, "error": "\x1b[2J\x1b[31mboom\x07\x1b]0;owned\x07\r"},
                           "illegal": {"seq": seq, "result": {"discard": "ZZ"}}}.get(mode)
            sys.stdout.write("this is not JSON\n" if answer is None else json.dumps(answer) + "\n")
        else:
            sys.stdout.write(json.dumps(answer_line(server, line)) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
