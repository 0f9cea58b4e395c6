"""Speaks protocol 2 in its handshake."""

from _fake import serve


def hook(message, answer):
    return {**answer, "protocol": 2} if message.get("cmd") == "hello" else answer


serve(hook)
