"""Fuzz plays matches: seeded games dealt by the engine round after round, later rounds and match ends reached, and said."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from harness.findings.clauses import divergence_clause
from harness.findings.games import facts
from harness.findings.model import Setup
from harness.fuzzing.campaign import FuzzOptions, as_layouts, fuzz
from harness.fuzzing.reach import GameReach, Reach
from harness.fuzzing.recording import recording
from harness.fuzzing.seeded_rounds import dealt, later_rounds, misdealt, shuffled_decks
from harness.fuzzing.setups import MATCH_LENGTH
from harness.mutants.catalogue import BY_ID
from harness.mutants.catalogue import engine as mutant
from harness.records.record import server_of
from reference_engine import create

MATCHES = [("rummy", 2, {"target": 500}), ("rummy", 3, {"target": 500}), ("gin-rummy", 2, {"target": 500}),
           ("president", 3, {"rounds": 4}), ("president", 5, {"rounds": 4})]


def seeded(game: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """A seeded setup of ``game``."""
    return {"game": game, "rule_version": facts(game).spec.rule_version, "options": options, "seed": seed,
            "players": players}


def rounds_played(setup: dict[str, Any], rounds: int, moves_seed: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The reference's views at the start of each round of a game played by random legal moves, up to ``rounds``
    rounds (a Rummy seat prefers to meld or lay off, so that rounds end), with each view's action before it."""
    rng = random.Random(moves_seed)
    game = create().start(setup)
    view, starts, played = game.state(), [], []
    starts.append((view, {}))
    for _ in range(20_000):
        if view["to_act"] is None or len(starts) == rounds:
            break
        legal = game.legal_actions()
        eager = [a for a in legal if "meld" in a or "layoff" in a or "knock" in a]
        action = rng.choice(eager or legal)
        game.apply(view["to_act"], action)
        played.append(action)
        after = game.state()
        if after["round"] != view["round"]:
            starts.append((after, {"moves": len(played)}))
        view = after
    return starts


@pytest.mark.parametrize("game, players, options", MATCHES)
def test_the_seeded_rounds_worked_out_from_the_game_files_words_are_the_references_deals(
        game: str, players: int, options: dict[str, Any]) -> None:
    """Rounds 1 to 3 of two seeds: the deal written from conventions.seeded_deal is the one the reference makes
    (President's after the Scum's automatic gift, checked as the two seats' cards together)."""
    for seed in (5, 2**40 + 3):
        starts = rounds_played(seeded(game, players, options, seed), 3, seed)
        assert len(starts) == 3, f"{game}: the random play did not reach round 3"
        decks = shuffled_decks(seed, 3)
        for number, (view, _) in enumerate(starts, start=1):
            assert view["round"] == number
            assert misdealt(game, view, dealt(game, decks[number - 1], players, number), view) == []


def test_a_misdeal_is_said_seat_by_seat_and_pile_by_pile() -> None:
    """Two cards swapped between hands, and a stock in another order, are each named."""
    deal = dealt("rummy", shuffled_decks(9, 2)[1], 2, 2)
    view = json.loads(json.dumps(deal))
    view["hands"][0][0], view["hands"][1][0] = view["hands"][1][0], view["hands"][0][0]
    view["stock"] = view["stock"][::-1]
    wrong = misdealt("rummy", view, deal, {"round_results": []})
    assert [w.split(":")[0] for w in wrong] == ["seat 0", "seat 1", "stock"]
    assert misdealt("rummy", {"hands": None}, deal, {})[0].startswith("hands: None is not")


@pytest.mark.parametrize("game, players, options", MATCHES[::2])
def test_a_seeded_game_written_as_layouts_plays_the_same(game: str, players: int, options: dict[str, Any]) -> None:
    """A finding in a seeded game becomes a fixture: its rounds as layouts give the same game on the reference."""
    seed = 11
    spec = facts(game).spec
    first = create().start(seeded(game, players, options, seed)).state()
    from harness.findings.layouts import deal_layout

    setup = Setup(game, spec.rule_version, {**spec.option_defaults, **options}, deal_layout(facts(game), first), seed=seed)
    assert setup.as_dict()["seed"] == seed and "layout" not in setup.as_dict()

    class Played:
        reached = GameReach(round=3)

    explicit = as_layouts(setup, Played())
    assert explicit.seed is None and len(explicit.later_layouts) == 2
    assert list(explicit.later_layouts) == later_rounds(game, seed, players, 3)
    rng = random.Random(seed)
    one, two = create().start(setup.as_dict()), create().start(explicit.as_dict())
    for _ in range(3000):
        view = one.state()
        assert two.state() == view
        if view["to_act"] is None or view["round"] == 3:
            break
        action = rng.choice(one.legal_actions())
        assert one.apply(view["to_act"], action) == two.apply(view["to_act"], action)
    assert one.state()["round"] == 3


