"""The clause a divergence is filed under: the first it was charged to (``fuzzing.blame``), else the one it names."""

from __future__ import annotations

from harness.findings.games import GameFacts
from harness.findings.model import Divergence


def divergence_clause(facts: GameFacts, failure: Divergence) -> str:
    """The clause the divergence is filed under: the first it is charged to, else the one it names."""
    return failure.clauses[0] if failure.clauses else named_clause(facts, failure)


def named_clause(facts: GameFacts, failure: Divergence) -> str:
    """The clause the divergence names by its reason code, its score keys or its action's kind."""
    move = failure.move or failure.refused
    legal = failure.check.get("legal", {})
    action = move.action if move else next(iter(legal.get("includes", []) + legal.get("excludes", [])), None)
    kind = facts.spec.action_kind(action) if isinstance(action, dict) else None
    keys = set(failure.check.get("state", {})) | set(failure.check.get("observe", {}).get("state", {}))
    return facts.clause_for(move.reason if move else None, kind, keys)
