"""Rummy's easy computer player (R-7.1): draw from the stock, meld greedily, discard the strongest.

Decides from the view alone (spec/players.md); the tie-breaks are the clauses
rummy.easy-draws-stock, rummy.easy-melds-at-once, rummy.easy-no-layoff, rummy.easy-discards-strongest.
"""

from __future__ import annotations

from typing import Any

_ORDER = "23456789TJQKA"  # the game's card order, suits C < D < H < S
_SUITS = "CDHS"
_VALUES = {**{str(pip): pip for pip in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 1}


def _place(card: str) -> tuple[int, int]:
    """Where ``card`` sits in the card order: rank, then suit."""
    return _ORDER.index(card[0]), _SUITS.index(card[1])


def _value(card: str, ace_high: bool) -> int:
    """The card's hand value (R-4.1)."""
    return 11 if card[0] == "A" and ace_high else _VALUES[card[0]]


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """Easy's action in ``view``."""
    legal = view["legal"]
    ace_high = bool(view["options"].get("ace_high", False))
    if {"draw": "stock"} in legal:
        return {"draw": "stock"}
    melds = [a for a in legal if "meld" in a]
    if melds:  # most cards, then most points, then first in canonical order
        return min(melds, key=lambda a: (-len(a["meld"]), -sum(_value(c, ace_high) for c in a["meld"]),
                                         [_place(c) for c in a["meld"]]))
    discards = [a for a in legal if "discard" in a]
    if discards:  # the highest value, then the highest in the card order
        return max(discards, key=lambda a: (_value(a["discard"], ace_high), _place(a["discard"])))
    return legal[0]  # only a draw from the discard pile is left: nothing to choose
