"""Rummy 1.1.0 meld rules on card masks: what a valid set or run is, which melds and lay-offs a
hand can make, and what a hand is worth.

Pure functions of masks (see ``reference_engine.cards``); no game state, no notation. Within a suit, runs are
judged on *positions* in the Rummy card order 2..K, A (0..12), so the Ace only ever sits above the
King (R-3.1, R-6.2).
"""

from __future__ import annotations

from functools import cache

from reference_engine.cards import DECK_SIZE, SUIT_MASK, CardSums, cards_of, sort_key
from reference_engine.clauses.trace import note, recording

CARD_ORDER = "23456789TJQKA"
SORT_KEY = sort_key(CARD_ORDER)

ACE_POSITION = 12
TWO_POSITION = 0
ALL_POSITIONS = (1 << 13) - 1

# Why a mask is not a meld; None means it is one.
INVALID = "invalid"
ACE_WRAP = "ace-wrap"

RANK_MASKS = [sum(1 << (suit * 13 + rank) for suit in range(4)) for rank in range(13)]
_PIP_VALUES = [min(card % 13 + 1, 10) for card in range(DECK_SIZE)]
_ACE_HIGH_VALUES = [11 if card % 13 == 0 else value for card, value in enumerate(_PIP_VALUES)]


def positions(suit_bits: int) -> int:
    """A suit's 13 rank bits (Ace first) as run positions (2 first, Ace last)."""
    return (suit_bits >> 1) | ((suit_bits & 1) << ACE_POSITION)


def suit_bits_of(position_mask: int) -> int:
    """The inverse of ``positions``."""
    return ((position_mask << 1) & SUIT_MASK) | (position_mask >> ACE_POSITION)


def _contiguous(mask: int) -> bool:
    """Whether the set bits of a non-zero mask form one unbroken block."""
    return (mask + (mask & -mask)) & mask == 0


def meld_fault(mask: int) -> str | None:
    """None if ``mask`` is a valid set or run, else INVALID or ACE_WRAP."""
    if mask.bit_count() < 3:
        return INVALID
    low = (mask & -mask).bit_length() - 1
    if mask & ~RANK_MASKS[low % 13] == 0:
        return None  # a set: distinct cards of one rank are distinct suits
    shift = low // 13 * 13
    suit_bits = mask >> shift
    if suit_bits > SUIT_MASK:
        return INVALID  # mixed suits and mixed ranks
    run = positions(suit_bits)
    if run >> ACE_POSITION and _contiguous(run):
        note("rummy.ace-after-king", "legal")
    if _contiguous(run):
        return None
    # Unbroken only when going round the corner K-A-2: the Ace would have to sit below the 2.
    gaps = ALL_POSITIONS & ~run
    if run >> ACE_POSITION and run & 1 and _contiguous(gaps):
        note("rummy.no-ace-low", "refused")
        return ACE_WRAP
    return INVALID


def is_set(mask: int) -> bool:
    """Whether a valid meld is a set (one rank) rather than a run."""
    low = (mask & -mask).bit_length() - 1
    return mask & ~RANK_MASKS[low % 13] == 0


def _intervals(run: int, min_length: int) -> list[int]:
    """Every unbroken block of at least ``min_length`` positions inside ``run``."""
    found = []
    for start in range(13):
        if not run >> start & 1:
            continue
        block = 0
        for end in range(start, 13):
            if not run >> end & 1:
                break
            block |= 1 << end
            if end - start + 1 >= min_length:
                found.append(block)
    return found


def melds_in(hand: int) -> list[int]:
    """Every valid meld (set or run) that can be laid down from ``hand``."""
    found = []
    for rank_mask in RANK_MASKS:
        same_rank = hand & rank_mask
        count = same_rank.bit_count()
        if count >= 3:
            found.append(same_rank)
            if count == 4:
                found.extend(same_rank & ~(1 << card) for card in cards_of(same_rank))
    for suit in range(4):
        shift = suit * 13
        found.extend(block << shift for block in _suit_runs(hand >> shift & SUIT_MASK))
    return found


@cache  # at most 8192 suits, and a bot asks about the same ones again and again
def _suit_runs(suit_bits: int) -> tuple[int, ...]:
    """Every run of 3 or more inside one suit's cards, as that suit's bits."""
    return tuple(suit_bits_of(block) for block in _intervals(positions(suit_bits), 3))


def layoffs_onto(meld: int, hand: int) -> list[int]:
    """Every non-empty group of cards from ``hand`` that leaves ``meld`` valid when added."""
    low = (meld & -meld).bit_length() - 1
    if is_set(meld):
        missing = RANK_MASKS[low % 13] & ~meld
        return [missing] if missing and meld.bit_count() == 3 and hand & missing else []
    shift = low // 13 * 13
    run = positions(meld >> shift)
    held = positions(hand >> shift & SUIT_MASK)
    bottom = (run & -run).bit_length() - 1
    top = run.bit_length() - 1
    below = [0]
    for position in range(bottom - 1, -1, -1):  # nothing below the 2: the run cannot wrap
        if not held >> position & 1:
            break
        below.append(below[-1] | 1 << position)
    above = [0]
    for position in range(top + 1, 13):  # nothing above the Ace
        if not held >> position & 1:
            break
        above.append(above[-1] | 1 << position)
    return [suit_bits_of(lo | hi) << shift for lo in below for hi in above if lo | hi]


def note_layoff(meld: int, cards: int, taken: int | None) -> None:
    """The interpretations that decide a lay-off of ``cards`` onto ``meld`` (only while someone records): where
    one is valid, the one that admits its shape (both ends at once, several cards, the card just taken); where
    none is, a full set's."""
    with recording():  # whether it is valid, without the notes of that check (they are meld_fault's own to make)
        valid = meld_fault(meld | cards) is None
    if not valid:
        if is_set(meld) and meld.bit_count() == 4:
            note("rummy.full-set", "refused")
        return
    if not is_set(meld):
        low = (meld & -meld).bit_length() - 1
        run, added = positions(meld >> low // 13 * 13), positions(cards >> low // 13 * 13 & SUIT_MASK)
        if added & ((run & -run) - 1) and added >> run.bit_length():
            note("rummy.layoff-both-ends", "legal")
    if cards.bit_count() > 1:
        note("rummy.layoff-several-cards", "legal")
    if taken is not None and cards >> taken & 1:
        note("rummy.no-stranding-taken-card", "legal")  # played in this action: it is never stranded


_HAND_VALUES = (CardSums(_PIP_VALUES), CardSums(_ACE_HIGH_VALUES))


def hand_value(hand: int, ace_high: bool) -> int:
    """The points a hand is worth (R-4.1): pips, faces 10, Ace 1 or 11."""
    return _HAND_VALUES[ace_high](hand)


def canonical(mask: int) -> list[int]:
    """The cards of ``mask`` in the Rummy card order."""
    return sorted(cards_of(mask), key=SORT_KEY.__getitem__)


def canonical_key(mask: int) -> list[int]:
    """The sort key of a card list, for ordering lists of card lists."""
    return [SORT_KEY[card] for card in canonical(mask)]
