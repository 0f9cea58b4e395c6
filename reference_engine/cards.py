"""Cards as ints and hands as 52-bit masks; the ASCII notation in and out.

A card is ``suit * 13 + rank - 1`` with rank Ace=1 .. King=13 and suits C, D, H, S = 0..3,
so one suit's cards are 13 consecutive bits of a mask. This module knows nothing of any game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"
DECK_SIZE = 52
FULL_DECK = (1 << DECK_SIZE) - 1
SUIT_MASK = (1 << 13) - 1


class CardError(ValueError):
    """A string that is not a card in the kit's notation."""


_PARSE = {RANKS[r] + SUITS[s]: s * 13 + r for s in range(4) for r in range(13)}
_PARSE.update({"10" + SUITS[s]: s * 13 + 9 for s in range(4)})
_NAMES = [RANKS[c % 13] + SUITS[c // 13] for c in range(DECK_SIZE)]


def parse_card(text: str) -> int:
    """The card named by ``text`` (``QH``, ``TD``, ``10D``)."""
    try:
        return _PARSE[text]
    except (KeyError, TypeError):
        raise CardError(f"not a card: {text!r} (expected rank A23456789TJQK then suit CDHS, e.g. QH)") from None


def card_name(card: int) -> str:
    """The canonical ASCII name of ``card``."""
    return _NAMES[card]


def pile_names(pile: Iterable[int]) -> list[str]:
    """The names of a pile's cards, in the pile's own order (one C-level pass: piles hold up to 52)."""
    return list(map(_NAMES.__getitem__, pile))


def rank_of(card: int) -> int:
    """Rank 1 (Ace) .. 13 (King)."""
    return card % 13 + 1


def suit_of(card: int) -> int:
    """Suit 0..3 for C, D, H, S."""
    return card // 13


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (1..13) and ``suit`` (0..3)."""
    return suit * 13 + rank - 1


def mask_of(cards: Iterable[int]) -> int:
    """The mask holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> Iterator[int]:
    """The cards of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def parse_cards(texts: Iterable[str]) -> list[int]:
    """Parse a list of card names."""
    return [parse_card(t) for t in texts]


def sort_key(card_order: str) -> list[int]:
    """A per-card sort key for a game's card order (rank string), suits C < D < H < S."""
    position = {rank: i for i, rank in enumerate(card_order)}
    return [position[RANKS[c % 13]] * 4 + c // 13 for c in range(DECK_SIZE)]


class CardNames:
    """Masks as card names in one game's card order, by tables a byte of the mask at a time.

    A state view names every hand and pile, in every seat's observation: sorting each mask's
    cards and naming them one by one was a tenth of a suite's run. Here a mask is moved into
    card-order bit positions (7 lookups) and named from that (7 more), with no sort.
    """

    def __init__(self, card_order: str) -> None:
        key = sort_key(card_order)
        order = sorted(range(DECK_SIZE), key=key.__getitem__)
        place = {card: i for i, card in enumerate(order)}
        self._moved = _byte_tables([1 << place[card] for card in range(DECK_SIZE)], 0, int.__or__)
        self._named = _byte_tables([(_NAMES[card],) for card in order], (), tuple.__add__)

    def __call__(self, mask: int) -> list[str]:
        """The names of ``mask``'s cards, in card order."""
        moved, named = self._moved, self._named
        ordered = (moved[0][mask & 255] | moved[1][mask >> 8 & 255] | moved[2][mask >> 16 & 255]
                   | moved[3][mask >> 24 & 255] | moved[4][mask >> 32 & 255] | moved[5][mask >> 40 & 255]
                   | moved[6][mask >> 48])
        return [*named[0][ordered & 255], *named[1][ordered >> 8 & 255], *named[2][ordered >> 16 & 255],
                *named[3][ordered >> 24 & 255], *named[4][ordered >> 32 & 255], *named[5][ordered >> 40 & 255],
                *named[6][ordered >> 48]]


class CardSums:
    """The sum of a per-card value over a mask's cards, by tables a byte of the mask at a time."""

    def __init__(self, values: list[int]) -> None:
        self._tables = _byte_tables(values, 0, int.__add__)

    def __call__(self, mask: int) -> int:
        """The values of ``mask``'s cards, added."""
        tables = self._tables
        return (tables[0][mask & 255] + tables[1][mask >> 8 & 255] + tables[2][mask >> 16 & 255]
                + tables[3][mask >> 24 & 255] + tables[4][mask >> 32 & 255] + tables[5][mask >> 40 & 255]
                + tables[6][mask >> 48])


def _byte_tables(values: list[Any], empty: Any, join: Callable[[Any, Any], Any]) -> list[list[Any]]:
    """Per byte of a 52-bit mask, for each of its values the ``join`` of ``values`` over its bits, lowest first."""
    tables = []
    for start in range(0, DECK_SIZE, 8):
        table = [empty]
        for bit in range(start, min(start + 8, DECK_SIZE)):
            table += [join(entry, values[bit]) for entry in table]  # the entries with this bit set, after
        tables.append(table)
    return tables


def fill_order() -> list[int]:
    """The deck in fill order: suit-major, Ace to King."""
    return list(range(DECK_SIZE))
