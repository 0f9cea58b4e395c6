"""``audit`` judges the seats a record marks as computer players against their level's position clauses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.audit.computer_seats import judge_seats, levels_of
from harness.cli import main
from harness.mutants.player_mistakes import engine
from harness.records.record import parse_record
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from reference_engine import ReferenceEngine

MISTAKE = "harness.mutants.player_mistakes:rummy_normal_feeds_the_seat_after_next"


def _record(tmp_path: Path, engine_name: str | None) -> Path:
    path = tmp_path / "game.jsonl"
    chosen = ["--engine", engine_name] if engine_name else []
    main(["play", *chosen, "--game", "rummy", "--players", "normal,normal,normal", "--seed", "1", "--delay", "0",
          "--json", str(path)])
    return path


def test_a_computer_seat_that_breaks_its_level_is_a_disagreement_with_its_fixture(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path, MISTAKE)
    capsys.readouterr()
    assert main(["audit", str(path), "--out", str(tmp_path / "out")]) == 1
    out = capsys.readouterr().out
    assert "the server let its normal player choose it" in out and "[rummy.normal-feeding-risk]" in out
    written = sorted((tmp_path / "out").glob("*.yaml"))
    assert len(written) == 1 and written[0].name.startswith("rummy.audit.player-normal-feeding-risk-")
    scenario = load_paths(written).scenarios[0]
    assert scenario.clauses == ("rummy.normal-feeding-risk",) or list(scenario.clauses) == ["rummy.normal-feeding-risk"]
    assert Runner(ReferenceEngine()).run(scenario).outcome == "pass"
    assert Runner(engine("rummy.normal-feeds-the-seat-after-next")).run(scenario).outcome == "fail"


def test_the_reference_s_seats_are_clean_and_unmarked_seats_are_not_judged(tmp_path: Path) -> None:
    line = _record(tmp_path, None).read_text(encoding="utf-8").splitlines()[0]
    record = parse_record(line)
    assert levels_of(record) == {0: "normal", 1: "normal", 2: "normal"}
    assert judge_seats(record, ReferenceEngine()) is None
    mistaken = parse_record(_record(tmp_path, MISTAKE).read_text(encoding="utf-8").splitlines()[0])
    found = judge_seats(mistaken, ReferenceEngine())
    assert found is not None and found.clause == "rummy.normal-feeding-risk" and found.kind == "player"
    people = json.loads(line)
    people["seats"] = [{"name": "ann"}, {"name": "bob", "level": "a friend"}, {"name": "cy"}]
    assert levels_of(parse_record(json.dumps(people))) == {}


def test_rules_only_skips_the_levels_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path, MISTAKE)
    capsys.readouterr()
    assert main(["audit", str(path), "--rules-only", "--json", str(tmp_path / "a.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "rummy.normal-feeding-risk" not in out and "rules only (--rules-only)" in out
    summary = json.loads((tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()[-1])["summary"]
    assert summary["levels_judged"] is False and summary["disagree"] == 0


def test_a_retry_never_crosses_into_the_next_round_in_the_sample_records() -> None:
    """A seat's action accepted in the next round is no decision of its player: the sample never logs one."""
    from harness.audit.sample import seeded_game

    engine_ = ReferenceEngine()
    for seed in (10, 19, 32):  # seeds whose retry once landed in the next round's offer (Gin Rummy normal)
        record = parse_record(json.dumps(seeded_game(engine_, "gin-rummy", seed, ["easy", "normal"])))
        assert judge_seats(record, engine_) is None
