"""Lists legal actions with their card lists reversed (out of canonical order)."""

from _fake import serve


def hook(message, answer):
    if message.get("cmd") == "legal_actions" and "result" in answer:
        answer["result"] = [{k: v[::-1] if isinstance(v, list) else v for k, v in a.items()} for a in answer["result"]]
    return answer


serve(hook)
