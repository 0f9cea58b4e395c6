"""Gin Rummy's easy computer player (G-7.1): keep the melds formed greedily, discard the highest deadwood.

Decides from the view alone (spec/players.md); the tie-breaks are the clauses
gin-rummy.easy-never-takes-discard, gin-rummy.easy-keeps-its-melds,
gin-rummy.easy-discards-highest-deadwood, gin-rummy.easy-knocks-when-it-can and
gin-rummy.easy-lays-off-deadwood.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

_ORDER = "A23456789TJQK"  # the card order (Ace low), suits C < D < H < S
_SUITS = "CDHS"

Card = str
Meld = tuple[Card, ...]


def _place(card: Card) -> tuple[int, int]:
    """Where ``card`` sits in the card order: rank, then suit."""
    return _ORDER.index(card[0]), _SUITS.index(card[1])


def _value(card: Card) -> int:
    """The card's deadwood value (G-1.4)."""
    return min(_ORDER.index(card[0]) + 1, 10)


def _melds_in(hand: list[Card]) -> list[Meld]:
    """Every meld the hand holds: sets of 3 or 4 of a rank, runs of 3 or more of a suit (Ace low)."""
    found: list[Meld] = []
    for rank in _ORDER:
        same = sorted((c for c in hand if c[0] == rank), key=_place)
        for size in (3, 4):
            found += combinations(same, size)
    for suit in _SUITS:
        ranks = sorted(_ORDER.index(c[0]) for c in hand if c[1] == suit)
        held = set(ranks)
        for low in ranks:
            high = low
            while high + 1 in held:
                high += 1
                if high - low >= 2:
                    found.append(tuple(_ORDER[r] + suit for r in range(low, high + 1)))
    return found


def _is_meld(cards: list[Card]) -> bool:
    """Whether ``cards`` form one meld."""
    return len(cards) >= 3 and any(len(m) == len(cards) for m in _melds_in(cards))


def formed_melds(hand: list[Card]) -> list[Meld]:
    """Easy's melds: greedily the most cards, then the most points, then first in canonical order."""
    left, formed = list(hand), list[Meld]()
    while True:
        melds = _melds_in(left)
        if not melds:
            return formed
        best = min(melds, key=lambda m: (-len(m), -sum(map(_value, m)), [_place(c) for c in m]))
        formed.append(best)
        left = [c for c in left if c not in best]


def _highest(cards: set[Card]) -> Card:
    """The card of the highest value, then the highest in the card order."""
    return max(cards, key=lambda c: (_value(c), _place(c)))


def _discard_card(hand: list[Card], allowed: set[Card]) -> Card:
    """The card easy lets go (gin-rummy.easy-discards-highest-deadwood)."""
    melds = formed_melds(hand)
    in_melds = {c for m in melds for c in m}
    deadwood = {c for c in hand if c not in in_melds} & allowed
    if deadwood:
        return _highest(deadwood)
    spare = {c for m in melds if len(m) >= 4 for c in m if _is_meld([x for x in m if x != c])} & allowed
    return _highest(spare or allowed)


def _canonical_melds(action: dict[str, Any]) -> list[list[tuple[int, int]]]:
    """A knock's melds as a sort key, card lists compared card by card."""
    return [[_place(c) for c in meld] for meld in action["melds"]]


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """Easy's action in ``view``."""
    legal = view["legal"]
    phase = view["observation"]["phase"]
    if phase == "offer" and {"pass": True} in legal:
        return {"pass": True}
    if phase == "draw" and {"draw": "stock"} in legal:
        return {"draw": "stock"}
    hand = list(view["observation"]["hands"][view["seat"]])
    if phase == "discard":
        allowed = {a.get("discard") or a["knock"] for a in legal if "discard" in a or "knock" in a}
        card = _discard_card(hand, allowed)
        knocks = [a for a in legal if a.get("knock") == card]
        return min(knocks, key=_canonical_melds) if knocks else {"discard": card}
    if phase == "layoff":
        in_melds = {c for m in formed_melds(hand) for c in m}
        own = [a for a in legal if "layoff" in a and not in_melds & set(a["layoff"])]
        if own:
            return min(own, key=lambda a: (-len(a["layoff"]), -sum(map(_value, a["layoff"])), a["onto"],
                                           [_place(c) for c in a["layoff"]]))
        return {"pass": True}
    return legal[0]  # a phase with a single possible action
