"""Semantic versions and the ranges fixtures use to say which rule versions they cover."""

from __future__ import annotations

import re
from functools import cache

Version = tuple[int, int, int]

_COMPARATOR = re.compile(r"(>=|<=|>|<|=|\^|~)?(\d+)\.(\d+)\.(\d+)")
# ASCII digits only, no leading zero, at most 9 digits a part: a version is also part of a file name.
_VERSION = re.compile(r"(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})")
_SPACED_OPERATOR = re.compile(r"(>=|<=|>|<|=|\^|~)\s+(?=\d)")  # ">= 1.1.0" is ">=1.1.0"
FORMS = ("a range is comparators separated by spaces, alternatives separated by ||; a comparator is "
         "=, >=, >, <=, <, ^ or ~ (or nothing, meaning =) followed by MAJOR.MINOR.PATCH, "
         "e.g. '>=1.1.0 <2.0.0', '^1.1.0' or '1.0.0 || 1.1.0'")


class RangeError(ValueError):
    """A version range that is not of the accepted forms."""


def parse_version(text: str) -> Version:
    """``"1.2.3"`` as a tuple; ValueError for anything else (``"1.2.3\\n"``, ``" 1.2.3"``, ``"01.2.3"``, 300 digits)."""
    match = _VERSION.fullmatch(text) if isinstance(text, str) else None
    if not match:
        raise ValueError(f"not a MAJOR.MINOR.PATCH version: {text!r:.60}")
    major, minor, patch = (int(part) for part in match.groups())
    return major, minor, patch


def version_order(text: str) -> tuple[int, Version, str]:
    """A sort key for any text an engine calls a version: versions in order, then anything else."""
    try:
        return 0, parse_version(text), ""
    except ValueError:
        return 1, (0, 0, 0), text


def _matches(op: str, bound: Version, version: Version) -> bool:
    """Whether ``version`` satisfies one comparator."""
    if op == ">=":
        return version >= bound
    if op == ">":
        return version > bound
    if op == "<=":
        return version <= bound
    if op == "<":
        return version < bound
    if op == "^":  # same major (or same minor below 1.0.0), not lower
        upper = (bound[0] + 1, 0, 0) if bound[0] else (0, bound[1] + 1, 0)
        return bound <= version < upper
    if op == "~":  # same minor, not lower
        return bound <= version < (bound[0], bound[1] + 1, 0)
    return version == bound


@cache
def parse_range(text: str) -> tuple[tuple[tuple[str, Version], ...], ...]:
    """A range as alternatives of comparator lists; :class:`RangeError` naming the first bad part."""
    alternatives = []
    for part in text.split("||"):
        comparators = []
        for token in _SPACED_OPERATOR.sub(r"\1", part).split():
            match = _COMPARATOR.fullmatch(token)
            if match is None:
                shown = token if len(token) <= 40 else token[:39] + "…"
                raise RangeError(f"{shown!r} is not a version comparator: {FORMS}")
            comparators.append((match.group(1) or "=", (int(match.group(2)), int(match.group(3)), int(match.group(4)))))
        if not comparators:
            raise RangeError(f"an empty alternative (nothing between two ||, or before or after one): {FORMS}")
        alternatives.append(tuple(comparators))
    return tuple(alternatives)


def in_range(version: str, range_text: str) -> bool:
    """Whether ``version`` lies in ``range_text`` (``">=1.1.0 <2.0.0 || 3.0.0"``)."""
    parsed = parse_version(version)
    return any(all(_matches(op, bound, parsed) for op, bound in alternative)
               for alternative in parse_range(range_text))
