"""Gin Rummy's deadwood for the players' checks (G-1.2..G-1.4): values, greedy melds, the least deadwood.

Written from the rule text for the checks, apart from the reference's solver, so that a check
never leans on the code it judges.
"""

from __future__ import annotations

from functools import lru_cache

from harness.findings.rules.melds import SUITS, melds_in, rank

RANKS = "A23456789TJQK"  # the Ace is low only (G-1.3)


def value(card: str) -> int:
    """G-1.4: Ace 1, 2 to 10 their pips, faces 10."""
    return min(10, RANKS.index(rank(card)) + 1)


def card_key(card: str) -> tuple[int, int]:
    """The card order: rank A low .. K, then suit C < D < H < S."""
    return RANKS.index(rank(card)), SUITS.index(card[-1])


def points(cards: frozenset[str] | set[str] | list[str]) -> int:
    return sum(value(c) for c in cards)


def least(cards: frozenset[str]) -> int:
    """The least deadwood of ``cards`` split into disjoint melds (gin-rummy.knock-arrangement)."""
    return _least(_held(cards))


def _held(cards: frozenset[str]) -> int:
    return sum(1 << _BIT[c] for c in cards)


# Cards as bits, rank-major (A of clubs is bit 0): the lowest card held is the lowest bit set, and a
# meld is held when its bits are all set. An audit judges thousands of positions a second this way.
_BIT = {r + s: RANKS.index(r) * 4 + SUITS.index(s) for r in RANKS for s in SUITS}
_BIT.update({"10" + s: _BIT["T" + s] for s in SUITS})
_VALUE = [min(10, i // 4 + 1) for i in range(52)]
_MELDS_WITH: list[list[int]] = [[] for _ in range(52)]
for _meld in melds_in([r + s for r in RANKS for s in SUITS], RANKS):
    _mask = _held(_meld)
    for _card in _meld:
        _MELDS_WITH[_BIT[_card]].append(_mask)


@lru_cache(maxsize=1 << 15)  # bounded: an audit of a million hands keeps its memory flat
def _least(held: int) -> int:
    if not held:
        return 0
    low = held & -held
    first = low.bit_length() - 1
    best = _VALUE[first] + _least(held ^ low)
    for meld in _MELDS_WITH[first]:
        if held & meld == meld:
            best = min(best, _least(held ^ meld))
    return best


def least_kept(cards: frozenset[str], keep_out: str | None = None) -> int:
    """The least deadwood of the cards kept after one of ``cards`` (not ``keep_out``) is discarded."""
    held = _held(cards)
    return min(_least(held ^ 1 << _BIT[c]) for c in cards if c != keep_out)


def greedy(cards: list[str]) -> tuple[list[frozenset[str]], list[str]]:
    """Easy's melds (gin-rummy.easy-keeps-its-melds): the most cards, the highest value, the first; again on the rest."""
    left: set[str] = set(cards)
    melds: list[frozenset[str]] = []
    while True:
        found = melds_in(left, RANKS)
        if not found:
            return melds, sorted(left, key=card_key)
        best = min(found, key=lambda m: (-len(m), -points(m), sorted(card_key(c) for c in m)))
        melds.append(best)
        left -= best
