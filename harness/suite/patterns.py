"""Partial forms a fixture may write: action patterns in ``legal`` checks, a lay-off's target meld by
its cards, and ``{includes: [...]}`` membership checks on a list of a checkpoint."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from harness.spec import gamespec as specs
from harness.spec.cards import is_card, normalise


@cache
def _pattern_validators(game: str, rule_version: str) -> dict[str, specs.Validator]:
    """Per action kind, its schema with only the kind's own key required."""
    spec = next(s for s in specs.game_specs() if s.game == game and s.rule_version == rule_version)
    validators = {}
    for kind, action in spec.data["actions"].items():
        schema = copy.deepcopy(action["schema"])
        schema["required"] = [kind]
        validators[kind] = specs.Validator(schema)
    return validators


def pattern_validator(spec: specs.GameSpec, kind: str) -> specs.Validator:
    """The validator of an action pattern of ``kind``: any required key but the kind's may be left out."""
    return _pattern_validators(spec.game, spec.rule_version)[kind]


def is_pattern(spec: specs.GameSpec, action: dict[str, Any]) -> bool:
    """Whether ``action`` leaves out a key its kind requires (so it stands for every action it starts)."""
    kind = spec.action_kind(action)
    required = spec.data["actions"][kind]["schema"].get("required", []) if kind else []
    return any(key not in action for key in required)


def matches(pattern: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether ``action`` has every key of ``pattern`` with the same value."""
    return all(key in action and action[key] == value for key, value in pattern.items())


def names_meld_by_cards(action: dict[str, Any] | None) -> bool:
    """Whether a lay-off names its target meld by its cards (``onto: [3C, 4C, 5C]``) instead of an index."""
    return isinstance(action, dict) and isinstance(action.get("onto"), list)


def meld_index(melds: Any, cards: list[str]) -> int | None:
    """The index of the meld of the state's ``melds`` holding exactly ``cards``, if any."""
    wanted = sorted(map(normalise, cards))
    for index, meld in enumerate(melds if isinstance(melds, list) else []):
        held = meld.get("cards") if isinstance(meld, dict) else meld
        if isinstance(held, list) and sorted(map(normalise, held)) == wanted:
            return index
    return None


def includes(expected: Any) -> list[Any] | None:
    """The items of an ``{includes: [...]}`` membership check, else None."""
    if isinstance(expected, dict) and set(expected) == {"includes"} and isinstance(expected["includes"], list):
        return list(expected["includes"])
    return None


def member(item: Any, element: Any) -> bool:
    """Whether ``element`` of a list matches ``item`` of a membership check: mappings on the keys
    ``item`` names, card lists as sets of cards (a meld with these cards), anything else exactly."""
    if isinstance(item, dict):
        return isinstance(element, dict) and all(k in element and member(v, element[k]) for k, v in item.items())
    if isinstance(item, list):
        if all(is_card(c) for c in item) and isinstance(element, list) and all(is_card(c) for c in element):
            return sorted(map(normalise, item)) == sorted(map(normalise, element))
        return isinstance(element, list) and len(item) == len(element) and all(map(member, item, element))
    return bool(item == element and type(item) is type(element))
