"""The clause a divergence is filed under: the first it was charged to (``fuzzing.blame``), else the one it names."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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


def meeting(notes: list[tuple[str, tuple[str, ...]]], paths: list[str]) -> list[str]:
    """The clauses of ``notes`` that decided one of ``paths`` (a note without fields decides any)."""
    return [clause for clause, fields in notes if not fields or any(meets(f, p) for f in fields for p in paths)]


def meets(field: str, path: str) -> bool:
    """Whether two dotted paths are the same value, or one holds the other."""
    return field == path or field.startswith(path + ".") or path.startswith(field + ".")


def differing_paths(expected: Any, actual: Any, prefix: str = "") -> list[str]:
    """The dotted paths (list positions left out) where two views differ, as deep as both have the same shape."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found: list[str] = []
        for key in sorted(set(expected) | set(actual), key=str):
            if expected.get(key) != actual.get(key):
                found += differing_paths(expected.get(key), actual.get(key), f"{prefix}.{key}" if prefix else str(key))
        return list(dict.fromkeys(found))
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        found = []
        for one, other in zip(expected, actual):
            if one != other:
                found += differing_paths(one, other, prefix)
        return list(dict.fromkeys(found))
    return [prefix]


def without_kept(found: list[str], seen: Iterable[Any], answers: dict[str, Any]) -> list[str]:
    """``found`` less the clauses whose rule the engine's ``answers`` are shown to keep, when another clause's
    rule is shown broken (the tests some notes of the recordings ``seen`` carry: ``reference_engine.clauses.trace``)."""
    kept, broken = verdicts(seen, answers)
    if broken & set(found):  # a rule shown broken: the clauses whose rule is shown kept are not what differs
        return [c for c in found if c not in kept]
    return found


def verdicts(seen: Iterable[Any], answers: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The clauses whose tests all find the engine's answers keep their rule, and those one finds broken."""
    found: dict[str, bool] = {}
    for notes in seen:
        for index, holds in getattr(notes, "holds", {}).items():
            clause = notes[index][0]
            try:
                verdict = holds(answers)
            except Exception:  # noqa: BLE001 - answers the test cannot read (malformed, missing): no verdict
                continue
            if verdict is not None:
                found[clause] = found.get(clause, True) and verdict is True
    return {c for c, kept in found.items() if kept}, {c for c, kept in found.items() if not kept}
