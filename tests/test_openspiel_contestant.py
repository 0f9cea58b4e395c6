"""OpenSpiel's simple Gin Rummy bot as a ladder player: named `openspiel`, optional, mirrored faithfully."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.ladder.contestants import parse_contestant

ROOT = Path(__file__).resolve().parents[1]


def test_only_the_contestant_imports_openspiel() -> None:
    importers = []
    for path in sorted([*ROOT.glob("harness/**/*.py"), *ROOT.glob("reference_engine/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n.split(".")[0] in ("pyspiel", "open_spiel") for n in names):
                importers.append(path.relative_to(ROOT).as_posix())
    assert sorted(set(importers)) == ["harness/ladder/openspiel.py"]


def test_without_openspiel_the_ladder_says_what_to_install(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if it were not installed
    assert parse_contestant("openspiel").factory == "harness.ladder.openspiel:simple_gin_rummy_bot"
    assert main(["ladder", "--game", "gin-rummy", "hard", "openspiel", "--cap", "2"]) == 2
    assert capsys.readouterr().err == ("player 'openspiel': OpenSpiel is not installed; install the bench extra "
                                       "(pip install -e '.[bench]', or pip install open-spiel) and run again\n")


def test_the_bot_plays_gin_rummy_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--game", "rummy", "hard", "openspiel", "--cap", "2"]) == 2
    assert capsys.readouterr().err == "player 'openspiel': OpenSpiel's simple bot plays gin-rummy only, not rummy\n"


def test_cards_are_numbered_as_openspiel_numbers_them() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from harness.ladder.openspiel import kit_card, spiel_card

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    for number in range(52):
        shown = utils.card_string(number)  # e.g. "Ts": rank then lower-case suit
        assert kit_card(number) == shown[0] + shown[1].upper() and spiel_card(kit_card(number)) == number


def test_the_mirrored_state_holds_the_view_s_hand_and_the_bot_s_choices_are_legal() -> None:
    pytest.importorskip("pyspiel")
    from harness.ladder.deals import Table, play_deal
    from harness.ladder.openspiel import SimpleGinRummyBot, kit_card
    from reference_engine import create

    bot = parse_contestant("openspiel").build("gin-rummy")
    assert isinstance(bot, SimpleGinRummyBot)
    game = bot.game({"knock_limit": 10})
    hand = ["AS", "2S", "3S", "7D", "8D", "9D", "KC", "KD", "KH", "QC"]
    state = bot.dealt(game, hand, [c for c in range(52) if kit_card(c) not in hand][:10], 51)
    held = [kit_card(c) for c in range(52) if state.observation_tensor(0)[2 + c] == 1]
    assert sorted(held) == sorted(hand)
    table = Table("gin-rummy", "1.0.0", {"knock_limit": 10, "gin_bonus": 25, "undercut_bonus": 25, "target": 100,
                                         "game_bonus": 0, "box_bonus": 0}, 2, 0)
    players = {"A": (parse_contestant("normal").build("gin-rummy"), "normal"), "B": (bot, "openspiel")}
    deals = [play_deal(create(), table, index, players.__getitem__) for index in range(3)]
    assert all(deal.unfinished == 0 for deal in deals)
    assert bot.fallbacks == 0  # every choice of the bot was legal here as it was
