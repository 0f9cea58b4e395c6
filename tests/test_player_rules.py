"""The position clauses as checks (harness/findings/rules/): named by the game files, and agreeing with the
decision fixtures, whose expectations were each checked against the rule text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.findings.rules import MissingCheck, broken, checks_of, resolve
from harness.findings.rules.deadwood import greedy, least
from harness.findings.rules.melds import completions, melds_in
from harness.run import decisions
from harness.run.runner import Runner
from harness.spec import gamespec as specs
from harness.suite.fixtures import load_paths
from reference_engine import ReferenceEngine

FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_every_position_clause_names_a_check_that_exists() -> None:
    for spec in specs.game_specs():
        for clause in spec.clauses.values():
            if clause.checked == "position":
                assert clause.check and clause.check.startswith("harness.findings.rules."), clause.id
                assert callable(resolve(clause.check)), clause.id
            else:
                assert clause.check is None, f"{clause.id}: only a position clause has a check"
        for level in ("easy", "normal", "hard"):
            assert checks_of(spec, level), f"{spec.game} {level}: no position clause checked"


def test_a_check_that_names_nothing_is_said_so() -> None:
    with pytest.raises(MissingCheck, match="names no function"):
        resolve("harness.findings.rules.rummy:no_such_check")
    with pytest.raises(MissingCheck, match="names no function"):
        resolve("harness.players.no_such_module:check")


def test_the_meld_helpers_follow_the_rule_text() -> None:
    # Rummy runs put the Ace after the King; Gin Rummy's Ace is low only (G-1.3).
    assert frozenset({"QH", "KH", "AH"}) in melds_in(["QH", "KH", "AH"], "23456789TJQKA")
    assert melds_in(["QH", "KH", "AH"], "A23456789TJQK") == []
    assert completions("5H", "7H", "A23456789TJQK") == ["6H"]
    assert completions("5H", "6H", "A23456789TJQK") == ["4H", "7H"]
    assert completions("KH", "KS", "A23456789TJQK") == ["KC", "KD"]
    # gin-rummy.easy-keeps-its-melds' own example: 7C 7D 7H kept, 5H 6H deadwood.
    melds, deadwood = greedy(["5H", "6H", "7H", "7C", "7D"])
    assert melds == [frozenset({"7C", "7D", "7H"})] and deadwood == ["5H", "6H"]
    assert least(frozenset(["5H", "6H", "7H", "7C", "7D"])) == 11  # the set of 7s: 5H and 6H left (not 7C 7D, 14)
    assert least(frozenset(["AC", "2C", "3C", "KD"])) == 10


def _questions(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, tuple[str, ...], dict[str, Any], dict[str, Any]]]:
    """Every decide step of the bundled fixtures (with its fixture's clauses) and the view it was asked in."""
    asked: list[tuple[Any, tuple[str, ...], dict[str, Any], dict[str, Any]]] = []
    judge = decisions.Decider.judge_choice

    def spy(self: Any, play: Any, question: Any, choice: Any) -> None:
        asked.append((play.spec, current[0], question.decide, question.view))
        judge(self, play, question, choice)

    monkeypatch.setattr(decisions.Decider, "judge_choice", spy)
    runner, current = Runner(ReferenceEngine()), [()]
    for scenario in load_paths([FIXTURES]).scenarios:
        if decisions.has_decisions(scenario):
            current[0] = scenario.clauses
            assert runner.run(scenario).outcome == "pass", scenario.id  # (the fixtures pass on the reference)
    return asked


def test_the_checks_agree_with_every_decision_fixture(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _questions(monkeypatch)
    assert len(asked) > 80
    for spec, clauses, decide, view in asked:
        fixture = ", ".join(clauses)
        canonical = spec.card_order.canonical
        for action in ([decide["exactly"]] if "exactly" in decide else decide.get("one_of", [])):
            assert broken(spec, view, canonical(action)) is None, (fixture, action)
        position = {c for c in spec.clauses.values() if c.checked == "position"}
        for action in decide.get("never", []):
            found = broken(spec, view, canonical(action))
            shown = [c.id for c in position if c.id in clauses]
            assert found is not None or not shown, (fixture, action)
        if view["level"] == "easy":  # easy is fully determined: one legal action keeps every clause
            kept = [a for a in view["legal"] if broken(spec, view, canonical(a)) is None]
            assert len(kept) == 1, (fixture, kept)

