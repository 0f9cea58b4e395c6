"""The ladder's margins: the Elo difference with its 95% interval, and a test of a margin (--elo0 50 --elo1 100)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from ladder_players import tally

from harness.cli import main
from harness.ladder.sprt import elo_interval, elo_of, expected_score

RANDOM = "ladder_players:random_player"


def test_the_elo_interval_is_the_score_interval_through_the_elo_curve() -> None:
    scores = tally([1.0] * 60 + [0.5] * 10 + [0.0] * 30)
    low, high = elo_interval(scores)
    spread = (61 + 10 * 0.25) / 102 - ((61 + 5) / 102) ** 2  # one more deal won and one lost, as the LLR
    half = 1.959963984540054 * math.sqrt(spread / 100)
    assert math.isclose(expected_score(low), 0.65 - half) and math.isclose(expected_score(high), 0.65 + half)
    assert low < elo_of(0.65) < high


def test_an_interval_past_a_certain_score_is_open_at_that_end() -> None:
    low, high = elo_interval(tally([1.0] * 20))
    assert 300 < low < 500 and high == math.inf
    assert elo_interval(tally([1.0])) == (-math.inf, math.inf)


def test_a_margin_is_tested_and_the_interval_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ladder.json"
    assert main(["ladder", "--game", "gin-rummy", "easy", RANDOM, "--elo0", "50", "--elo1", "100",
                 "--cap", "100", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    assert (record["sprt"]["elo0"], record["sprt"]["elo1"]) == (50, 100)
    scores = record["deal_scores"]
    assert scores["elo_low"] > 100 and scores["elo_high"] is None  # every deal won: no upper end yet
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].endswith(f"Elo [95% CI {scores['elo_low']:+.0f}, ?])")
    assert lines[3].startswith("  SPRT elo0=50 elo1=100 ")


def test_a_player_against_itself_is_not_shown_a_margin_stronger(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--game", "gin-rummy", RANDOM, RANDOM, "--elo0", "50", "--elo1", "100", "--cap", "300"]) == 1
    line = capsys.readouterr().out.splitlines()[2]
    low, high = (float(x) for x in line.split("[95% CI ")[1].rstrip("])").split(", "))
    assert low < 50 and high > -50
