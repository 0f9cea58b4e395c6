"""Gin Rummy's normal computer player (G-7.2): it finds the best split of its hand into melds and
avoids discarding the cards the visible history shows to be useful to the opponent.

Best split: the exact minimum-deadwood solver on its own cards (``deadwood.py``). Useful to the
opponent: a card of the same rank as a card the opponent took from the discard pile and still
holds, or of its suit within two ranks of it (the two would be two thirds of a set or a run).
It decides from the view only (G-7.0).
"""

from __future__ import annotations

from typing import Any

from reference_engine.cards import (
    card_name,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from reference_engine.gin_rummy.deadwood import VALUE, best_discards, min_deadwood


def hand_mask(view: dict[str, Any]) -> int:
    """The player's own hand as a mask."""
    return mask_of(parse_cards(view["observation"]["hands"][view["seat"]]))


def opponent_takes(view: dict[str, Any]) -> set[int]:
    """The cards the opponent took from the discard pile and has not discarded since (public)."""
    me, held = view["seat"], set()
    for entry in view["history"]:
        action = entry["action"]
        if entry["seat"] == me:
            continue
        if action.get("draw") == "discard" and "card" in action:
            held.add(parse_card(action["card"]))
        for key in ("discard", "knock"):
            if key in action:
                held.discard(parse_card(action[key]))
    return held


def feeds(card: int, taken: set[int]) -> bool:
    """Whether ``card`` goes with a card the opponent took: same rank, or same suit within two."""
    return any(rank_of(card) == rank_of(t) or (suit_of(card) == suit_of(t) and abs(rank_of(card) - rank_of(t)) <= 2)
               for t in taken)


def improves(hand: int, card: int) -> bool:
    """Whether taking ``card`` lowers the least deadwood after the discard that must follow."""
    after = best_discards(hand | 1 << card)
    return min(v for c, v in after.items() if c != card) < min_deadwood(hand)


def wants(view: dict[str, Any], hand: int) -> bool:
    """Whether to take the top discard: it lowers the least deadwood (the game cannot go round for
    ever: every take lowers the taker's deadwood, and no discard raises it)."""
    pile = view["observation"]["discard"]
    return bool(pile) and {"draw": "discard"} in view["legal"] and improves(hand, parse_card(pile[0]))


def best_layoff(legal: list[dict[str, Any]], hand: int) -> dict[str, Any]:
    """The lay-off that leaves the least deadwood, or the pass when none lowers it."""
    now, best, chosen = min_deadwood(hand), None, {"pass": True}
    for action in legal:
        if "layoff" in action:
            left = min_deadwood(hand & ~mask_of(parse_cards(action["layoff"])))
            if left < now and (best is None or left < best):
                best, chosen = left, action
    return chosen


def draw_or_layoff(view: dict[str, Any], hand: int) -> dict[str, Any] | None:
    """The choice of a draw, offer or lay-off turn, shared by normal and hard; None on a discard turn."""
    phase = view["observation"]["phase"]
    if phase in ("offer", "draw"):
        if wants(view, hand):
            return {"draw": "discard"}
        return {"pass": True} if phase == "offer" else {"draw": "stock"}
    if phase == "layoff":
        return best_layoff(view["legal"], hand)
    return None


class NormalPlayer:
    """G-7.2: the best split, knocks when it can, feeds the opponent only when it must."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The action for this view."""
        legal: list[dict[str, Any]] = view["legal"]
        hand = hand_mask(view)
        early = draw_or_layoff(view, hand)
        if early is not None:
            return early
        knocks = [a for a in legal if "knock" in a]
        after = best_discards(hand)
        if knocks:
            # The best split: the knock leaving the least deadwood (gin when it can); between equal ones, a card
            # not shown useful to the opponent (gin-rummy.normal-useful-to-opponent holds for a knock's discard too).
            taken = opponent_takes(view)
            return min(knocks, key=lambda a: (after[parse_card(a["knock"])], feeds(parse_card(a["knock"]), taken)))
        return self.discard(view, legal, hand, after)

    @staticmethod
    def discard(view: dict[str, Any], legal: list[dict[str, Any]], hand: int, after: dict[int, int]) -> dict[str, Any]:
        """The least deadwood left; then a card not shown useful to the opponent; then the highest value."""
        taken = opponent_takes(view)

        def cost(action: dict[str, Any]) -> tuple[int, bool, int, str]:
            card = parse_card(action["discard"])
            return (after[card], feeds(card, taken), -VALUE[card], card_name(card))

        return min((a for a in legal if "discard" in a), key=cost)


_PLAYER = NormalPlayer()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The normal player's action for ``view``."""
    return _PLAYER.choose(view)
