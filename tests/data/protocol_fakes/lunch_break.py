"""Answers every state request of a scenario after its first with a view in phase lunch-break (not in any game)."""

from _fake import serve

views = 0


def hook(message, answer):
    global views
    views = 0 if message["cmd"] == "start" else views + (message["cmd"] == "state")
    if message["cmd"] == "state" and views > 1:
        return {**answer, "result": {**answer["result"], "phase": "lunch-break"}}
    return answer


serve(hook)
