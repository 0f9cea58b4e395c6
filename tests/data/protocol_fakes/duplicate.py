"""Sends its answer to request SEQ twice (the last of a scenario, in the tests)."""

import json

from _fake import at, serve


def hook(message, answer):
    line = (json.dumps(answer) + "\n").encode()
    return line * 2 if message.get("seq") == at() else line


serve(hook)
