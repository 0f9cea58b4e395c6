"""Gin Rummy's position clauses (G-7.1..G-7.3) as checks on a (view, choice): None when kept, else why not.

Each check is read from its clause's rule text in spec/games/gin-rummy-*.yaml; none asks a player.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from harness.findings.rules.deadwood import RANKS, card_key, greedy, least, least_kept, points, value
from harness.findings.rules.melds import SUITS, completions, is_meld, near

DECK = [r + s for r in RANKS for s in SUITS]


def _hand(view: dict[str, Any]) -> list[str]:
    return list(view["observation"]["hands"][view["seat"]] or [])


def _phase(view: dict[str, Any]) -> str:
    return str(view["observation"].get("phase"))


def _thrown(choice: dict[str, Any]) -> str | None:
    """The card a discard or a knock puts on the pile."""
    return choice.get("discard") or choice.get("knock")


def _may_throw(view: dict[str, Any]) -> list[str]:
    return sorted({c for a in view["legal"] for c in [_thrown(a)] if c}, key=card_key)


def _highest(cards: list[str]) -> str:
    return max(cards, key=lambda c: (value(c), card_key(c)))


def _is_gin(action: dict[str, Any], hand: list[str]) -> bool:
    shown = {c for meld in action.get("melds") or [] for c in meld}
    return "knock" in action and len(shown) == len(hand) - 1


def easy_never_takes_discard(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Easy passes the upcard and always draws from the stock."""
    return "easy never takes the upcard or the top discard" if choice.get("draw") == "discard" else None


