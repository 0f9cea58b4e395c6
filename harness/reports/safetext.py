"""Engine-supplied text made safe for each report format: JSON, XML 1.0 and the console.

An engine may send anything in an error text or its name: lone surrogates (``\\ud800``) that no
UTF-8 file can hold, ANSI colour codes, other control characters that XML 1.0 forbids. A report
must be written whatever it holds, so every such string goes through one of these first.
"""

from __future__ import annotations

import re
from typing import Any

REPLACEMENT = "\ufffd"
_SURROGATES = re.compile("[\ud800-\udfff]")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]")  # CSI sequences (colours, cursor), then 2-byte escapes
# What XML 1.0 allows is tab, newline, carriage return and everything from space up, less the
# surrogates and U+FFFE/U+FFFF; the rest is shown as \xNN so the reader still sees it was there.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _visible(match: re.Match[str]) -> str:
    """A control character as ``\\xNN``."""
    return f"\\x{ord(match.group()):02x}"


def unicode_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (it can then be encoded as UTF-8)."""
    return _SURROGATES.sub(REPLACEMENT, text)


def json_safe(value: Any) -> Any:
    """A JSON-ready value with every string (keys too) free of lone surrogates; json.dumps escapes the rest."""
    if isinstance(value, str):
        return unicode_text(value)
    if isinstance(value, dict):
        return {json_safe(k) if isinstance(k, str) else k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def xml_text(text: Any) -> str:
    """``text`` as XML 1.0 can hold it: ANSI escapes dropped, other forbidden characters shown as \\xNN."""
    return _NOT_XML.sub(_visible, _ANSI.sub("", unicode_text(str(text))))


def console_text(text: str) -> str:
    """``text`` for a terminal: no lone surrogate, no escape sequence that could repaint the screen."""
    return _CONTROL.sub(_visible, _ANSI.sub("", unicode_text(text)))
