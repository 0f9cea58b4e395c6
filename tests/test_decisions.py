"""Decision steps: lint, explain, skip, and judging broken computer players with the exact message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fake_players as fakes
import pytest
from fake_engines import FakeEngine, WrappedGame

from harness.reports.explain import explain
from harness.run.runner import Runner
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths
from reference_engine import create

FIXTURES = fixtures_dir()


def scenario(game: str, fixture_id: str):  # type: ignore[no-untyped-def]
    loaded = load_paths([FIXTURES / game / f"{fixture_id}.yaml"])
    assert loaded.errors == []
    return loaded.scenarios[0]


def lint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> list[str]:
    """The lint errors of a fixture with ``text``, as printed."""
    monkeypatch.chdir(tmp_path)
    Path("f.yaml").write_text(text, encoding="utf-8")
    return [str(e) for e in load_paths(["f.yaml"]).errors]


HEAD = """id: t.decide
title: A decision step
game: rummy
rule_versions: ">=1.1.0 <2.0.0"
clauses: [rummy.easy-draws-stock]
basis: interpretation
layout:
  first: 0
  hands: [[7C, 7D, 2H, 9S, KD, 4C, JH], [2D, 5D, 8H, 3S, TC, QD, 4H]]
  discard: [7H]
steps:
"""


def test_lint_points_at_an_action_outside_the_vocabulary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    errors = lint(tmp_path, monkeypatch, HEAD + "  - decide: {level: easy, one_of: [{draw: stock}, {fly: away}]}\n")
    assert errors == ["f.yaml:12:51: $.steps[0].decide.one_of[1]: action outside the rummy vocabulary: "
                      "expected one of discard, draw, layoff, meld"]


def test_lint_refuses_two_expectations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    errors = lint(tmp_path, monkeypatch, HEAD + "  - decide: {level: easy, exactly: {draw: stock}, never: [{draw: discard}]}\n")
    assert errors == ["f.yaml:12:58: $.steps[0].decide.never: a decision states one expectation, here exactly "
                      "and never; keep one of exactly, one_of and never (or split the step)"]


def test_lint_refuses_an_unknown_level_and_a_missing_expectation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    errors = lint(tmp_path, monkeypatch, HEAD + "  - decide: {level: expert, exactly: {draw: stock}}\n"
                                                "  - decide: {level: easy}\n")
    assert errors == ["f.yaml:12:21: $.steps[0].decide.level: 'expert' is not one of 'easy', 'normal', 'hard'",
                      "f.yaml:13:13: $.steps[1].decide: {'level': 'easy'} needs one of the keys exactly, one_of, never"]


def test_lint_refuses_an_action_listed_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    errors = lint(tmp_path, monkeypatch, HEAD + "  - decide: {level: easy, never: [{discard: TC}, {discard: 10C}]}\n")
    assert errors == ["f.yaml:12:50: $.steps[0].decide.never[1]: {discard: 10♣} is listed twice; name each action once"]


def test_explain_tells_the_decision() -> None:
    text = explain(scenario("rummy", "rummy.players.easy-never-lays-off"))
    assert "The easy computer player of the seat to act decides (seed 0): it must choose {discard: K♦}." in text
    assert "it must never choose {layoff: [J♠], onto: 0}." in text


def test_an_engine_without_players_gets_the_fixture_skipped_with_the_reason() -> None:
    result = Runner(fakes.NoPlayers()).run(scenario("rummy", "rummy.players.easy-draws-stock"))
    assert (result.outcome, result.message) == ("skip", "the engine declares no computer players for rummy")


def test_an_engine_without_the_level_gets_the_fixture_skipped_with_the_reason() -> None:
    result = Runner(fakes.PlayersEngine()).run(scenario("president", "president.players.hard-goes-out"))
    assert (result.outcome, result.message) == (
        "skip", "the engine has no hard computer player for president (it declares easy)")


def test_the_wrong_tie_break_fails_with_the_choice_and_the_right_one() -> None:
    result = Runner(fakes.WrongTieBreak()).run(scenario("rummy", "rummy.players.easy-discard-tie-by-rank"))
    assert result.outcome == "fail"
    assert result.message == "step 1 (line 15): the easy player at seat 0 chose {discard: 10♣}, but must choose {discard: K♥}"


def test_an_illegal_choice_fails_naming_the_clause() -> None:
    result = Runner(fakes.PicksIllegal()).run(scenario("rummy", "rummy.players.easy-discard-tie-by-suit"))
    assert result.outcome == "fail"
    assert result.message == ("step 1 (line 15): the easy player at seat 0 chose {discard: 2♦}, which is not one "
                              "of the legal actions (rummy.players-choose-legal)")


def test_a_never_expectation_fails_when_chosen() -> None:
    class LaysOff(fakes.PlayersEngine):
        def pick(self, view):  # type: ignore[no-untyped-def]
            return next((a for a in view["legal"] if "layoff" in a), view["legal"][0])

    result = Runner(LaysOff()).run(scenario("rummy", "rummy.players.easy-never-lays-off"))
    assert result.message == "step 1 (line 17): the easy player at seat 0 chose {layoff: [J♠], onto: 0}, but must choose {discard: K♦}"
    steps = scenario("rummy", "rummy.players.easy-never-lays-off")
    second = Runner(LaysOff()).prepare(steps)
    assert second.play is not None
    with pytest.raises(Exception, match=r"which it must never choose here"):
        second.play.step(steps.steps[1])


def test_the_view_carries_the_public_history() -> None:
    seen: list[dict] = []  # type: ignore[type-arg]

    class Records(fakes.PlayersEngine):
        def pick(self, view):  # type: ignore[no-untyped-def]
            seen.append(view)
            return super().pick(view)

    result = Runner(Records()).run(scenario("gin-rummy", "gin-rummy.players.easy-passes-upcard"))
    assert result.outcome == "pass"
    assert [v["history"] for v in seen] == [
        [], [{"seat": 1, "action": {"pass": True}}],
        [{"seat": 1, "action": {"pass": True}}, {"seat": 0, "action": {"pass": True}}]]
    assert seen[0]["observation"]["hands"][0] is None and seen[0]["seat"] == 1 and seen[0]["level"] == "easy"


def test_a_draw_from_the_discard_shows_its_card_and_a_stock_draw_does_not() -> None:
    seen: list[dict] = []  # type: ignore[type-arg]

    class Records(fakes.PlayersEngine):
        def pick(self, view):  # type: ignore[no-untyped-def]
            seen.append(view)
            return super().pick(view)

    Runner(Records()).run(scenario("rummy", "rummy.players.normal-does-not-feed"))  # skipped: no normal
    assert seen == []
    engine = Records()
    engine.describe = lambda: {**create().describe(), "games": {  # type: ignore[method-assign]
        g: {**d, "players": {"levels": ["easy", "normal"]}} for g, d in create().describe()["games"].items()}}
    engine.pick = lambda view: fakes.players.choose({**view, "level": "easy"})  # type: ignore[method-assign]
    seen_views: list[dict] = []  # type: ignore[type-arg]
    original = engine.choose
    engine.choose = lambda view: (seen_views.append(view), original(view))[1]  # type: ignore[method-assign]
    assert Runner(engine).run(scenario("rummy", "rummy.players.normal-does-not-feed")).outcome == "pass"
    assert seen_views[0]["history"] == [{"seat": 1, "action": {"draw": "discard", "card": "7D"}},
                                        {"seat": 1, "action": {"discard": "KH"}},
                                        {"seat": 0, "action": {"draw": "stock"}}]


class ListsACardThatIsNot(WrappedGame):
    """Adds {discard: ZZ} (no such card) to every legal list."""

    def legal_actions(self) -> list[dict[str, Any]]:
        return [*super().legal_actions(), {"discard": "ZZ"}]


class ImpossibleLegalLists(FakeEngine):
    game_class = ListsACardThatIsNot


@pytest.mark.parametrize(("game", "fixture_id"), [("rummy", "rummy.players.easy-goes-out-by-meld"),
                                                   ("president", "president.hard.an-ace-is-sure-when-the-twos-are-gone")])
def test_the_legal_list_a_decision_is_made_from_is_checked(game: str, fixture_id: str) -> None:
    result = Runner(ImpossibleLegalLists()).run(scenario(game, fixture_id))
    assert result.outcome == "error"
    assert "legal_actions() listed {discard: ZZ}, which is not in the" in result.message


class PlayersWithoutChoose:
    """A wrapper copying the reference's describe() (players declared) with no choose."""

    def describe(self) -> dict[str, Any]:
        return create().describe()

    def start(self, setup: dict[str, Any]) -> Any:
        return create().start(setup)


def test_an_engine_declaring_players_without_choose_gets_one_clear_error() -> None:
    result = Runner(PlayersWithoutChoose()).run(scenario("rummy", "rummy.players.easy-draws-stock"))
    assert (result.outcome, result.kind) == ("error", "interface")
    assert result.message.endswith("the engine declares players for rummy (interface: view) but has no choose(view); "
                                   "add choose(view) (spec/players.md) or leave players out of describe()")
