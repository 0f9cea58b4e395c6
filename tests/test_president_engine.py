"""Tests of reference_engine.president.game: invariants over random games, and the rules piece by piece."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_engine.cards import DECK_SIZE, card_name, parse_card, sort_key
from reference_engine.president import game as president
from reference_engine.president import plays
from reference_engine.president import rounds
from reference_engine.seeded import SplitMix64

KEY = sort_key(plays.CARD_ORDER)
SPEC = Path(__file__).resolve().parent.parent / "spec"
# The closed list of reason codes: the common ones plus the game file's own.
REASONS = set(yaml.safe_load((SPEC / "reasons.yaml").read_text(encoding="utf-8"))) | set(
    yaml.safe_load((SPEC / "games" / "president-1.1.0.yaml").read_text(encoding="utf-8"))["reasons"])
MAX_STEPS = 5000


def seeded(seed: int, players: int, revolution: bool = True, rounds: int = 1) -> president.Game:
    """A game dealt by the engine from ``seed``."""
    return president.start({"game": "president", "rule_version": "1.1.0", "seed": seed, "players": players,
                            "options": {"revolution": revolution, "rounds": rounds}})


def layout_of(hands: list[list[str]], **keys: Any) -> dict[str, Any]:
    """A layout completed the way the harness does: defaults, and left-out cards into played."""
    placed = {parse_card(c) for hand in hands for c in hand}
    placed |= {parse_card(c) for play in keys.get("trick", []) for c in play["cards"]}
    placed |= {parse_card(c) for c in keys.get("played", [])}
    layout = {"first": 0, "to_act": None, "phase": None, "trick": [], "passed": [], "finished": [],
              "order": "normal", "scores": None, "round": 1, **keys, "hands": hands}
    layout["played"] = list(keys.get("played", [])) + [card_name(c) for c in range(DECK_SIZE) if c not in placed]
    return layout


def from_layout(hands: list[list[str]], options: dict[str, Any] | None = None, **keys: Any) -> president.Game:
    """A game from a layout completed the way the harness does."""
    opts = {"revolution": True, "rounds": 1, **(options or {})}
    return president.start({"game": "president", "rule_version": "1.1.0", "options": opts,
                            "layout": layout_of(hands, **keys), "later_layouts": []})


def snapshot(game: president.Game) -> str:
    """The state view as a comparable string."""
    return json.dumps(game.state(), sort_keys=True)


def all_cards(view: dict[str, Any]) -> list[str]:
    """Every card the state view places."""
    cards = [c for hand in view["hands"] for c in hand] + view["played"]
    return cards + [c for play in view["trick"] for c in play["cards"]]


def play_out(game: president.Game, rng: random.Random, check: bool = False) -> int:
    """Play random legal actions until nothing is legal; the number of steps."""
    steps = 0
    while game.to_act is not None:
        actions = game.legal_actions()
        assert actions, "a seat to act always has a legal action"
        assert game.apply(game.to_act, rng.choice(actions)) is None
        steps += 1
        assert steps < MAX_STEPS
        if check:
            view = game.state()
            cards = all_cards(view)
            assert len(cards) == DECK_SIZE and len(set(cards)) == DECK_SIZE
    return steps


# ----- properties over random games

@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), revolution=st.booleans())
def test_random_rounds_end_with_cards_conserved(seed: int, players: int, revolution: bool) -> None:
    game = seeded(seed, players, revolution)
    play_out(game, random.Random(seed), check=True)
    view = game.state()
    assert view["phase"] == "game-over"
    (result,) = view["round_results"]
    assert sorted(result["finishing_order"]) == list(range(players))
    assert sum(result["points"]) == players * (players + 1) // 2
    assert sorted(result["points"]) == list(range(1, players + 1))
    assert view["game_result"] == {"finishing_order": result["finishing_order"], "scores": result["points"]}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), rounds=st.integers(2, 4))
def test_random_series_points_add_up(seed: int, players: int, rounds: int) -> None:
    game = seeded(seed, players, rounds=rounds)
    play_out(game, random.Random(seed))
    view = game.state()
    assert view["phase"] == "game-over" and view["round"] == rounds
    assert len(view["round_results"]) == rounds
    assert sum(view["scores"]) == rounds * players * (players + 1) // 2
    for result in view["round_results"]:
        assert sorted(result["finishing_order"]) == list(range(players))
    assert view["game_result"]["finishing_order"] == view["round_results"][-1]["finishing_order"]


def random_action(rng: random.Random, game: president.Game) -> dict[str, Any]:
    """A random action, mostly well formed and mostly illegal."""
    kind = rng.choice(["play", "play", "play", "pass", "give"])
    if kind == "pass":
        return {"pass": True}
    size = rng.randint(1, 4 if kind == "play" else 2)
    pool = [c for c in range(DECK_SIZE) if rng.random() < 0.3 or game.hands[game.to_act] >> c & 1]
    cards = rng.sample(pool, min(size, len(pool)))
    return {kind: sorted((card_name(c) for c in cards), key=lambda n: KEY[parse_card(n)])}


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6))
def test_refusals_change_nothing_and_acceptance_matches_legal(seed: int, players: int) -> None:
    game = seeded(seed, players, rounds=2)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if game.to_act is None:
            break
        legal = game.legal_actions()
        action = random_action(rng, game)
        seat = game.to_act if rng.random() < 0.8 else rng.randrange(players)
        before = snapshot(game)
        reason = game.apply(seat, action)
        if reason is None:
            assert seat == json.loads(before)["to_act"] and action in legal
        else:
            assert reason in REASONS
            assert snapshot(game) == before
            assert seat != game.to_act or action not in legal
            assert game.apply(game.to_act, rng.choice(legal)) is None
    assert game.state()["phase"] == "game-over"


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6))
def test_legal_actions_are_canonical_sorted_and_distinct(seed: int, players: int) -> None:
    game = seeded(seed, players, rounds=2)
    rng = random.Random(seed)
    while game.to_act is not None:
        actions = game.legal_actions()
        keys = [[KEY[parse_card(c)] for c in next(iter(a.values()))] for a in actions if "pass" not in a]
        for cards in keys:
            assert cards == sorted(cards)
        assert keys == sorted(keys) and len({tuple(k) for k in keys}) == len(keys)
        game.apply(game.to_act, rng.choice(actions))


# ----- the deal

@pytest.mark.parametrize(("players", "sizes"), [
    (3, [18, 17, 17]), (4, [13, 13, 13, 13]), (5, [11, 11, 10, 10, 10]), (6, [9, 9, 9, 9, 8, 8])])
def test_seeded_deal_gives_extra_cards_to_the_lowest_seats(players: int, sizes: list[int]) -> None:
    view = seeded(7, players).state()
    assert view["hand_sizes"] == sizes
    assert sorted(all_cards(view)) == sorted(card_name(c) for c in range(DECK_SIZE))
    assert view["to_act"] == 0 and view["phase"] == "play"


def test_seeded_deal_is_the_documented_shuffle() -> None:
    deck = list(range(DECK_SIZE))
    SplitMix64(99).shuffle(deck)
    view = seeded(99, 4).state()
    assert view["hands"][1] == sorted((card_name(c) for c in deck[1::4]), key=lambda n: KEY[parse_card(n)])


def test_bad_player_counts_and_incomplete_layouts_are_errors() -> None:
    with pytest.raises(ValueError):
        seeded(1, 2)
    with pytest.raises(ValueError):
        president.start({"game": "president", "rule_version": "1.1.0", "options": {}, "layout": {
            "hands": [["3C"], ["4C"], ["5C"]], "played": []}})


# ----- exchange helpers

def test_best_cards_prefer_high_ranks_then_high_suits() -> None:
    hand = sum(1 << parse_card(c) for c in ["8D", "AH", "2C", "2H", "2S"])
    assert plays.names(plays.best_cards(hand, 2)) == ["2H", "2S"]
    assert plays.names(plays.best_cards(hand, 1)) == ["2S"]


def test_titles_by_player_count() -> None:
    assert rounds.titles(3) == ["president", "citizen", "scum"]
    assert rounds.titles(4) == ["president", "vice-president", "vice-scum", "scum"]
    assert rounds.titles(6) == ["president", "vice-president", "citizen", "citizen", "vice-scum", "scum"]


# ----- actions

@pytest.mark.parametrize("action", [
    {}, {"play": ["3C"], "pass": True}, {"play": "3C"}, {"play": []}, {"play": ["3C", "3C"]},
    {"play": ["TC", "10C"]}, {"play": ["3X"]}, {"play": [3]}, {"pass": False}, {"pass": 1},
    {"give": ["3C", "4C", "5C"]}, {"draw": "stock"}, ["play"], None,
    {"play": ["3C", "3D", "3H", "3S", "4C"]}])
def test_malformed_actions_are_refused(action: Any) -> None:
    game = from_layout([["3C", "3D", "3H", "3S", "4C"], ["5C"], ["6C"]])
    before = snapshot(game)
    assert game.apply(0, action) == "malformed-action"
    assert snapshot(game) == before


def test_ten_alias_is_accepted() -> None:
    game = from_layout([["TC", "4C"], ["5C"], ["6C"]])
    assert game.apply(0, {"play": ["10C"]}) is None
    assert game.state()["trick"] == [{"seat": 0, "cards": ["TC"]}]


def test_leading_lists_every_suit_combination_and_no_pass() -> None:
    game = from_layout([["9C", "9D", "9H", "9S"], ["5C"], ["6C"]])
    assert len(game.legal_actions()) == 15
    assert {"pass": True} not in game.legal_actions()


# ----- tricks and revolutions

def test_revolution_needs_a_higher_four_in_the_new_order() -> None:
    game = from_layout([["5C", "5D", "5H", "5S", "9C"], ["4C", "4D", "4H", "4S", "6C", "6D", "6H", "6S"], ["KD"]])
    assert game.apply(0, {"play": ["5C", "5D", "5H", "5S"]}) is None
    assert game.state()["order"] == "reversed"
    assert game.apply(1, {"play": ["6C", "6D", "6H", "6S"]}) == "rank-too-low"
    assert game.apply(1, {"play": ["4C", "4D", "4H", "4S"]}) is None
    assert game.state()["order"] == "normal"


def test_revolution_off_keeps_the_order() -> None:
    game = from_layout([["5C", "5D", "5H", "5S", "9C"], ["4C"], ["KD"]], {"revolution": False})
    assert game.apply(0, {"play": ["5C", "5D", "5H", "5S"]}) is None
    assert game.state()["order"] == "normal"


def test_layout_order_is_not_flipped_again_by_the_trick_it_lists() -> None:
    game = from_layout([["9C"], ["3C", "3D", "3H", "3S"], ["KD"]], order="reversed",
                       trick=[{"seat": 0, "cards": ["5C", "5D", "5H", "5S"]}])
    assert game.state()["order"] == "reversed" and game.state()["to_act"] == 1
    assert game.legal_actions() == [{"play": ["3C", "3D", "3H", "3S"]}, {"pass": True}]


def test_observation_hides_other_hands_only() -> None:
    game = from_layout([["3C", "9D"], ["5C"], ["6C"]])
    view = game.observation(1)
    assert view["hands"] == [None, ["5C"], None]
    assert view["hand_sizes"] == [2, 1, 1]


def test_already_out_and_already_passed() -> None:
    game = from_layout([["3C", "9D"], ["5C"], ["6C", "7C"]])
    assert game.apply(0, {"play": ["3C"]}) is None
    assert game.apply(1, {"play": ["5C"]}) is None  # seat 1 goes out
    assert game.apply(1, {"pass": True}) == "already-out"
    assert game.apply(2, {"pass": True}) is None
    assert game.apply(2, {"play": ["7C"]}) == "already-passed"


@pytest.mark.parametrize("keys", [
    {"finished": [1]},                                   # a finished seat still holds cards
    {"to_act": 1, "passed": [1], "trick": [{"seat": 0, "cards": ["9C"]}]},  # to_act has passed
    {"trick": [{"seat": 0, "cards": ["9C"]}, {"seat": 1, "cards": ["TC", "TD"]}]},  # counts differ
])
def test_impossible_layouts_are_errors(keys: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        from_layout([["3C"], ["4C"], ["5C"]], **keys)


def test_seeded_series_is_reproducible_and_starts_each_round_normal() -> None:
    games = [seeded(5, 4, rounds=3) for _ in range(2)]
    rng = [random.Random(1), random.Random(1)]
    while games[0].to_act is not None:
        for game, choice in zip(games, rng):
            assert game.apply(game.to_act, choice.choice(game.legal_actions())) is None
        assert snapshot(games[0]) == snapshot(games[1])
        view = games[0].state()
        if view["phase"] == "exchange":
            assert view["order"] == "normal" and view["trick"] == [] and view["passed"] == []
    assert games[0].state()["round"] == 3


def test_later_layouts_need_two_cards_per_hand() -> None:
    setup = {"game": "president", "rule_version": "1.1.0", "options": {"revolution": True, "rounds": 2},
             "layout": layout_of([["3C"], ["4C"], ["5C", "6C"]])}
    with pytest.raises(ValueError):
        president.start({**setup, "later_layouts": [layout_of([["3D"], ["4D", "4H"], ["5D", "5H"]])]})
    assert president.start({**setup, "later_layouts": [layout_of([["3D", "3H"], ["4D", "4H"], ["5D", "5H"]])]})


# ----- against a plain model: sets of card names, brute-force legal plays

class Model:
    """A deliberately naive single-round President, to check the engine against."""

    ORDER = "3456789TJQKA2"

    def __init__(self, hands: list[list[str]], revolution: bool) -> None:
        self.hands = [set(h) for h in hands]
        self.revolution = revolution
        self.reversed = False
        self.trick: list[tuple[int, list[str]]] = []
        self.passed: set[int] = set()
        self.finished: list[int] = []
        self.to_act: int | None = 0

    def strength(self, card: str) -> int:
        """Rank strength of ``card`` in the current order."""
        rank = self.ORDER.index(card[0])
        return 12 - rank if self.reversed else rank

    def legal(self) -> list[tuple[str, ...]]:
        """Every legal play (as a sorted tuple) and ("pass",) when following."""
        plays = []
        hand = sorted(self.hands[self.to_act])
        for size in range(1, 5):
            for combo in itertools.combinations(hand, size):
                if len({c[0] for c in combo}) != 1:
                    continue
                if self.trick:
                    last = self.trick[-1][1]
                    if size != len(last) or self.strength(combo[0]) <= self.strength(last[0]):
                        continue
                plays.append(tuple(sorted(combo)))
        return plays + ([("pass",)] if self.trick else [])

    def apply(self, move: tuple[str, ...]) -> None:
        """Play ``move`` for the seat to act."""
        seat = self.to_act
        assert seat is not None
        if move != ("pass",):
            self.hands[seat] -= set(move)
            self.trick.append((seat, list(move)))
            if len(move) == 4 and self.revolution:
                self.reversed = not self.reversed
            if not self.hands[seat]:
                self.finished.append(seat)
                if len(self.finished) == len(self.hands) - 1:
                    self.to_act = None
                    return
        else:
            self.passed.add(seat)
        last = self.trick[-1][0]
        n = len(self.hands)
        for step in range(1, n):
            other = (seat + step) % n
            if other not in self.finished and other not in self.passed and other != last:
                self.to_act = other
                return
        self.trick, self.passed = [], set()
        self.to_act = next((last + step) % n for step in range(n) if (last + step) % n not in self.finished)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), revolution=st.booleans())
def test_engine_agrees_with_the_plain_model(seed: int, players: int, revolution: bool) -> None:
    game = seeded(seed, players, revolution)
    model = Model(game.state()["hands"], revolution)
    rng = random.Random(seed)
    while model.to_act is not None:
        view = game.state()
        assert view["to_act"] == model.to_act
        assert [set(h) for h in view["hands"]] == model.hands
        assert view["order"] == ("reversed" if model.reversed else "normal")
        assert view["passed"] == sorted(model.passed) and view["finished"] == model.finished
        assert [(p["seat"], sorted(p["cards"])) for p in view["trick"]] == [(s, sorted(c)) for s, c in model.trick]
        engine_moves = sorted(tuple(sorted(a["play"])) if "play" in a else ("pass",) for a in game.legal_actions())
        assert engine_moves == sorted(model.legal())
        move = rng.choice(engine_moves)
        assert game.apply(model.to_act, {"pass": True} if move == ("pass",) else {"play": list(move)}) is None
        model.apply(move)
    assert game.state()["phase"] == "game-over"
    assert game.state()["round_results"][0]["finishing_order"][:-1] == model.finished
