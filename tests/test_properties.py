"""Invariants without a reference: each fake engine breaks one, and the check names it exactly."""

from __future__ import annotations

import argparse
import random
from typing import Any

import fake_engines as fakes
import pytest

from harness.findings.games import facts
from harness.findings.layouts import position_layout, twin_layout
from harness.findings.model import Setup, Violation
from harness.fuzzing import COMMANDS, add_commands
from harness.fuzzing.campaign import FuzzOptions
from harness.fuzzing.invariants import (
    card_problems,
    hidden_problems,
    score_problems,
    turn_problems,
)
from harness.fuzzing.properties import check_properties
from reference_engine import create

OPTIONS = {"rummy": {"discard_to_win": False, "ace_high": False, "target": 100}}


class LosesACard(fakes.WrappedGame):
    """After the first accepted action, the first card of seat 0's hand vanishes from the view."""

    def state(self) -> dict[str, Any]:
        view = super().state()
        if self.calls and view["hands"][0]:
            view["hands"] = [view["hands"][0][1:], *view["hands"][1:]]
            view["hand_sizes"] = [view["hand_sizes"][0] - 1, *view["hand_sizes"][1:]]
        return view


class LeaksHiddenHands(fakes.WrappedGame):
    """Every seat's observation is the full state view."""

    def observation(self, seat: int) -> dict[str, Any]:
        return self.inner.state()  # type: ignore[no-any-return]


class ChangesStateOnRefusal(fakes.WrappedGame):
    """A refusal bumps the round number in the view."""

    bumped = 0

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        reason = super().apply(seat, action)
        self.bumped += reason is not None
        return reason

    def state(self) -> dict[str, Any]:
        view = super().state()
        view["round"] += self.bumped
        return view


class WinnerScoresOneMore(fakes.WrappedGame):
    """The winner of a round gets one point more than the round result says."""

    def state(self) -> dict[str, Any]:
        view = super().state()
        for result in view["round_results"]:
            view["scores"] = [s + (seat == result["winner"]) for seat, s in enumerate(view["scores"])]
        return view


def violation(fake: type[fakes.WrappedGame], game: str, examples: int = 20, max_steps: int = 150) -> Violation:
    """The violation the properties run finds on ``fake``."""
    result = check_properties(fakes.make(fake), FuzzOptions(game, examples=examples, max_steps=max_steps,
                                                            shrink_seconds=2.0))
    assert result.finding is not None, f"{fake.__name__} went unnoticed"
    assert isinstance(result.finding.failure, Violation)
    return result.finding.failure


@pytest.mark.parametrize("game", ["rummy", "gin-rummy", "president"])
def test_the_reference_engine_keeps_every_invariant(game: str) -> None:
    result = check_properties(create(), FuzzOptions(game, examples=6))
    assert result.finding is None
    assert result.steps > 0


def test_a_lost_card_is_named() -> None:
    failure = violation(LosesACard, "rummy")
    assert failure.invariant == "cards"
    assert len(failure.details) == 1 and failure.details[0].startswith("cards in no place (lost): ")


def test_a_leaked_hand_is_seen_by_the_twin_game() -> None:
    failure = violation(LeaksHiddenHands, "president")
    assert failure.invariant == "hidden"
    assert failure.details[0].endswith("observation changes when only cards it cannot see move: hands differ")


def test_a_refusal_that_changes_the_view_is_caught() -> None:
    failure = violation(ChangesStateOnRefusal, "gin-rummy")
    assert failure.invariant == "refusal"
    assert failure.message.endswith("was refused (" + failure.message.split("(")[-1].split(")")[0] +
                                    ") but the state view changed")
    assert failure.details == ["changed: round"]


def test_a_listed_action_that_is_refused_is_caught() -> None:
    failure = violation(fakes.ListsThenRefuses, "rummy")
    assert failure.invariant == "legal-accepted"
    assert all(d.endswith("is listed as legal but refused (wrong-phase)") for d in failure.details)


def test_a_score_that_does_not_follow_the_results_is_caught() -> None:
    failure = violation(WinnerScoresOneMore, "rummy", examples=60)
    assert failure.invariant == "scores"
    assert failure.details[0].startswith("scores went from ")
    assert "but the new round results hand out" in failure.details[0]


def _rummy_view(**changes: Any) -> dict[str, Any]:
    view = create().start({"game": "rummy", "rule_version": "1.1.0", "options": OPTIONS["rummy"], "seed": 3,
                           "players": 2}).state()
    view.update(changes)
    return view


def test_card_problems_name_lost_and_doubled_cards_and_wrong_sizes() -> None:
    rummy = facts("rummy")
    view = _rummy_view()
    assert card_problems(rummy, view) == []
    lost = view["stock"][0]
    doubled = view["hands"][1][0]
    broken = dict(view, stock=[doubled, *view["stock"][1:]])
    assert card_problems(rummy, broken) == [f"cards in two places: {doubled}", f"cards in no place (lost): {lost}"]
    assert card_problems(rummy, dict(view, hand_sizes=[7, 8])) == ["hand_sizes[1] is 8, but hands[1] holds 7 cards"]


