"""Game records (spec/records.md): the schema and its game-file checks, the writer, and `play --json` / `--replay`."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from harness.audit.sample import seeded_game
from harness.cli import main
from harness.records.record import FORMAT, RecordError, check_record, parse_record
from reference_engine import create

ENGINE = create()


@pytest.fixture(scope="module")
def gin() -> dict[str, Any]:
    """The record of one seeded Gin Rummy match between easy players, refusals included."""
    return seeded_game(ENGINE, "gin-rummy", 3, ["easy", "easy"])


def test_a_written_record_follows_the_schema_and_holds_the_whole_game(gin: dict[str, Any]) -> None:
    record = parse_record(json.dumps(gin))
    assert record.data["record"] == FORMAT and record.setup["seed"] == 3 and record.players == 2
    assert len(record.rounds) > 1
    # what was recorded is there: every round's result and scores, the game's result, some refusals
    assert all("result" in r and "scores" in r for r in record.rounds)
    assert record.data["game_result"]["scores"][record.data["game_result"]["winner"]] >= 100
    refused = [m for r in record.rounds for m in r["moves"] if "refused" in m]
    assert refused and all(isinstance(m["refused"], str) for m in refused)
    # the round numbers the server announced follow one another
    assert [r["result"]["round"] for r in record.rounds] == list(range(1, len(record.rounds) + 1))


def broken(gin: dict[str, Any], change: Any) -> str:
    """The RecordError message for ``gin`` changed by ``change(data)``."""
    data = copy.deepcopy(gin)
    change(data)
    with pytest.raises(RecordError) as raised:
        check_record(data)
    parse_record(json.dumps(gin))  # the decoder's caches hold every move of the record as it was
    with pytest.raises(RecordError) as read:  # and the line read by the typed decoder says the same
        parse_record(json.dumps(data))
    assert str(read.value) == str(raised.value)
    return str(raised.value)


def test_records_that_cannot_be_audited_say_where_and_why(gin: dict[str, Any]) -> None:
    assert broken(gin, lambda d: d.pop("rounds")).startswith("$: ")
    assert "'rounds'" in broken(gin, lambda d: d.pop("rounds"))
    assert broken(gin, lambda d: d.update(game="poker")).startswith("$.game: unknown game 'poker'")
    assert broken(gin, lambda d: d.update(rule_version="9.0.0")).startswith("$.rule_version: gin-rummy has no rule version 9.0.0")
    assert broken(gin, lambda d: d["seats"].append({})).startswith("$.seats: 3 seats; gin-rummy is for 2 to 2")
    assert broken(gin, lambda d: d["rounds"][0]["moves"][2].update(seat=5)).startswith("$.rounds[0].moves[2].seat: seat 5")
    assert broken(gin, lambda d: d["rounds"][0]["moves"][2].update(action="draw")).startswith(
        "$.rounds[0].moves[2].action: ")
    assert broken(gin, lambda d: d["options"].update(jokers=True)).startswith("$.options.jokers: gin-rummy 1.0.0 has no option")
    assert "no deal" in broken(gin, lambda d: d.pop("seed"))
    assert "cut short" in broken(gin, lambda d: d.pop("game_result"))
    assert "cut short" in broken(gin, lambda d: d["rounds"][-1].pop("result"))
    assert "is not a reason code" in broken(gin, lambda d: next(
        m for m in d["rounds"][0]["moves"] if "refused" in m).update(refused="nope"))
    with pytest.raises(RecordError, match=r"^\$: not JSON"):
        parse_record('{"record": ')


def test_each_round_check_names_the_first_round_and_move_that_breaks_it(gin: dict[str, Any]) -> None:
    # the checks run over the whole record at once and round by round only when one fails: the words are the same
    later = len(gin["rounds"]) - 1
    moves = gin["rounds"][later]["moves"]
    refused = next(i for i, m in enumerate(moves) if "refused" in m)
    plain = next(i for i, m in enumerate(moves) if "refused" not in m)
    at = f"$.rounds[{later}].moves"
    cases = {
        f"{at}[{plain}].seat: seat 2 in a game of 2 seats (0 to 1)": lambda d: d["rounds"][later]["moves"][plain].update(seat=2),
        f"{at}[{refused}].refused: 'nope' is not a reason code of gin-rummy":
            lambda d: d["rounds"][later]["moves"][refused].update(refused="nope"),
        "$.rounds[0].moves[0].refused: a refusal in a record whose `recorded` does not name refusals":
            lambda d: (d["recorded"].remove("refusals"), d["rounds"][0]["moves"][0].update(refused=True)),
        f"{at}[{refused}].refused: false is no refusal: give the server's reason code (or true when reasons are "
        "not recorded), or leave refused out of a move it accepted":
            lambda d: d["rounds"][later]["moves"][refused].update(refused=False),
        f"{at}[{plain}].state: a state in a record whose `recorded` does not name states":
            lambda d: d["rounds"][later]["moves"][plain].update(state={"phase": "draw"}),
        "$.rounds[0].result: a result in a record whose `recorded` does not name round_results":
            lambda d: d["recorded"].remove("round_results"),
        "$.rounds[0].scores: a scores in a record whose `recorded` does not name scores": lambda d: d["recorded"].remove("scores"),
        "$.rounds[1].scores: missing, though `recorded` names scores": lambda d: d["rounds"][1].pop("scores"),
        f"$.rounds[{later}].scores: 3 scores for 2 seats": lambda d: d["rounds"][later]["scores"].append(0),
    }
    for words, change in cases.items():
        assert broken(gin, change) == words
    unfinished = copy.deepcopy(gin)  # an unfinished game may stop before its last round's result, not before another's
    unfinished.pop("game_result"), unfinished["rounds"][-1].pop("result"), unfinished["rounds"][-1].pop("scores")
    unfinished["unfinished"] = True
    assert check_record(unfinished).rounds[-1]["moves"] == moves
    unfinished["rounds"][0].pop("result")
    with pytest.raises(RecordError, match=r"^\$\.rounds\[0\]\.result: missing, though `recorded` names round_results$"):
        check_record(unfinished)


def test_a_record_of_explicit_deals_is_dealt_from_them() -> None:
    layout = {"dealer": 0, "hands": [["2C", "3C", "4C", "5H", "6H", "7H", "8S", "9S", "TS", "KD"],
                                     ["2D", "3D", "4D", "5S", "6S", "7S", "8H", "9H", "TH", "KC"]],
              "discard": ["QS"], "stock": ["AC", "AD"]}
    data = {"record": FORMAT, "game": "gin-rummy", "rule_version": "1.0.0", "seats": [{}, {}], "recorded": [],
            "rounds": [{"deal": layout, "moves": [{"seat": 1, "action": {"pass": True}}]}], "unfinished": True}
    record = check_record(data)
    assert record.setup["layout"]["hands"][0][0] == "2C" and len(record.setup["layout"]["stock"]) == 52 - 21
    game = ENGINE.start(record.setup)
    assert game.apply(1, {"pass": True}) is None
    twice = copy.deepcopy(data)
    twice["rounds"][0]["deal"]["stock"] = ["AC", "2C"]
    with pytest.raises(RecordError, match="a card dealt twice"):
        check_record(twice)


def test_play_writes_a_record_and_replays_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    assert main(["play", "--game", "gin-rummy", "--seed", "5", "--delay", "0", "--json", str(path)]) == 0
    shown = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  seat ") and "holds" not in line]
    record = parse_record(path.read_text(encoding="utf-8"))
    assert record.data["server"]["name"] == "cardverse-reference" and record.data["seats"] == [{"level": "easy"}] * 2
    assert sum(len(r["moves"]) for r in record.rounds) == len(shown)
    assert main(["play", "--game", "gin-rummy", "--replay", str(path), "--delay", "0"]) == 0
    replayed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  seat ") and "holds" not in line]
    assert replayed == shown


def test_replay_shows_refusals_and_reads_the_older_files(gin: dict[str, Any], tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "refusals.jsonl"
    path.write_text(json.dumps(gin) + "\n", encoding="utf-8")
    assert main(["play", "--game", "gin-rummy", "--replay", str(path), "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert ": refused (" in out and "game over: " in out  # the refusals shown, and the end of the game as it was played
    older = tmp_path / "older.jsonl"
    moves = [m for m in gin["rounds"][0]["moves"] if "refused" not in m][:6]
    older.write_text("\n".join([json.dumps({"game": "gin-rummy", "rule_version": "1.0.0", "options": gin["options"],
                                            "seed": 3, "players": 2})] + [json.dumps(m) for m in moves]) + "\n")
    assert main(["play", "--game", "gin-rummy", "--replay", str(older), "--delay", "0"]) == 0
    told = capsys.readouterr().out.splitlines()
    assert len([line for line in told if line.startswith("  seat ") and " holds " not in line]) == 6  # a line a move
    older.write_text('{"game": "gin-rummy"}\nnot json\n')
    assert main(["play", "--game", "gin-rummy", "--replay", str(older), "--delay", "0"]) == 2
    assert capsys.readouterr().err.startswith(f"cannot read {older}: ")
