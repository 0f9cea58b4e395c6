"""The players and play commands: the reference passes; each broken player is caught with the exact finding."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import fake_players as fakes
import pytest

from harness.cli import main
from harness.findings.games import facts
from harness.players.check import check_level
from harness.run.runner import Runner
from harness.spec import gamespec as specs
from harness.suite.fixtures import load_paths
from reference_engine import create, players

TESTS = Path(__file__).parent


@pytest.mark.parametrize("game", ["rummy", "gin-rummy", "president"])
def test_the_reference_easy_players_pass_every_check(game: str) -> None:
    report = check_level(create(), game, "easy", games=2, twin_every=3)
    assert report.finding is None, str(report.finding)
    assert report.games == 2 and report.decisions == len(report.times) > 20 and report.twins > 0


def test_an_illegal_choice_is_found() -> None:
    finding = check_level(fakes.PicksIllegal(), "president", "easy", games=3).finding
    assert finding is not None and (finding.check, finding.decision, finding.moves) == ("illegal-choice", 0, [])
    assert finding.message == ("seat 0's easy player chose {play: [2♣]}, which is not one of the legal actions "
                               "(president.players-choose-legal)")


def test_a_player_that_is_not_deterministic_is_found() -> None:
    finding = check_level(fakes.NotDeterministic(), "president", "easy", games=3).finding
    assert finding is not None and finding.check == "not-deterministic"
    assert finding.message == ("asked twice with the same view and seed, seat 0's easy player chose {play: [6♠]}, "
                               "then {play: [A♦]}")


def test_a_bot_that_peeks_at_a_hidden_hand_is_found_on_a_twin() -> None:
    finding = check_level(fakes.Peeks(), "president", "easy", games=3).finding
    assert finding is not None and finding.check == "twin-differs"
    assert finding.message == ("seat 0's easy player chose {play: [3♣]}, but {play: [J♠]} when only cards it "
                               "cannot see were moved (president.players-use-the-view)")
    assert finding.details[0] == "position: hands.1 4♥ 4♠ 5♣ 5♥ 6♥ 7♥ 8♣ 8♥ 9♠ 10♣ J♣ J♦ J♥ Q♥ K♦ 2♦ 2♥"
    assert finding.details[2].startswith("twin: hands.1 ")
    assert finding.decision == 0 and finding.moves == []


def test_honest_bots_inside_the_engine_pass_the_twins() -> None:
    report = check_level(fakes.SeatBots(), "president", "easy", games=2, twin_every=2)
    assert report.finding is None and report.twins > 10


def test_players_that_never_end_a_round_are_found() -> None:
    finding = check_level(fakes.Stalls(), "rummy", "easy", games=1).finding
    assert finding is not None and finding.check == "round-too-long"
    assert finding.message == ("round 1 is not over after 2000 actions (actions_per_round = 2000): the players never "
                               "end it (rummy.players-choose-legal)")
    assert len(finding.moves) == 2000


def test_a_slow_player_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    bounds = facts("president").spec.data["computer_players"]["bounds"]
    monkeypatch.setitem(bounds, "seconds_per_decision", 0.01)
    finding = check_level(fakes.Slow(), "president", "easy", games=1).finding
    assert finding is not None and finding.check == "too-slow"
    assert finding.message.startswith("seat 0's easy player took ")
    assert finding.message.endswith(" s to decide, more than seconds_per_decision = 0.01")


def test_every_view_follows_its_game_schema() -> None:
    views: list[dict[str, Any]] = []

    class Records(fakes.PlayersEngine):
        def pick(self, view: dict[str, Any]) -> dict[str, Any]:
            views.append(view)
            return players.choose(view)

    for game in ("rummy", "gin-rummy", "president"):
        views.clear()
        assert check_level(Records(), game, "easy", games=1, twin_every=50).finding is None
        validator = specs.validator(f"players/{game}.view.json")
        bad = [e.message for view in views for e in validator.iter_errors(view)]
        assert bad == [] and len(views) > 20
        assert any(v["history"] for v in views)


def test_the_command_reports_times_and_a_replayable_finding(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["players", "--game", "president", "--games", "2"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("players president easy: 2 games, ") and line.endswith("per decision: every check holds")
    assert " median " in line and " p99 " in line
    assert main(["players", "--engine", "fake_players:NotDeterministic", "--game", "president", "--games", "1"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("FOUND not-deterministic in game 1 at decision 1")
    assert out[1] == ("  not-deterministic: asked twice with the same view and seed, seat 0's easy player chose "
                      "{play: [6♠]}, then {play: [A♦]}")
    setup = json.loads(out[3])
    assert setup == {"game": "president", "rule_version": "1.1.0", "options": {"revolution": True, "rounds": 2},
                     "seed": 0, "players": 3}


def test_the_command_says_what_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["players", "--engine", "fake_players:NoPlayers"]) == 2
    assert capsys.readouterr().err.startswith("the engine declares no computer players")
    assert main(["players", "--engine", "fake_players:PlayersEngine", "--game", "rummy", "--level", "hard", "--games", "1"]) == 0
    assert capsys.readouterr().out == ("players rummy hard: skipped, the engine has no hard computer player for rummy "
                                       "(it declares easy)\n")


def test_the_command_passes_over_the_protocol(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS.parent), os.environ.get("PYTHONPATH")])))
    serve = shlex.join([sys.executable, "-m", "harness", "serve"])
    assert main(["players", "--engine-cmd", serve, "--game", "president", "--games", "2"]) == 0
    assert capsys.readouterr().out.startswith("players president easy: 2 games, ")


def written_rounds(record: Path) -> list[dict[str, object]]:
    """The rounds of the record ``play --json`` wrote."""
    return json.loads(record.read_text(encoding="utf-8").splitlines()[0])["rounds"]  # type: ignore[no-any-return]


def test_play_shows_a_whole_president_game_of_rounds(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)  # piped without COLUMNS: one line per event
    record = tmp_path / "game.jsonl"
    assert main(["play", "--game", "president", "--players", "easy,easy,easy,easy", "--seed", "3", "--delay", "0",
                 "--json", str(record)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "President (CardVerse variant) 1.1.0 · seed 3 · seats 0: easy, 1: easy, 2: easy, 3: easy"
    assert out[1:3] == ["round 1", "  seat 0 (easy) holds 3♥ 6♣ 7♦ 8♣ 9♣ 9♠ J♠ K♥ A♣ A♦ A♠ 2♦ 2♠"]
    assert out[6] == "  seat 0 (easy) plays 3♥"  # the lowest rank it holds, all of it (president.easy-lowest-lead)
    assert [line[:20] for line in out if line.startswith(("round ", "  scores", "game over")) and "holds" not in line] == [
        "round 1", "round 1 over: seat 0", "  scores: seat 0 (ea", "round 2", "round 2 over: seat 3",
        "  scores: seat 0 (ea", "round 3", "round 3 over: seat 3", "  scores: seat 0 (ea", "game over: seat 3 (e"]
    assert len(written_rounds(record)) == 3  # a series (--rounds, default 3): the exchange opens rounds 2 and 3
    assert out[-1].startswith(f"wrote {record} (")
    moves = [line for line in out if line.startswith("  seat ") and "(easy) " in line and "holds" not in line]
    lines = record.read_text(encoding="utf-8").splitlines()
    written = json.loads(lines[0])
    assert len(lines) == 1 and written["record"] == "cardverse-game/1" and written["seed"] == 3
    assert sum(len(r["moves"]) for r in written["rounds"]) == len(moves)
    assert written["game_result"]["finishing_order"] == written["rounds"][-1]["result"]["finishing_order"]
    assert main(["play", "--game", "president", "--replay", str(record), "--delay", "0"]) == 0
    replayed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  seat ") and "(easy) " in line and "holds" not in line]
    assert [m.replace("(easy)", "") for m in moves] == [m.replace("(easy)", "") for m in replayed]


def test_play_writes_a_fixture_for_a_difference_with_the_reference(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    assert main(["play", "--engine", "fake_players:WrongTieBreak", "--game", "rummy", "--seed", "3", "--delay", "0",
                 "--fixture-out", str(tmp_path)]) == 1
    written = sorted(tmp_path.glob("*.yaml"))
    assert len(written) == 1 and written[0].name.startswith("rummy.players.found-easy-seed3-move")
    loaded = load_paths(written)
    assert loaded.errors == []
    scenario = loaded.scenarios[0]
    assert Runner(create()).run(scenario).outcome == "pass"
    failed = Runner(fakes.WrongTieBreak()).run(scenario)
    assert failed.outcome == "fail" and "but must choose {discard: " in failed.message
    assert "the reference's easy player would choose" in capsys.readouterr().out


def test_play_says_what_is_wrong_with_its_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "president", "--players", "easy,easy"]) == 2
    assert capsys.readouterr().err == "--players gives 2 seats; president is for 3 to 6 players\n"
    assert main(["play", "--game", "president", "--players", "easy,smart,easy"]) == 2
    assert capsys.readouterr().err == "--players 'easy,smart,easy': 'smart' is not a level; use easy, normal or hard, one per seat\n"
    assert main(["play", "--game", "president", "--players", "easy,nromal,easy"]) == 2
    assert capsys.readouterr().err == ("--players 'easy,nromal,easy': 'nromal' is not a level (did you mean normal?); "
                                       "use easy, normal or hard, one per seat\n")
    with pytest.raises(SystemExit) as exited:
        main(["players", "--level", "hrad"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith("argument --level: unknown level 'hrad' (did you mean hard?); "
                                            "the known ones: easy, hard, normal\n")
    assert main(["play", "--engine", "fake_players:PlayersEngine", "--game", "rummy", "--players", "hard,easy"]) == 2
    assert capsys.readouterr().err == ("the engine has no hard computer player for rummy (it declares easy); "
                                       "seat other levels with --players\n")


def test_bots_inside_a_server_are_asked_with_choose_seat_over_http() -> None:
    import threading

    from harness.adapters.http import http_engine
    from harness.serve.http import http_server

    for engine, expected in ((fakes.SeatBots(), None), (fakes.Peeks(), "twin-differs")):
        server = http_server(engine)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            with http_engine(f"http://127.0.0.1:{server.server_address[1]}/") as remote:
                report = check_level(remote, "president", "easy", games=1, twin_every=5)
        finally:
            server.shutdown()
            server.server_close()
            thread.join()
        assert (report.finding.check if report.finding else None) == expected
        assert report.decisions > 20


def test_a_president_give_is_seen_by_the_two_seats_of_that_exchange_only() -> None:
    from harness.adapters.player_view import History

    history = History("president")
    before = {"round": 2, "round_results": [{"titles": ["president", "vice-president", "vice-scum", "scum"]}]}
    history.record(0, {"give": ["3D", "4D"]}, before)
    history.record(1, {"give": ["5D"]}, before)
    history.record(3, {"play": ["6C"]}, before)
    assert [h["seat"] for h in history.seen_by(3, 2)] == [0, 3]
    assert [h["seat"] for h in history.seen_by(2, 2)] == [1, 3]
    assert [h["seat"] for h in history.seen_by(1, 2)] == [1, 3]
    assert history.seen_by(0, 1) == []  # another round's history is not shown


def test_play_counts_the_moves_of_each_round_apart(capsys: pytest.CaptureFixture[str]) -> None:
    # 28 rounds of about 80 moves: more than the bound per round (2000) in all, never in one round
    assert main(["play", "--game", "rummy", "--players", "easy,easy", "--seed", "0", "--delay", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("game over: seat ") and " wins; final scores seat 0 (easy) " in out[-1]
