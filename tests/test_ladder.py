"""The ladder: its sequential test, its verdicts on players of known strength, its usage errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from ladder_players import tally

from harness.cli import main
from harness.ladder.contestants import ContestantError, parse_contestant
from harness.ladder.deals import Table, seatings
from harness.ladder.ladder import NOT_STRONGER, STRONGER, UNDECIDED, run_ladder
from harness.ladder.sprt import (
    ACCEPT_H0,
    ACCEPT_H1,
    Bounds,
    decide,
    expected_score,
    llr,
)

RANDOM = "ladder_players:random_player"


def test_the_llr_is_the_gsprt_normal_approximation() -> None:
    scores = tally([1.0] * 30 + [0.0] * 20 + [0.5] * 50)
    s0, s1 = expected_score(0), expected_score(20)
    mean = 0.55
    spread = (31 * 1 + 50 * 0.25) / 102 - (31 + 25) ** 2 / 102 ** 2  # one more win and loss
    assert math.isclose(llr(scores, Bounds()), 100 * (s1 - s0) * (2 * mean - s0 - s1) / (2 * spread))


def test_the_test_accepts_h1_h0_or_waits() -> None:
    assert decide(tally([1.0] * 140 + [0.0] * 60), Bounds(), 200) == ACCEPT_H1
    assert decide(tally([1.0] * 60 + [0.0] * 140), Bounds(), 200) == ACCEPT_H0
    assert decide(tally([1.0] * 11 + [0.0] * 9), Bounds(), 20) is None


def test_a_few_decisive_deals_among_levels_decide_nothing() -> None:
    # 19 wins and no loss among 200 level deals: a large LLR on too few deals that count.
    scores = tally([1.0] * 19 + [0.5] * 200)
    assert llr(scores, Bounds()) > Bounds().upper
    assert decide(scores, Bounds(), 19) is None


def test_deals_that_are_all_won_accept_h1_and_all_level_accept_h0() -> None:
    assert decide(tally([1.0] * 25), Bounds(), 25) == ACCEPT_H1
    assert decide(tally([0.5] * 500), Bounds(), 0) == ACCEPT_H0  # equal players: no difference shown
    assert decide(tally([0.5] * 10), Bounds(), 0) is None  # but not on a handful of deals


def test_a_ladder_of_equal_players_stops_well_before_the_cap_with_no_difference_shown(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--game", "rummy", "easy", "easy"]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    deals = int(first.split(" deals ")[0].rsplit(" ", 1)[1])
    assert deals < 200
    assert first.endswith(": no difference shown (H0 accepted: easy is at most 0 Elo stronger than easy)")


def test_the_interval_is_the_mean_s_normal_95_percent_interval() -> None:
    low, high = tally([1.0, 3.0, 5.0]).interval()
    assert math.isclose(high - 3.0, 1.959963984540054 * 2.0 / math.sqrt(3))
    assert math.isclose(3.0 - low, high - 3.0)


def test_seatings_exchange_the_seats_or_rotate_a_round_the_table() -> None:
    assert seatings(2) == [["A", "B"], ["B", "A"]]
    assert seatings(3) == [["A", "B", "B"], ["B", "A", "B"], ["B", "B", "A"]]


def gin_table(seed: int = 0) -> Table:
    return Table("gin-rummy", "1.0.0", {"knock_limit": 10, "gin_bonus": 25, "undercut_bonus": 25, "target": 100,
                                        "game_bonus": 0, "box_bonus": 0}, 2, seed)


def test_a_random_player_against_itself_is_not_declared_stronger() -> None:
    me = parse_contestant(RANDOM)
    result = run_ladder(gin_table(), me, me, Bounds(), cap=40)
    assert result.verdict in (NOT_STRONGER, UNDECIDED)


def test_a_random_player_loses_to_easy_and_easy_beats_it() -> None:
    easy, chance = parse_contestant("easy"), parse_contestant(RANDOM)
    beaten = run_ladder(gin_table(), chance, easy, Bounds(), cap=60)
    assert beaten.verdict == NOT_STRONGER and beaten.points.mean < 0
    assert run_ladder(gin_table(), easy, chance, Bounds(), cap=60).verdict == STRONGER


def test_a_game_with_nobody_able_to_act_is_recorded_as_such() -> None:
    """An engine that gives the lead to a seat gone out (P-6.2 says the next seat still in) leaves a game not over
    with nobody able to act: its record says no-move, the word `audit` judges (where the rules go on)."""
    from harness.ladder.deals import play_deal
    from harness.mutants.catalogue import engine as mutant

    table = Table("president", "1.1.0", {"revolution": True, "rounds": 1}, 4, 0, records=True)
    easy = parse_contestant("easy")
    deal = play_deal(mutant("president.lead-to-finished-seat"), table, 0, lambda who: (easy.build("president"), "easy"))
    assert [json.loads(line).get("unfinished") for line in deal.records] == ["no-move"] * 4


def test_a_deterministic_player_against_itself_plays_level_deals() -> None:
    easy = parse_contestant("easy")
    result = run_ladder(gin_table(), easy, easy, Bounds(), cap=15)
    assert (result.verdict, result.draws, result.points.mean) == (UNDECIDED, 15, 0.0)


def test_the_verdict_does_not_depend_on_the_number_of_workers() -> None:
    me = parse_contestant(RANDOM)
    one = run_ladder(gin_table(3), me, me, Bounds(), cap=12, jobs=1).record()
    two = run_ladder(gin_table(3), me, me, Bounds(), cap=12, jobs=2).record()
    del one["seconds"], two["seconds"]
    assert one == two


def test_a_plugged_in_engine_s_players_take_part(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--game", "gin-rummy", "engine:easy", RANDOM, "--cap", "40"]) == 0
    assert ": A stronger (H1 accepted: " in capsys.readouterr().out.splitlines()[0]


def test_an_engine_without_players_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--game", "gin-rummy", "engine:easy", "easy", "--engine", "fake_players:NoPlayers"]) == 2
    assert capsys.readouterr().err == ("player 'engine:easy': the engine declares no computer players for gin-rummy\n")


def test_contestant_names() -> None:
    assert parse_contestant("hard").kind == "reference"
    assert parse_contestant("engine:normal").level == "normal"
    with pytest.raises(ContestantError, match=r"^player 'engine:expert': after engine: name a level \(easy, normal, hard\)$"):
        parse_contestant("engine:expert")
    with pytest.raises(ContestantError, match="^player 'expert': write a level"):
        parse_contestant("expert")


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "chess", "easy", "easy"], "unknown game 'chess'; the spec has"),
    (["--game", "gin-rummy", "--players", "3", "easy", "easy"], "--players 3: gin-rummy is played by 2 to 2"),
    (["--game", "rummy", "--cap", "0", "easy", "easy"], "--cap 0: give at least 1 deal"),
    (["--game", "rummy", "--elo1", "0", "easy", "easy"], "--elo1 0 must be above --elo0 0"),
    (["--game", "rummy", "easy", "grandmaster"], "player 'grandmaster': write a level"),
    (["--game", "rummy", RANDOM, "ladder_players:nobody"], "player 'ladder_players:nobody': cannot load ladder_players:nobody"),
])
def test_usage_errors_exit_2_with_what_to_do(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", *argv]) == 2
    assert capsys.readouterr().err.startswith(message)


def test_the_command_prints_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ladder.json"
    code = main(["ladder", "--game", "gin-rummy", RANDOM, RANDOM, "--cap", "10", "--json", str(out)])
    record = json.loads(out.read_text())
    assert code == (0 if record["verdict"] == STRONGER else 1)
    assert record["deals"] == 10 and record["games"] == 20 and record["verdict"] == UNDECIDED
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"gin-rummy: {RANDOM} vs {RANDOM}, 10 deals (20 games) in ")
    assert first.endswith(": undecided at the cap (neither hypothesis accepted: more deals (--cap) would tell)")
