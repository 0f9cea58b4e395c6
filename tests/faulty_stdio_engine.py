"""A stdio engine (the reference behind serve) that misbehaves in one way, for the hostile-engine tests.

    python faulty_stdio_engine.py MODE PIDFILE

The process (and any child it starts) writes its pid to PIDFILE first, so a test can check that
every one of them was ended. MODE is one of MODES below.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from harness.serve.serve import ProtocolServer, answer_line
from reference_engine import ReferenceEngine

AFTER = 12  # the mid-run faults come at this request
MODES = {
    "exits-at-once": "exits with code 1 before reading anything",
    "garbage-hello": "answers hello with a line that is not JSON",
    "hangs-at-hello": "never answers hello",
    "crashes-mid-run": f"exits with code 3 at request {AFTER}",
    "hangs-mid-run": f"stops answering at request {AFTER}",
    "starts-a-child": "starts a long-lived child process in its group, then plays well",
    "ignores-sigterm": "ignores SIGTERM and SIGINT, then plays well",
    "closes-stdout": f"closes its stdout at request {AFTER} and keeps running",
    "huge-line": f"answers request {AFTER} with a 20 MB line",
    "floods-stderr": "writes 30 MB to stderr, then plays well",
    "wrong-seq": f"answers request {AFTER} with another seq",
    "half-line": f"writes half an answer at request {AFTER}, then hangs",
    "binary": f"answers request {AFTER} with bytes that are not UTF-8",
    "no-newline-exit": f"writes half an answer at request {AFTER}, then exits",
}


def note_pid(pid_file: str, pid: int) -> None:
    with open(pid_file, "a", encoding="ascii") as out:
        out.write(f"{pid}\n")


def main() -> int:
    mode, pid_file = sys.argv[1], sys.argv[2]
    note_pid(pid_file, os.getpid())
    if mode == "exits-at-once":
        return 1
    if mode == "starts-a-child":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        note_pid(pid_file, child.pid)
    if mode == "ignores-sigterm":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if mode == "floods-stderr":
        chunk = "x" * 1023 + "\n"
        for _ in range(30 * 1024):
            sys.stderr.write(chunk)
        sys.stderr.flush()
    server = ProtocolServer(ReferenceEngine())
    out = sys.stdout.buffer
    for count, line in enumerate(sys.stdin.buffer, 1):
        message = json.loads(line) if line.strip().startswith(b"{") else {}
        if mode == "garbage-hello" or (mode == "hangs-at-hello" and message.get("cmd") == "hello"):
            if mode == "hangs-at-hello":
                time.sleep(600)
            out.write(b"hello yourself\n")
            out.flush()
            continue
        if count == AFTER:
            if mode == "crashes-mid-run":
                return 3
            if mode == "hangs-mid-run":
                time.sleep(600)
            if mode == "closes-stdout":
                out.close()
                time.sleep(600)
            if mode in ("half-line", "no-newline-exit"):
                out.write(b'{"seq": ')
                out.flush()
                if mode == "no-newline-exit":
                    return 0
                time.sleep(600)
            special = {"huge-line": b'{"seq": 0, "result": "' + b"x" * 20_000_000 + b'"}\n',
                       "wrong-seq": json.dumps({"seq": 987654, "result": None}).encode() + b"\n",
                       "binary": b'{"seq": 1, "result": "\xff\xfe\xfd"}\n'}.get(mode)
            if special is not None:
                out.write(special)
                out.flush()
                continue
        out.write(json.dumps(answer_line(server, line)).encode() + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
