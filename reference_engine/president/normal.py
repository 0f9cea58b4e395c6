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
    """P-7.2: the weakest whole play; a control card only to win back the lead; no broken group."""

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
        if PASS not in legal:
            # Leading with only control cards left: all of the weakest rank.
            return {"play": weakest(whole or candidates, order)}
        # Following with no whole play of an ordinary rank: split the weakest ordinary group rather
        # than pass, since a split is needed only when no play keeps the groups whole
        # (president.normal-keeps-groups).
        split = [c for c in candidates if not is_reserve(c[0][0], held, order)]
        if split:
            return {"play": weakest(split, order)}
        # A control card only to win back the lead, with no other play and at most two other
        # ranks left (president.normal-keeps-control).
        controls = [c for c in candidates if is_reserve(c[0][0], held, order)]
        others = sum(1 for rank in held if not is_reserve(rank, held, order))
        if controls and len(controls) == len(candidates) and others <= 2:
            # A four of a kind is played whole when it can be, not split.
            kept = [c for c in controls if held[c[0][0]] < 4 or len(c) == 4]
            return {"play": weakest(kept or controls, order)}
        return PASS


_PLAYER = NormalPlayer()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The normal player's action for ``view``."""
    return _PLAYER.choose(view)
