"""`play --replay` tells the end of every round and of the game, as the game played told them, and reads the game
from the record."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli import main


def ends(out: str) -> list[str]:
    """The lines that tell a round's or the game's end, and the scores after each."""
    return [line for line in out.splitlines() if " over: " in line or line.startswith(("game over", "  scores"))]


@pytest.mark.parametrize(("game", "players", "seed"), [("rummy", "easy,easy", 3), ("president", "easy,easy,easy,easy", 2)])
def test_a_replay_ends_as_the_game_played_ended(game: str, players: str, seed: int, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.jsonl"
    assert main(["play", "--game", game, "--players", players, "--seed", str(seed), "--json", str(record)]) == 0
    played = ends(capsys.readouterr().out)
    assert main(["play", "--replay", str(record)]) == 0  # no --game: the record names it
    replayed = ends(capsys.readouterr().out)
    assert replayed == played
    assert replayed[-1].startswith("game over: ") and sum(" over: " in line for line in replayed) >= 3


def test_a_replay_names_the_game_of_its_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.jsonl"
    assert main(["play", "--game", "rummy", "--seed", "1", "--json", str(record)]) == 0
    capsys.readouterr()
    assert main(["play", "--replay", str(record), "--game", "president"]) == 2
    assert capsys.readouterr().err == (f"{record}: a record of a rummy game, not president; leave out --game "
                                       "(the record names its game)\n")
    assert main(["play"]) == 2
    assert capsys.readouterr().err == "--game GAME: give the game to play (gin-rummy, president, rummy)\n"
