"""Engine- and file-supplied text cut to a documented length before it reaches a message, and made safe for a terminal.

An engine's error text may be 64 KiB (the protocol allows it), an exception's anything; quoted in
each fixture's message it would be megabytes on the console. So every such string is cut here to
``TEXT_LIMIT`` characters, with an ellipsis and its full length. Here too is its escaping for a
terminal (every layer prints); the other media's (HTML, Markdown, JSON, XML) is harness/reports/safetext.py's.
"""

from __future__ import annotations

import re

TEXT_LIMIT = 300  # characters of one engine- or file-supplied string quoted in a message
MESSAGE_LIMIT = 2000  # characters of a whole error text that came from elsewhere (an exception, kit words around it)
ELLIPSIS = "\u2026"
REPLACEMENT = "\ufffd"
_SURROGATES = re.compile("[\ud800-\udfff]")
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]")  # CSI sequences (colours, cursor), then 2-byte escapes
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # tab and newline are kept: they are layout
# in JSON text: a \uD800-\uDBFF escape not followed by a \uDC00-\uDFFF one, or the second without the first
_LONE = (r"(?<!\\)\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
         r"|(?<![\\]u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")
_LONE_TEXT, _LONE_BYTES = re.compile(_LONE), re.compile(_LONE.encode())
LONE_SURROGATE = ("a string holds a lone surrogate escape (\\ud800 to \\udfff without its pair), which is no "
                  "character")


def has_lone_surrogate(json_text: str | bytes) -> bool:
    """Whether JSON text escapes a lone surrogate, which decodes to a string no output can hold (checked in C)."""
    if isinstance(json_text, bytes):
        return b"\\u" in json_text and _LONE_BYTES.search(json_text) is not None
    return "\\u" in json_text and _LONE_TEXT.search(json_text) is not None


def cut(text: object, limit: int = TEXT_LIMIT) -> str:
    """``text`` as it is when short, else its first ``limit`` characters, ``…`` and its full length."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}{ELLIPSIS} ({len(text):,} characters)"


def visible(match: re.Match[str]) -> str:
    """A control character as ``\\xNN``."""
    return f"\\x{ord(match.group()):02x}"


def unicode_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (it can then be encoded as UTF-8)."""
    return _SURROGATES.sub(REPLACEMENT, text)


def console_text(text: object) -> str:
    """``text`` for a terminal: no lone surrogate, no escape sequence or control character that could repaint the screen."""
    return CONTROL.sub(visible, ANSI.sub("", unicode_text(str(text))))
