"""Rummy's normal computer player (R-7.2): it looks for useful combinations and weighs the risk of
feeding the discard pile.

Useful (rummy.normal-useful-combinations): a card in a meld of its hand, a card that can be laid
off onto a meld on the table, or a card of a partial meld (two cards of one rank, or of one suit
at most two ranks apart) whose missing card is not dead. Feeding (rummy.normal-feeding-risk): a
discard the next seat could use. It lays down the split of its hand into melds and lay-offs that
leaves the least unmatched value, then discards: not useful before useful, not feeding before
feeding, then the highest value. It decides from the view only (R-7.0).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from reference_engine.cards import DECK_SIZE, cards_of, mask_of, parse_card, parse_cards
from reference_engine.rummy.melds import (
    RANK_MASKS,
    SORT_KEY,
    hand_value,
    layoffs_onto,
    melds_in,
)

ALL_CARDS = (1 << DECK_SIZE) - 1


def position(card: int) -> int:
    """The card's place in a run: 2 first, the Ace last (R-3.1)."""
    return (card % 13 - 1) % 13


def suit(card: int) -> int:
    """The card's suit, 0..3."""
    return card // 13


@dataclass(frozen=True)
class Option:
    """One way to match cards: a meld of the hand, or a lay-off onto table meld ``onto``."""

    cards: int
    onto: int | None = None


@dataclass(frozen=True)
class Position:
    """What the player sees, as masks."""

    hand: int
    table: tuple[int, ...]
    dead: int  # cards that can no longer come to its hand: in melds, in the discard pile
    ace_high: bool

    def options(self, hand: int) -> list[Option]:
        """Every meld of ``hand`` and every lay-off of its cards onto the table."""
        found = [Option(m) for m in melds_in(hand)]
        for index, meld in enumerate(self.table):
            found.extend(Option(group, index) for group in layoffs_onto(meld, hand))
        return found

    def value(self, cards: int) -> int:
        """The hand value of ``cards`` (R-4.1)."""
        return hand_value(cards, self.ace_high)


def best_split(position_: Position, hand: int) -> tuple[int, list[Option]]:
    """The options that leave the least unmatched value of ``hand``, and that value.

    Exact: the lowest card left is unmatched or in one option; a hand has at most 11 cards.
    Lay-offs onto one meld are counted independently (two extensions of one run at once are rare).
    """
    options = position_.options(hand)
    by_card: dict[int, list[Option]] = {}
    for option in options:
        for card in cards_of(option.cards):
            by_card.setdefault(card, []).append(option)
    memo: dict[int, tuple[int, tuple[Option, ...]]] = {}

    def solve(rest: int) -> tuple[int, tuple[Option, ...]]:
        if not rest:
            return 0, ()
        if rest in memo:
            return memo[rest]
        low = rest & -rest
        card = low.bit_length() - 1
        value, chosen = solve(rest ^ low)
        best = (value + position_.value(low), chosen)
        for option in by_card.get(card, ()):
            if option.cards & rest == option.cards:
                value, chosen = solve(rest ^ option.cards)
                if value < best[0]:
                    best = (value, (option, *chosen))
        memo[rest] = best
        return best

    value, chosen = solve(hand)
    return value, list(chosen)


def read_position(view: dict[str, Any]) -> Position:
    """The view as masks."""
    observation = view["observation"]
    table = tuple(mask_of(parse_cards(m["cards"])) for m in observation["melds"])
    dead = mask_of(parse_cards(observation["discard"]))
    for meld in table:
        dead |= meld
    return Position(mask_of(parse_cards(observation["hands"][view["seat"]])), table, dead,
                    bool(view["options"].get("ace_high", False)))


def missing_cards(a: int, b: int) -> int:
    """The cards that would make a meld of three with the partial meld ``a``, ``b`` (0 if none)."""
    if a % 13 == b % 13:
        return RANK_MASKS[a % 13] & ~(1 << a) & ~(1 << b)
    if suit(a) != suit(b) or abs(position(a) - position(b)) > 2:
        return 0
    low, high = sorted((position(a), position(b)))
    places = [low + 1] if high - low == 2 else [p for p in (low - 1, high + 1) if 0 <= p <= 12]
    return mask_of(suit(a) * 13 + (p + 1) % 13 for p in places)


