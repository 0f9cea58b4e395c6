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
                    opens_later_round: bool = False, before: dict[str, Any] | None = None,
                    options: dict[str, Any] | None = None) -> str:
    """An action accepted or refused otherwise than the rules: by the refusal's reason code, else its kind
    (``before``: the rules' state view before it, and the game's ``options``, where President's order decides)."""
    reasoned = reasoned_clause(facts, reference, server, opens_later_round, before, options)
    if reasoned is not None:
        return reasoned
    reason = reference if reference is not None else server if isinstance(server, str) else None
    return facts.clause_for(reason, facts.spec.action_kind(action), set())


def reasoned_clause(facts: GameFacts, reference: str | None, server: Any, opens_later_round: bool = False,
                    before: dict[str, Any] | None = None, options: dict[str, Any] | None = None) -> str | None:
    """The clause of a decision that a rule here reasons out from the position (what the clause trace of the
    move does not see: when the game ended, the order of the ranks, the passage to a round), else None."""
    if reference == "game-over":  # the server played on after the game's end
        return played_on_clause(facts)
    if facts.game == "president" and reference == "rank-too-low" and server is None and before:
        return _known(facts, _order_clause(facts, before, options or {}))
    if reference == "not-your-turn" and opens_later_round and FIRST_TURN.get(facts.game) in facts.spec.clauses:
        return FIRST_TURN[facts.game]  # the round's first turn went to another seat than the rules'
    return None


def _order_clause(facts: GameFacts, before: dict[str, Any], options: dict[str, Any]) -> str:
    """A play too low by the rules that the server took: it held the other order of the ranks, so the rule that sets it."""
    if before.get("order") == "reversed":
        return "president.revolution"  # the rules reversed the order at a four of a kind; the server did not
    if not options.get("revolution", True):
        return "president.revolution-off"
    seen = list(before.get("played") or []) + [c for play in before.get("trick") or [] for c in play.get("cards", [])]
    fours = any(sum(card[0] == rank for card in seen) == 4 for rank in facts.spec.data["card_order"])
    # normal by the rules: a second four of a kind in the round restored it, or a new round started normal
    return "president.revolution-again" if fours else "president.order-resets"


def round_end_clause(facts: GameFacts, results: list[dict[str, Any]], action: dict[str, Any] | None = None) -> str:
    """A round ended after another move than the rules': a drawn Gin hand, gin and going out by a meld have their own clauses."""
    hows = {r.get("how") for r in results if isinstance(r, dict)}
    if facts.game == "rummy" and hows & {"meld", "layoff"} and action and facts.spec.action_kind(action) in ("meld", "layoff"):
        return _known(facts, "rummy.go-out-by-meld")  # the lay-down that emptied the hand goes out
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
        defender = 1 - rules["knocker"] if rules.get("knocker") in (0, 1) else None
        theirs = server.get("deadwood")
        if defender is not None and isinstance(theirs, list) and len(theirs) == 2 and theirs[defender] != deadwood[defender]:
            return _known(facts, "gin-rummy.layoff-any-card")  # the defender's deadwood, counted after its own melds
        return _known(facts, GIN_HOW[rules["how"]])
    if facts.game == "rummy" and server.get("hand_values") not in (None, rules.get("hand_values")):
        return _known(facts, "rummy.hand-value")  # the cards left are valued otherwise
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


def game_end_clause(facts: GameFacts, server: Any = None, rules: Any = None) -> str:
    """A game result that is not the rules' (``server``'s, ``rules``'): Gin's bonuses have their own clause."""
    if facts.game == "gin-rummy" and isinstance(server, dict) and isinstance(rules, dict) and \
            server.get("winner") == rules.get("winner") and server.get("bonuses") != rules.get("bonuses"):
        return _known(facts, "gin-rummy.match-bonuses")
    return _known(facts, GAME_END.get(facts.game))


def state_clause(facts: GameFacts, action: dict[str, Any] | None, keys: set[str]) -> str:
    """A recorded state view that differs: by the keys that differ, else the action's kind."""
    return facts.clause_for(None, facts.spec.action_kind(action) if action else None, keys)


def _known(facts: GameFacts, clause: str | None) -> str:
    """``clause`` if the game file has it, else the game file's first clause."""
    return clause if clause in facts.spec.clauses else next(iter(facts.spec.clauses))
