"""serve --http bounded by its input: body size, answer size, time and peak memory per kind of JSON-lines body.

Run: PYTHONPATH=. python benchmarks/bench_serve_bodies.py [--sizes 2,16] (MiB). The server runs as its own
process (`python -m harness serve --http 0`); its peak memory is read from /proc (VmHWM) after each body,
a fresh server per body so that each peak is that body's.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import time

HELLO = b'{"cmd": "hello", "protocol": 1}\n'
START = json.dumps({"seq": 1, "cmd": "start", "setup": {"game": "rummy", "rule_version": "1.1.0", "options": {},
                                                         "seed": 1, "players": 2}}).encode() + b"\n"


def body_of(kind: str, size: int) -> bytes:
    """A JSON-lines body of about ``size`` bytes of one kind of line."""
    if kind == "tiny-bad":
        unit = b"x\n"
    elif kind == "bad":
        unit = b'{"seq": 2, "cmd": "state", "game": "not a number"}\n'
    elif kind == "good":
        unit = b'{"seq": 2, "cmd": "legal_actions"}\n'
    else:  # mixed: a good line, a bad one, a tiny bad one
        unit = b'{"seq": 2, "cmd": "legal_actions"}\n{"seq": 3, "cmd": "nope"}\nx\n'
    return HELLO + START + unit * max(1, (size - len(HELLO) - len(START)) // len(unit))


def serve() -> tuple[subprocess.Popen[bytes], int]:
    """A server process and its port."""
    process = subprocess.Popen([sys.executable, "-m", "harness", "serve", "--http", "0"], stderr=subprocess.PIPE)
    assert process.stderr is not None
    line = process.stderr.readline().decode()
    port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))  # type: ignore[union-attr]
    return process, port


def peak_mb(pid: int) -> float:
    """The process's peak resident memory in MB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    return kib / 1024


def measure(kind: str, size: int) -> tuple[int, int, int, float, float]:
    """(body bytes, status, answer bytes, seconds, peak MB) for one body."""
    process, port = serve()
    try:
        body = body_of(kind, size)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        began = time.perf_counter()
        connection.request("POST", "/", body, {"Content-Type": "application/jsonl"})
        answer = connection.getresponse()
        data = answer.read()
        seconds = time.perf_counter() - began
        return len(body), answer.status, len(data), seconds, peak_mb(process.pid)
    finally:
        process.terminate()
        process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2,16", help="body sizes in MiB, comma-separated (default 2,16)")
    parser.add_argument("--kinds", default="good,bad,tiny-bad,mixed")
    args = parser.parse_args()
    os.environ.setdefault("CI", "1")
    print(f"{'body':>10} {'kind':>9} {'status':>6} {'answer':>12} {'x body':>7} {'seconds':>8} {'peak MB':>8}")
    for mib in (float(s) for s in args.sizes.split(",")):
        for kind in args.kinds.split(","):
            size, status, answer, seconds, peak = measure(kind, int(mib * (1 << 20)))
            print(f"{size:>10,} {kind:>9} {status:>6} {answer:>12,} {answer / size:>7.2f} {seconds:>8.2f} {peak:>8.1f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
