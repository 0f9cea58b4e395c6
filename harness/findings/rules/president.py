"""President's position clauses (P-7.1..P-7.3) as checks on a (view, choice): None when kept, else why not.

Each check is read from its clause's rule text in spec/games/president-*.yaml; none asks a player.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

NORMAL = "3456789TJQKA2"  # P-1.3, lowest first
SUITS = "CDHS"


def _rank(card: str) -> str:
    return card[:-1].replace("10", "T")


def _strength(view: dict[str, Any]) -> dict[str, int]:
    """Each rank's place in the current order (P-6.3: reversed during a revolution), lowest 0."""
    ranks = NORMAL[::-1] if view["observation"].get("order") == "reversed" else NORMAL
    return {rank: i for i, rank in enumerate(ranks)}


def _hand(view: dict[str, Any]) -> list[str]:
    return list(view["observation"]["hands"][view["seat"]] or [])


def _canonical(cards: list[str]) -> list[str]:
    """Cards by rank in the normal order, then suit C < D < H < S (the game's canonical order)."""
    return sorted(cards, key=lambda c: (NORMAL.index(_rank(c)), SUITS.index(c[-1])))


def _plays(view: dict[str, Any]) -> list[list[str]]:
    return [list(a["play"]) for a in view["legal"] if "play" in a]


def _leading(view: dict[str, Any]) -> bool:
    return not view["observation"].get("trick")


def _in_play(view: dict[str, Any]) -> bool:
    return view["observation"].get("phase") == "play" and bool(_plays(view))


def _lowest(plays: list[list[str]], strength: dict[str, int]) -> list[str]:
    """The play of the lowest rank in the current order; of one rank, the first in canonical order."""
    return min(plays, key=lambda p: (strength[_rank(p[0])], [SUITS.index(c[-1]) for c in _canonical(p)]))


def _same(choice: dict[str, Any], cards: list[str]) -> bool:
    return "play" in choice and sorted(choice["play"]) == sorted(cards)


def _words(cards: list[str]) -> str:
    return "{play: [" + ", ".join(_canonical(cards)) + "]}"


