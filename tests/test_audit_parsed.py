"""The fast pass plays each action as the game parses it, once per action: the same answers as apply, and verdicts."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from harness.audit.campaign import judge_all
from harness.audit.judge import audit_record
from harness.audit.sample import seeded_game
from harness.records.record import check_record
from harness.records.stream import lines
from reference_engine import create

ENGINE = create()
LEVELS = {"gin-rummy": ["easy", "normal"], "rummy": ["easy", "easy", "easy"], "president": ["easy"] * 4}
# actions no game takes, and some the rules refuse as malformed in one game and not another
ODD = [{}, {"bogus": 1}, {"discard": "ZZ"}, {"discard": ["3H"]}, {"play": "3H"}, {"play": ["3H", "3H"]},
       {"pass": False}, {"draw": "deck"}, {"knock": "3H", "melds": "x"}, {"layoff": ["3H"], "onto": -1}, "pass"]


class _Hidden:
    """A game of the reference as an engine with only ``apply`` shows it: no ``parse``, no ``apply_parsed``."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        if name in ("parse", "apply_parsed"):
            raise AttributeError(name)
        return getattr(self.game, name)


class _Counted(_Hidden):
    """A game of the reference whose ``parse`` is counted."""

    def __init__(self, game: Any, engine: _Engine) -> None:
        super().__init__(game)
        self.engine = engine

    def parse(self, action: Any) -> Any:
        self.engine.parsed += 1
        return self.game.parse(action)

    def apply_parsed(self, seat: int, parsed: Any) -> Any:
        return self.game.apply_parsed(seat, parsed)


class _Engine:
    """The reference, its games wrapped: their parse counted, or hidden."""

    def __init__(self, hide: bool) -> None:
        self.hide, self.parsed = hide, 0

    def start(self, setup: dict[str, Any]) -> Any:
        game = ENGINE.start(setup)
        return _Hidden(game) if self.hide else _Counted(game, self)


@pytest.fixture(scope="module")
def records() -> dict[str, list[dict[str, Any]]]:
    """Records of seeded reference games, a few per game."""
    return {game: [seeded_game(ENGINE, game, seed, levels) for seed in range(3)] for game, levels in LEVELS.items()}


@pytest.mark.parametrize("game", sorted(LEVELS))
def test_apply_is_apply_parsed_of_parse_move_by_move(records: dict[str, list[dict[str, Any]]], game: str) -> None:
    # two games in step: one told each action by apply, the other by apply_parsed of the action parsed once
    # before (and parsed again: parsing changes nothing); odd actions between, refused by both alike
    data = records[game][0]
    setup = check_record(data).setup
    told, parsed = ENGINE.start(setup), ENGINE.start(setup)
    seen: dict[str, Any] = {}
    moves = [m for r in data["rounds"] for m in r["moves"]]
    for number, move in enumerate(moves):
        tries = [(move["seat"], move["action"])]
        if number % 7 == 0:
            tries.insert(0, (move["seat"], ODD[number // 7 % len(ODD)]))
        for seat, action in tries:
            key = json.dumps(action, sort_keys=True)
            read = seen.setdefault(key, parsed.parse(copy.deepcopy(action)))
            assert parsed.parse(action) == read
            assert told.apply(seat, action) == parsed.apply_parsed(seat, read), (game, number, action)
            assert told.state() == parsed.state(), (game, number, action)
    assert told.state()["game_result"] is not None


def test_the_audit_parses_each_action_once_and_judges_as_one_that_parses_at_every_move(
        records: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    games = [copy.deepcopy(g) for gs in records.values() for g in gs]
    for data in games[::2]:  # a server that answers one move of its record otherwise than the rules
        move = next(m for r in data["rounds"] for m in r["moves"][3:] if "refused" in m)
        move["refused"] = "wrong-phase" if move["refused"] != "wrong-phase" else "not-your-turn"
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    counted, hidden = _Engine(hide=False), _Engine(hide=True)
    once = [outcome for outcome, _ in judge_all(lines([str(path)]), counted)]
    each = [outcome for outcome, _ in judge_all(lines([str(path)]), hidden)]
    alone = [audit_record(check_record(g), ENGINE) for g in games]
    assert [o.disagreement for o in once] == [o.disagreement for o in each] == [a.disagreement for a in alone]
    assert [o.outcome for o in once] == ["disagree", "clean"] * (len(games) // 2) + ["disagree"] * (len(games) % 2)
    moves = sum(len(r["moves"]) for g in games for r in g["rounds"])
    distinct = {(g["game"], json.dumps(m["action"], sort_keys=True)) for g in games for r in g["rounds"]
                for m in r["moves"]}
    assert counted.parsed <= len(distinct) < moves / 4  # once per action dict: the decoder shares them

