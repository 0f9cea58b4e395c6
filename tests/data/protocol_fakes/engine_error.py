"""Answers request SEQ with an engine error, and goes on normally."""

from _fake import at, serve


def hook(message, answer):
    return {"seq": message["seq"], "error": "KeyError: 'meld index'"} if message.get("seq") == at() else answer


serve(hook)
