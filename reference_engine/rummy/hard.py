"""Rummy's hard computer player (R-7.3): it remembers the cards publicly taken and discarded, and
minimises its unmatched points with a bounded search.

Memory (rummy.hard-memory): besides the melds and the discard pile, the cards the other seats
took from the discard pile are dead to it (they sit in another hand): a partial meld waiting only
for them is not useful, and they are left out of the cards it may still draw. It draws, lays down
and goes out as normal does. Search (rummy.hard-bounded-search), on the discard:
- while every other seat holds more than CLOSE_TO_OUT cards, among the discards normal's rules
  allow, the one whose kept cards have the least expected unmatched value after one more draw and
  the discard that follows (bound: at most 11 discards x 40 unseen cards = 440 exact splits of at
  most 11 cards per decision);
- once another seat holds CLOSE_TO_OUT cards or fewer and may go out at its next turn, any legal
  discard, the one that leaves the least unmatched value in hand now (what that seat would score),
  a discard that feeds the next seat counted FEED_PENALTY points worse (at most 11 splits).
"""

from __future__ import annotations

from typing import Any

from reference_engine.cards import cards_of, parse_card
from reference_engine.rummy.normal import (
    ALL_CARDS,
    NormalPlayer,
    Option,
    Position,
    best_split,
    card_order,
    feeds,
    next_seat_takes,
    position,
    suit,
    useful,
)

# Why 3: a fed card lets the next seat meld sooner; about a third of a face card's value per feed.
FEED_PENALTY = 3.0
# Why 3: with three cards a seat can go out at its next turn (a meld of three, or lay-offs).
CLOSE_TO_OUT = 3


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


def after_discard(position_: Position, hand: int) -> int:
    """The least unmatched value of ``hand`` once its best card to throw is thrown."""
    value, split = best_split(position_, hand)
    return value - highest_unmatched(position_, hand, split)


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
        gain += max(0, now - after_discard(position_, kept | 1 << card))
    return now - gain / pool


class HardPlayer(NormalPlayer):
    """R-7.3: normal's draw and melds, its memory of the discard pile, a searched discard."""

    @staticmethod
    def dead(view: dict[str, Any], position_: Position) -> int:
        """The melds, the discard pile and every card another seat took from it."""
        return position_.dead | taken_by_others(view)

    def discard(self, view: dict[str, Any], legal: list[dict[str, Any]], position_: Position,
                split: list[Option]) -> dict[str, Any]:
        """The look-ahead's discard among normal's, or the least left in hand near another's going out."""
        taken = next_seat_takes(view)
        discards = [a for a in legal if "discard" in a]
        sizes = view["observation"]["hand_sizes"]
        if min(n for seat, n in enumerate(sizes) if seat != view["seat"]) <= CLOSE_TO_OUT:
            # Another seat may go out at its next turn: what stays in hand now is what it would score.
            def now(action: dict[str, Any]) -> tuple[float, int, int]:
                card = parse_card(action["discard"])
                penalty = FEED_PENALTY if feeds(card, position_, taken) else 0.0
                return (best_split(position_, position_.hand & ~(1 << card))[0] + penalty,
                        -position_.value(1 << card), -card_order(card))

            return min(discards, key=now)
        matched = 0
        for option in split:
            matched |= option.cards
        dead = self.dead(view, position_)
        unseen = ALL_CARDS & ~position_.hand & ~dead
        classes = {id(a): (useful(parse_card(a["discard"]), position_, matched, dead),
                           feeds(parse_card(a["discard"]), position_, taken)) for a in discards}
        allowed = [a for a in discards if classes[id(a)] == min(classes.values())]

        def ahead(action: dict[str, Any]) -> tuple[float, int, int]:
            card = parse_card(action["discard"])
            return (expected_after_draw(position_, position_.hand & ~(1 << card), unseen),
                    -position_.value(1 << card), -card_order(card))

        return min(allowed, key=ahead)


_PLAYER = HardPlayer()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The hard player's action for ``view``."""
    return _PLAYER.choose(view)
