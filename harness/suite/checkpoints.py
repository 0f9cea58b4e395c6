"""Checkpoints as the state view they describe: card names made canonical, card sets sorted, seat
mappings and membership checks read as the lists they stand for. Knows nothing of files or lint."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from harness.spec import gamespec as specs
from harness.spec.cards import TENS, is_card

JsonPath = tuple[str | int, ...]


def walk(value: Any, pattern: tuple[str, ...], path: JsonPath) -> Iterator[tuple[JsonPath, Any]]:
    """Values matching a dotted pattern; ``*`` is every item of a list or mapping."""
    if not pattern:
        yield path, value
        return
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        items: Iterable[tuple[Any, Any]] = (
            enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else ())
        for key, item in items:
            yield from walk(item, rest, path + (key,))
    elif isinstance(value, dict) and head in value:
        yield from walk(value[head], rest, path + (head,))


def canonical_view(spec: specs.GameSpec, view: dict[str, Any] | None) -> dict[str, Any] | None:
    """A checkpoint with its card sets in canonical order (piles keep theirs)."""
    if view is None:
        return None
    view = normalise_cards(view)  # a fresh copy, card names canonical, to sort in place
    order = spec.card_order
    for pattern in spec.data["state_view"]["card_sets"]:
        parts = tuple(pattern.split("."))
        for path, value in list(walk(view, parts, ())):
            if isinstance(value, list) and all(is_card(c) for c in value):
                set_at(view, path, order.sort(value))
    return view


INCLUDES = ["includes"]  # in ``keys``: the list stood inside a membership check, {includes: [...]}


def as_view(value: Any, path: JsonPath, keys: dict[JsonPath, list[Any]]) -> Any:
    """A checkpoint as the state view it describes: a mapping of seat numbers becomes a list (keys kept in ``keys``)."""
    if isinstance(value, dict) and list(value) == ["includes"] and isinstance(value["includes"], list):
        keys[path] = INCLUDES  # the items it must include are checked as items of the list
        return [as_view(v, path + ("includes", i), keys) for i, v in enumerate(value["includes"])]
    if isinstance(value, dict):
        if value and all(isinstance(k, int) for k in value):
            keys[path] = sorted(value)
            return [as_view(value[k], path + (i,), keys) for i, k in enumerate(keys[path])]
        return {k: as_view(v, path + (k,), keys) for k, v in value.items()}
    if isinstance(value, list):
        return [as_view(v, path + (i,), keys) for i, v in enumerate(value)]
    return value


def set_at(root: Any, path: JsonPath, value: Any) -> None:
    """Replace the value at ``path``."""
    for part in path[:-1]:
        root = root[part]
    root[path[-1]] = value


def normalise_cards(value: Any) -> Any:
    """Card aliases (``10D``) written canonically everywhere in a checkpoint."""
    if isinstance(value, dict):
        return {k: normalise_cards(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise_cards(v) for v in value]
    return TENS.get(value, value) if isinstance(value, str) else value
