"""The same verdict over many fixtures is told once, in the console and in the report, its fixtures folded."""

from __future__ import annotations

import io
import json
from pathlib import Path

from harness.cli import main
from harness.reports.console import print_failures
from harness.run.runner import FixtureResult
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths

SAME = "the engine raised while starting: ValueError: melds[3]: not a valid set or run"


def results() -> list[FixtureResult]:
    scenarios = load_paths([fixtures_dir() / "rummy"]).scenarios[:6]
    made = [FixtureResult(s, "error", SAME, error_kind="crash") for s in scenarios[:5]]
    return made + [FixtureResult(scenarios[5], "fail", "step 1 (line 9): another message")]


def test_the_console_tells_an_error_of_five_fixtures_once() -> None:
    out = io.StringIO()
    print_failures(results(), out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"ERROR 5 fixtures: {SAME}"
    assert len(lines[1:4]) == 3 and all(line.startswith("  rummy.") for line in lines[1:4])
    assert lines[4] == "  ... and 2 more (-v or --json names every one)"
    assert lines[5].startswith("FAIL rummy.") and out.getvalue().count(SAME) == 1


def test_the_report_folds_the_fixtures_of_one_error(tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    assert main(["run", "--game", "rummy", "--engine", "harness.mutants:rummy_qka_refused", "--json", str(run)]) == 1
    errors = [json.loads(line) for line in run.read_text(encoding="utf-8").splitlines()[1:]]
    repeated = sum(1 for r in errors if r.get("message") == SAME)
    assert repeated > 3
    assert main(["report", str(run), "--out", str(tmp_path / "site")]) == 0
    page = (tmp_path / "site" / "rummy-1.1.0.html").read_text(encoding="utf-8")
    assert page.count(SAME) == 1
    assert f"<details><summary>the {repeated} fixtures</summary>" in page
    twin = (tmp_path / "site" / "rummy-1.1.0.md").read_text(encoding="utf-8")
    assert f"- **error** {repeated} fixtures: " in twin and twin.count("melds\\[3\\]") == 1
