"""A server with a mutant's mistake: its records disagree at the mutant's first wrong move, charged to a clause.

Each record is a seeded game played by the mutant's engine and its computer players (only the
mutants whose mistake such games reach within a few seeds are here; the others make mistakes in
positions the players never choose). The first wrong move is found apart from the audit: the
recorded moves are played on the mutant and on the reference side by side, comparing what a
record holds (each answer, the round results after each move, the scores at a round's end, the
game's result at the end).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from replayed_side_by_side import first_wrong_move

from harness.audit.judge import audit_record
from harness.audit.sample import seeded_game
from harness.cli import main
from harness.mutants import catalogue as mutants
from harness.mutants.visibility import Game
from harness.records.record import check_record
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from reference_engine import create

REFERENCE = create()
SEATS = {"gin-rummy": 2, "rummy": 2, "president": 4}
# mutant -> (seed, level of every seat): a seeded game in which the mistake shows
GAMES = {
    "rummy.empty-stock-tie-lowest-seat": (0, "easy"), "rummy.empty-stock-asker-wins": (0, "easy"),
    "rummy.winner-counts-own-hand": (0, "easy"), "rummy.first-seat-stays": (0, "easy"),
    "rummy.target-strict": (0, "normal"), "rummy.qka-refused": (1, "normal"),
    "gin-rummy.undercut-strictly-lower": (0, "easy"), "gin-rummy.gin-bonus-only": (7, "easy"),
    "gin-rummy.undercut-bonus-missing": (0, "easy"), "gin-rummy.drawn-hand-late": (5, "easy"),
    "gin-rummy.gin-waits-for-pass": (7, "easy"), "gin-rummy.layoff-onto-gin": (7, "easy"),
    "gin-rummy.target-strict": (4, "easy"), "gin-rummy.opponent-deadwood-unmelded": (0, "easy"),
    "president.equal-rank-allowed": (0, "easy"), "president.pass-not-holding": (0, "easy"),
    "president.points-off-by-one": (0, "easy"), "president.revolution-not-reversing": (5, "easy"),
    "president.passes-carry-over": (0, "easy"), "president.lead-to-lowest-seat-in": (1, "normal"),
}
# Where the record shows the mistake under another clause of the game file than the mutant's own
# (tests/test_mutants_visible.py says why for each).
OTHER_CLAUSE = {
    "gin-rummy.layoff-onto-gin": "gin-rummy.gin-is-knock-at-zero",
    "president.pass-not-holding": "president.trick-won",
}


def record_of(mutant_id: str) -> dict[str, Any]:
    """The record of the mutant's seeded game."""
    mutant = mutants.BY_ID[mutant_id]
    seed, level = GAMES[mutant_id]
    return seeded_game(mutants.engine(mutant_id), mutant.game, seed, [level] * SEATS[mutant.game], max_moves=800)


@pytest.mark.parametrize("mutant_id", sorted(GAMES))
def test_a_mutants_record_disagrees_at_its_first_wrong_move(mutant_id: str) -> None:
    data = record_of(mutant_id)
    found = audit_record(check_record(json.loads(json.dumps(data))), REFERENCE).disagreement
    assert found is not None, f"{mutant_id}: the audit finds nothing"
    assert found.move == first_wrong_move(data, mutants.engine(mutant_id)), found.words()
    assert found.clause == OTHER_CLAUSE.get(mutant_id, mutants.BY_ID[mutant_id].clause), found.words()


@pytest.mark.parametrize("mutant_id", ["gin-rummy.gin-bonus-only", "gin-rummy.drawn-hand-late",
                                       "gin-rummy.undercut-strictly-lower", "president.equal-rank-allowed",
                                       "rummy.empty-stock-asker-wins"])
def test_out_writes_fixtures_that_fail_on_the_mutant_and_pass_on_the_reference(
        mutant_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record_of(mutant_id)) + "\n", encoding="utf-8")
    assert main(["audit", str(path), "--out", str(tmp_path / "found")]) == 1
    out = capsys.readouterr().out
    assert "(lints, passes on the reference)" in out, out
    written = sorted((tmp_path / "found").glob("*.yaml"))
    assert len(written) == 1
    loaded = load_paths(written)
    assert loaded.errors == []
    scenario = loaded.scenarios[0]
    assert Runner(REFERENCE).run(scenario).outcome == "pass"
    assert Runner(mutants.engine(mutant_id)).run(scenario).outcome in ("fail", "error")
    assert scenario.clauses == (OTHER_CLAUSE.get(mutant_id, mutants.BY_ID[mutant_id].clause),) or \
        list(scenario.clauses) == [OTHER_CLAUSE.get(mutant_id, mutants.BY_ID[mutant_id].clause)]


def test_a_mistake_in_the_passage_to_a_round_is_not_written_as_a_position(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record_of("rummy.first-seat-stays")) + "\n", encoding="utf-8")
    assert main(["audit", str(path), "--out", str(tmp_path / "found")]) == 1
    assert "no fixture written: the seat to open round 2 is decided in the passage" in capsys.readouterr().out
    assert not list((tmp_path / "found").glob("*.yaml"))


def test_a_game_stopped_with_nobody_able_to_act_disagrees_where_the_rules_go_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The lead goes to the trick's winner, who has gone out (P-6.2 says: the next seat still in): the server's
    # game has a seat to act with nothing to do, and its record stops there (no-move).
    mutant = "president.lead-to-finished-seat"
    data = Game(1, ("easy",) * 4, (("revolution", True), ("rounds", 3))).record(mutants.engine(mutant), "president")
    assert data["unfinished"] == "no-move"
    found = audit_record(check_record(json.loads(json.dumps(data))), REFERENCE).disagreement
    assert found is not None and found.kind == "next-turn", found and found.words()
    assert found.move == first_wrong_move(data, mutants.engine(mutant)), found.words()
    assert "seat 2 is to act" in found.rules and found.clause == "president.lead-after-out", found.words()
    # An engine that died is no disagreement with the rules: only the stop, a finding of its own.
    assert audit_record(check_record({**data, "unfinished": "engine-died"}), REFERENCE).clean
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    assert main(["audit", str(path), "--out", str(tmp_path / "found")]) == 1
    out = capsys.readouterr().out
    assert "DISAGREES" in out and "DID NOT END (no-move)" in out and "(lints, passes on the reference)" in out, out
    scenario = load_paths(sorted((tmp_path / "found").glob("*.yaml"))).scenarios[0]
    assert Runner(mutants.engine(mutant)).run(scenario).outcome in ("fail", "error")
