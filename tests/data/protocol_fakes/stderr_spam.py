"""Writes 200 KiB to stderr before every answer (more than a pipe holds), and crashes at SEQ if given."""

import sys

from _fake import at, serve

LINE = "spam " + "." * 95 + "\n"


def hook(message, answer):
    for i in range(2048):
        sys.stderr.write(f"{i:04d} {LINE}")
    if message.get("seq") == at():
        sys.stderr.write(f"about to crash on purpose at seq {at()}\n")
        sys.stderr.flush()
        sys.exit(3)
    sys.stderr.flush()
    return answer


serve(hook)
