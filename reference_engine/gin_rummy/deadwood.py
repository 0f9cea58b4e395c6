"""Gin Rummy melds and deadwood on 52-bit hand masks: the exact minimum-deadwood solver.

A meld is a set (3 or 4 cards of one rank) or a run (3+ cards of one suit in consecutive ranks,
Ace low only: Q-K-A is not a run). Every meld of the deck is precomputed as a mask, indexed by
its lowest card, so the search branches only on the lowest card left: it is either deadwood or
the lowest card of one meld. This module knows nothing of turns, layouts or notation.
"""

from __future__ import annotations

import functools

from reference_engine.cards import DECK_SIZE, cards_of, make_card, rank_of
from reference_engine.clauses.trace import Holds, note, recording_now

# Deadwood value of each card: Ace 1, pips at face value, 10 and faces 10.
VALUE: tuple[int, ...] = tuple(min(rank_of(c), 10) for c in range(DECK_SIZE))


def _all_melds() -> list[int]:
    """Every meld of the deck as a mask: sets of 3 and 4, runs of 3 to 13."""
    melds = []
    for rank in range(1, 14):
        four = [make_card(rank, s) for s in range(4)]
        melds.append(sum(1 << c for c in four))
        for left_out in four:
            melds.append(sum(1 << c for c in four if c != left_out))
    for suit in range(4):
        for low in range(1, 12):
            for high in range(low + 2, 14):
                melds.append(sum(1 << make_card(r, suit) for r in range(low, high + 1)))
    return melds


ALL_MELDS: tuple[int, ...] = tuple(_all_melds())
MELD_MASKS: frozenset[int] = frozenset(ALL_MELDS)

# The melds whose lowest card (as an int) is c: when c is the lowest card left in a hand, these
# are the only melds that can hold it. Shorter melds first, so a tie keeps the simplest split.
_BY_LOWEST: list[list[int]] = [[] for _ in range(DECK_SIZE)]
for _meld in sorted(ALL_MELDS, key=lambda m: m.bit_count()):
    _BY_LOWEST[(_meld & -_meld).bit_length() - 1].append(_meld)
MELDS_BY_LOWEST: tuple[tuple[int, ...], ...] = tuple(tuple(m) for m in _BY_LOWEST)

SUIT_BITS = (1 << 13) - 1
# Bits where a run of three may start: ranks Ace..Jack of each suit.
_RUN_STARTS = sum(((1 << 11) - 1) << (13 * suit) for suit in range(4))
# Deadwood value of every subset of one suit's 13 cards, so a hand's value is four lookups.
def _suit_values() -> tuple[int, ...]:
    """Built from smaller subsets (drop the lowest card, add its value): a tenth of the import time."""
    values = [0] * (1 << 13)
    for bits in range(1, 1 << 13):
        low = bits & -bits
        values[bits] = values[bits ^ low] + min(low.bit_length(), 10)
    return tuple(values)


_SUIT_VALUE: tuple[int, ...] = _suit_values()

# Minimum deadwood by mask, shared across calls: consecutive hands of a game differ by one
# card, so most sub-hands repeat. Cleared when it grows past the limit to bound memory.
_MEMO: dict[int, int] = {0: 0}
_MEMO_LIMIT = 2_000_000


# Q-K-A and K-A-2 of each suit: three in a row only if the Ace could be high or wrap.
_WRAPS = tuple(sum(1 << make_card(r, s) for r in ranks) for s in range(4) for ranks in ((12, 13, 1), (13, 1, 2)))


def wraps(hand: int) -> bool:
    """Whether ``hand`` holds a Q-K-A or K-A-2 of one suit."""
    return any(hand & w == w for w in _WRAPS)


def note_wraps(hand: int, *fields: str, holds: Holds | None = None) -> None:
    """Note gin-rummy.ace-low for ``fields`` when ``hand`` holds a Q-K-A or K-A-2: the Ace's place shaped its melds."""
    if recording_now() and wraps(hand):
        note("gin-rummy.ace-low", *fields, holds=holds)


def is_meld(mask: int) -> bool:
    """Whether the cards of ``mask`` form one valid meld."""
    return mask in MELD_MASKS


def meldable(hand: int) -> int:
    """The cards of ``hand`` that belong to at least one meld inside ``hand``."""
    # Runs: a card starting three in a row of one suit; starts at Queen or King would wrap.
    starts = hand & (hand >> 1) & (hand >> 2) & _RUN_STARTS
    runs = starts | starts << 1 | starts << 2
    # Sets: ranks present in at least three suits (a suit is 13 consecutive bits).
    a, b, c, d = hand & SUIT_BITS, hand >> 13 & SUIT_BITS, hand >> 26 & SUIT_BITS, hand >> 39
    ranks = (a & b & (c | d)) | (c & d & (a | b))
    return runs | (hand & (ranks | ranks << 13 | ranks << 26 | ranks << 39))


def value_of(mask: int) -> int:
    """The total deadwood value of the cards of ``mask``."""
    table = _SUIT_VALUE
    return (table[mask & SUIT_BITS] + table[mask >> 13 & SUIT_BITS] + table[mask >> 26 & SUIT_BITS]
            + table[mask >> 39])


def min_deadwood(hand: int) -> int:
    """The least deadwood of any arrangement of ``hand`` into disjoint melds."""
    # Cards in no meld are deadwood whatever the arrangement: only the rest is searched.
    core = meldable(hand)
    free = value_of(hand ^ core)
    if not core:
        return free
    memo = _MEMO
    found = memo.get(core)
    if found is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
            memo[0] = 0
        found = _solve(core, memo)
    return free + found


