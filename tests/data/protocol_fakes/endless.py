"""Answers request SEQ with a line that never ends (until the harness kills it)."""

import sys

from _fake import at, serve


def hook(message, answer):
    if message.get("seq") == at():
        chunk = b"x" * 65536
        while True:
            sys.stdout.buffer.write(chunk)
    return answer


serve(hook)