def test_turn_problems_tie_the_phase_to_the_seat_and_the_actions() -> None:
    rummy = facts("rummy")
    view = _rummy_view()
    assert turn_problems(rummy, view, [{"draw": "stock"}]) == []
    assert turn_problems(rummy, view, [{"discard": "2C"}]) == [
        'legal action {"discard": "2C"} listed in phase draw; discard exists only in play']
    assert turn_problems(rummy, dict(view, phase="game-over"), []) == [
        "phase game-over but seat 0 is to act; nobody acts in game-over", "game_result is null in phase game-over"]
    assert turn_problems(rummy, dict(view, to_act=None), [{"draw": "stock"}]) == [
        "phase draw needs a seat to act in 0..1, but to_act is None"]


def test_score_problems_one_scorer_per_round_and_president_points() -> None:
    rummy = {"scores": [0, 0], "round_results": []}
    won = {"round": 1, "winner": 1, "how": "discard", "points": 12, "hand_values": [12, 0]}
    assert score_problems(rummy, {"scores": [0, 12], "round_results": [won]}) == []
    assert score_problems(rummy, {"scores": [12, 12], "round_results": [won]}) == [
        "scores went from [0, 0] to [12, 12], but the new round results hand out [0, 12]"]
    assert score_problems(rummy, {"scores": [0, 13], "round_results": [dict(won, points=13)]}) == [
        "the winner (seat 1) scores 13, but the other hands are worth 12 ([12, 0])"]
    drawn = {"round": 1, "how": "draw", "knocker": None, "winner": None, "points": 0, "deadwood": None}
    assert score_problems(rummy, {"scores": [0, 0], "round_results": [drawn]}) == []
    president = {"scores": [0, 0, 0, 0], "round_results": []}
    good = {"finishing_order": [2, 0, 3, 1], "points": [3, 1, 4, 2]}
    assert score_problems(president, {"scores": [3, 1, 4, 2], "round_results": [good]}) == []
    assert score_problems(president, {"scores": [3, 0, 4, 2], "round_results": [dict(good, points=[3, 0, 4, 2])]}) == [
        "round points [3, 0, 4, 2]: the places must score 4 down to 1, 10 in all"]


def test_the_twin_moves_only_hidden_cards_and_keeps_the_taken_card() -> None:
    rummy = facts("rummy")
    game = create().start({"game": "rummy", "rule_version": "1.1.0", "options": OPTIONS["rummy"], "seed": 5,
                           "players": 3})
    game.apply(0, {"draw": "discard"})
    view = game.state()
    layout = position_layout(rummy, view)
    assert layout is not None and layout["taken_discard"] == view["taken_discard"]
    twin = twin_layout(rummy, layout, view, 1, random.Random(0))
    assert twin is not None
    assert twin["hands"][1] == layout["hands"][1] and twin["discard"] == layout["discard"]
    assert view["taken_discard"] in twin["hands"][0]
    assert [len(h) for h in twin["hands"]] == [len(h) for h in layout["hands"]]
    assert twin["hands"] != layout["hands"] or twin["stock"] != layout["stock"]
    setup = Setup("rummy", "1.1.0", OPTIONS["rummy"], layout)
    assert hidden_problems(rummy, create(), setup, view, 1, random.Random(0)) == []
    leaky = fakes.make(LeaksHiddenHands)
    assert hidden_problems(rummy, leaky, setup, view, 1, random.Random(0)) == [
        "seat 1's observation changes when only cards it cannot see move: hands, stock differ"]


def test_after_a_gin_knock_the_hands_are_public_so_only_the_stock_is_hidden() -> None:
    gin = facts("gin-rummy")
    view = {"knocker": 0, "hands": [["AC"], ["2C"]], "stock": ["3C", "4C"], "taken": None}
    layout = {"hands": [["AC"], ["2C"]], "stock": ["3C", "4C"]}
    assert twin_layout(gin, layout, view, 1, random.Random(0)) is None  # one hidden place: nothing to swap


def test_the_properties_command_reports_the_violation_and_the_replay(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["properties", "--engine", "fake_engines:accepts_everything", "--game", "rummy",
                              "--examples", "20"])
    assert COMMANDS["properties"](args) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("rummy: ") and " VIOLATION after " in lines[0]
    assert lines[1].startswith("  ")
    assert any(line.startswith('  {"game":"rummy"') for line in lines)


@pytest.mark.parametrize("game, players", [("rummy", 3), ("gin-rummy", 2), ("president", 4)])
def test_a_position_layout_restarts_the_same_position(game: str, players: int) -> None:
    spec = facts(game)
    engine = create()
    played = engine.start({"game": game, "rule_version": spec.spec.rule_version, "options": {}, "seed": 11,
                           "players": players})
    rng = random.Random(1)
    checked = 0
    for _ in range(60):
        view = played.state()
        layout = position_layout(spec, view)
        if layout is not None:
            again = engine.start({"game": game, "rule_version": spec.spec.rule_version, "options": {},
                                  "layout": layout, "later_layouts": []}).state()
            assert {k: v for k, v in again.items() if k != "round_results"} == {
                k: v for k, v in view.items() if k != "round_results"}
            checked += 1
        legal = played.legal_actions()
        if not legal:
            break
        played.apply(view["to_act"], rng.choice(legal))
    assert checked >= 20
