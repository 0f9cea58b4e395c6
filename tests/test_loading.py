"""Loading fixtures: odd paths, exact messages for hostile input, strict version ranges, the cache."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from harness.cli import main
from harness.spec.paths import fixtures_dir
from harness.spec.semver import FORMS
from harness.suite.fixtures import Loader, load_paths
from harness.suite.reading import lint_bytes
from harness.suite.scenario_cache import ScenarioCache, cache_dir, default_cache

BASE = (fixtures_dir() / "rummy" / "rummy.turn.first-seat-from-layout.yaml").read_text(encoding="utf-8")


def errors_of(text: str | bytes) -> list[str]:
    """``line:col: path: message`` of each error of a file with this content."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    scenario, errors = lint_bytes("f.yaml", data)
    assert scenario is None
    return [str(e).removeprefix("f.yaml:") for e in errors]


@pytest.mark.parametrize(("text", "expected"), [
    ("1.5: x\n", "1:1: $: the key '1.5' reads as a fraction: keys are names (or seat numbers); "
                 "put it in quotes ('1.5':) or rename it"),
    ("id: a\nnull: x\n", "2:1: $: the key 'null' reads as null: keys are names (or seat numbers); "
                         "put it in quotes ('null':) or rename it"),
    ("true: x\n", "1:1: $: the key 'true' reads as true or false: keys are names (or seat numbers); "
                  "put it in quotes ('true':) or rename it"),
    ("a:\n  b: " + "9" * 5000 + "\n", "2:6: $.a.b: a number of 5000 characters is too large: "
                                       "fixtures hold numbers of at most 18 digits"),
    ("id: x\nx: &r [1, *r]\n", "2:11: $.x[1]: an alias (*name) inside the very value its anchor (&name) names: "
                               "a value cannot contain itself"),
    ("id: x\nd: " + "[" * 600 + "]" * 600 + "\n", "2:35: $.d[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
                                               "[0][0][0][0][0][0][0][0][0][0][0][0][0]: nested more than 32 levels "
                                               "deep: fixtures are flat data; check for unclosed brackets"),
    (b"id: x\ntitle: caf\xe9 au lait\n", "2:11: $: byte(s) e9 are not UTF-8: save the file as UTF-8"),
    ("id: x\ntitle: \u00e9\u00e9\x07\n", "2:10: $: control character U+0007 is not allowed in YAML: delete it, "
                                         "or write it as an escape inside double quotes"),
    ("id: x\n\ttitle: y\n", "2:1: $: not valid YAML: a tab used for indentation: indent with spaces"),
    ("id: x\ntitle: @home\n", "2:8: $: not valid YAML: this character cannot start a value: indent with spaces, "
                              "not tabs, and put values starting with @, ` or % in quotes"),
    ("---\n", "1:1: $: the file is empty: a fixture is a mapping with id, title, game, ..."),
    ("title: 2024-05-01\n", "1:8: $.title: '2024-05-01' reads as a date: put it in quotes to make it text"),
])
def test_hostile_yaml_is_an_error_at_its_place(text: str | bytes, expected: str) -> None:
    assert errors_of(text) == [expected]


def test_a_bad_version_range_says_which_forms_are_accepted() -> None:
    assert errors_of(BASE.replace('">=1.1.0 <2.0.0"', '"=<2.0.0"')) == [
        f"4:16: $.rule_versions: '=<2.0.0' is not a version comparator: {FORMS}"]


def test_state_checkpoints_follow_the_state_view_schema() -> None:
    text = BASE.replace("state: {first: 1, to_act: 1, phase: draw}", "state: {first: 1, to_act: 1, phase: 42}")
    text = text.replace("{hands: {0: [2H, 7C", "{hands: {0: [2H, ZZ")
    assert errors_of(text) == [
        "15:41: $.steps[0].state.phase: 42 is not one of 'draw', 'play', 'round-over', 'game-over'",
        "32:29: $.steps[5].state.hands[0][1]: 'ZZ' is not a card: rank A23456789TJQK then suit CDHS, e.g. QH or TD"]


def test_a_repeated_element_is_named_and_a_huge_value_is_not_echoed_whole() -> None:
    text = BASE.replace("clauses: [rummy.first-seat,", "clauses: [rummy.first-seat, rummy.first-seat,")
    text = text.replace("id: rummy.turn.first-seat-from-layout", "id: " + "x" * 300_000)
    messages = errors_of(text)
    assert messages[0].startswith("1:5: $.id: 'xxxx") and messages[0].endswith("…(300002 characters) is too long")
    assert len(messages[0]) < 200
    assert messages[1] == "5:10: $.clauses: 'rummy.first-seat' is listed twice: give each item once"


@pytest.fixture
def odd_paths(tmp_path: Path) -> Path:
    """A folder holding a good fixture beside every kind of path that is no fixture file."""
    (tmp_path / "good.yaml").write_text(BASE, encoding="utf-8")
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "folder.yaml").mkdir()
    return tmp_path


