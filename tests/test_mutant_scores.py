"""The generated mutants' score per clause in ``coverage --mutants``, read from ``mutants --generated --json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.reports.mutant_scores import ScoreError, read_scores


def _write(path: Path, records: list[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_kill_counts_for_each_clause_of_its_fixture_and_a_fuzz_find_for_its_own(tmp_path: Path) -> None:
    scores = read_scores(_write(tmp_path / "m.jsonl", [
        {"status": "killed", "clauses": ["president.pass-holds", "president.trick-won"]},
        {"status": "killed", "clauses": ["president.pass-holds"]},
        {"status": "fuzz", "clauses": ["president.pass-holds"]},
        {"status": "survived", "clauses": []},
        {"status": "crash", "clauses": ["president.trick-won"]},
    ]))
    assert (scores["president.pass-holds"].killed, scores["president.pass-holds"].fuzz_only) == (2, 1)
    assert scores["president.pass-holds"].share == "67%"
    assert (scores["president.trick-won"].killed, scores["president.trick-won"].fuzz_only) == (1, 0)


def test_every_bad_line_is_named_at_once(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text('{"status": "killed", "clauses": ["a"]}\nnot json\n[1]\n{"status": "fuzz", "clauses": "a"}\n',
                    encoding="utf-8")
    with pytest.raises(ScoreError) as raised:
        read_scores(path)
    message = str(raised.value)
    assert f"{path}:2:1: not valid JSON" in message and f"{path}:3:1: $.status" in message
    assert f"{path}:4:1: $.clauses" in message and "mutants --generated --json" in message


def test_coverage_shows_each_reached_clause_with_its_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "m.jsonl", [{"status": "killed", "clauses": ["president.pass-holds"]},
                                         {"status": "fuzz", "clauses": ["president.pass-holds"]}])
    main(["coverage", "--game", "president", "--mutants", str(path)])
    out = capsys.readouterr().out
    [row] = [line for line in out.splitlines() if line.startswith("president.pass-holds ") and "%" in line]
    assert row.split()[1:] == ["1", "1", "50%"]
    assert "1 of " in out and "clauses reached by generated mutants" in out
    main(["coverage", "--game", "president", "--json", "--mutants", str(path)])
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["clause"]: r["mutants"] for r in records}["president.pass-holds"] == {"killed": 1, "fuzz_only": 1}


def test_a_missing_mutants_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", "--mutants", str(tmp_path / "none.jsonl")]) == 2
    assert "--mutants" in capsys.readouterr().err
