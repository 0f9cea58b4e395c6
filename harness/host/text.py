"""Engine- and file-supplied text cut to a documented length before it reaches a message.

An engine's error text may be 64 KiB (the protocol allows it), an exception's anything; quoted in
each fixture's message it would be megabytes on the console. So every such string is cut here to
``TEXT_LIMIT`` characters, with an ellipsis and its full length; escaping for each medium (console,
HTML, Markdown, JSON, XML) is harness/reports/safetext.py's.
"""

from __future__ import annotations

TEXT_LIMIT = 300  # characters of one engine- or file-supplied string quoted in a message
MESSAGE_LIMIT = 2000  # characters of a whole error text that came from elsewhere (an exception, kit words around it)
ELLIPSIS = "\u2026"


def cut(text: object, limit: int = TEXT_LIMIT) -> str:
    """``text`` as it is when short, else its first ``limit`` characters, ``…`` and its full length."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}{ELLIPSIS} ({len(text):,} characters)"
