"""President's normal computer player (P-7.2): it keeps its 2s and its fours of a kind to win back
the lead, and does not break a pair or a triple when it need not.

It decides from the view only (P-7.0): its own hand, the trick, the order and the legal actions.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

NORMAL_ORDER = "3456789TJQKA2"
SUITS = "CDHS"
PASS = {"pass": True}


def ranking(order: str) -> str:
    """The ranks weakest first under the order in force (``normal`` or ``reversed``, P-6.3)."""
    return NORMAL_ORDER if order == "normal" else NORMAL_ORDER[::-1]


def strength(rank: str, order: str) -> int:
    """How strong a rank is under the order in force: 0 the weakest, 12 the strongest."""
    return ranking(order).index(rank)


def counts(hand: list[str]) -> Counter[str]:
    """How many cards of each rank the hand holds."""
    return Counter(card[0] for card in hand)


def plays(legal: list[dict[str, Any]]) -> list[list[str]]:
    """The card lists of the legal plays (the pass left out)."""
    return [action["play"] for action in legal if "play" in action]


def breaks(cards: list[str], held: Counter[str]) -> bool:
    """Whether the play leaves cards of its rank behind: a pair, triple or four split up."""
    return len(cards) < held[cards[0][0]]


def is_reserve(rank: str, held: Counter[str], order: str) -> bool:
    """A 2 (the strongest rank in force: the 3 during a revolution) or a rank held four times.

    Interpretation (P-7.2 "its 2s"): the 2s are kept because nothing beats them; during a
    revolution the 3s take that place, so the reserve is the strongest rank under the order in force.
    """
    return rank == ranking(order)[-1] or held[rank] == 4


def weakest(candidates: list[list[str]], order: str) -> list[str]:
    """The play of the weakest rank; between plays of one rank, the canonical first."""
    return min(candidates, key=lambda cards: (strength(cards[0][0], order), [SUITS.index(c[1]) for c in cards]))


def give_back(legal: list[dict[str, Any]], hand: list[str]) -> dict[str, Any]:
    """The exchange (P-6.1): give the weakest cards, singles before cards of a group."""
    held = counts(hand)

    def cost(action: dict[str, Any]) -> tuple[int, int, list[int]]:
        cards = action["give"]
        return (sum(held[c[0]] > 1 for c in cards), sum(strength(c[0], "normal") for c in cards),
                [SUITS.index(c[1]) for c in cards])

    return min(legal, key=cost)


class NormalPlayer:
    """P-7.2: the weakest unbroken play, a reserve only to win back the lead, never a broken group."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The action for this view."""
        legal: list[dict[str, Any]] = view["legal"]
        observation = view["observation"]
        hand: list[str] = observation["hands"][view["seat"]]
        if "give" in legal[0]:
            return give_back(legal, hand)
        order, held = observation["order"], counts(hand)
        candidates = plays(legal)
        whole = [c for c in candidates if not breaks(c, held)]
        ordinary = [c for c in whole if not is_reserve(c[0][0], held, order)]
        if ordinary:
            return {"play": weakest(ordinary, order)}
        leading = PASS not in legal
        if leading:
            # Only reserves left: play them whole, the weakest first.
            return {"play": weakest(whole or candidates, order)}
        # Following: a 2 wins back the lead (a pair of 2s may give one); a four of a kind is
        # played whole; any other broken group is not needed, since passing is allowed.
        top = ranking(order)[-1]
        reserves = [c for c in candidates if c[0][0] == top] + [c for c in whole if held[c[0][0]] == 4]
        return {"play": weakest(reserves, order)} if reserves else PASS
