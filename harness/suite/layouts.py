"""Layouts: which kind a layout is, its seats and card slots, and the complete layout an engine is sent."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from harness.spec import gamespec as specs
from harness.spec.cards import ALL_CARDS, FILL_ORDER
from harness.suite.checkpoints import normalise_cards, walk
from harness.suite.model import JsonPath

KIND_WORDS = {"position": "layout", "deck": "layout with a deck", "later": "later layout"}


def players_of(layout: dict[str, Any]) -> int:
    """The number of seats a layout has: its hands, or ``players`` when it gives a deck."""
    players = layout.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        return players
    hands = layout.get("hands")
    return len(hands) if isinstance(hands, list) else 0


def card_slots(layout: dict[str, Any], card_fields: list[str]) -> Iterator[tuple[JsonPath, Any]]:
    """Every (path, value) of the layout's card lists, by the game file's ``card_fields``."""
    for pattern in card_fields:
        for path, value in walk(layout, tuple(pattern.split(".")), ()):
            if isinstance(value, list):
                for i, item in enumerate(value):
                    yield path + (i,), item


def layout_kind(layout: dict[str, Any], first: bool = True) -> str:
    """Which of the game file's ``conventions.layout_keys`` a layout has: position, deck or later."""
    if not first:
        return "later"
    return "deck" if "deck" in layout else "position"


def rest_piles(spec: specs.GameSpec) -> list[str]:
    """The piles a layout's ``rest`` may send the cards it leaves out to: the game's card fields that are one list."""
    return [field for field in spec.data["layout"]["card_fields"] if "." not in field and field != "deck"]


def complete_layout(spec: specs.GameSpec, layout: dict[str, Any], placed: set[str],
                    kind: str | None = None) -> dict[str, Any]:
    """Exactly the keys ``conventions.layout_keys`` lists for its kind (schema defaults filled in),
    and every card placed (fill order, at ``fill``, or at the pile the layout's ``rest`` names; at the
    bottom of the deck when a deck is given).
    """
    kind = kind or layout_kind(layout)
    properties = spec.data["layout"]["schema"].get("properties", {})
    keys = spec.data["conventions"]["layout_keys"][kind]
    complete = {key: normalise_cards(value) for key, value in layout.items() if key in keys}
    for key in keys:
        if key not in complete:
            complete[key] = copy.deepcopy(properties.get(key, {}).get("default"))
    fill = "deck" if kind == "deck" else layout.get("rest") or spec.data["layout"]["fill"]
    rest = [card for card in FILL_ORDER if card not in placed]
    complete[fill] = list(complete.get(fill) or []) + rest
    assert len(placed) + len(rest) == len(ALL_CARDS)
    return complete
