"""Echoes a wrong seq in its answer to request SEQ."""

from _fake import at, serve


def hook(message, answer):
    return {**answer, "seq": answer["seq"] + 100} if message.get("seq") == at() else answer


serve(hook)
