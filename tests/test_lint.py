"""Lint on a corpus of broken fixtures: every error, at its exact file, line, column and path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.cli import main
from harness.suite.fixtures import load_paths

DATA = Path(__file__).parent / "data"


@pytest.fixture
def in_data(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from tests/data so that reported paths are short and stable."""
    monkeypatch.chdir(DATA)
    return DATA


def expected_errors() -> list[str]:
    """The corpus's errors as reviewed by hand, one per line."""
    return (DATA / "lint-expected.txt").read_text(encoding="utf-8").splitlines()


def test_every_error_of_the_corpus_is_reported_exactly(in_data: Path) -> None:
    result = load_paths(["lint", "lint-duplicates"])
    assert [str(e) for e in result.errors] == expected_errors()


def test_each_broken_file_yields_no_scenario(in_data: Path) -> None:
    result = load_paths(["lint", "lint-duplicates"])
    assert [s.id for s in result.scenarios] == ["lint.same-id"]


def test_lint_command_prints_all_errors_and_fails(in_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "lint", "lint-duplicates"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:-1] == expected_errors()
    assert out[-1] == "18 file(s), 1 clean, 37 error(s)"


def test_lint_of_a_clean_file_passes(in_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", os.path.join("lint-duplicates", "a.yaml")]) == 0
    assert capsys.readouterr().out.strip() == "1 file(s), 1 clean, 0 error(s)"


def test_an_unreadable_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes("title: caf\xe9".encode("latin-1"))
    (error,) = load_paths([bad]).errors
    assert (error.line, error.column) == (1, 11)
    assert error.message == "byte(s) e9 are not UTF-8: save the file as UTF-8"


def test_an_oversized_file_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * (1 << 20) + "\n")
    (error,) = load_paths([big]).errors
    assert (error.line, error.column, error.path) == (1, 1, "$")
    assert "larger than" in error.message


def test_ten_mistakes_of_different_kinds_come_out_of_one_lint(in_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", os.path.join("lint-all-at-once", "ten-mistakes.yaml")]) == 1
    out = capsys.readouterr().out.splitlines()
    paths = [line.split(": ")[1] for line in out[:-1]]
    assert paths == ["$.rule_versions", "$.clauses[0]", "$.options.ace_hi", "$.layout.hands[0][2]", "$.steps[0].action",
                     "$.steps[1].seat", "$.steps[1].reason", "$.steps[2].state.phase", "$.steps[2].state.colour",
                     "$.steps[3].decide.level"]  # each once: the card ZZ is not said twice
    assert out[-1] == "1 file(s), 0 clean, 10 error(s)"
    said = "\n".join(out)
    for close in ("(did you mean rummy.ace-after-king", "(did you mean ace_high?)", "(did you mean not-your-turn?)",
                  "(did you mean hard?)"):
        assert close in said
