"""--rule-version on every command that starts games, after the README's "Guarding a rule version" in a fresh folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main

SERVE = f"{sys.executable} -m harness serve"
# Each command that starts games, small; none is given --rule-version.
COMMANDS = {
    "play": ["play", "--game", "rummy", "--json", "game.jsonl", "--delay", "0"],
    "ladder": ["ladder", "--game", "rummy", "easy", "normal", "--cap", "2", "--json", "ladder.json"],
    "perft": ["perft", "--game", "rummy", "--seed", "1", "--depth", "2"],
    "fuzz": ["fuzz", "--game", "rummy", "--examples", "2", "--records", "fuzz.jsonl"],
    "properties": ["properties", "--game", "rummy", "--examples", "2"],
    "players": ["players", "--game", "rummy", "--level", "easy", "--games", "1"],
    "smoke": ["smoke", "--engine-cmd", SERVE],
    "mutants": ["mutants", "--game", "rummy", "--mutant", "rummy.ace-high-ignored", "--examples", "3"],
}


@pytest.fixture
def drafted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A folder where `new-version rummy 1.1.0 1.2.0` wrote its draft, the working directory."""
    monkeypatch.chdir(tmp_path)
    assert main(["new-version", "rummy", "1.1.0", "1.2.0"]) == 0
    capsys.readouterr()
    return tmp_path


def draft_with(folder: Path, old: str, new: str) -> None:
    """The draft with one piece of its text replaced."""
    path = folder / "spec" / "games" / "rummy-1.2.0.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("name", COMMANDS)
def test_with_a_draft_beside_each_command_plays_the_version_the_engine_declares(
        drafted: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    draft_with(drafted, "rummy.go-out-by-meld\n    source: R-2.3\n    basis: text\n    rule: >-\n      With",
               "rummy.go-out-by-meld\n    source: R-2.3\n    basis: text\n    rule: >-\n      In 1.2.0, with")
    code = main(COMMANDS[name])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code in ((0, 1) if name == "ladder" else (0,)), out + err  # the ladder's 1: undecided at so few deals
    if name == "play":
        assert json.loads((drafted / "game.jsonl").read_text(encoding="utf-8"))["rule_version"] == "1.1.0"
        assert out.splitlines()[0].startswith("Rummy (CardVerse variant, 52 cards, no jokers, no 51 opening) 1.1.0")
    if name == "ladder":
        assert json.loads((drafted / "ladder.json").read_text(encoding="utf-8"))["rule_version"] == "1.1.0"
    if name == "fuzz":
        lines = (drafted / "fuzz.jsonl").read_text(encoding="utf-8").splitlines()
        assert lines and {json.loads(line)["rule_version"] for line in lines} == {"1.1.0"}


@pytest.mark.parametrize("name", COMMANDS)
def test_a_version_the_engine_cannot_play_is_one_line_and_exit_2(
        drafted: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    draft_with(drafted, "A player wins a round by emptying", "A player wins a round by first emptying")
    assert main([*COMMANDS[name], "--rule-version", "1.2.0"]) == 2
    out, err = capsys.readouterr()
    assert err.splitlines()[-1].startswith("--rule-version 1.2.0: the engine does not implement rummy 1.2.0")
    assert "Traceback" not in out + err


def test_an_unknown_version_or_another_game_is_refused(drafted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "rummy", "--rule-version", "1.3.0"]) == 2
    assert capsys.readouterr().err == (
        "--rule-version 1.3.0: rummy has no rule version 1.3.0 (the spec has 1.1.0, 1.2.0); a new one is written "
        "with `cardverse-conformance new-version` into ./spec/games\n")
    assert main(["perft", "--game", "rummy", "--seed", "1", "--depth", "1", "--rule-version", "president@1.1.0"]) == 2
    assert capsys.readouterr().err == "--rule-version president@1.1.0: this command plays rummy, not president\n"


def test_a_version_asked_for_by_name_is_played(drafted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "rummy", "--rule-version", "rummy@1.1.0", "--json", "game.jsonl",
                 "--delay", "0"]) == 0
    assert json.loads((drafted / "game.jsonl").read_text(encoding="utf-8"))["rule_version"] == "1.1.0"


def test_serve_declares_only_the_version_asked_for(drafted: Path) -> None:
    draft_with(drafted, "A player wins a round by emptying", "A player wins a round by first emptying")
    hello = '{"cmd":"hello","protocol":1}\n{"cmd":"stop","seq":2}\n'
    answer = subprocess.run([*SERVE.split(), "--rule-version", "rummy@1.1.0"], input=hello, capture_output=True,
                            text=True, timeout=60, check=True).stdout.splitlines()[0]
    games = json.loads(answer)["games"]
    assert games["rummy"]["rule_versions"] == ["1.1.0"] and games["president"]["rule_versions"] == ["1.1.0"]
    refused = subprocess.run([*SERVE.split(), "--rule-version", "1.2.0"], input=hello, capture_output=True,
                             text=True, timeout=60)
    assert refused.returncode == 2
    assert refused.stderr.startswith("--rule-version 1.2.0: the engine does not implement rummy 1.2.0")


def test_a_record_of_the_draft_replays_without_asking(drafted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    draft_with(drafted, "    default: 100\n", "    default: 150\n")  # data only: the reference plays it
    assert main(["play", "--game", "rummy", "--rule-version", "1.2.0", "--json", "g.jsonl", "--delay", "0"]) == 0
    capsys.readouterr()
    assert main(["play", "--game", "rummy", "--replay", "g.jsonl", "--delay", "0"]) == 0
    out, err = capsys.readouterr()
    # the show wraps its lines to the terminal's width, which differs between runs: compare the words
    assert " ".join(out.split()).startswith(
        "Rummy (CardVerse variant, 52 cards, no jokers, no 51 opening) 1.2.0 · replay of g.jsonl ")
    assert "refused" not in out and err == ""


def test_a_broken_game_file_beside_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec" / "games").mkdir(parents=True)
    (tmp_path / "spec" / "games" / "bad.yaml").write_text("game: [\n", encoding="utf-8")
    assert main(["play", "--game", "rummy"]) == 2
    assert capsys.readouterr().err.startswith("spec/games/bad.yaml:2:1: not valid YAML")
