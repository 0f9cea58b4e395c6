"""Answers request SEQ (an apply) with {"accepted": "yes"}."""

from _fake import at, serve


def hook(message, answer):
    return {"seq": message["seq"], "accepted": "yes"} if message.get("seq") == at() else answer


serve(hook)