def test_odd_paths_are_named_and_the_good_file_still_loads(odd_paths: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(odd_paths)
    result = load_paths([".", "missing.yaml", "folder.yaml"])
    assert [s.id for s in result.scenarios] == ["rummy.turn.first-seat-from-layout"]
    assert sorted(map(str, result.path_errors)) == [
        f"dangling.yaml: a symbolic link to {str(odd_paths / 'nowhere.yaml')!r}, which does not exist; "
        "fix or remove the link",
        "folder.yaml: no .yaml or .yml fixture file in this folder; check the path",
        "loop.yaml: a symbolic link that loops back on itself; point it at a fixture file",
        "missing.yaml: does not exist; check the spelling of the path",
        "pipe.yaml: not a regular file (a pipe, socket or device): give a fixture file or a folder of them",
    ]


def test_lint_and_run_of_a_missing_path_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    missing = "typo.yaml"
    assert main(["lint", missing]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"{missing}: does not exist; check the spelling of the path\n"
    assert captured.out == "0 file(s), 0 clean, 0 error(s), 1 path(s) with no fixture file\n"
    assert main(["run", missing]) == 2
    assert capsys.readouterr().err == (f"{missing}: does not exist; check the spelling of the path\n"
                                       "no fixture was run: fix the paths above and run again\n")


def test_a_large_file_is_refused_without_being_read_whole(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(50 << 20)  # 50 MB, sparse: reading it whole would show in the time and memory
    (error,) = load_paths([big]).errors
    assert str(error).endswith(":1:1: $: file is larger than 1048576 bytes; split it into several fixtures")


def test_the_cache_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CARDVERSE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "cardverse-conformance"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "cardverse-conformance"
    monkeypatch.setenv("CARDVERSE_NO_CACHE", "1")
    assert default_cache() is None


def test_a_cached_scenario_is_the_one_linted_and_a_changed_file_is_read_again(tmp_path: Path) -> None:
    cache = ScenarioCache(tmp_path / "cache.sqlite")
    fixture = tmp_path / "f.yaml"
    fixture.write_text(BASE, encoding="utf-8")
    (fresh,) = load_paths([fixture]).scenarios
    assert load_paths([fixture], cache).scenarios == [fresh]
    assert entries(tmp_path / "cache.sqlite") == 1
    assert load_paths([fixture], cache).scenarios == [fresh]  # now from the cache
    assert entries(tmp_path / "cache.sqlite") == 1
    fixture.write_text(BASE.replace("title: The seat", "title: Now the seat"), encoding="utf-8")
    (changed,) = load_paths([fixture], cache).scenarios
    assert changed.title.startswith("Now the seat")
    fixture.write_text(BASE.replace("first: 1\n", "first: 7\n"), encoding="utf-8")
    assert load_paths([fixture], cache).scenarios == []


def test_a_damaged_cache_entry_is_rebuilt(tmp_path: Path) -> None:
    fixture = tmp_path / "f.yaml"
    fixture.write_text(BASE, encoding="utf-8")
    (fresh,) = load_paths([fixture], ScenarioCache(tmp_path / "cache.sqlite")).scenarios
    with sqlite3.connect(tmp_path / "cache.sqlite") as db:
        db.execute("UPDATE entries SET value = ?", (b"\x00garbage",))
    assert load_paths([fixture], ScenarioCache(tmp_path / "cache.sqlite")).scenarios == [fresh]
    (tmp_path / "cache.sqlite").unlink()
    (tmp_path / "cache.sqlite").write_bytes(b"not a database at all" * 100)
    assert load_paths([fixture], ScenarioCache(tmp_path / "cache.sqlite")).scenarios == [fresh]


def entries(path: Path) -> int:
    """How many scenarios a cache file holds."""
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT count(*) FROM entries").fetchone()[0])


def test_no_cache_leaves_the_cache_folder_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CARDVERSE_CACHE_DIR", str(tmp_path / "cache"))
    fixture = tmp_path / "f.yaml"
    fixture.write_text(BASE, encoding="utf-8")
    assert main(["lint", "--no-cache", str(fixture)]) == 0
    assert not (tmp_path / "cache").exists()
    assert main(["lint", str(fixture)]) == 0
    assert (tmp_path / "cache").exists()
    capsys.readouterr()


def test_the_loader_reads_each_file_only_when_the_run_asks_for_it(tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"{i}.yaml").write_text(BASE.replace("first-seat-from-layout", f"copy-{i}"), encoding="utf-8")
    loader = Loader([tmp_path])
    scenarios = iter(loader)
    assert next(scenarios).id == "rummy.turn.copy-0" and loader.done == 1
    assert [s.id for s in scenarios] == ["rummy.turn.copy-1", "rummy.turn.copy-2"] and loader.done == 3
