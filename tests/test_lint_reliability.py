"""Lint never raises: thousands of generated broken fixtures, each reported at its real place."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from broken_fixtures import FAULTS, Broken, generate

from harness.cli import main

COUNT, SEED = 2100, 13
ERROR_LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): \$\S*: (?P<message>.+)$")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Broken], int, list[str]]:
    """The generated broken fixtures written to a folder, then linted once by the command:
    file name -> what was broken, the exit code, and the lines printed."""
    folder = tmp_path_factory.mktemp("broken")
    made = {}
    for i, broken in enumerate(generate(COUNT, SEED)):
        name = f"{i:04d}-{broken.kind}.yaml"
        (folder / name).write_bytes(broken.data)
        made[name] = broken
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["lint", "--no-cache", str(folder)])
    return made, code, out.getvalue().splitlines()


def test_the_generator_covers_enough_kinds_of_fault(corpus: tuple[dict[str, Broken], int, list[str]]) -> None:
    made, _, _ = corpus
    assert len(made) >= 2000
    assert len({b.kind for b in made.values()}) == len(FAULTS) >= 25


def test_lint_of_the_batch_reports_every_file_and_fails(corpus: tuple[dict[str, Broken], int, list[str]]) -> None:
    made, code, lines = corpus
    assert code == 1
    assert re.fullmatch(rf"{len(made)} file\(s\), 0 clean, \d+ error\(s\)", lines[-1]), lines[-1]


def test_every_broken_file_is_reported_at_its_fault(corpus: tuple[dict[str, Broken], int, list[str]]) -> None:
    made, _, lines = corpus
    by_file: dict[str, list[tuple[int, int]]] = {}
    for text in lines[:-1]:
        match = ERROR_LINE.match(text)
        assert match, text[:300]
        message = match["message"]
        assert len(message) < 600, message[:200]
        assert "linter failed" not in message and "Traceback" not in message, text
        by_file.setdefault(Path(match["file"]).name, []).append((int(match["line"]), int(match["column"])))
    missed = sorted(set(made) - set(by_file))
    assert not missed, missed[:5]
    wrong: list[object] = []
    for name, broken in made.items():
        places = by_file[name]
        assert all(1 <= line <= broken.data.count(b"\n") + 1 and column >= 1 for line, column in places), (name, places)
        if broken.line is not None and not any(line == broken.line and broken.column in (None, column)
                                               for line, column in places):
            wrong.append((name, broken.line, broken.column, sorted(places)[:3]))
    assert not wrong, (len(wrong), wrong[:5])


@pytest.mark.parametrize("command", ["run", "list", "coverage", "explain", "perft", "docs"])
def test_every_command_that_reads_a_fixture_names_the_place_of_its_fault(tmp_path: Path, command: str) -> None:
    """Each kind of fault, given to a command that reads fixture files: a non-zero exit and ``file:line:col``."""
    located = re.compile(r"^[^\s:][^:]*:\d+:\d+: \$\S*: .+$", re.M)
    for i, broken in enumerate(generate(len(FAULTS), SEED + 1)):
        path = tmp_path / f"{i:02d}-{broken.kind}.yaml"
        path.write_bytes(broken.data)
        args = {"run": ["run", "--no-cache", str(path)], "list": ["list", str(path)],
                "coverage": ["coverage", str(path)], "explain": ["explain", str(path)],
                "perft": ["perft", str(path), "--depth", "1"],
                "docs": ["docs", "--out", str(tmp_path / "book"), str(path)]}[command]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
        text = out.getvalue() + err.getvalue()
        assert code != 0, (broken.kind, text[-300:])
        assert located.search(text) and "Traceback" not in text, (broken.kind, text[-300:])