@pytest.mark.parametrize("game", ["rummy", "gin-rummy", "president"])
def test_fuzz_finds_a_round_two_deal_planted_in_each_game(game: str) -> None:
    """Round 1 dealt right, round 2 dealt from a generator started afresh: fuzz's seeded games find it at round 2's
    deal, said as a deal (a replay: no fixture has a seed), with the seed and the cards."""
    tested = mutant(f"{game}.later-deal-restarts-generator")
    result = fuzz(tested, FuzzOptions(game, 40, 0, shrink=False, invariants=False))
    assert result.findings, f"{game}: the wrong round-2 deal was not found"
    failure = result.finding.failure
    assert failure.kind == "deal" and " deals round 2 of seed " in failure.message
    assert result.finding.setup.seed is not None and any(d.startswith("seat ") for d in failure.details)
    assert result.finding.moves  # the replay plays round 1 to its end, where round 2 is dealt
    assert divergence_clause(facts(game), failure) == BY_ID[f"{game}.later-deal-restarts-generator"].clause


def test_the_reference_passes_its_own_seeded_games_and_the_campaign_says_how_far_they_went() -> None:
    """A small campaign of the reference on itself: nothing found, every game counted in the reach."""
    result = fuzz(create(), FuzzOptions("president", 30, 3, invariants=False))
    assert not result.findings
    reach = result.reach
    assert reach.games == result.examples and sum(reach.rounds.values()) == reach.games
    assert reach.at_least(2) > 0 and "exchange" in reach.visited and "new-round" in reach.visited
    line = reach.line()
    assert line.startswith(f"reached: round 2+ in {reach.at_least(2)}/{reach.games} games, round 3+ in ")


def test_a_games_reach_is_read_off_the_views() -> None:
    """The highest round, the match's end, the phases, and the corners: a new round, the round's last move,
    a lay-off accepted, a four of a kind turning the order after passes."""
    game = GameReach()
    game.see({"round": 1, "phase": "play", "round_results": []})
    game.see({"round": 1, "phase": "play", "order": "reversed", "round_results": []},
             {"round": 1, "phase": "play", "passed": [2], "order": "normal"}, {"play": ["5C", "5D", "5H", "5S"]})
    game.see({"round": 2, "phase": "exchange", "round_results": [{}]}, {"round": 1, "round_results": []},
             {"pass": True})
    game.see({"round": 2, "phase": "game-over", "round_results": [{}]}, {"round": 2, "round_results": [{}]},
             {"layoff": ["5C"], "onto": 0})
    assert (game.round, game.ended) == (2, True)
    assert game.phases == {"play", "exchange", "game-over"}
    assert game.corners == {"revolution", "new-round", "last-move", "lay-off"}
    total = Reach()
    total.add(game)
    total.add(GameReach(round=3))
    assert total.at_least(3) == 1 and total.ended == 1 and total.visited["new-round"] == 1
    assert "round 3+ in 1/2 (50%), the match's end in 1/2, highest round 3" in total.line()


def test_every_game_has_a_short_match_to_draw() -> None:
    """The option MATCH_LENGTH sets is one each game file has, and its short lengths lie in its range."""
    for game, (name, low, high) in MATCH_LENGTH.items():
        option = facts(game).spec.data["options"][name]
        assert option.get("minimum", 1) <= low <= high <= option.get("maximum", high)


def test_fuzz_records_keep_the_options_each_game_drew() -> None:
    """Each record of `fuzz --records` holds its game's options as drawn, short matches among them."""
    lines: list[str] = []
    reference = create()
    result = fuzz(reference, FuzzOptions("gin-rummy", 12, 1, invariants=False), reference,
                  played=recording(reference, server_of(reference), 1, lines.append))
    records = [json.loads(line) for line in lines]
    assert len(records) == result.examples
    targets = {r["options"]["target"] for r in records}
    assert len(targets) > 1 and min(targets) < 100
    assert all(set(r["options"]) == set(facts("gin-rummy").spec.option_defaults) for r in records)


@pytest.mark.parametrize("game, mistake", [("rummy", "first-seat-stays"), ("gin-rummy", "dealer-stays"),
                                           ("gin-rummy", "drawn-hand-late")])
def test_who_starts_a_round_or_when_it_ends_is_not_the_deals_mistake(game: str, mistake: str) -> None:
    """A round started by the wrong seat, or ended late, in a game the engine deals: charged to its own rule."""
    result = fuzz(mutant(f"{game}.{mistake}"), FuzzOptions(game, 30, 0, shrink=False, invariants=False))
    assert result.findings
    failure = result.finding.failure
    assert failure.kind != "deal", failure
    assert divergence_clause(facts(game), failure) == BY_ID[f"{game}.{mistake}"].clause
