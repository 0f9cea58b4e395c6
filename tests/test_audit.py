"""`audit`: records of reference games are clean; a server's mistakes are found at their move; broken records are counted."""

from __future__ import annotations

import copy
import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest

from harness.audit.campaign import judge_all
from harness.audit.judge import audit_record
from harness.audit.sample import seeded_game
from harness.cli import main
from harness.records.record import check_record
from harness.records.stream import lines
from reference_engine import create

ENGINE = create()
LEVELS = {"gin-rummy": ["easy", "normal"], "rummy": ["easy", "easy", "easy"], "president": ["easy"] * 4}


@pytest.fixture(scope="module")
def records() -> dict[str, list[dict[str, Any]]]:
    """Records of seeded reference games, a few per game."""
    return {game: [seeded_game(ENGINE, game, seed, levels) for seed in range(3)] for game, levels in LEVELS.items()}


def write(path: Path, games: list[Any]) -> Path:
    """``games`` as JSON lines (a str is written as it is), gzip-compressed for a .gz name."""
    text = "".join((g if isinstance(g, str) else json.dumps(g)) + "\n" for g in games)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_records_of_reference_games_audit_clean(records: dict[str, list[dict[str, Any]]], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    for game, games in records.items():
        for data in games:
            assert audit_record(check_record(data), ENGINE).clean, (game, data["seed"])
    path = write(tmp_path / "games.jsonl.gz", [g for games in records.values() for g in games])
    assert main(["audit", str(path)]) == 0
    out = capsys.readouterr().out
    hands = sum(len(g["rounds"]) for games in records.values() for g in games)
    assert out.startswith(f"audit: 9 games, {hands} hands, ") and ": 9 clean, 0 disagree" in out


def test_a_server_that_logs_less_is_audited_for_what_it_logged(records: dict[str, list[dict[str, Any]]]) -> None:
    data = copy.deepcopy(records["gin-rummy"][0])
    data["recorded"] = ["game_result"]  # only the moves it accepted, and the end scores
    for round_ in data["rounds"]:
        round_["moves"] = [m for m in round_["moves"] if "refused" not in m]
        round_.pop("result"), round_.pop("scores")
    assert audit_record(check_record(data), ENGINE).clean
    data["game_result"]["scores"][0] += 1
    found = audit_record(check_record(data), ENGINE).disagreement
    assert found is not None and found.kind == "game-result" and found.clause == "gin-rummy.match-end"


def test_a_wrong_decision_is_found_at_its_move(records: dict[str, list[dict[str, Any]]]) -> None:
    data = copy.deepcopy(records["gin-rummy"][1])
    moves = data["rounds"][0]["moves"]
    index = next(i for i, m in enumerate(moves) if "refused" in m and m["refused"] == "not-your-turn")
    moves[index].pop("refused")  # the server says it accepted a move out of turn
    found = audit_record(check_record(data), ENGINE).disagreement
    assert found is not None and (found.kind, found.move, found.round) == ("decision", index + 1, 1)
    assert found.server == "accepted it" and found.rules == "refused it (not-your-turn)"
    moves[index]["refused"] = "wrong-phase"  # refused, for another reason than the rules'
    found = audit_record(check_record(data), ENGINE).disagreement
    assert found is not None and found.move == index + 1 and found.server == "refused it (wrong-phase)"
    data["recorded"].remove("reasons")  # a server that logs no reasons: a refusal is all there is to check
    moves[index]["refused"] = True
    for m in (m for r in data["rounds"] for m in r["moves"] if "refused" in m):
        m["refused"] = True
    assert audit_record(check_record(data), ENGINE).clean


@pytest.mark.parametrize(("game", "clause"), [("gin-rummy", "gin-rummy.discard"), ("rummy", "rummy.discard-ends-turn")])
def test_a_second_discard_accepted_is_charged_to_the_turn_not_to_a_rule_noted_before(
        records: dict[str, list[dict[str, Any]]], game: str, clause: str) -> None:
    # A seat discards again after its discard (the record's retry), and the server takes it. The rules moved
    # the turn on at the discard, where their trace notes no rule for the phase or the turn: the clause is the
    # one the action's kind names (R-2.3, G-2.2), never one the trace noted for other values (the hand's end)
    # or earlier (the upcard offer, the round's first seat).
    data = copy.deepcopy(records[game][0])
    moves = [m for r in data["rounds"] for m in r["moves"]]
    again = next(m for m in moves if m.get("refused") == "not-your-turn" and "discard" in m["action"])
    again.pop("refused")
    found = audit_record(check_record(data), ENGINE).disagreement
    assert found is not None and found.rules == "refused it (not-your-turn)" and found.clause == clause, found


def test_each_way_of_logging_refusals_is_judged_at_its_move(records: dict[str, list[dict[str, Any]]]) -> None:
    # every refusal with its reason, some without one, none with one: the fast pass compares each its own way
    for way in ("all reasons", "some reasons", "no reasons"):
        data = copy.deepcopy(records["rummy"][1])
        refused = [m for r in data["rounds"] for m in r["moves"] if "refused" in m]
        if way == "no reasons":
            data["recorded"].remove("reasons")
        for m in refused[: len(refused) if way == "no reasons" else 1 if way == "some reasons" else 0]:
            m["refused"] = True  # a refusal with no reason: any reason the rules give agrees with it
        assert audit_record(check_record(data), ENGINE).clean, way
        last = data["rounds"][-1]["moves"]  # a move the rules accept, in the middle of the last round
        index = next(i for i in range(len(last) // 2, len(last)) if "refused" not in last[i])
        number = sum(len(r["moves"]) for r in data["rounds"][:-1]) + index + 1
        last[index]["refused"] = True if way == "no reasons" else "not-your-turn"
        found = audit_record(check_record(data), ENGINE).disagreement
        assert found is not None and (found.kind, found.move, found.round) == ("decision", number, len(data["rounds"]))
        assert found.server.startswith("refused it") and found.rules == "accepted it", way
        if way != "no reasons":  # a refusal for another reason than the rules': found too, where reasons are kept
            del last[index]["refused"]
            at = next(i for i, m in enumerate(last) if isinstance(m.get("refused"), str))
            wrong = last[at]
            wrong["refused"] = "wrong-phase" if wrong["refused"] != "wrong-phase" else "not-your-turn"
            at += sum(len(r["moves"]) for r in data["rounds"][:-1]) + 1
            found = audit_record(check_record(data), ENGINE).disagreement
            assert found is not None and (found.kind, found.move) == ("decision", at), way
            assert found.server == f"refused it ({wrong['refused']})" and found.rules.startswith("refused it ("), way


def test_a_recorded_state_is_compared(records: dict[str, list[dict[str, Any]]]) -> None:
    data = copy.deepcopy(records["rummy"][0])
    data["recorded"].append("states")
    data["rounds"][0]["moves"][0]["state"] = {"phase": "play", "hand_sizes": [11, 10, 10]}
    assert audit_record(check_record(data), ENGINE).clean
    data["rounds"][0]["moves"][0]["state"]["hand_sizes"] = [10, 10, 10]
    found = audit_record(check_record(data), ENGINE).disagreement
    assert found is not None and (found.kind, found.move) == ("state", 1) and "hand_sizes: [10, 10, 10]" in found.server


def test_broken_records_of_every_kind_are_counted_and_reported(records: dict[str, list[dict[str, Any]]], tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    good = records["gin-rummy"][0]
    wrong_game = dict(good, game="poker")
    impossible = copy.deepcopy(good)
    impossible["rounds"][0]["moves"][0]["seat"] = 2  # a seat a two-player game does not have
    no_deal = {k: v for k, v in good.items() if k != "seed"}
    cut = {k: v for k, v in good.items() if k != "game_result"}
    plain = write(tmp_path / "games.jsonl", [good, "{not json", wrong_game, impossible, no_deal, cut,
                                             json.dumps(good)[:300], good])
    truncated = tmp_path / "cut.jsonl.gz"
    truncated.write_bytes(gzip.compress((json.dumps(good) + "\n").encode() * 3)[:-400])
    zst = tmp_path / "games.jsonl.zst"
    zst.write_bytes(b"\x28\xb5\x2f\xfd" + b"\0" * 20)
    binary = tmp_path / "latin1.jsonl"
    binary.write_bytes(b'{"caf\xe9": 1}\n')
    code = main(["audit", str(plain), str(truncated), str(tmp_path / "missing.jsonl"), str(zst), str(binary),
                 "--json", str(tmp_path / "a.jsonl"), "--junit", str(tmp_path / "a.xml")])
    out = capsys.readouterr().out
    assert code == 1 and "Traceback" not in out
    said = out.splitlines()
    assert f"{plain}:2: $: not JSON" in said[0]
    assert said[1].startswith(f"{plain}:3: $.game: unknown game 'poker'")
    assert said[2].startswith(f"{plain}:4: $.rounds[0].moves[0].seat: seat 2 in a game of 2 seats")
    assert said[3].startswith(f"{plain}:5: $.rounds[0]: no deal")
    assert said[4].startswith(f"{plain}:6: $.game_result: missing") and "cut short" in said[4]
    assert said[5].startswith(f"{plain}:7: $: not JSON")
    assert said[6].startswith(f"{truncated}:") and "stops in the middle of its compressed data" in said[6]
    assert said[7].startswith(f"{tmp_path / 'missing.jsonl'}:0: cannot open it: ")
    zstd_installed = _has("zstandard")
    assert said[8].startswith(f"{zst}:") and ("zstd" in said[8]) and (zstd_installed or "pip install" in said[8])
    assert said[9].startswith(f"{binary}:1: not UTF-8 text")
    summary = out[out.index("audit: "):]
    assert summary.startswith("audit: 2 games, ") and ": 2 clean, 0 disagree with the rules, 10 records unreadable" in summary
    # without zstandard the .zst file cannot be opened at all; with it, its broken frame stops the reading
    cut, unopened = (3, 1) if zstd_installed else (2, 2)
    assert f"cut-short {cut}" in summary and f"unreadable-file {unopened}" in summary
    assert "unknown-game 1" in summary and "no-deal 1" in summary
    reported = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert reported[-1]["summary"]["unreadable"] == 10 and len(reported) == 1 + 12 + 1
    assert (tmp_path / "a.xml").read_text().count("<error ") == 10


def _has(module: str) -> bool:
    """Whether ``module`` can be imported."""
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def test_standard_input_is_read_as_a_stream(records: dict[str, list[dict[str, Any]]]) -> None:
    text = "".join(json.dumps(g) + "\n" for g in records["president"])
    stdin = io.BytesIO(gzip.compress(text.encode()))
    outcomes = [o for o, _ in judge_all(lines(["-"], stdin), ENGINE)]
    assert [(o.source, o.line, o.outcome) for o in outcomes] == [("-", n, "clean") for n in (1, 2, 3)]
    blanks = text.replace("\n", "\n \t\r\n\n", 1).encode()  # blank lines are skipped, and counted
    read = list(lines(["-"], io.BytesIO(blanks + b"\x0b\x0c")))
    assert [(line.number, line.text[:1]) for line in read] == [(1, "{"), (4, "{"), (5, "{")]


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "-", "-"]) == 2
    assert "standard input (-) can be read only once" in capsys.readouterr().err
    assert main(["audit", "x.jsonl", "--json", str(tmp_path / "no" / "a.jsonl")]) == 2
    assert capsys.readouterr().err.startswith(f"cannot write {tmp_path / 'no' / 'a.jsonl'}: ")


def test_zstd_files_are_read_when_zstandard_is_installed(records: dict[str, list[dict[str, Any]]],
                                                         tmp_path: Path) -> None:
    zstandard = pytest.importorskip("zstandard", reason="the zstd extra: pip install -e '.[zstd]'")
    text = "".join(json.dumps(g) + "\n" for g in records["rummy"])
    path = tmp_path / "games.jsonl.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(text.encode()))
    outcomes = [o for o, _ in judge_all(lines([str(path)]), ENGINE)]
    assert [(o.line, o.outcome) for o in outcomes] == [(1, "clean"), (2, "clean"), (3, "clean")]


def test_records_of_every_bundled_fixtures_game_audit_clean() -> None:
    """Each bundled fixture's actions, with the answers its author took from the rule text, written as a record
    of a server that logged its decisions: the reference agrees with every one."""
    from harness.findings.games import facts
    from harness.records.record import FORMAT
    from harness.spec.paths import fixtures_dir
    from harness.suite.fixtures import load_paths
    from harness.suite.patterns import meld_index, names_meld_by_cards

    loaded = load_paths([fixtures_dir()])
    assert loaded.errors == []
    audited = 0
    for scenario in loaded.scenarios:
        if scenario.later_layouts or not any(s.action for s in scenario.steps):
            continue  # where the later rounds start is not written in a fixture
        moves: list[dict[str, Any]] = []
        game = ENGINE.start({"game": scenario.game, "rule_version": facts(scenario.game).spec.rule_version,
                             "options": {**facts(scenario.game).spec.option_defaults, **scenario.options},
                             **({"seed": scenario.layout["seed"], "players": scenario.players}
                                if "seed" in scenario.layout else {"layout": scenario.layout, "later_layouts": []})})
        for step in (s for s in scenario.steps if s.action is not None):
            action = step.action
            if names_meld_by_cards(action):  # the fixture's notation: the meld by its cards; a record gives its index
                action = {**action, "onto": meld_index(game.state()["melds"], action["onto"])}
            game.apply(step.seat, action)
            moves.append({"seat": step.seat, "action": action, **(
                {"refused": step.reasons[0] if len(step.reasons) == 1 else True} if step.expect == "refused" else {})})
        data: dict[str, Any] = {"record": FORMAT, "id": scenario.id, "game": scenario.game,
                                "rule_version": facts(scenario.game).spec.rule_version, "options": scenario.options,
                                "seats": [{} for _ in range(scenario.players)], "recorded": ["refusals", "reasons"],
                                "rounds": [{"moves": moves}], "unfinished": True}
        if "seed" in scenario.layout:
            data["seed"] = scenario.layout["seed"]
        else:
            data["rounds"][0]["deal"] = scenario.layout
        found = audit_record(check_record(data), ENGINE).disagreement
        assert found is None, f"{scenario.file}: {found.words() if found else ''}"
        audited += 1
    assert audited > 150


def test_the_fast_pass_view_is_the_state_views_part(records: dict[str, list[dict[str, Any]]]) -> None:
    # the fast pass reads outcome() where the exact pass reads state(): they must agree at every move
    for game, games in records.items():
        data = games[0]
        play = ENGINE.start(check_record(data).setup)
        seen = 0
        for round_ in data["rounds"]:
            for move in round_["moves"]:
                play.apply(move["seat"], move["action"])
                state = play.state()
                assert play.outcome() == {k: state[k] for k in ("scores", "round_results", "game_result")}, game
                seen += state["game_result"] is not None
        assert seen == 1, game  # the record plays to the game's end, so the result was compared too
