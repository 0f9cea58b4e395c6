"""Gin Rummy 1.0.0 end of a hand: the knock's score (knock, undercut, gin), the match's end and
bonuses, and the next hand's deal with the dealer alternating.

Functions of the game (``game``, typed ``Any``: its module imports this one) that change it in
place; each notes the clause that decides what it sets (``reference_engine.clauses.trace``).
"""

from __future__ import annotations

from typing import Any

from reference_engine.gin_rummy.deadwood import min_deadwood, note_wraps, value_of
from reference_engine.clauses.trace import note
from reference_engine.gin_rummy.demands import deadwood_is, deadwood_not_lower, scored_from_deadwood, target_kept

# The clause that scores a hand, by how it ended (G-4.1 to G-4.3).
SCORE_CLAUSES = {"gin": "gin-rummy.gin-score", "knock": "gin-rummy.knock-score", "undercut": "gin-rummy.undercut"}
SCORED = ("round_results.how", "round_results.winner", "round_results.points", "scores", "hands_won")


def score_knock(game: Any) -> None:
    """Score the hand: after the opponent has laid off, or at once on gin."""
    knocker = game.knocker
    assert knocker is not None
    opponent = 1 - knocker
    mine = value_of(game.hands[knocker])
    theirs = min_deadwood(game.hands[opponent])
    note_wraps(game.hands[opponent], "round_results.deadwood", holds=deadwood_not_lower(theirs, opponent, True))
    note("gin-rummy.layoff-any-card", "round_results.deadwood", holds=deadwood_is(theirs, opponent, True))
    if mine == 0:
        how, winner, points = "gin", knocker, game.options["gin_bonus"] + theirs
    elif theirs > mine:
        how, winner, points = "knock", knocker, theirs - mine
    else:
        how, winner, points = "undercut", opponent, mine - theirs + game.options["undercut_bonus"]
    if how == "undercut" and theirs == mine:  # who wins on equal deadwood is the interpretation's; the points, G-4.2's
        note("gin-rummy.undercut-on-equal", "round_results.how", "round_results.winner", "hands_won")
    note(SCORE_CLAUSES[how], *SCORED,
         holds=scored_from_deadwood(knocker, game.options["gin_bonus"], game.options["undercut_bonus"]))
    deadwood = [0, 0]
    deadwood[knocker], deadwood[opponent] = mine, theirs
    game.round_results.append({"round": game.round, "how": how, "knocker": knocker, "winner": winner,
                               "points": points, "deadwood": deadwood})
    game.scores[winner] += points
    game.hands_won[winner] += 1
    end_hand(game, winner)


def end_hand(game: Any, winner: int | None = None) -> None:
    """End the hand: the match if a score reached the target, else the next hand."""
    target = game.options["target"]
    if max(game.scores) >= target:
        note("gin-rummy.target-reached", "phase", "to_act", "game_result.winner", holds=target_kept(target))
        best = max(game.scores)
        leaders = [s for s in (0, 1) if game.scores[s] == best]
        champion = winner if winner in leaders else leaders[0]
        bonuses = [game.options["box_bonus"] * game.hands_won[s] for s in (0, 1)]
        bonuses[champion] += game.options["game_bonus"]
        note("gin-rummy.match-bonuses", "game_result.scores", "game_result.bonuses")
        game.game_result = {"winner": champion, "scores": [game.scores[s] + bonuses[s] for s in (0, 1)],
                            "bonuses": bonuses}
        game.phase, game.to_act = "game-over", None
        return
    next_hand(game)


def next_hand(game: Any) -> None:
    """Start the next hand from a later layout or the seed, else stop in round-over."""
    if game.later or game.rng is not None:
        note("gin-rummy.dealer-rotation", "dealer", "to_act")
    if game.later:
        game.round += 1
        game.dealer = 1 - game.dealer
        game.deal_fresh(*game.later.pop(0))
    elif game.rng is not None:
        game.round += 1
        game.dealer = 1 - game.dealer
        game.deal_seeded()
    else:
        game.phase, game.to_act = "round-over", None
