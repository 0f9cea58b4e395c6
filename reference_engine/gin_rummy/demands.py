"""What the Gin Rummy rules demand of another engine's answers at a step: the tests (``holds``) the
clause trace's notes carry, each true when those answers keep the rule, so a difference is charged
to a rule the engine breaks rather than to one beside it that decided the same field.

Each test reads the other engine's own values where the rule is a function of them (the score of
a hand from that engine's deadwood counts), so a rule is kept by an engine that went wrong before it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from reference_engine.cards import cards_of, mask_of, parse_card
from reference_engine.clauses.trace import Holds
from reference_engine.gin_rummy.actions import discard_actions
from reference_engine.gin_rummy.deadwood import best_discards, broken_by, wraps


def shows_no_wrap(answers: dict[str, Any]) -> bool | None:
    """G-1.3, of another engine's legal knocks: none shows a Q-K-A or K-A-2 as a meld (no verdict without a list)."""
    legal = answers.get("legal")
    if legal is None:
        return None
    melds = (m for a in legal if isinstance(a, dict) and "knock" in a for m in a["melds"])
    return not any(wraps(mask_of(parse_card(c) for c in meld)) for meld in melds)


def hand_ended(answers: dict[str, Any]) -> bool:
    """Gin ends the hand at once (G-3.3, G-5.1): the opponent has no lay-off turn."""
    return answers["phase"] != "layoff"


def opponents_deadwood(answers: dict[str, Any], opponent: int, in_results: bool) -> Any:
    """The opponent's deadwood in another engine's view: of the hand's result, or of the view itself."""
    return (answers["round_results"][-1]["deadwood"] if in_results else answers["deadwood"])[opponent]


def deadwood_not_lower(theirs: int, opponent: int, in_results: bool) -> Holds:
    """The Ace low only: a run round the Ace only melds more, so an opponent's deadwood not below ``theirs`` keeps it."""
    return lambda answers: opponents_deadwood(answers, opponent, in_results) >= theirs  # type: ignore[no-any-return]


def deadwood_is(theirs: int, opponent: int, in_results: bool) -> Holds:
    """G-3.2's count: the opponent's deadwood is the least of the cards it keeps, ``theirs``."""
    return lambda answers: opponents_deadwood(answers, opponent, in_results) == theirs  # type: ignore[no-any-return]


def scored_from_deadwood(knocker: int, gin_bonus: int, undercut_bonus: int) -> Holds:
    """G-4.1 to G-4.3: the hand's result is the gin, knock or undercut its own deadwood counts make, so scored."""
    def holds(answers: dict[str, Any]) -> bool:
        result = answers["round_results"][-1]
        mine, theirs = result["deadwood"][knocker], result["deadwood"][1 - knocker]
        if mine == 0:
            wanted = ("gin", knocker, gin_bonus + theirs)
        elif theirs > mine:
            wanted = ("knock", knocker, theirs - mine)
        else:
            wanted = ("undercut", 1 - knocker, mine - theirs + undercut_bonus)
        return (result["how"], result["winner"], result["points"]) == wanted
    return holds


def target_kept(target: int) -> Holds:
    """G-5.2: the match is over exactly when a running score has reached the target."""
    return lambda answers: (answers["phase"] == "game-over") == (max(answers["scores"]) >= target)


def knock_tests(hand: int, taken: int | None, limit: int) -> tuple[Holds, Holds]:
    """The knock limit's test and the arrangement's, of another engine's legal knocks from ``hand``.

    The discards it knocks with are the reference's under another limit (each discard's least
    deadwood, as the arrangement decides it, compared with some other bound): the limit is what it
    breaks when it knocks with none, or leaves out just those at the limit, or any that need no
    new arrangement. Leaving out only discards that break a meld of every best split of the eleven
    cards, any other set of discards, or other melds, is the arrangement's (G-3.1: the ten cards
    left are arranged anew).
    """
    @cache
    def reference() -> tuple[dict[int, int], set[Any]]:
        least = best_discards(hand)
        return least, knocks(discard_actions(hand, taken, least, limit))

    def discards(legal: list[Any]) -> set[int]:
        return {parse_card(a["knock"]) for a in legal if isinstance(a, dict) and "knock" in a}

    def another_limit(answers: dict[str, Any]) -> bool:
        least, _ = reference()
        theirs, ours = discards(answers["legal"]), {c for c, d in least.items() if d <= limit and c != taken}
        discardable = [c for c in cards_of(hand) if c != taken]
        if theirs == ours or not theirs <= set(discardable):
            return False
        out = [least[c] for c in discardable if c not in theirs]
        if theirs and out and max(least[c] for c in theirs) >= min(out):
            return False
        missing = ours - theirs
        if not theirs or all(least[c] == limit for c in missing):  # no knock at all, or none at the limit itself
            return True
        return not (theirs < ours and all(broken_by(hand, c) for c in missing))

    def limit_kept(answers: dict[str, Any]) -> bool:
        return not another_limit(answers)

    def arrangement_kept(answers: dict[str, Any]) -> bool:
        return another_limit(answers) or knocks(answers["legal"]) == reference()[1]

    return limit_kept, arrangement_kept


def knocks(legal: list[Any]) -> set[Any]:
    """The knocks of a legal-actions list, each as its discard and the set of its melds (their order aside)."""
    return {(a["knock"], frozenset(frozenset(m) for m in a["melds"]))
            for a in legal if isinstance(a, dict) and "knock" in a}
