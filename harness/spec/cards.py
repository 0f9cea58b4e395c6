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
    "draw": lambda a: f"draws from the {a['draw']}" if a["draw"] == "stock" else "takes the top discard",
    "meld": lambda a: f"lays down {display_all(a['meld'])}",
    "layoff": lambda a: f"lays off {display_all(a['layoff'])} onto meld "
                        f"{display_all(a['onto']) if isinstance(a.get('onto'), list) else a.get('onto')}",
    "discard": lambda a: f"discards {display_all([a['discard']])}",
    "knock": lambda a: f"discards {display_all([a['knock']])} and knocks, showing "
                       + "; ".join(display_all(m) for m in a.get("melds", [])),
    "play": lambda a: f"plays {display_all(a['play'])}",
    "pass": lambda a: "passes",
    "give": lambda a: f"gives {display_all(a['give'])}",
}


def describe_action(action: dict[str, Any]) -> str:
    """``{draw: stock}`` as ``draws from the stock``."""
    for key, verb in VERBS.items():
        if key in action:
            try:
                return verb(action)
            except (KeyError, TypeError):
                break
    return f"plays {show(action)}"


def action_key(action: Any) -> str:
    """A hashable identity for an action."""
    return json.dumps(action, sort_keys=True)