def partial_alive(card: int, hand: int, dead: int) -> bool:
    """Whether ``card`` forms a partial meld with another card of ``hand`` whose missing card can still come."""
    for other in cards_of(hand & ~(1 << card)):
        missing = missing_cards(card, other)
        if missing & ~dead & ~hand:
            return True
    return False


def useful(card: int, position_: Position, matched: int, dead: int) -> bool:
    """rummy.normal-useful-combinations: matched, or in a live partial meld."""
    return bool(matched >> card & 1) or partial_alive(card, position_.hand, dead)


def next_seat_takes(view: dict[str, Any]) -> list[int]:
    """The cards the next seat took from the discard pile this round."""
    players = len(view["observation"]["hand_sizes"])
    nxt = (view["seat"] + 1) % players
    return [parse_card(e["action"]["card"]) for e in view["history"]
            if e["seat"] == nxt and e["action"].get("draw") == "discard" and "card" in e["action"]]


def feeds(card: int, position_: Position, taken: list[int]) -> bool:
    """rummy.normal-feeding-risk: the card fits a table meld, or goes with a card the next seat took."""
    if any(layoffs_onto(meld, 1 << card) for meld in position_.table):
        return True
    return any(card % 13 == t % 13 or (suit(card) == suit(t) and abs(position(card) - position(t)) <= 2)
               for t in taken)


@cache
def _meld_key(cards: frozenset[str]) -> int:
    return mask_of(parse_card(c) for c in cards)


def laying_down(legal: list[dict[str, Any]], split: list[Option]) -> dict[str, Any] | None:
    """The legal meld or lay-off of ``split``, the most cards first; None when there is none."""
    wanted = {(o.cards, o.onto) for o in split}
    found = [a for a in legal if ("meld" in a or "layoff" in a)
             and (_meld_key(frozenset(a.get("meld") or a["layoff"])), a.get("onto")) in wanted]
    return max(found, key=lambda a: len(a.get("meld") or a["layoff"])) if found else None


def goes_out(legal: list[dict[str, Any]], hand: int) -> dict[str, Any] | None:
    """A legal meld or lay-off that empties the hand (R-2.3), if any."""
    for action in legal:
        cards = action.get("meld") or action.get("layoff")
        if cards and mask_of(parse_cards(cards)) == hand:
            return action
    return None


def card_order(card: int) -> int:
    """The card's place in the Rummy card order, for the last tie-break."""
    return SORT_KEY[card]


class NormalPlayer:
    """R-7.2: lays down its best split; keeps useful cards; avoids feeding the next seat."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The action for this view."""
        legal: list[dict[str, Any]] = view["legal"]
        position_ = read_position(view)
        if {"draw": "stock"} in legal or {"draw": "discard"} in legal:
            return self.draw(view, legal, position_)
        out = goes_out(legal, position_.hand)
        if out:
            return out
        _, split = best_split(position_, position_.hand)
        down = laying_down(legal, split)
        if down:
            return down
        return self.discard(view, legal, position_, split)

    def draw(self, view: dict[str, Any], legal: list[dict[str, Any]], position_: Position) -> dict[str, Any]:
        """The top discard when it joins a meld of its hand or a table meld, else the stock."""
        pile = view["observation"]["discard"]
        if {"draw": "discard"} in legal and pile:
            card = parse_card(pile[0])
            with_it = position_.hand | 1 << card
            if any(o.cards >> card & 1 for o in position_.options(with_it)):
                return {"draw": "discard"}
        return {"draw": "stock"} if {"draw": "stock"} in legal else legal[0]

    def discard(self, view: dict[str, Any], legal: list[dict[str, Any]], position_: Position,
                split: list[Option]) -> dict[str, Any]:
        """Not useful before useful, not feeding before feeding, then the highest value."""
        matched = 0
        for option in split:
            matched |= option.cards
        taken = next_seat_takes(view)
        dead = self.dead(view, position_)

        def cost(action: dict[str, Any]) -> tuple[bool, bool, int, int]:
            card = parse_card(action["discard"])
            return (useful(card, position_, matched, dead), feeds(card, position_, taken),
                    -position_.value(1 << card), -card_order(card))

        return min((a for a in legal if "discard" in a), key=cost)

    @staticmethod
    def dead(view: dict[str, Any], position_: Position) -> int:
        """The cards normal knows cannot come: in a meld or the discard pile."""
        return position_.dead


_PLAYER = NormalPlayer()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The normal player's action for ``view``."""
    return _PLAYER.choose(view)

