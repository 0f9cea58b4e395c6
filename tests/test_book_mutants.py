"""The generated mutants' score per clause in the rule book, from ``docs --mutants``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_book_reading import raw_backticks

from harness.cli import main
from harness.spec.paths import fixtures_dir

# Two fixtures keep the book small; the first covers both deal clauses, the second neither.
FIXTURES = [fixtures_dir() / "president" / "president.deal.three-players-fresh-deal.yaml",
            fixtures_dir() / "president" / "president.trick.layout-with-two-passes.yaml"]
CLAUSES = Path("clauses") / "president-1.1.0"


def _mutants(path: Path) -> Path:
    """A hand-made ``mutants --generated --json`` file, each line as generated_command writes it."""
    def line(mutant: str, status: str, clauses: list[str]) -> str:
        return json.dumps({"mutant": mutant, "game": "president", "file": "reference_engine/president.py", "line": 10,
                           "function": "deal", "operator": "number_replacer", "before": "1", "after": "2",
                           "status": status, "why": "", "clauses": clauses, "fixture": None}) + "\n"
    path.write_text(line("m1", "killed", ["president.deal-evenly", "president.deal-extra-cards"])
                    + line("m2", "killed", ["president.deal-evenly"])
                    + line("m3", "fuzz", ["president.deal-evenly"])
                    + line("m4", "survived", [])
                    + line("m5", "survived", [])
                    + line("m6", "crash", []), encoding="utf-8")
    return path


def _cells(html: str) -> list[str]:
    """The cells of the clause page's mutants table."""
    [table] = re.findall(r'<table class="mutants">(.*?)</table>', html, re.S)
    return re.findall(r"<td>(.*?)</td>", table)


def test_a_clause_page_shows_its_generated_mutants(tmp_path: Path) -> None:
    out = tmp_path / "book"
    assert main(["docs", *map(str, FIXTURES), "--out", str(out), "--mutants", str(_mutants(tmp_path / "m.jsonl"))]) == 0
    # killed 2 (m1, m2), fuzz only 1 (m3), survived 2 in the game (m4, m5; the crash is counted apart): 2/3 = 67%
    evenly = out / CLAUSES / "president.deal-evenly.html"
    assert _cells(evenly.read_text(encoding="utf-8")) == ["2", "1", "2", "67%"]
    assert "| 2 | 1 | 2 | 67% |" in (out / CLAUSES / "president.deal-evenly.md").read_text(encoding="utf-8")
    assert _cells((out / CLAUSES / "president.deal-extra-cards.html").read_text(encoding="utf-8")) == ["1", "0", "2", "100%"]
    assert _cells((out / CLAUSES / "president.objective.html").read_text(encoding="utf-8")) == ["0", "0", "2", "-"]
    game = (out / "games" / "president-1.1.0.html").read_text(encoding="utf-8")
    assert "2 killed by its fixtures, 1 found only by fuzz (the fixtures' share: 67%)" in game
    assert "neither the fixtures nor fuzz found: 2;" in game
    assert "2 killed by its fixtures, 1 found only by fuzz" in (out / "games" / "president-1.1.0.md").read_text(encoding="utf-8")
    # Another game's pages count none of President's mutants.
    assert "neither the fixtures nor fuzz found: 0;" in (out / "games" / "rummy-1.1.0.html").read_text(encoding="utf-8")
    assert not [p for p in out.rglob("*.html") if raw_backticks(p.read_text(encoding="utf-8"))]


def test_without_mutants_the_book_has_none(tmp_path: Path) -> None:
    assert main(["docs", *map(str, FIXTURES), "--out", str(tmp_path / "book")]) == 0
    page = (tmp_path / "book" / CLAUSES / "president.deal-evenly.html").read_text(encoding="utf-8")
    assert "Generated mutants" not in page
    assert "Generated mutants" not in (tmp_path / "book" / "games" / "president-1.1.0.md").read_text(encoding="utf-8")


def test_a_broken_mutants_file_is_a_usage_error_naming_each_bad_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text('{"status": "killed", "clauses": ["president.deal-evenly"]}\nnot json\n{"status": "fuzz"}\n',
                    encoding="utf-8")
    out = tmp_path / "book"
    assert main(["docs", *map(str, FIXTURES), "--out", str(out), "--mutants", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:2:1: not valid JSON" in err and f"{path}:3:1: $.clauses" in err
    assert "mutants --generated --json" in err and "Traceback" not in err
    assert not out.exists()
    assert main(["docs", *map(str, FIXTURES), "--out", str(out), "--mutants", str(tmp_path / "none.jsonl")]) == 2
    assert "--mutants" in capsys.readouterr().err
