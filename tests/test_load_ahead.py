"""Large suites loaded in a second process give exactly what loading here gives, whatever happens to it."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from harness.spec.gamefile import extra_game_files
from harness.spec.paths import fixtures_dir
from harness.suite import load_ahead
from harness.suite.fixtures import load_paths
from harness.suite.model import LoadResult
from harness.suite.scenario_cache import ScenarioCache

TESTS = Path(__file__).parent


@pytest.fixture(autouse=True)
def _importable_in_children(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS.parent), os.environ.get("PYTHONPATH")])))


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    """Some bundled fixtures, lint corpora with errors, and a duplicate id."""
    folder = tmp_path / "suite"
    folder.mkdir()
    for path in sorted(fixtures_dir().rglob("*.yaml"))[:12]:
        shutil.copy(path, folder / path.name)
    for path in sorted((TESTS / "data" / "lint").glob("*.yaml"))[:6]:
        shutil.copy(path, folder / f"lint-{path.name}")
    first = sorted(folder.glob("*.yaml"))[0]
    shutil.copy(first, folder / "zz-duplicate.yaml")
    return folder


def outcome(result: LoadResult) -> tuple[list[tuple[str, str, int, int]], list[str]]:
    """What a run sees: each scenario (id, file, line, steps) and each error, in order."""
    return ([(s.id, s.file, s.line, len(s.steps)) for s in result.scenarios], [str(e) for e in result.errors])


def loaded(paths: list[Path], ahead: bool, monkeypatch: pytest.MonkeyPatch, cache: ScenarioCache | None = None
           ) -> LoadResult:
    monkeypatch.setattr(load_ahead, "THRESHOLD", 1 if ahead else 10**9)
    monkeypatch.setattr(load_ahead, "wanted", lambda files: files >= load_ahead.THRESHOLD)  # one core too
    return load_paths(paths, cache)


def test_a_loader_process_gives_what_loading_here_gives(suite: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = outcome(loaded([suite], False, monkeypatch))
    assert here[0] and here[1] and any("duplicate fixture id" in e for e in here[1])
    assert outcome(loaded([suite], True, monkeypatch)) == here


def test_the_loader_process_knows_the_game_files_added(monkeypatch: pytest.MonkeyPatch) -> None:
    versions = TESTS / "data" / "versions"
    with extra_game_files([str(versions / "rummy-1.2.0.yaml")]):
        here = outcome(loaded([versions / "fixtures"], False, monkeypatch))
        assert here[0] and not here[1]
        assert outcome(loaded([versions / "fixtures"], True, monkeypatch)) == here


def test_a_loader_process_that_cannot_start_or_dies_leaves_the_loading_here(
        suite: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = outcome(loaded([suite], False, monkeypatch))
    monkeypatch.setattr(load_ahead.sys, "executable", "/bin/false")  # starts, reads nothing, exits
    assert outcome(loaded([suite], True, monkeypatch)) == here
    monkeypatch.setattr(load_ahead.sys, "executable", str(suite / "no-such-python"))
    assert outcome(loaded([suite], True, monkeypatch)) == here


def test_the_loader_process_fills_the_cache_for_the_next_run(suite: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    cache_file = tmp_path / "cache" / "scenarios.sqlite"
    here = outcome(loaded([suite], False, monkeypatch))
    assert outcome(loaded([suite], True, monkeypatch, ScenarioCache(cache_file))) == here
    with sqlite3.connect(cache_file) as db:
        assert db.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == len(here[0])
    assert outcome(loaded([suite], True, monkeypatch, ScenarioCache(cache_file))) == here  # warm: from the cache