def easy_lowest_follow(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Following, easy plays the legal play of the lowest rank, the first cards of that rank in canonical order."""
    if not _in_play(view) or _leading(view) or "play" not in choice:
        return None  # whether it plays at all is president.easy-never-passes
    strength = _strength(view)
    count = len(view["observation"]["trick"][-1]["cards"])
    rank = min({_rank(p[0]) for p in _plays(view)}, key=strength.__getitem__)
    wanted = [c for c in _canonical(_hand(view)) if _rank(c) == rank][:count]
    return None if _same(choice, wanted) else f"following, easy must play {_words(wanted)}, the lowest legal rank"


def easy_never_passes(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Easy passes only when a pass is its only legal action."""
    if choice.get("pass") and _plays(view):
        return f"easy passed while {len(_plays(view))} plays were legal"
    return None


def easy_lowest_lead(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Leading, easy plays all its cards of its lowest rank in the current order."""
    if not _in_play(view) or not _leading(view):
        return None
    strength = _strength(view)
    rank = min({_rank(c) for c in _hand(view)}, key=strength.__getitem__)
    wanted = [c for c in _hand(view) if _rank(c) == rank]
    return None if _same(choice, wanted) else f"leading, easy must play {_words(wanted)}, all of its lowest rank"


def easy_gives_lowest(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """In the exchange easy gives the first cards of its hand in canonical (normal) order."""
    if "give" not in choice:
        return None
    wanted = _canonical(_hand(view))[:len(choice["give"])]
    if sorted(choice["give"]) == sorted(wanted):
        return None
    return f"easy must give its lowest cards [{', '.join(wanted)}]"


def control_cards(view: dict[str, Any]) -> set[str]:
    """Its cards of the strongest rank in the current order and of any four of a kind it holds (P-7.2)."""
    hand = _hand(view)
    strength = _strength(view)
    top = max(strength, key=strength.__getitem__)
    fours = {rank for rank, n in Counter(_rank(c) for c in hand).items() if n == 4}
    return {c for c in hand if _rank(c) == top or _rank(c) in fours}


def normal_keeps_control(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Normal never leads a control card while it holds another card; it follows with one to win back the
    lead when and only when it has no other legal play and at most two other ranks in hand."""
    if not _in_play(view):
        return None
    control = control_cards(view)
    others = {_rank(c) for c in _hand(view) if c not in control}
    if choice.get("pass"):  # with only control plays and at most two other ranks, it wins the trick back
        only_control = all(set(p) & control for p in _plays(view))
        return (f"normal passed while only control cards were legal and it held {len(others)} other ranks "
                f"(at most two: it plays one)") if only_control and len(others) <= 2 else None
    if "play" not in choice or not set(choice["play"]) & control:
        return None
    if _leading(view):
        return f"normal led a control card while holding {len(others)} other ranks" if others else None
    other_plays = [p for p in _plays(view) if not set(p) & control]
    if other_plays:
        return f"normal played a control card while {_words(other_plays[0])} was legal"
    if len(others) > 2:
        return f"normal played a control card while holding {len(others)} other ranks (at most two allowed)"
    return None


def normal_keeps_groups(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Following, normal plays the lowest whole non-control group, else the lowest non-control play, never a
    pass to avoid a split; leading, all its cards of its lowest non-control rank."""
    if not _in_play(view):
        return None
    control, strength, hand = control_cards(view), _strength(view), _hand(view)
    held = Counter(_rank(c) for c in hand)
    if _leading(view):
        ranks = {_rank(c) for c in hand if c not in control}
        if not ranks:
            return None
        rank = min(ranks, key=strength.__getitem__)
        wanted = [c for c in hand if _rank(c) == rank]
        return None if _same(choice, wanted) else f"leading, normal must play {_words(wanted)}, its lowest rank whole"
    plays = [p for p in _plays(view) if not set(p) & control]
    if not plays:
        return None  # only control cards, or nothing: president.normal-keeps-control decides
    whole = [p for p in plays if len(p) == held[_rank(p[0])]]
    wanted = _lowest(whole or plays, strength)
    if _same(choice, wanted):
        return None
    kind = "the lowest play that keeps its group whole" if whole else "the lowest play (no play keeps a group whole)"
    return f"following, normal must play {_words(wanted)}, {kind}"


def _sure(view: dict[str, Any], rank: str, count: int) -> bool:
    """Whether a play of ``count`` cards of ``rank`` cannot be beaten with the cards left in the other hands."""
    observation, strength = view["observation"], _strength(view)
    seen = Counter(_rank(c) for c in [*_hand(view), *observation.get("played", []),
                                     *(c for play in observation.get("trick") or [] for c in play["cards"])])
    out = set(observation.get("finished") or [])
    biggest = max((size for seat, size in enumerate(observation["hand_sizes"])
                   if seat != view["seat"] and seat not in out), default=0)
    return not any(strength[r] > strength[rank] and 4 - seen[r] >= count and biggest >= count for r in NORMAL)


def hard_counts_ranks(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Hard goes out when one legal play empties its hand; leading with two ranks left, one a sure winner,
    it leads a sure winner first."""
    if not _in_play(view):
        return None
    hand = _hand(view)
    out = [p for p in _plays(view) if len(p) == len(hand)]
    if out:
        return None if _same(choice, out[0]) else f"hard must go out with {_words(out[0])}"
    ranks = sorted({_rank(c) for c in hand})
    if not _leading(view) or len(ranks) != 2:
        return None
    sure = [[c for c in hand if _rank(c) == r] for r in ranks]
    sure = [p for p in sure if _sure(view, _rank(p[0]), len(p))]
    if sure and not any(_same(choice, p) for p in sure):
        return f"hard must lead its sure winner {_words(sure[0])} before its last other combination"
    return None
