"""Answers request SEQ with a line that is not JSON."""

from _fake import at, serve


def hook(message, answer):
    return b"hello from the engine, this is not JSON\n" if message.get("seq") == at() else answer


serve(hook)
