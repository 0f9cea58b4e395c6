"""The known-failures ratchet: known failures do not fail the run, fixes show and fail it until the file is updated."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from harness.cli import main
from harness.reports.ratchet import RatchetFileError, load_expected

TESTS = Path(__file__).parent
SCENARIOS = str(TESTS / "data" / "scenarios")
BROKEN = ["--engine", "fake_engines:accepts_everything"]  # fails harness.meld-and-refuse only
FAILURE = ("fail: step 3 (line 20): seat 0 {meld: [2♣, 3♦, 4♠]} was accepted, but must be refused (invalid-meld)")


@pytest.fixture(autouse=True)
def _fakes_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))


def records(path: Path) -> dict[str, dict[str, object]]:
    return {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()[1:])}


def test_writing_the_file_records_every_failure_and_sets_the_baseline(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = tmp_path / "known.yaml"
    assert main(["run", SCENARIOS, *BROKEN, "--write-expect-fail", str(known)]) == 0
    assert f"wrote 1 known failure(s) to {known}" in capsys.readouterr().out
    assert load_expected(known) == {"harness.meld-and-refuse": FAILURE}
    assert known.read_text(encoding="utf-8").startswith("# Known failures: fixture id -> why it fails.")


def test_a_known_failure_is_xfail_and_does_not_fail_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known, report, junit = tmp_path / "known.yaml", tmp_path / "run.jsonl", tmp_path / "run.xml"
    known.write_text("harness.meld-and-refuse: accepts any meld (ticket 12)\n", encoding="utf-8")
    code = main(["run", SCENARIOS, *BROKEN, "--expect-fail", str(known), "--json", str(report), "--junit", str(junit),
                 "-v"])
    out = capsys.readouterr().out
    assert code == 0
    assert "XFAIL harness.meld-and-refuse" in out and "FAIL harness.meld-and-refuse (" not in out
    assert f"known failures ({known}): 1 still failing (xfail), 0 fixed (XPASS)" in out
    assert out.splitlines()[-1].split() == ["total", "2", "0", "0", "0"]
    record = records(report)["harness.meld-and-refuse"]
    assert (record["outcome"], record["actual"], record["known_failure"]) == (
        "xfail", "fail", "accepts any meld (ticket 12)")
    case = next(c for c in ET.parse(junit).getroot().iter("testcase") if c.get("name") == "harness.meld-and-refuse")
    skipped = case.find("skipped")
    assert skipped is not None and skipped.get("message", "").startswith("known failure (accepts any meld (ticket 12)): ")


def test_a_fixed_failure_is_xpass_and_fails_the_run_until_the_file_is_updated(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known, report = tmp_path / "known.json", tmp_path / "run.jsonl"
    known.write_text(json.dumps({"harness.meld-and-refuse": "accepts any meld"}), encoding="utf-8")
    assert main(["run", SCENARIOS, "--expect-fail", str(known), "--json", str(report)]) == 1
    out = capsys.readouterr().out
    assert (f"XPASS harness.meld-and-refuse: listed as a known failure (accepts any meld), but it passes now: remove "
            f"it from {known}, or rewrite the file with --write-expect-fail") in out
    assert f"known failures ({known}): 0 still failing (xfail), 1 fixed (XPASS)" in out
    assert records(report)["harness.meld-and-refuse"]["outcome"] == "xpass"
    assert main(["run", SCENARIOS, "--expect-fail", str(known), "--write-expect-fail", str(known)]) == 0
    assert json.loads(known.read_text(encoding="utf-8")) == {}
    assert main(["run", SCENARIOS, "--expect-fail", str(known)]) == 0


def test_an_unexpected_failure_still_fails_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = tmp_path / "known.yaml"
    known.write_text("harness.going-out-scores: unrelated\nno.such.fixture: long gone\n", encoding="utf-8")
    assert main(["run", SCENARIOS, *BROKEN, "--expect-fail", str(known)]) == 1
    out = capsys.readouterr().out
    assert "FAIL harness.meld-and-refuse (" in out
    assert "XPASS harness.going-out-scores" in out
    assert f"1 known failure(s) name no fixture of this suite: remove them from {known}: no.such.fixture" in out


def test_rewriting_keeps_the_reasons_people_wrote(tmp_path: Path) -> None:
    known = tmp_path / "known.yaml"
    known.write_text("harness.meld-and-refuse: our meld check is missing (ticket 12)\n", encoding="utf-8")
    assert main(["run", SCENARIOS, *BROKEN, "--expect-fail", str(known), "--write-expect-fail", str(known)]) == 0
    assert load_expected(known) == {"harness.meld-and-refuse": "our meld check is missing (ticket 12)"}


@pytest.mark.parametrize(("text", "suffix", "message"), [
    ("- a\n- b\n", ".yaml", "expected a mapping of fixture id to reason text"),
    ("{not json", ".json", "not valid JSON"),
    ("a: [1, 2]\n", ".yml", "expected a mapping of fixture id to reason text"),
])
def test_a_bad_file_is_a_usage_error(
        tmp_path: Path, text: str, suffix: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    known = tmp_path / f"known{suffix}"
    known.write_text(text, encoding="utf-8")
    with pytest.raises(RatchetFileError, match=message):
        load_expected(known)
    assert main(["run", SCENARIOS, "--expect-fail", str(known)]) == 2
    assert message in capsys.readouterr().err


def test_a_missing_file_says_how_to_make_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", SCENARIOS, "--expect-fail", str(tmp_path / "none.yaml")]) == 2
    assert "write one with --write-expect-fail" in capsys.readouterr().err
