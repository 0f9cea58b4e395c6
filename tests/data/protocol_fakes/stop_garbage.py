"""Answers stop with a line that is not JSON, then exits."""

from _fake import serve


def hook(message, answer):
    return b"bye!\n" if message["cmd"] == "stop" else answer


serve(hook)
