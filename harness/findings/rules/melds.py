"""Melds of Rummy and Gin Rummy for the players' checks: sets of 3 or 4, runs of 3 or more in one suit.

A game's run order is its ranks string (Rummy: 2..K then A, R-3.1; Gin Rummy: A low, G-1.3).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

SUITS = "CDHS"


def rank(card: str) -> str:
    """The rank letter of a card (10 as T)."""
    return card[:-1].replace("10", "T")


def is_meld(cards: Iterable[str], ranks: str) -> bool:
    """Whether ``cards`` are a set (3 or 4 of one rank) or a run (3 or more in a row of one suit)."""
    cards = list(cards)
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    if len({rank(c) for c in cards}) == 1:
        return len(cards) <= 4
    if len({c[-1] for c in cards}) != 1:
        return False
    places = sorted(ranks.index(rank(c)) for c in cards)
    return places == list(range(places[0], places[0] + len(places)))


def melds_in(cards: Iterable[str], ranks: str) -> list[frozenset[str]]:
    """Every meld that can be made of ``cards``."""
    cards = list(cards)
    found: list[frozenset[str]] = []
    by_rank: dict[str, list[str]] = {}
    for card in cards:
        by_rank.setdefault(rank(card), []).append(card)
    for same in by_rank.values():
        for size in (3, 4):
            found += [frozenset(group) for group in combinations(same, size)]
    for suit in SUITS:
        places = sorted(ranks.index(rank(c)) for c in cards if c[-1] == suit)
        held = set(places)
        for start in places:
            end = start
            while end + 1 in held:
                end += 1
                if end - start >= 2:
                    found.append(frozenset(ranks[i] + suit for i in range(start, end + 1)))
    return found


def lays_off(card: str, table: Iterable[list[str]], ranks: str) -> bool:
    """Whether ``card`` added to one of the melds on the table leaves it a meld."""
    return any(is_meld([*meld, card], ranks) for meld in table)


def completions(card: str, other: str, ranks: str) -> list[str]:
    """The cards that make a meld of three with ``card`` and ``other`` (a pair, or one suit within two ranks)."""
    if rank(card) == rank(other):
        return [rank(card) + s for s in SUITS if s not in (card[-1], other[-1])]
    if card[-1] != other[-1]:
        return []
    low, high = sorted((ranks.index(rank(card)), ranks.index(rank(other))))
    if high - low == 2:
        return [ranks[low + 1] + card[-1]]
    if high - low == 1:
        return [ranks[i] + card[-1] for i in (low - 1, high + 1) if 0 <= i < len(ranks)]
    return []


def near(card: str, other: str, ranks: str) -> bool:
    """Whether two cards can be in one meld: the same rank, or the same suit within two ranks."""
    return card != other and bool(completions(card, other, ranks))
