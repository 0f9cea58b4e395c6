"""Prints a debug line on stdout right after its answer to request SEQ (the last of a scenario, in the tests)."""

import json

from _fake import at, serve


def hook(message, answer):
    line = (json.dumps(answer) + "\n").encode()
    return line + b"debug: scenario done\n" if message.get("seq") == at() else line


serve(hook)
