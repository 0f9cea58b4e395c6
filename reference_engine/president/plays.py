"""President's card order and what it allows: the plays a hand can make, the best cards, actions.

Ranks go 3 low to 2 high (``CARD_ORDER``); ``POS`` gives each card's place in that normal order
and ``PLAYS`` every play (one to four cards of one rank) a hand can make, precomputed by rank and
held suits so that listing the legal plays touches a few ints. ``parse_action`` reads the action
vocabulary. Knows nothing of turns, tricks or layouts.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from reference_engine.cards import (
    DECK_SIZE,
    CardError,
    CardNames,
    card_name,
    parse_card,
    rank_of,
    sort_key,
)

CARD_ORDER = "3456789TJQKA2"
_KEY = sort_key(CARD_ORDER)
# Position of each card's rank in the normal order: 3 -> 0 .. A -> 11, 2 -> 12.
POS = [(rank_of(c) - 3) % 13 for c in range(DECK_SIZE)]
RANK_BITS = [sum(1 << c for c in range(DECK_SIZE) if POS[c] == p) for p in range(13)]
_CANONICAL = sorted(range(DECK_SIZE), key=_KEY.__getitem__)
_NAMES = [card_name(c) for c in range(DECK_SIZE)]


def _rank_plays(position: int) -> list[list[list[tuple[str, ...]]]]:
    """For each 4-bit pattern of held suits of one rank, its plays by size, in canonical order."""
    cards = [c for c in _CANONICAL if POS[c] == position]  # suits C, D, H, S
    table: list[list[list[tuple[str, ...]]]] = []
    for pattern in range(16):
        held = [c for i, c in enumerate(cards) if pattern >> i & 1]
        combos = [combo for size in range(1, len(held) + 1) for combo in combinations(held, size)]
        combos.sort(key=lambda combo: [_KEY[c] for c in combo])
        by_size: list[list[tuple[str, ...]]] = [[] for _ in range(5)]
        for combo in combos:
            names_ = tuple(_NAMES[c] for c in combo)
            by_size[0].append(names_)  # index 0: every size, for a lead
            by_size[len(combo)].append(names_)
        table.append(by_size)
    return table


# PLAYS[position][pattern][size]: the plays a hand holding ``pattern`` of that rank can make.
PLAYS = [_rank_plays(p) for p in range(13)]
# The bit of each rank's club; the other suits are 13, 26 and 39 bits above it.
CLUB_BIT = [next(c for c in range(13) if POS[c] == p) for p in range(13)]

_ACTION_SIZES = {"play": 4, "give": 2}


names = CardNames(CARD_ORDER)  # the cards of a mask as names, in canonical order


def best_cards(hand: int, count: int) -> int:
    """The ``count`` best cards of ``hand``: highest in the normal order, the higher suit first."""
    chosen = 0
    for card in reversed(_CANONICAL):
        if count == 0:
            break
        if hand >> card & 1:
            chosen |= 1 << card
            count -= 1
    return chosen


def parse_action(action: Any) -> tuple[str, int, int] | None:
    """(kind, mask, size) of a well-formed action, or None when it is malformed."""
    if not isinstance(action, dict) or len(action) != 1:
        return None
    kind, value = next(iter(action.items()))
    if kind == "pass":
        return ("pass", 0, 0) if value is True else None
    limit = _ACTION_SIZES.get(kind)
    if limit is None or not isinstance(value, list) or not 1 <= len(value) <= limit:
        return None
    mask = 0
    for text in value:
        if not isinstance(text, str):
            return None
        try:
            bit = 1 << parse_card(text)
        except CardError:
            return None
        if mask & bit:  # a repeated card (TH and 10H are the same card)
            return None
        mask |= bit
    return kind, mask, len(value)
