"""Engine errors apart from rule failures: an engine that never starts stops the run at once, errors are
counted by kind, skips by reason, and only failures say which reading of a rule an engine follows."""

from __future__ import annotations

import json
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import EXIT_NEVER_STARTED
from harness.cli import main
from harness.reports.console import basis_notes, error_and_skip_notes
from harness.run.verdicts import FixtureResult
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths

TESTS = Path(__file__).parent
FAKES = TESTS / "data" / "protocol_fakes"
NEVER_STARTS = shlex.join([sys.executable, "-c", "import sys; sys.stderr.write('no such module\\n'); sys.exit(1)"])


def reports_parse(jsonl: Path, junit: Path) -> dict:  # type: ignore[type-arg]
    lines = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    ET.parse(junit)
    return lines[0]


def test_an_engine_that_never_starts_stops_the_run_at_once_with_one_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jsonl, junit = tmp_path / "r.jsonl", tmp_path / "r.xml"
    code = main(["run", "--engine-cmd", NEVER_STARTS, "--json", str(jsonl), "--junit", str(junit)])
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert code == EXIT_NEVER_STARTED == 3
    assert captured.out == "" and len(err) < 20  # the whole message on stderr
    assert err[0] == "error: the engine never started: it exited with code 1 instead of sending the answer to hello"
    assert "restarted" not in err[0]
    assert err[1:3] == ["the engine's stderr ends with:", "| no such module"]
    assert err[3:5] == ["to see the handshake fail by hand, run:",
                        f"  printf '%s\\n' '{{\"cmd\":\"hello\",\"protocol\":1}}' | {NEVER_STARTS}"]
    assert not any("follows another reading" in line or "failures on" in line for line in err)
    assert reports_parse(jsonl, junit)["incomplete"].startswith("stopped: the engine never started")


def test_a_few_failed_starts_in_a_row_stop_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jsonl, junit = tmp_path / "r.jsonl", tmp_path / "r.xml"
    command = shlex.join([sys.executable, str(FAKES / "gone_after_a_crash.py"), str(tmp_path / "marker")])
    code = main(["run", "--game", "rummy", "--engine-cmd", command, "--json", str(jsonl), "--junit", str(junit)])
    out = capsys.readouterr().err
    assert code == EXIT_NEVER_STARTED
    assert ("error: the engine never started: it failed to start 3 times in a row (no answer to hello), the last: it "
            "exited with code 4") in out
    assert "| cannot start: the first session left the engine broken" in out
    records = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert records[1]["error"] == "never-started"  # the run's own error line, after the header
    assert 1 <= len(records) - 2 < 20  # a handful of fixtures (some prepared ahead), not the whole suite
    assert {r["error_kind"] for r in records[2:]} == {"protocol"}
    ET.parse(junit)


def result(outcome: str, fixture_id: str, **fields: object) -> FixtureResult:
    scenario = next(s for s in load_paths([fixtures_dir() / "rummy"]).scenarios if s.id == fixture_id)
    return FixtureResult(scenario, outcome, "m", **fields)  # type: ignore[arg-type]


def test_errors_count_by_kind_apart_from_failures_and_skips_by_reason() -> None:
    results = [result("error", "rummy.layoff.taken-card-stranded-refused", error_kind="protocol"),
               result("error", "rummy.meld.q-k-a-run", raised_in=("engine.py",)),
               result("error", "rummy.meld.a-2-3-refused"),
               result("skip", "rummy.meld.k-a-2-refused", skip_kind="rule version"),
               result("skip", "rummy.draw.empty-discard-refused", skip_kind="rule version"),
               result("skip", "rummy.players.easy-draws-stock", skip_kind="level")]
    assert basis_notes(results) == []  # an error follows no reading of an open question
    assert error_and_skip_notes(results) == [
        "engine errors (not rule failures): 3 fixture(s): crash 1, answer 1, protocol 1",
        "skipped: 3 fixture(s), by reason: rule version 2, level 1"]
