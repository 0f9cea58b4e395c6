"""A stdio engine (the reference behind serve) that fails exactly once in its life, for the retry tests.

    python flaky_stdio_engine.py STRUCK AT

It answers as ``serve`` does, except that the first process to reach its AT-th line exits with
code 3 there and leaves the file STRUCK behind; every process after it (the engine restarted)
sees STRUCK and plays well throughout.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from harness.serve.serve import ProtocolServer, answer_line
from reference_engine import ReferenceEngine


def main() -> int:
    struck, at = Path(sys.argv[1]), int(sys.argv[2])
    server = ProtocolServer(ReferenceEngine())
    out = sys.stdout.buffer
    for count, line in enumerate(sys.stdin.buffer, 1):
        if count == at and not struck.exists():
            struck.write_text("struck once\n", encoding="utf-8")
            sys.stderr.write("failing once on purpose\n")
            return 3
        out.write(json.dumps(answer_line(server, line)).encode() + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
