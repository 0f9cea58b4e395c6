"""A failing step is charged to the clauses the reference's clause trace names for what differs there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.audit.steps import blamed
from harness.cli import main
from harness.mutants.catalogue import engine as mutant
from harness.run.play import dotted
from harness.run.runner import Runner
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths

# of rules/rummy-1.1.0.md: the Ace's place in a run (after the King, never below the 2, no wrap).
ACE_PLACE = {"rummy.ace-after-king", "rummy.no-ace-low", "rummy.no-wrap-past-ace", "rummy.ace-place-not-value"}


def scenario(fixture_id: str):  # noqa: ANN201 - a Scenario
    return next(s for s in load_paths([fixtures_dir() / fixture_id.split(".")[0]]).scenarios if s.id == fixture_id)


@pytest.fixture(scope="module")
def qka_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], str, Path]:
    out = tmp_path_factory.mktemp("qka")
    report = out / "mutant.jsonl"
    import contextlib
    import io

    console = io.StringIO()
    with contextlib.redirect_stdout(console):
        code = main(["run", "--engine", "harness.mutants:rummy_qka_refused", "--game", "rummy", "--json", str(report)])
    assert code == 1
    records = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()[1:]]
    return records, console.getvalue(), report


def test_the_qka_mutant_is_charged_only_to_the_aces_place(qka_run: tuple[list[dict], str, Path]) -> None:
    records, console, _ = qka_run
    failed = [r for r in records if r["outcome"] in ("fail", "error")]
    assert failed
    charged = {c for r in failed for c in r.get("charged", r["clauses"])}
    assert charged <= ACE_PLACE and "rummy.ace-after-king" in charged
    whole_round = next(r for r in failed if r["id"] == "rummy.round.three-players-played-out")
    assert whole_round["charged"] == ["rummy.ace-after-king"]  # step 11: 10-J-Q-K-A refused
    assert "follows another reading" not in console
    table = console[console.index("game / clause"):].splitlines()  # the summary, after the failures
    rows = [line.split()[0] for line in table if line.startswith("  rummy.")]
    assert rows and set(rows) <= ACE_PLACE
    assert "charged to: rummy.ace-after-king (of the fixture's 6 clauses)" in console


def test_the_report_reddens_only_the_clauses_charged(qka_run: tuple[list[dict], str, Path], tmp_path: Path) -> None:
    _, _, report = qka_run
    assert main(["report", str(report), "--out", str(tmp_path / "site")]) == 0
    page = (tmp_path / "site" / "rummy-1.1.0.md").read_text(encoding="utf-8")
    reddened = {line.split("[", 2)[1].split("]")[0] for line in page.splitlines()
                if line.startswith("| [rummy.") and "**fail" in line}
    assert reddened and reddened <= ACE_PLACE


def test_a_differing_value_is_charged_to_the_rule_that_decided_it() -> None:
    # Who plays first in a later round is our reading of an open question (rules/rummy-1.1.0.md, rummy.first-seat):
    # a mutant keeping the first seat fails a check of to_act; the trace names that clause alone of the fixture's.
    found = scenario("rummy.game.first-seat-wraps-four-players")
    result = Runner(mutant("rummy.first-seat-stays")).run(found)
    assert result.outcome == "fail" and result.differs is not None and result.differs.what == "state"
    assert blamed(result, found) == ("rummy.first-seat",)


def test_an_error_while_starting_is_charged_to_no_clause_the_layout_does_not_name() -> None:
    found = scenario("rummy.layoff.fourth-card-onto-set")  # its layout holds Q-K-A, which the mutant cannot take
    result = Runner(mutant("rummy.qka-refused")).run(found)
    assert result.outcome == "error" and result.step is None
    assert blamed(result, found) == ()


def test_a_passing_fixture_is_not_traced() -> None:
    found = scenario("rummy.meld.q-k-a-run")
    assert blamed(Runner(mutant("rummy.a23-accepted")).run(found), found) is None


@pytest.mark.parametrize(("path", "field"), [("round_results[0].winner", "round_results.winner"),
                                             ("discard (includes)", "discard"), ("hands[1]", "hands"), ("$", "$")])
def test_a_checkpoint_path_as_a_traced_field(path: str, field: str) -> None:
    assert dotted(path) == field


def test_the_junit_case_says_what_a_failure_is_charged_to(tmp_path: Path) -> None:
    from xml.etree import ElementTree as ET

    junit = tmp_path / "j.xml"
    assert main(["run", "--id", "rummy.round.three-players-played-out", "--engine", "harness.mutants:rummy_qka_refused",
                 "--junit", str(junit)]) == 1
    charged = ET.parse(junit).getroot().find(".//testcase/properties/property[@name='charged']")
    assert charged is not None and charged.get("value") == "rummy.ace-after-king"
