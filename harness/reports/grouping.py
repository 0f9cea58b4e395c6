"""Identical verdicts told once: the items that say the same thing, together, in the order each first came."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

Item = TypeVar("Item")
SHOWN = 3  # fixtures of a group named on the console before the rest is folded into a count


def alike(items: Iterable[Item], key: Callable[[Item], Hashable]) -> list[list[Item]]:
    """``items`` in groups of equal ``key``, each group where its first item was."""
    groups: dict[Hashable, list[Item]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return list(groups.values())
