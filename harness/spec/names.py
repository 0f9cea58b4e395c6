"""Names a user types (games, clauses, fixture ids, levels) checked against the known ones, with close matches."""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Iterable


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean x or y?)`` for the close matches of ``word`` among ``known``, else ''."""
    close = difflib.get_close_matches(str(word), list(known), n=3, cutoff=0.6)  # a YAML key may be a number
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def unknown(what: str, word: str, known: Iterable[str]) -> str:
    """The message for a ``what`` named ``word`` that is not among ``known``."""
    known = sorted(set(known))
    listed = f"; the known ones: {', '.join(known)}" if len(known) <= 12 else ""
    return f"unknown {what} {word!r}{did_you_mean(word, known)}{listed}"


def unmatched(what: str, patterns: Iterable[str], known: Iterable[str]) -> list[str]:
    """A message for each glob of ``patterns`` that matches none of ``known``."""
    known = list(known)
    return [unknown(what, p, known) for p in patterns if not any(fnmatch.fnmatchcase(k, p) for k in known)]
