"""The players' mistakes (harness/mutants/player_mistakes.py): each found by ``players`` at its default budget,
charged to its own clause, written as a fixture that fails on it, and killed by the bundled fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.findings.games import facts
from harness.mutants.catalogue import PLAYER_MISTAKES
from harness.mutants.player_mistakes import BY_ID, MISTAKES, engine
from harness.players.check import DEFAULT_GAMES, check_level
from harness.findings.judged import shrunk_fixture
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from reference_engine import ReferenceEngine

FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_every_position_clause_has_a_mistake() -> None:
    assert PLAYER_MISTAKES is MISTAKES
    clauses = {c.id for g in ("rummy", "gin-rummy", "president") for c in facts(g).spec.clauses.values()
               if c.checked == "position"}
    assert clauses == {m.clause for m in MISTAKES}
    for mistake in MISTAKES:
        assert facts(mistake.game).spec.clauses[mistake.clause].level == mistake.level, mistake.id


@pytest.mark.parametrize("mistake_id", [m.id for m in MISTAKES])
def test_each_mistake_is_found_under_its_own_clause(mistake_id: str) -> None:
    mistake = BY_ID[mistake_id]
    report = check_level(engine(mistake_id), mistake.game, mistake.level, DEFAULT_GAMES, twin_every=1000)
    assert report.finding is not None and report.finding.broken is not None, report.summary()
    assert report.finding.broken.clause == mistake.clause, report.summary()


@pytest.mark.parametrize("mistake_id", [m.id for m in MISTAKES])
def test_each_mistake_is_killed_by_the_fixtures_of_its_clause(mistake_id: str) -> None:
    mistake = BY_ID[mistake_id]
    scenarios = [s for s in load_paths([FIXTURES / mistake.game]).scenarios if mistake.clause in s.clauses]
    outcomes = [Runner(engine(mistake_id)).run(s).outcome for s in scenarios]
    assert "fail" in outcomes, mistake_id


def test_a_history_the_clause_reads_is_kept_in_the_written_fixture(tmp_path: Path) -> None:
    mistaken = engine("rummy.normal-feeds-the-seat-after-next")
    report = check_level(mistaken, "rummy", "normal", DEFAULT_GAMES, twin_every=1000)
    finding = report.finding
    assert finding is not None and finding.broken is not None and finding.trail is not None
    path, why = shrunk_fixture(facts("rummy"), finding.setup, finding.trail, finding.state, finding.broken,
                               mistaken, ReferenceEngine(), tmp_path, "a test")
    assert path is not None, why
    scenario = load_paths([path]).scenarios[0]
    # The next seat's draw from the pile is what makes the card feed it: the fixture starts before it.
    assert any(getattr(step, "action", None) == {"draw": "discard"} for step in scenario.steps)
    assert Runner(mistaken).run(scenario).outcome == "fail"
    assert Runner(ReferenceEngine()).run(scenario).outcome == "pass"


def test_players_out_writes_the_finding_as_a_fixture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from harness.cli import main

    factory = "harness.mutants.player_mistakes:president_normal_control_with_three_ranks"
    assert main(["players", "--engine", factory, "--game", "president", "--level", "normal", "--games", "2",
                 "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FOUND president.normal-keeps-control" in out and "it fails on the engine and passes on the reference" in out
    written = sorted(tmp_path.glob("*.yaml"))
    assert len(written) == 1 and written[0].name.startswith("president.players.normal-keeps-control-seed0-")
    assert load_paths(written).scenarios[0].clauses[0] == "president.normal-keeps-control"
