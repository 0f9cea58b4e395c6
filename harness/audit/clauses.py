"""The clause a disagreement between a server's record and the rules is charged to, from the game files' clauses."""

from __future__ import annotations

from typing import Any

from harness.fuzzing.games import GameFacts

# A round that ends where the rules do not end it (or goes on where they end it).
ROUND_END = {"rummy": "rummy.round-ends-empty-hand", "gin-rummy": "gin-rummy.hand-end",
             "president": "president.round-end"}
# A game result that is not the rules'.
GAME_END = {"rummy": "rummy.game-end", "gin-rummy": "gin-rummy.match-end", "president": "president.game-end"}
# Gin Rummy results say how the hand ended (`how`); each way has its scoring clause.
GIN_HOW = {"knock": "gin-rummy.knock-score", "undercut": "gin-rummy.undercut", "gin": "gin-rummy.gin-score",
           "draw": "gin-rummy.drawn-hand-scores-nothing"}


def decision_clause(facts: GameFacts, action: dict[str, Any], reference: str | None, server: Any) -> str:
    """An action accepted or refused otherwise than the rules: by the refusal's reason code, else its kind."""
    reason = reference if reference is not None else server if isinstance(server, str) else None
    return facts.clause_for(reason, facts.spec.action_kind(action), set())


def round_end_clause(facts: GameFacts, results: list[dict[str, Any]]) -> str:
    """A round ended after another move than the rules': a drawn Gin hand has its own timing clause."""
    if facts.game == "gin-rummy" and any(r.get("how") == "draw" for r in results if isinstance(r, dict)):
        return _known(facts, "gin-rummy.drawn-hand-timing")
    return _known(facts, ROUND_END.get(facts.game))


def result_clause(facts: GameFacts, action: dict[str, Any] | None, results: list[Any]) -> str:
    """A round's result or scores that are not the rules': by how the hand ended where the game says so."""
    if facts.game == "gin-rummy":
        hows = [r.get("how") for r in results if isinstance(r, dict)]
        if len(set(hows)) == 1 and hows[0] in GIN_HOW:  # both ended it the same way: that way's scoring
            return _known(facts, GIN_HOW[hows[0]])
    kind = facts.spec.action_kind(action) if action else None
    return facts.clause_for(None, kind, {"round_results"})


def game_end_clause(facts: GameFacts) -> str:
    """A game result that is not the rules'."""
    return _known(facts, GAME_END.get(facts.game))


def state_clause(facts: GameFacts, action: dict[str, Any] | None, keys: set[str]) -> str:
    """A recorded state view that differs: by the keys that differ, else the action's kind."""
    return facts.clause_for(None, facts.spec.action_kind(action) if action else None, keys)


def _known(facts: GameFacts, clause: str | None) -> str:
    """``clause`` if the game file has it, else the game file's first clause."""
    return clause if clause in facts.spec.clauses else next(iter(facts.spec.clauses))
