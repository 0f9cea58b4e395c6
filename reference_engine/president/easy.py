"""President's easy computer player (P-7.1): the lowest legal combination.

Decides from the view alone (spec/players.md); the tie-breaks are the clauses
president.easy-lowest-follow, president.easy-never-passes, president.easy-lowest-lead and
president.easy-gives-lowest.
"""

from __future__ import annotations

from typing import Any

_ORDER = "3456789TJQKA2"  # the normal order, low to high
_SUITS = "CDHS"


def _canonical(card: str) -> tuple[int, int]:
    """The card's place in canonical order (the normal order, then suit)."""
    return _ORDER.index(card[0]), _SUITS.index(card[1])


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """Easy's action in ``view``."""
    legal = view["legal"]
    gives = [a for a in legal if "give" in a]
    if gives:  # the exchange: the lowest cards in the normal order
        return min(gives, key=lambda a: [_canonical(c) for c in a["give"]])
    plays = [a for a in legal if "play" in a]
    if not plays:
        return legal[0]  # a pass is all there is
    reversed_ = view["observation"]["order"] == "reversed"

    def strength(play: dict[str, Any]) -> int:
        position = _ORDER.index(play["play"][0][0])
        return len(_ORDER) - 1 - position if reversed_ else position

    lowest = min(map(strength, plays))
    candidates = [a for a in plays if strength(a) == lowest]
    if not view["observation"]["trick"]:  # leading: all the cards of that rank together
        return max(candidates, key=lambda a: len(a["play"]))
    return min(candidates, key=lambda a: [_canonical(c) for c in a["play"]])
