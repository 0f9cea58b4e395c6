"""Rummy's hard computer player (R-7.3): it remembers the cards publicly taken and discarded, and
minimises its unmatched points with a bounded search.

Memory (rummy.hard-memory): besides the melds and the discard pile, the cards the other seats
took from the discard pile are dead to it (they sit in another hand), so a partial meld waiting
for them is not kept. Search (rummy.hard-bounded-search): among the discards normal allows (R-7.2
comes first), it looks one draw ahead: for each discard, and each unseen card that shares a rank,
or a suit within two ranks, with a card it keeps, one exact split of the hand after drawing that
card and throwing the highest unmatched card. Bound: at most 11 discards x 40 unseen cards =
440 splits of at most 11 cards per decision. It keeps the discard whose expected unmatched value
after that draw is the least.
"""

from __future__ import annotations

from typing import Any

from reference_engine.cards import cards_of, parse_card
from reference_engine.rummy_normal import (
    ALL_CARDS, NormalPlayer, Option, Position, best_split, card_order, feeds, next_seat_takes, partial_alive, position,
    suit, useful)


def taken_by_others(view: dict[str, Any]) -> int:
    """The cards other seats took from the discard pile this round (public)."""
    mask = 0
    for entry in view["history"]:
        action = entry["action"]
        if entry["seat"] != view["seat"] and action.get("draw") == "discard" and "card" in action:
            mask |= 1 << parse_card(action["card"])
    return mask


def near(card: int, hand: int) -> bool:
    """Whether ``card`` shares a rank, or a suit within two ranks, with a card of ``hand``."""
    return any(card % 13 == c % 13 or (suit(card) == suit(c) and abs(position(card) - position(c)) <= 2)
               for c in cards_of(hand))


def highest_unmatched(position_: Position, hand: int, split: list[Option]) -> int:
    """The value of the highest card of ``hand`` that ``split`` leaves unmatched."""
    matched = 0
    for option in split:
        matched |= option.cards
    return max((position_.value(1 << c) for c in cards_of(hand & ~matched)), default=0)


def expected_after_draw(position_: Position, kept: int, unseen: int) -> float:
    """The expected unmatched value of ``kept`` after one more draw and the discard that follows."""
    now, split = best_split(position_, kept)
    pool = unseen.bit_count()
    if not pool:
        return float(now)
    highest = highest_unmatched(position_, kept, split)
    gain = 0
    for card in cards_of(unseen):
        value = position_.value(1 << card)
        if not near(card, kept):
            # A card joining nothing: it is thrown again, or kept in place of a higher unmatched card.
            gain += max(0, highest - value)
            continue
        with_it = kept | 1 << card
        after, split = best_split(position_, with_it)
        gain += max(0, now - (after - highest_unmatched(position_, with_it, split)))
    return now - gain / pool


class HardPlayer(NormalPlayer):
    """R-7.3: normal's rules, its memory of the discard pile, and a one-draw look-ahead."""

    @staticmethod
    def dead(view: dict[str, Any], position_: Position) -> int:
        """The melds, the discard pile and every card another seat took from it."""
        return position_.dead | taken_by_others(view)

    def discard(self, view: dict[str, Any], legal: list[dict[str, Any]], position_: Position,
                split: list[Option]) -> dict[str, Any]:
        """Among the discards normal's rules allow, the one the look-ahead values best."""
        matched = 0
        for option in split:
            matched |= option.cards
        taken = next_seat_takes(view)
        dead = self.dead(view, position_)
        unseen = ALL_CARDS & ~position_.hand & ~dead
        discards = [a for a in legal if "discard" in a]
        classes = {id(a): (useful(parse_card(a["discard"]), position_, matched, dead),
                           feeds(parse_card(a["discard"]), position_, taken)) for a in discards}
        allowed = [a for a in discards if classes[id(a)] == min(classes.values())]

        def cost(action: dict[str, Any]) -> tuple[float, int, int]:
            card = parse_card(action["discard"])
            kept = position_.hand & ~(1 << card)
            return (expected_after_draw(position_, kept, unseen), -position_.value(1 << card), -card_order(card))

        return min(allowed, key=cost) if len(allowed) > 1 else allowed[0]


_PLAYER = HardPlayer()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The hard player's action for ``view``."""
    return _PLAYER.choose(view)