def _solve(hand: int, memo: dict[int, int]) -> int:
    """Memoised recursion: the lowest card is deadwood or the lowest card of a meld."""
    found = memo.get(hand)
    if found is not None:
        return found
    low = hand & -hand
    card = low.bit_length() - 1
    best = VALUE[card] + _solve(hand ^ low, memo)
    for meld in MELDS_BY_LOWEST[card]:
        if meld & hand == meld and best:
            rest = _solve(hand ^ meld, memo)
            if rest < best:
                best = rest
    memo[hand] = best
    return best


def least_after_discard(hand: int) -> int:
    """For an 11-card ``hand``: the least deadwood left after the best discard, in one pass."""
    # Every arrangement is a choice of sets plus, in each suit, runs of what the sets leave; the
    # discard is a card left to some suit. So: for each choice of sets, the run-only tables give
    # each suit's deadwood, and the best discard is the suit whose one-card removal gains most.
    runs, gain = _run_tables()
    best = 1 << 30
    for removed in _set_choices(hand):
        left = hand & ~removed
        a, b, c, d = left & SUIT_BITS, left >> 13 & SUIT_BITS, left >> 26 & SUIT_BITS, left >> 39
        total = runs[a] + runs[b] + runs[c] + runs[d] + min(gain[a], gain[b], gain[c], gain[d])
        if total < best:
            best = total
    return best


def _set_choices(hand: int) -> list[int]:
    """The cards taken by every choice of sets in ``hand``: per rank none, three of its suits, or four."""
    a, b, c, d = hand & SUIT_BITS, hand >> 13 & SUIT_BITS, hand >> 26 & SUIT_BITS, hand >> 39
    ranks = (a & b & (c | d)) | (c & d & (a | b))
    unions = [0]
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        column = hand & (bit | bit << 13 | bit << 26 | bit << 39)
        options = [0, column]
        if column.bit_count() == 4:
            options += [column & ~(bit << 13 * s) for s in range(4)]
        unions = [u | o for u in unions for o in options]
    return unions


@functools.cache
def _run_tables() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For every set of one suit's ranks: the least deadwood using runs only, and what one card less gains."""
    runs = [0] * (1 << 13)
    for bits in range(1, 1 << 13):  # increasing, so every smaller pattern is already known
        low = bits & -bits
        rank = low.bit_length() - 1
        best = min(rank + 1, 10) + runs[bits ^ low]
        run = low
        for top in range(rank + 1, 13):
            if not bits >> top & 1:
                break
            run |= 1 << top
            if top - rank >= 2 and runs[bits ^ run] < best:
                best = runs[bits ^ run]
        runs[bits] = best
    gain = [1 << 30] + [0] * ((1 << 13) - 1)  # no card in the suit: nothing to discard there
    for bits in range(1, 1 << 13):
        rest, best = bits, 1 << 30
        while rest:
            low = rest & -rest
            rest ^= low
            if runs[bits ^ low] < best:
                best = runs[bits ^ low]
        gain[bits] = best - runs[bits]
    return tuple(runs), tuple(gain)


def best_discards(hand: int) -> dict[int, int]:
    """For an 11-card ``hand``: each possible discard with the least deadwood left after it."""
    core = meldable(hand)
    whole = min_deadwood(hand)
    after = {}
    for card in cards_of(hand):
        # Dropping a card that is in no meld leaves every meld intact: only its value goes.
        after[card] = min_deadwood(hand & ~(1 << card)) if core >> card & 1 else whole - VALUE[card]
    return after


def optimal_arrangements(hand: int) -> list[list[int]]:
    """Every split of ``hand`` into disjoint melds whose deadwood is the least possible."""
    target = min_deadwood(hand)
    found: list[list[int]] = []
    _enumerate(hand, target, [], found)
    return found


def _enumerate(hand: int, target: int, chosen: list[int], found: list[list[int]]) -> None:
    """Extend ``chosen`` with melds of ``hand`` keeping the deadwood of ``hand`` at ``target``."""
    if not hand:
        found.append(list(chosen))
        return
    low = hand & -hand
    card = low.bit_length() - 1
    rest = hand ^ low
    if VALUE[card] <= target and VALUE[card] + min_deadwood(rest) == target:
        _enumerate(rest, target - VALUE[card], chosen, found)
    for meld in MELDS_BY_LOWEST[card]:
        if meld & hand == meld and min_deadwood(hand ^ meld) == target:
            chosen.append(meld)
            _enumerate(hand ^ meld, target, chosen, found)
            chosen.pop()


def broken_by(hand: int, card: int) -> bool:
    """Whether discarding ``card`` breaks a meld of every least-deadwood split of ``hand``."""
    return all(any(meld >> card & 1 for meld in split) for split in optimal_arrangements(hand))


def kept_deadwood(hand: int, card: int) -> int:
    """The deadwood after discarding ``card`` were the melds of a least-deadwood split of ``hand`` kept,
    not the ten cards arranged anew: a meld ``card`` breaks stays if what is left of it is a meld,
    else its cards count as deadwood; the least such."""
    left = hand & ~(1 << card)

    def kept(split: list[int]) -> int:
        shown = 0
        for meld in split:
            rest = meld & ~(1 << card)
            shown |= rest if rest == meld or is_meld(rest) else 0
        return value_of(left & ~shown)

    return min(kept(split) for split in optimal_arrangements(hand))
