"""Answers request SEQ with JSON nested 5,000 deep (10 KB), past what any parser walks by recursion."""

from _fake import at, serve


def hook(message, answer):
    if message.get("seq") != at():
        return answer
    return b'{"seq": %d, "result": ' % at() + b"[" * 5000 + b"]" * 5000 + b"}\n"


serve(hook)
