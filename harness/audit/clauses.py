"""The clause a disagreement between a server's record and the rules is charged to, from the game files' clauses."""

from __future__ import annotations

from typing import Any

from harness.findings.games import GameFacts

# A round that ends where the rules do not end it (or goes on where they end it).
ROUND_END = {"rummy": "rummy.round-ends-empty-hand", "gin-rummy": "gin-rummy.hand-end",
             "president": "president.round-end"}
# A game result that is not the rules'.
GAME_END = {"rummy": "rummy.game-end", "gin-rummy": "gin-rummy.match-end", "president": "president.game-end"}
# A server that plays on after the rules end the game: when the game ends.
PLAYED_ON = {"rummy": "rummy.game-end", "gin-rummy": "gin-rummy.target-reached", "president": "president.game-end"}
# Gin Rummy results say how the hand ended (`how`); each way has its scoring clause.
GIN_HOW = {"knock": "gin-rummy.knock-score", "undercut": "gin-rummy.undercut", "gin": "gin-rummy.gin-score",
           "draw": "gin-rummy.drawn-hand-scores-nothing"}
# Who starts a later round: the seat the rules give the first turn to.
FIRST_TURN = {"rummy": "rummy.first-seat", "gin-rummy": "gin-rummy.dealer-rotation"}


def decision_clause(facts: GameFacts, action: dict[str, Any], reference: str | None, server: Any,
                    opens_later_round: bool = False) -> str:
    """An action accepted or refused otherwise than the rules: by the refusal's reason code, else its kind."""
    if reference == "game-over":  # the server played on after the game's end
        return played_on_clause(facts)
    if reference == "not-your-turn" and opens_later_round and FIRST_TURN.get(facts.game) in facts.spec.clauses:
        return FIRST_TURN[facts.game]  # the round's first turn went to another seat than the rules'
    reason = reference if reference is not None else server if isinstance(server, str) else None
    return facts.clause_for(reason, facts.spec.action_kind(action), set())


def round_end_clause(facts: GameFacts, results: list[dict[str, Any]]) -> str:
    """A round ended after another move than the rules': a drawn Gin hand and gin have their own clauses."""
    hows = {r.get("how") for r in results if isinstance(r, dict)}
    if facts.game == "gin-rummy" and "draw" in hows:
        return _known(facts, "gin-rummy.drawn-hand-timing")
    if facts.game == "gin-rummy" and "gin" in hows:  # gin ends the hand at once
        return _known(facts, "gin-rummy.gin-is-knock-at-zero")
    return _known(facts, ROUND_END.get(facts.game))


def result_clause(facts: GameFacts, action: dict[str, Any] | None, results: list[Any]) -> str:
    """A round's result or scores that are not the rules' (``results``: the server's, then the rules'): by how
    the rules end the hand, where the game's results say it."""
    rules = results[-1] if results and isinstance(results[-1], dict) else {}
    server = results[0] if len(results) > 1 and isinstance(results[0], dict) else {}
    if facts.game == "gin-rummy" and rules.get("how") in GIN_HOW:
        deadwood = rules.get("deadwood") or []
        if rules["how"] == "undercut" and len(set(deadwood)) == 1 and server.get("how") != "undercut":
            # the server did not see an undercut in a tie of deadwood
            return _known(facts, "gin-rummy.undercut-on-equal")
        return _known(facts, GIN_HOW[rules["how"]])
    if facts.game == "rummy" and rules.get("how") == "empty-stock":
        if server.get("winner") == rules.get("winner"):
            return _known(facts, "rummy.empty-stock-scoring")
        values = rules.get("hand_values") or []
        tied = values and values.count(min(values)) > 1
        return _known(facts, "rummy.empty-stock-tie-order" if tied else "rummy.empty-stock-ends-hand")
    kind = facts.spec.action_kind(action) if action else None
    return facts.clause_for(None, kind, {"round_results"})


def played_on_clause(facts: GameFacts) -> str:
    """A server that goes on playing after the move that ends the game by the rules."""
    return _known(facts, PLAYED_ON.get(facts.game))


def game_end_clause(facts: GameFacts) -> str:
    """A game result that is not the rules'."""
    return _known(facts, GAME_END.get(facts.game))


def state_clause(facts: GameFacts, action: dict[str, Any] | None, keys: set[str]) -> str:
    """A recorded state view that differs: by the keys that differ, else the action's kind."""
    return facts.clause_for(None, facts.spec.action_kind(action) if action else None, keys)


def _known(facts: GameFacts, clause: str | None) -> str:
    """``clause`` if the game file has it, else the game file's first clause."""
    return clause if clause in facts.spec.clauses else next(iter(facts.spec.clauses))
