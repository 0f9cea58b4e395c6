"""The canonical order of legal actions: the reference follows it, and `run` errors on another order."""

from __future__ import annotations

import random
from pathlib import Path

import fake_engines as fakes
import pytest

from harness.run.legal_order import first_misplaced
from harness.run.runner import Runner
from harness.spec import gamespec as specs
from harness.suite.fixtures import load_paths
from reference_engine import create

SCENARIOS = Path(__file__).parent / "data" / "scenarios"
PLAYERS = {"rummy": [2, 3, 4], "gin-rummy": [2], "president": [3, 4, 5, 6]}


@pytest.mark.parametrize("spec", specs.game_specs(), ids=lambda s: s.game)
def test_the_reference_lists_every_legal_action_list_in_the_canonical_order(spec: specs.GameSpec) -> None:
    options = {**spec.option_defaults, **({"rounds": 3} if spec.game == "president" else {})}
    for seed in range(8):
        for players in PLAYERS[spec.game]:
            game = create().start({"game": spec.game, "rule_version": spec.rule_version, "options": options,
                                   "seed": seed, "players": players})
            choices = random.Random(seed)
            for _ in range(300):
                actions = game.legal_actions()
                if not actions:
                    break
                assert first_misplaced(spec, actions) is None
                assert game.apply(game.state()["to_act"], choices.choice(actions)) is None


def test_the_right_actions_in_another_order_are_an_error_naming_the_first_misplaced_one() -> None:
    scenario = next(s for s in load_paths([SCENARIOS]).scenarios if s.id == "harness.going-out-scores")
    result = Runner(fakes.make(fakes.LastActionFirst)).run(scenario)
    assert result.outcome == "error"
    assert result.message == (
        "step 1 (line 15): legal_actions() is not in the canonical order: {draw: discard} is listed at place 1, "
        "before {draw: stock} (place 2), which comes first (spec/games/rummy-1.1.0.yaml, conventions.legal_order)")


def test_kinds_come_in_the_game_files_order_then_by_their_fields() -> None:
    gin = next(s for s in specs.game_specs() if s.game == "gin-rummy")
    listed = [{"discard": "AC"}, {"knock": "2C", "melds": [["AH", "2H", "3H"]]}, {"discard": "2C"}]
    assert first_misplaced(gin, listed) == (
        "legal_actions() is not in the canonical order: {knock: 2♣, melds: [[A♥, 2♥, 3♥]]} is listed at place 2, "
        "before {discard: 2♣} (place 3), which comes first (spec/games/gin-rummy-1.0.0.yaml, conventions.legal_order)")
    assert first_misplaced(gin, [listed[0], listed[2], listed[1], {"pass": True}]) is None
