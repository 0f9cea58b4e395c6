"""Semantic versions and the ranges fixtures use to say which rule versions they cover."""

from __future__ import annotations

import re
from functools import cache

Version = tuple[int, int, int]

_COMPARATOR = re.compile(r"(>=|<=|>|<|=|\^|~)?\s*(\d+)\.(\d+)\.(\d+)")


def parse_version(text: str) -> Version:
    """``"1.2.3"`` as a tuple."""
    major, minor, patch = (int(part) for part in text.split("."))
    return major, minor, patch


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
def _parse_range(text: str) -> list[list[tuple[str, Version]]]:
    """A range as alternatives of comparator lists."""
    alternatives = []
    for part in text.split("||"):
        comparators = [(m.group(1) or "=", (int(m.group(2)), int(m.group(3)), int(m.group(4))))
                       for m in _COMPARATOR.finditer(part)]
        alternatives.append(comparators)
    return alternatives


def in_range(version: str, range_text: str) -> bool:
    """Whether ``version`` lies in ``range_text`` (``">=1.1.0 <2.0.0 || 3.0.0"``)."""
    parsed = parse_version(version)
    return any(all(_matches(op, bound, parsed) for op, bound in alternative)
               for alternative in _parse_range(range_text))
