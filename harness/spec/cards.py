"""The card notation at the harness's edge: strict checks, canonical order, glyphs for people.

Cards stay strings here (``"QH"``); engines keep their own representation behind the adapter.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"
GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
FILL_ORDER = [rank + suit for suit in SUITS for rank in RANKS]
ALL_CARDS = frozenset(FILL_ORDER)


TENS = {"10" + suit: "T" + suit for suit in SUITS}  # the one alias: 10D for TD
_NAMED = ALL_CARDS | frozenset(TENS)


def normalise(text: str) -> str:
    """``10D`` as ``TD``; anything else unchanged."""
    return "T" + text[2:] if text[:2] == "10" and len(text) == 3 else text


def is_card(value: Any) -> bool:
    """Whether ``value`` names a card (aliases included)."""
    return isinstance(value, str) and value in _NAMED


def display(card: str) -> str:
    """``QH`` as ``Q♥``, ``TD`` as ``10♦``; anything that is not a card as it was written."""
    if not is_card(card):
        return repr(card) if not isinstance(card, str) else card
    card = normalise(card)
    rank = "10" if card[0] == "T" else card[0]
    return rank + GLYPHS.get(card[1], card[1])


def display_all(cards: Any) -> str:
    """A card list for people: ``Q♥ K♥ A♥``."""
    if not isinstance(cards, list):
        return display(cards)
    return " ".join(display(card) for card in cards)


class CardOrder:
    """A game's canonical order: its rank string, then suits C < D < H < S."""

    def __init__(self, ranks: str) -> None:
        self.key = {rank + suit: ranks.index(rank) * 4 + s for rank in ranks for s, suit in enumerate(SUITS)}

    def sort(self, cards: Iterable[str]) -> list[str]:
        """``cards`` in canonical order."""
        return sorted((normalise(c) for c in cards), key=self.key.__getitem__)

    def canonical(self, value: Any) -> Any:
        """``value`` with every card list (and list of card lists) put in canonical order."""
        if isinstance(value, dict):
            return {key: self.canonical(item) for key, item in value.items()}
        if isinstance(value, list) and value:
            if all(is_card(item) for item in value):
                return self.sort(value)
            if all(isinstance(item, list) and item and all(is_card(c) for c in item) for item in value):
                return sorted((self.sort(item) for item in value), key=lambda cards: [self.key[c] for c in cards])
            return [self.canonical(item) for item in value]
        if isinstance(value, str) and is_card(value):
            return normalise(value)
        return value


def show(value: Any) -> str:
    """An action or view fragment for people, cards as glyphs: ``{meld: [Q♥, K♥, A♥]}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {show(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(show(item) for item in value) + "]"
    if is_card(value):
        return display(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, (str, int, float)) else repr(value)


VERBS = {
    "draw": lambda a, c: f"draws from the {a['draw']}" if a["draw"] == "stock"
                         else f"takes {display(c['taken'])} from the discard pile" if c.get("taken") else "takes the top discard",
    "meld": lambda a, c: f"lays down {display_all(a['meld'])}"
                         + (f" as meld {len(c['melds'])}" if c.get("melds") else ""),
    "layoff": lambda a, c: f"lays off {display_all(a['layoff'])} onto meld " + _onto(a["onto"], c.get("melds")),
    "discard": lambda a, c: f"discards {display_all([a['discard']])}",
    "knock": lambda a, c: f"discards {display_all([a['knock']])} and knocks, showing "
                          + _numbered(c.get("melds") or a.get("melds", [])),
    "play": lambda a, c: f"plays {display_all(a['play'])}",
    "pass": lambda a, c: "passes",
    "give": lambda a, c: f"gives {display_all(a['give'])}",
}


def _onto(onto: Any, melds: list[list[str]] | None) -> str:
    """The meld a lay-off goes onto: its cards, or its number as shown (from 1) with the cards it had."""
    if isinstance(onto, list):
        return display_all(onto)
    if melds is not None and isinstance(onto, int) and 0 <= onto < len(melds):
        return f"{onto + 1} ({display_all(melds[onto])})"
    return str(onto)


def _numbered(melds: list[list[str]]) -> str:
    """Melds numbered from 1, as a lay-off names them: ``1: A♠ 2♠ 3♠; 2: 3♥ 4♥ 5♥``."""
    return "; ".join(f"{number}: {display_all(meld)}" for number, meld in enumerate(melds, start=1))


def describe_action(action: dict[str, Any], taken: str | None = None, melds: list[list[str]] | None = None) -> str:
    """``{draw: stock}`` as ``draws from the stock``; ``taken`` and the table's ``melds`` name cards and melds (from 1)."""
    context = {"taken": taken, "melds": melds}
    for key, verb in VERBS.items():
        if key in action:
            try:
                return verb(action, context)
            except (KeyError, TypeError):
                break
    return f"plays {show(action)}"


def action_key(action: Any) -> str:
    """A hashable identity for an action."""
    return json.dumps(action, sort_keys=True)
