"""President setups: the deal (seeded or from a given deck) and the checks on a layout.

A layout that places a card twice or leaves one out, or that no game could reach, raises
ValueError (a refusal is only ever for actions). Loading a checked layout into a game is the
game's own ``Game.load_layout``; this module knows nothing of turns or scoring.
"""

from __future__ import annotations

from typing import Any

from reference_engine.cards import FULL_DECK, fill_order, parse_card
from reference_engine.president.plays import names
from reference_engine.seeded import SplitMix64


def mask_of_names(texts: list[str]) -> int:
    """The mask of a list of card names from a layout (trusted to be cards)."""
    mask = 0
    for text in texts:
        mask |= 1 << parse_card(text)
    return mask


def deal(rng: SplitMix64, players: int) -> list[int]:
    """A shuffled fill-order deck dealt one card at a time from seat 0."""
    deck = fill_order()
    rng.shuffle(deck)
    return deal_deck(deck, players)


def deal_deck(deck: list[int], players: int) -> list[int]:
    """``deck`` (top first) dealt one card at a time from seat 0."""
    hands = [0] * players
    for i, card in enumerate(deck):
        hands[i % players] |= 1 << card
    return hands


def check_cards(hands: list[int], played: int, trick: list[int]) -> None:
    """A layout must place each of the 52 cards exactly once."""
    seen = 0
    for mask in [*hands, played, *trick]:
        if seen & mask:
            raise ValueError(f"a card is placed twice: {names(seen & mask)}")
        seen |= mask
    if seen != FULL_DECK:
        raise ValueError(f"cards not placed: {names(FULL_DECK & ~seen)}")


def check_position(game: Any) -> None:
    """A mid-game layout loaded into ``game`` must be a position the rules can reach from (P-2.4, P-5.1)."""
    seats = range(game.players)
    if any(not 0 <= s < game.players for s in [*game.finished, *(p for p, _ in game.trick)]):
        raise ValueError("a seat in finished or trick is not at the table")
    for seat in seats:
        if bool(game.out >> seat & 1) == bool(game.hands[seat]):
            raise ValueError(f"seat {seat}: only the seats in finished may have an empty hand")
    if len(game.finished) >= game.players - 1:
        raise ValueError("the round is already over: at most players - 2 seats may be finished")
    if len({mask.bit_count() for _, mask in game.trick}) > 1:
        raise ValueError("the plays of a trick must all have the same number of cards")


def check_later_layout(layout: dict[str, Any], players: int) -> None:
    """A later round's deal: all 52 cards, and at least 2 per hand so every exchange can be made."""
    hands = [mask_of_names(h) for h in layout["hands"]]
    if len(hands) != players or any(hand.bit_count() < 2 for hand in hands):
        raise ValueError(f"a later layout needs {players} hands of at least 2 cards each")
    check_cards(hands, mask_of_names(layout.get("played") or []), [])
