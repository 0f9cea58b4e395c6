"""Engine- and file-supplied text made safe for each medium: JSON, XML 1.0, Markdown and links
(the console's is harness/host/text.py's).

An engine may send anything in an error text or its name: lone surrogates (``\\ud800``) that no
UTF-8 file can hold, ANSI colour codes, other control characters that XML 1.0 forbids. A report
must be written whatever it holds, so every such string goes through one of these first; its
length is cut (with an ellipsis and its full length) where it enters, by harness/host/text.py.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, urlsplit

from harness.host.text import ANSI, CONTROL, MESSAGE_LIMIT, cut, unicode_text, visible

# What XML 1.0 allows is tab, newline, carriage return and everything from space up, less the
# surrogates and U+FFFE/U+FFFF; the rest is shown as \xNN so the reader still sees it was there.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def json_safe(value: Any) -> Any:
    """A JSON-ready value with every string (keys too) free of lone surrogates; json.dumps escapes the rest."""
    if isinstance(value, str):
        return unicode_text(value)
    if isinstance(value, dict):
        return {json_safe(k) if isinstance(k, str) else k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def read_back(value: Any, limit: int = MESSAGE_LIMIT) -> Any:
    """A value read from a file (a run record) with every string surrogate-free and cut to ``limit``."""
    if isinstance(value, str):
        return cut(unicode_text(value), limit)
    if isinstance(value, dict):
        return {read_back(k, limit) if isinstance(k, str) else k: read_back(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [read_back(v, limit) for v in value]
    return value


def xml_text(text: Any) -> str:
    """``text`` as XML 1.0 can hold it: ANSI escapes dropped, other forbidden characters shown as \\xNN."""
    return _NOT_XML.sub(visible, ANSI.sub("", unicode_text(str(text))))


def markdown_text(value: Any) -> str:
    """Text safe in a Markdown paragraph or table cell: one line; no pipe, tag, link or code span of its own."""
    text = " ".join(unicode_text(str(value)).split())
    return _MARKDOWN.sub(r"\\\g<0>", text).replace("<", "&lt;")


_MARKDOWN = re.compile(r"[\\|\[\]`]")


def markdown_code(value: Any) -> str:
    """``value`` as one Markdown code span, its backticks fenced by a longer run so it cannot close early."""
    text = " ".join(unicode_text(str(value)).split())
    ticks = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def markdown_fence(lines: list[str]) -> str:
    """The backtick fence for a block of ``lines``: longer than any run of backticks in them, so none closes it."""
    longest = max((len(run) for line in lines for run in re.findall("`+", line)), default=0)
    return "`" * max(3, longest + 1)


def url_part(value: Any) -> str:
    """One path part of a relative link, percent-encoded: ``javascript:x`` stays a file name, not a scheme."""
    return quote(unicode_text(str(value)), safe="")


def safe_link(url: str) -> str | None:
    """``url`` if it is a relative path or an http(s) URL; None for any other scheme (``javascript:``, ``data:``)."""
    text = unicode_text(url).strip()
    if CONTROL.search(text):
        return None
    scheme = urlsplit(text).scheme.lower()
    if scheme in ("http", "https"):
        return text
    return None if scheme or text.startswith("//") else text
