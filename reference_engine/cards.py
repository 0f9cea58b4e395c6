"""Cards as ints and hands as 52-bit masks; the ASCII notation in and out.

A card is ``suit * 13 + rank - 1`` with rank Ace=1 .. King=13 and suits C, D, H, S = 0..3,
so one suit's cards are 13 consecutive bits of a mask. This module knows nothing of any game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

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


def fill_order() -> list[int]:
    """The deck in fill order: suit-major, Ace to King."""
    return list(range(DECK_SIZE))
