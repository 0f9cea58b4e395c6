"""The report over time: runs of one engine from several dates, what is newly failing and fixed, the trend."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness.book.runs import read_run
from harness.book.trend_svg import outcome_strip, score_line
from harness.cli import main

CLAUSE = "rummy.ace-after-king"


def dated(source: Path, target: Path, started: str, engine: dict[str, str] | None = None) -> Path:
    """``source`` with its header's start time (and engine) replaced: the same engine run on another day."""
    lines = source.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["started"] = started
    if engine:
        header["engine"] = engine
    target.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def days(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Three runs of the reference on the fixtures of one clause: fine, then a commit that breaks Q-K-A, then fixed."""
    root = tmp_path_factory.mktemp("days")
    good, broken = root / "good.jsonl", root / "broken.jsonl"
    assert main(["run", "--clause", CLAUSE, "--json", str(good)]) == 0
    assert main(["run", "--clause", CLAUSE, "--engine", "harness.mutants:rummy_qka_refused", "--json", str(broken)]) == 1
    engine = read_run(good).header["engine"]
    return {"monday": dated(good, root / "monday.jsonl", "2026-12-07T09:00:00+00:00"),
            "tuesday": dated(broken, root / "tuesday.jsonl", "2026-12-08T09:00:00+00:00", engine),
            "wednesday": dated(good, root / "wednesday.jsonl", "2026-12-09T09:00:00+00:00"),
            "broken": broken}


def failing_ids(run: Path) -> list[str]:
    return sorted(r["id"] for r in read_run(run).records if r["outcome"] in ("fail", "error"))


def test_a_run_header_says_when_it_started(days: dict[str, Path]) -> None:
    started = read_run(days["broken"]).header["started"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", started)


def test_the_report_of_one_engine_on_two_days_shows_what_newly_fails(days: dict[str, Path], tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    broken = failing_ids(days["tuesday"])
    assert broken, "the mutant refusing Q-K-A must fail a fixture of rummy.ace-after-king"
    # Given newest first, the runs are still put in the order they were made.
    assert main(["report", str(days["tuesday"]), str(days["monday"]), "--out", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    index = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert "2 runs, 2026-12-07 09:00 to 2026-12-08 09:00" in index
    assert f"{len(broken)} newly failing</a> · <a" in index and ">0 fixed</a>" in index
    page = (tmp_path / "r" / "history-cardverse-reference.html").read_text(encoding="utf-8")
    newly = page.split('id="newly-failing"')[1].split('id="fixed"')[0]
    assert sorted(re.findall(r'fixtures/([^"#]+)\.html', newly)) == broken
    assert newly.count('<td class="o-pass">pass</td>') == len(broken)
    # The clauses that changed come first in their game's trend, the one the mutant breaks among them, green then red.
    trend = page.split('id="trend-rummy-1.1.0"')[1].split("</section>")[0]
    changed = int(re.search(r"(\d+) of \d+ clauses changed", trend).group(1))
    rows = re.findall(r"<tr><td><a [^>]*>([^<]+)</a></td><td>(<svg.*?</svg>)", trend, re.S)
    strips = {clause: re.findall(r'<rect class="o-(\w+)"', svg) for clause, svg in rows}
    assert CLAUSE in [clause for clause, _ in rows[:changed]] and strips[CLAUSE] == ["pass", "fail"]
    assert all(strips[clause][0] == strips[clause][1] for clause, _ in rows[changed:])
    assert "<script" not in page
    twin = (tmp_path / "r" / "history-cardverse-reference.md").read_text(encoding="utf-8")
    assert f"- [{CLAUSE}](" in twin and "pass → fail" in twin


def test_three_days_show_the_fix_and_the_trend(days: dict[str, Path], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    runs = [str(days[d]) for d in ("monday", "tuesday", "wednesday")]
    assert main(["report", *runs, "--out", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    page = (tmp_path / "r" / "history-cardverse-reference.html").read_text(encoding="utf-8")
    fixed = page.split('id="fixed"')[1].split('id="trend"')[0]
    assert sorted(re.findall(r'fixtures/([^"#]+)\.html', fixed)) == failing_ids(days["tuesday"])
    assert "None: nothing that passed before fails now." in page
    line = re.search(r'<svg class="trend".*?</svg>', page.split('id="trend-rummy-1.1.0"')[1], re.S)
    assert line and re.findall(r'class="dot-(\w+)"', line.group(0)) == ["pass", "fail", "pass"]


def test_runs_of_different_engines_have_no_history(days: dict[str, Path], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(days["monday"]), str(days["broken"]), "--out", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    assert "Over time" not in (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert not list((tmp_path / "r").glob("history-*"))


def test_the_drawings_say_in_words_what_they_show() -> None:
    line = score_line([(3, 3), (1, 3)], ["mon", "tue"])
    assert 'aria-label="mon 3/3, tue 1/3"' in line and "<title>tue: 1/3</title>" in line
    assert 'points="4.0,4.0 176.0,25.3"' in line  # 3/3 at the top, 1/3 two thirds of the way down
    strip = outcome_strip(["pass", "fail"], ["mon", "<tue>"])
    assert 'aria-label="mon pass, &lt;tue&gt; fail"' in strip and '<rect class="o-fail" x="15"' in strip


def test_runs_of_one_engine_at_two_versions_are_one_history_labelled_by_version(
        days: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    later = dated(days["tuesday"], tmp_path / "later.jsonl", "2026-12-08T09:00:00+00:00",
                  {"name": "cardverse-reference", "version": "0.2.0+3f2a1c9"})
    assert main(["report", str(days["monday"]), str(later), "--out", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    page = (tmp_path / "r" / "history-cardverse-reference.html").read_text(encoding="utf-8")
    assert "2 runs, oldest first: 2026-12-07 09:00 (0.1.0), 2026-12-08 09:00 (0.2.0+3f2a1c9)." in page
    newly = page.split('id="newly-failing"')[1].split('id="fixed"')[0]
    assert sorted(re.findall(r'fixtures/([^"#]+)\.html', newly)) == failing_ids(days["tuesday"])
