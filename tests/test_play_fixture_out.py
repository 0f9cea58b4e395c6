"""``play --fixture-out`` asks the reference on the real view, history included, and its fixture keeps that history."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli import main
from harness.mutants.player_mistakes import engine
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from reference_engine import ReferenceEngine


@pytest.mark.parametrize(("game", "players"), [("rummy", "hard,hard,hard"), ("gin-rummy", "normal,normal")])
def test_the_reference_against_itself_writes_nothing(game: str, players: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # Both levels read the history (what the other seats took from the pile): with it emptied, they differed.
    for seed in (1, 2):
        assert main(["play", "--game", game, "--players", players, "--seed", str(seed), "--delay", "0",
                     "--fixture-out", str(tmp_path)]) == 0
    assert list(tmp_path.iterdir()) == []
    assert ">>" not in capsys.readouterr().out


def test_a_difference_that_needs_the_history_is_written_with_it(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    factory = "harness.mutants.player_mistakes:rummy_normal_feeds_the_seat_after_next"
    assert main(["play", "--engine", factory, "--game", "rummy", "--players", "normal,normal,normal", "--seed", "1",
                 "--delay", "0", "--fixture-out", str(tmp_path)]) == 1
    written = sorted(tmp_path.glob("*.yaml"))
    assert len(written) == 1
    scenario = load_paths(written).scenarios[0]
    assert any(getattr(step, "action", None) == {"draw": "discard"} for step in scenario.steps)
    assert Runner(ReferenceEngine()).run(scenario).outcome == "pass"
    assert Runner(engine("rummy.normal-feeds-the-seat-after-next")).run(scenario).outcome == "fail"
