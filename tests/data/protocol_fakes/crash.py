"""Exits with code 3, saying why on stderr, when it receives request SEQ."""

import sys

from _fake import at, serve


def hook(message, answer):
    if message.get("seq") == at():
        sys.stderr.write(f"about to crash on purpose at seq {at()}\n")
        sys.stderr.flush()
        sys.exit(3)
    return answer


serve(hook)