def easy_keeps_its_melds(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Easy gives up no card of its greedy melds while it may give a deadwood card instead."""
    melds, deadwood = greedy(_hand(view))
    kept = {c for meld in melds for c in meld}
    card = _thrown(choice)
    if card is not None and card in kept and set(deadwood) & set(_may_throw(view)):
        return f"easy threw {card} out of its melds while holding deadwood it may discard"
    if "layoff" in choice and set(choice["layoff"]) & kept:
        return "easy laid off a card of its own melds"
    return None


def easy_discards_highest_deadwood(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Easy discards its highest deadwood card; else the highest card that leaves its meld a meld; else the highest."""
    card = _thrown(choice)
    if card is None:
        return None
    hand, may = _hand(view), _may_throw(view)
    melds, deadwood = greedy(hand)
    candidates = [c for c in deadwood if c in may]
    if not candidates:
        candidates = [c for m in melds for c in m if c in may and is_meld(m - {c}, RANKS)] or may
    wanted = _highest(candidates)
    return None if card == wanted else f"easy must discard {wanted}"


def easy_knocks_when_it_can(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Having chosen its discard, easy knocks with it whenever that is legal, with the first arrangement."""
    card = _thrown(choice)
    if card is None:
        return None
    knocks = [a for a in view["legal"] if a.get("knock") == card]
    if not knocks:
        return None
    first = min(knocks, key=lambda a: [[card_key(c) for c in m] for m in a["melds"]])
    return None if choice == first else f"easy must knock with {card}, showing {first['melds']}"


def easy_lays_off_deadwood(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Easy lays off its deadwood only: the most cards, the highest value, the lowest meld, the first; else passes."""
    if _phase(view) != "layoff":
        return None
    deadwood = set(greedy(_hand(view))[1])
    offs = [a for a in view["legal"] if "layoff" in a and set(a["layoff"]) <= deadwood]
    if not offs:
        return None if choice.get("pass") else "easy must pass: no lay-off of its deadwood is legal"
    best = min(offs, key=lambda a: (-len(a["layoff"]), -points(a["layoff"]), a["onto"],
                                   sorted(card_key(c) for c in a["layoff"])))
    same = "layoff" in choice and sorted(choice["layoff"]) == sorted(best["layoff"]) and choice["onto"] == best["onto"]
    return None if same else f"easy must lay off {best}"


def _left(view: dict[str, Any]) -> dict[str, int]:
    """The least deadwood each card it may throw leaves in the 10 cards kept."""
    hand = frozenset(_hand(view))
    return {c: least(hand - {c}) for c in _may_throw(view)}


def _takes(view: dict[str, Any]) -> int | None:
    """The least deadwood kept after taking the top discard (None when it may not be taken)."""
    if {"draw": "discard"} not in view["legal"] or not view["observation"].get("discard"):
        return None
    top = view["observation"]["discard"][0]
    return least_kept(frozenset([*_hand(view), top]), keep_out=top)


def normal_best_split(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Normal keeps the least deadwood, knocks whenever it can (gin when it can), takes a card that lowers it."""
    hand = _hand(view)
    if _phase(view) in ("offer", "draw"):
        taken = _takes(view)
        if taken is not None and taken < least(frozenset(hand)) and choice.get("draw") != "discard":
            return f"normal must take the top discard: it lowers its least deadwood to {taken}"
        return None
    card = _thrown(choice)
    if card is None:
        return None
    left = _left(view)
    if left[card] > min(left.values()):
        return f"normal's discard {card} leaves {left[card]} points, more than the least, {min(left.values())}"
    knocks = [a for a in view["legal"] if "knock" in a]
    if any(_is_gin(a, hand) for a in knocks) and not _is_gin(choice, hand):
        return "normal must go gin when gin is legal"
    if knocks and "knock" not in choice:
        return "normal must knock when a knock is legal"
    return None


def held_takes(view: dict[str, Any]) -> list[str]:
    """The cards the opponent took from the discard pile (the upcard included) and has not discarded since."""
    held: list[str] = []
    for entry in view["history"]:
        if entry["seat"] == view["seat"]:
            continue
        action = entry["action"]
        if action.get("draw") == "discard" and action.get("card"):
            held.append(action["card"])
        thrown = _thrown(action)
        if thrown in held:
            held.remove(thrown)
    return held


def shown_useful(card: str, view: dict[str, Any]) -> bool:
    """G-7.2: the opponent took, and still holds, a card of its rank or of its suit within two ranks."""
    return any(near(card, taken, RANKS) for taken in held_takes(view))


def normal_useful_to_opponent(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Among the least-deadwood discards, normal never discards a card shown useful to the opponent if another is not."""
    card = _thrown(choice)
    if card is None:
        return None
    left = _left(view)
    best = [c for c, points_left in left.items() if points_left == min(left.values())]
    safe = [c for c in best if not shown_useful(c, view)]
    if card in best and safe and card not in safe:
        return f"normal discarded {card}, shown useful to the opponent, while {safe[0]} was not"
    return None


def _unseen(view: dict[str, Any], hand: list[str]) -> list[str]:
    seen = {*hand, *(view["observation"].get("discard") or []),
            *(c for meld in view["observation"].get("melds") or [] for c in meld)}
    return [c for c in DECK if c not in seen]


def _expected(kept: frozenset[str], unseen: list[str]) -> Fraction:
    """The least deadwood kept after drawing one of ``unseen``, each as likely, on average."""
    return Fraction(sum(least_kept(kept | {u}) for u in unseen), len(unseen))


def _pairs(card: str, unseen: list[str]) -> int:
    """How many pairs of unseen cards make a meld of three with ``card``."""
    return sum(1 for i, a in enumerate(unseen) for b in unseen[i + 1:]
               if near(card, a, RANKS) and b in completions(card, a, RANKS))


def hard_estimates(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Hard goes gin when it can, never throws more than 8 points above the least; with no history it takes the
    upcard exactly when that beats the average draw and discards the least expected, fewest pairs first."""
    hand, phase, fresh = _hand(view), _phase(view), not view["history"]
    if phase == "offer" and fresh:
        taken = _takes(view)
        if taken is not None:
            average = _expected(frozenset(hand), _unseen(view, hand))
            if (taken < average) != (choice.get("draw") == "discard"):
                return (f"taking the upcard leaves {taken}, the stock {float(average):.2f} on average: hard must "
                        f"{'take' if taken < average else 'pass'}")
        return None
    card = _thrown(choice)
    if card is None:
        return None
    if any(_is_gin(a, hand) for a in view["legal"]) and not _is_gin(choice, hand):
        return "hard must go gin when gin is legal"
    left = _left(view)
    if left[card] > min(left.values()) + 8:
        return f"hard's discard {card} leaves {left[card]} points, more than 8 above the least, {min(left.values())}"
    if not fresh or "discard" not in choice:
        return None  # a knock ends the hand: there is no next draw to weigh its card by
    unseen = _unseen(view, hand)
    expected = {c: _expected(frozenset(hand) - {c}, unseen) for c in left}
    best = [c for c in left if expected[c] == min(expected.values())]
    fewest = min(_pairs(c, unseen) for c in best)
    if card in best and _pairs(card, unseen) == fewest:
        return None
    return f"with no history hard must discard one of {[c for c in best if _pairs(c, unseen) == fewest]}"
