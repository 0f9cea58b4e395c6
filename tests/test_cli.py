"""The command line as a user drives it: run, list, coverage, explain and the reports."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from harness.cli import main

SCENARIOS = str(Path(__file__).parent / "data" / "scenarios")


def test_run_passes_and_writes_json_lines_and_junit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jsonl, junit = tmp_path / "out.jsonl", tmp_path / "out.xml"
    assert main(["run", SCENARIOS, "--json", str(jsonl), "--junit", str(junit)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["total", "3", "0", "0", "0"]
    header, *records = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert header["kit"] == "cardverse-conformance"
    assert header["engine"]["name"] == "cardverse-reference"
    assert header["spec"]["rummy"] == "1.1.0"
    assert [(r["id"], r["outcome"]) for r in records] == [
        ("harness.going-out-scores", "pass"), ("harness.meld-and-refuse", "pass"), ("harness.needs-ace-high", "pass")]
    assert records[1]["clauses"] == ["rummy.ace-after-king", "rummy.valid-meld"]
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "rummy" and suite.get("tests") == "3"


def test_run_against_a_broken_engine_exits_non_zero_with_the_failure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    jsonl = tmp_path / "out.jsonl"
    code = main(["run", SCENARIOS, "--engine", "fake_engines:accepts_everything", "--json", str(jsonl)])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL harness.meld-and-refuse" in out
    assert "was accepted, but must be refused (invalid-meld)" in out
    record = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()][2]
    assert (record["id"], record["outcome"], record["step"], record["line"]) == (
        "harness.meld-and-refuse", "fail", 3, 20)


def test_run_filters_by_id_and_clause(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", SCENARIOS, "--id", "*going-out*", "-v"]) == 0
    out = capsys.readouterr().out
    assert "PASS  harness.going-out-scores" in out and "meld-and-refuse" not in out
    assert main(["run", SCENARIOS, "--clause", "rummy.ace-*", "-v"]) == 0
    assert capsys.readouterr().out.count("PASS ") == 1


def test_run_with_nothing_selected_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", SCENARIOS, "--game", "president"]) == 2
    assert "no fixture matched the selection" in capsys.readouterr().out


def test_an_engine_that_cannot_be_loaded_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", SCENARIOS, "--engine", "no_such_module:create"]) == 2
    assert "cannot import 'no_such_module'" in capsys.readouterr().err
    assert main(["run", SCENARIOS, "--engine", "nocolon"]) == 2
    assert "expected package.module:factory" in capsys.readouterr().err


def test_list_prints_one_line_per_fixture(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", SCENARIOS]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t")[:2] == ["harness.going-out-scores", "rummy"]
    assert len(lines) == 3


def test_coverage_reports_gaps_and_exits_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", SCENARIOS, "--game", "rummy", "--json"]) == 1
    records = {r["clause"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    ace = records["rummy.ace-after-king"]
    assert ace["accepting"] == ["harness.meld-and-refuse"] and ace["refusing"] == ["harness.meld-and-refuse"]
    assert records["rummy.hand-value"]["refusing"] == []
    assert records["rummy.set"]["gap"] == "no fixture"


def test_explain_tells_the_scenario_with_glyphs(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(Path(SCENARIOS) / "meld-and-refuse.yaml")
    assert main(["explain", path]) == 0
    out = capsys.readouterr().out
    assert out.startswith("harness.meld-and-refuse: A Q-K-A run is accepted")
    assert "seat 0 holds Q♥ K♥ A♥ 2♣ 3♦ 4♠ 9♣" in out
    assert "  3. Seat 0 lays down 2♣ 3♦ 4♠: must be REFUSED (invalid-meld:" in out
    assert "rummy.ace-after-king (R-3.1)" in out


def test_explain_of_an_unknown_id_says_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "no.such.fixture"]) == 2
    assert "`cardverse-conformance list` shows them" in capsys.readouterr().err


def test_the_command_line_starts_without_importing_hypothesis() -> None:
    import subprocess
    import sys

    code = "import sys, harness.cli; harness.cli.build_parser(); print('hypothesis' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
