"""new-version writes where the user is (./spec/games), never into the kit, and later commands find it there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.spec.paths import spec_dir


def test_new_version_writes_into_the_working_directory_and_run_and_diff_find_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    kit = sorted(p.name for p in (spec_dir() / "games").iterdir())
    monkeypatch.chdir(tmp_path)
    assert main(["new-version", "rummy", "1.1.0", "1.2.0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("wrote spec/games/rummy-1.2.0.yaml: rummy 1.2.0, a copy of 1.1.0 to edit")
    assert str(spec_dir()) not in out  # every hint names the user's file as they would type it
    assert (tmp_path / "spec" / "games" / "rummy-1.2.0.yaml").is_file()
    assert sorted(p.name for p in (spec_dir() / "games").iterdir()) == kit  # the kit is untouched

    # found without --game-file: the copy changes nothing but its version, so the reference plays it
    rummy = len(list((spec_dir().parent / "fixtures" / "rummy").glob("*.yaml")))
    assert main(["run", "--rule-version", "rummy@1.2.0"]) == 0
    assert capsys.readouterr().out.splitlines()[-2].split() == ["rummy", str(rummy), "0", "0", "0"]
    # a rule's text changed: the reference declares 1.1.0 only, so every fixture is skipped, and that fails
    draft = tmp_path / "spec" / "games" / "rummy-1.2.0.yaml"
    draft.write_text(draft.read_text(encoding="utf-8").replace("A player wins a round by emptying",
                                                               "A player wins a round by first emptying"), "utf-8")
    assert main(["run", "--rule-version", "rummy@1.2.0"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert f"skipped: {rummy} fixture(s), by reason: rule version {rummy}" in lines
    assert lines[-1].startswith(f"nothing was checked: all {rummy} selected fixture(s) were skipped")

    assert main(["diff", "--json", "rummy@1.1.0", "rummy@1.2.0"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["new_file"] == "spec/games/rummy-1.2.0.yaml"
    assert record["needs_code"] == ["rummy.objective"]
    assert main(["run", "--rule-version", "rummy@1.2.0", "--game-file", "spec/games/rummy-1.2.0.yaml"]) == 1


def test_a_broken_game_file_in_the_working_directory_is_a_usage_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec" / "games").mkdir(parents=True)
    (tmp_path / "spec" / "games" / "bad.yaml").write_text("game: [\n", encoding="utf-8")
    assert main(["run", "--game", "rummy"]) == 2
    assert capsys.readouterr().err.startswith("spec/games/bad.yaml:2:1: not valid YAML")
