"""The run at home in CI: --last-failed, --fail-fast, --suite, GitHub annotations and the step summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.reports.ci import escaped
from harness.spec.paths import fixtures_dir

QKA = "harness.mutants:rummy_qka_refused"
OWN = Path(__file__).parent / "data" / "scenarios"  # a team's own fixtures, beside the bundled suite


def records(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def judged(report: Path) -> list[str]:
    """The ids of the fixtures a run judged, from its JSON lines report."""
    return sorted(r["id"] for r in records(report)[1:])


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDVERSE_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_last_failed_runs_again_exactly_the_fixtures_that_failed(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = cache / "first.jsonl"
    assert main(["run", "--game", "rummy", "--engine", QKA, "--json", str(report)]) == 1
    failed = [r["id"] for r in records(report)[1:] if r["outcome"] in ("fail", "error")]
    capsys.readouterr()
    again = cache / "again.jsonl"
    assert main(["run", "--last-failed", str(report), "--engine", QKA, "--json", str(again)]) == 1
    assert judged(again) == sorted(failed) and len(failed) == 18
    # without a file: the last report `run --json` wrote (again.jsonl); after a fix, they pass
    fixed = cache / "fixed.jsonl"
    assert main(["run", "--last-failed", "--json", str(fixed)]) == 0
    assert judged(fixed) == sorted(failed)


def test_last_failed_after_a_clean_run_runs_nothing_and_says_so(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = cache / "clean.jsonl"
    assert main(["run", "--id", "rummy.meld.*", "--json", str(report)]) == 0
    capsys.readouterr()
    assert main(["run", "--last-failed", str(report)]) == 0
    assert capsys.readouterr().out == f"nothing failed in {report}: nothing to run again\n"


def test_last_failed_without_a_report_is_a_usage_error(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--last-failed"]) == 2
    assert "run once with --json FILE" in capsys.readouterr().err
    (cache / "bad.jsonl").write_text("not json\n", encoding="utf-8")
    assert main(["run", "--last-failed", str(cache / "bad.jsonl")]) == 2
    assert f"{cache / 'bad.jsonl'}:1: not JSON" in capsys.readouterr().err


def test_fail_fast_stops_at_the_first_failure_and_says_so(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = cache / "x.jsonl"
    assert main(["run", "--game", "rummy", "-x", "--engine", QKA, "--json", str(report)]) == 1
    out = capsys.readouterr().out
    assert out.count("\nERROR ") + out.count("\nFAIL ") + out.startswith(("ERROR ", "FAIL ")) == 1
    assert "stopped at the first failure (--fail-fast), after " in out
    lines = records(report)
    assert lines[0]["incomplete"].startswith("stopped at the first failure (--fail-fast)")
    assert [r["outcome"] for r in lines[1:]].count("error") + [r["outcome"] for r in lines[1:]].count("fail") == 1


def test_suite_runs_a_teams_fixtures_beside_the_bundled_ones(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = cache / "suite.jsonl"
    assert main(["run", "--game", "rummy", "--suite", str(OWN), "--json", str(report)]) == 0
    ids = judged(report)
    assert "harness.meld-and-refuse" in ids and "rummy.meld.q-k-a-run" in ids


def test_github_actions_annotations_point_at_the_failing_steps_line(
        cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(fixtures_dir().parent))
    summary = cache / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert main(["run", "--id", "rummy.meld.q-k-a-run", "--engine", QKA]) == 1
    annotations = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error ")]
    assert annotations == [
        "::error file=fixtures/rummy/rummy.meld.q-k-a-run.yaml,line=15,title=rummy.meld.q-k-a-run%3A fail::"
        "step 1 (line 15): the legal actions differ from the fixture%0A  missing: {meld: [Q♥, K♥, A♥]}"]
    line = (fixtures_dir() / "rummy" / "rummy.meld.q-k-a-run.yaml").read_text(encoding="utf-8").splitlines()[14]
    assert line.startswith("  - ")  # the failing step itself
    text = summary.read_text(encoding="utf-8")
    assert "| rummy | 0 | 1 | 0 | 0 |" in text and "- **fail** `rummy.meld.q-k-a-run`: step 1 (line 15)" in text


def test_no_annotations_outside_github_actions(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--id", "rummy.meld.q-k-a-run", "--engine", QKA]) == 1
    assert "::error" not in capsys.readouterr().out


def test_workflow_command_text_is_escaped() -> None:
    assert escaped("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escaped("a:b,c", property_value=True) == "a%3Ab%2Cc"


def test_with_the_cache_off_no_report_is_remembered(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--id", "rummy.meld.q-k-a-run", "--no-cache", "--json", str(cache / "r.jsonl")]) == 0
    assert not (cache / "cache" / "last-json-report").exists()
    assert main(["run", "--last-failed"]) == 2  # nothing remembered: give the file
    assert "--last-failed: no JSON lines report to read" in capsys.readouterr().err
