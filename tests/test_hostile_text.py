"""Engine- and file-supplied text is cut where it enters: an engine's long text is not multiplied by the fixtures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness.adapters.protocol import AdapterError, EngineError, check_answer
from harness.cli import main
from harness.host.text import MESSAGE_LIMIT, TEXT_LIMIT, cut
from reference_engine import ReferenceEngine

SCENARIOS = Path(__file__).parent / "data" / "scenarios"
HUGE = "v" * 100_000


class LongTexts(ReferenceEngine):
    """An engine whose start raises a 100,000-character error and whose president versions are 100,000 characters."""

    def describe(self) -> dict[str, Any]:
        description = dict(super().describe())
        description["version"] = HUGE
        description["games"] = {**description["games"], "president": {"rule_versions": ["1." + HUGE], "options": []}}
        return description

    def start(self, setup: dict[str, Any]) -> Any:
        raise ValueError(HUGE)


def test_a_long_text_is_cut_with_an_ellipsis_and_its_length() -> None:
    assert cut("short") == "short"
    assert cut(HUGE) == "v" * TEXT_LIMIT + "\u2026 (100,000 characters)"


def test_an_engine_error_of_64_kib_is_cut() -> None:
    with pytest.raises(EngineError) as raised:
        check_answer("start", 1, {"seq": 1, "error": "e" * 65536}, "the answer to start")
    assert len(str(raised.value)) < TEXT_LIMIT + 100 and "65,536 characters" in str(raised.value)


def test_a_hello_with_a_100000_character_version_is_not_quoted_whole() -> None:
    hello = {"protocol": 1, "name": "x", "version": HUGE, "games": {}}
    with pytest.raises(AdapterError) as raised:
        check_answer("hello", None, hello, "the answer to hello")
    assert len(str(raised.value)) < 1000


def test_an_engine_long_text_costs_each_fixture_a_bounded_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "run.jsonl"
    assert main(["run", "--engine", "test_hostile_text:LongTexts", "--json", str(report)]) == 1
    printed = capsys.readouterr()
    records = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()[1:]]
    assert len(records) > 200 and all(len(r.get("message", "")) < MESSAGE_LIMIT + 200 for r in records)
    assert any("100,002 characters" in r.get("message", "") for r in records if r["game"] == "president")
    assert len(printed.out) + len(printed.err) < 200_000


def test_a_report_of_a_record_with_a_1_mb_message_cuts_it(tmp_path: Path) -> None:
    header = {"kit": "cardverse-conformance", "spec": {}, "engine": {"name": "e", "version": "1"}}
    record = {"id": "x", "game": "rummy", "rule_version": "1.1.0", "outcome": "fail", "message": "m" * 1_000_000}
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps(header) + "\n" + json.dumps(record) + "\n", encoding="utf-8")
    assert main(["report", str(run), "--out", str(tmp_path / "r")]) == 0
    assert all(page.stat().st_size < 100_000 for page in (tmp_path / "r").iterdir() if page.is_file())
