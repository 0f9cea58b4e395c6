"""The Rummy 1.1.0 reference engine: meld and lay-off rules, the seeded deal, and properties of
whole random games (they end, cards are conserved, legal lists agree with apply, refusals change
nothing, scoring adds up). Fixture scenarios are run by the harness, not here."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference_engine.cards import (
    DECK_SIZE,
    card_name,
    cards_of,
    fill_order,
    mask_of,
    parse_card,
)
from reference_engine.rummy import game as rummy
from reference_engine.rummy.melds import (
    ACE_WRAP,
    INVALID,
    SORT_KEY,
    hand_value,
    layoffs_onto,
    meld_fault,
    melds_in,
)
from reference_engine.seeded import SplitMix64

SPEC = yaml.safe_load((Path(__file__).parents[1] / "spec/games/rummy-1.1.0.yaml").read_text())
STATE_SCHEMA = jsonschema.Draft202012Validator(SPEC["state_view"]["schema"])
OPTIONS = {"discard_to_win": False, "ace_high": False, "target": 100}


def mask(text: str) -> int:
    """A mask from space-separated card names."""
    return mask_of(parse_card(t) for t in text.split())


def seeded(seed: int, players: int, **options: Any) -> rummy.RummyGame:
    """A game the engine deals itself."""
    return rummy.start({"game": "rummy", "rule_version": "1.1.0", "options": {**OPTIONS, **options},
                        "seed": seed, "players": players})


def from_layout(layout: dict[str, Any], **options: Any) -> rummy.RummyGame:
    """A game from a partial layout, completed as the harness does (fill order at the stock's bottom)."""
    placed = set()
    for hand in layout["hands"]:
        placed.update(hand)
    for meld in layout.get("melds", []):
        placed.update(meld["cards"])
    placed.update(layout.get("stock", []) + layout.get("discard", []))
    rest = [card_name(c) for c in fill_order() if card_name(c) not in placed]
    complete = {**layout, "stock": layout.get("stock", []) + rest}
    return rummy.start({"game": "rummy", "rule_version": "1.1.0", "options": {**OPTIONS, **options},
                        "layout": complete, "later_layouts": []})


def cards_held(game: rummy.RummyGame) -> list[int]:
    """Every card in every place of the table, with repeats if any."""
    held = [c for hand in game.hands for c in cards_of(hand)]
    held += [c for meld in game.meld_cards for c in cards_of(meld)]
    return held + game.stock + game.discard


# --- melds --------------------------------------------------------------------------------------

@pytest.mark.parametrize("cards", [
    "2C 3C 4C", "QH KH AH", "TS JS QS KS AS", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "7C 7D 7H", "7C 7D 7H 7S", "AC AD AS",
])
def test_valid_melds(cards: str) -> None:
    assert meld_fault(mask(cards)) is None


@pytest.mark.parametrize("cards", ["AH 2H 3H", "KH AH 2H", "QS KS AS 2S", "AD 2D 3D 4D", "JC QC KC AC 2C 3C"])
def test_runs_round_the_ace_are_ace_wrap(cards: str) -> None:
    assert meld_fault(mask(cards)) == ACE_WRAP


@pytest.mark.parametrize("cards", ["7C 7D", "7H 8S 9H", "7C 7D 8H", "4C 5C 7C", "AH 2H 4H", "KH AH 3H", "", "QH"])
def test_invalid_melds(cards: str) -> None:
    assert meld_fault(mask(cards)) == INVALID


def test_hand_values() -> None:
    hand = mask("AC 2D 9H TS JC QD KH")
    assert hand_value(hand, ace_high=False) == 1 + 2 + 9 + 40
    assert hand_value(hand, ace_high=True) == 11 + 2 + 9 + 40


def test_layoff_alone_or_together() -> None:
    run = mask("5H 6H 7H")
    assert meld_fault(run | mask("9H")) == INVALID
    assert meld_fault(run | mask("8H 9H")) is None
    assert set(layoffs_onto(run, mask("4H 8H 9H"))) == {
        mask(c) for c in ("4H", "8H", "8H 9H", "4H 8H", "4H 8H 9H")}
    assert layoffs_onto(mask("7C 7D 7H 7S"), mask("7C 8C")) == []
    assert layoffs_onto(mask("QD KD AD"), mask("2D JD")) == [mask("JD")]
    assert layoffs_onto(mask("2C 3C 4C"), mask("AC 5C")) == [mask("5C")]


hands = st.integers(min_value=0, max_value=(1 << DECK_SIZE) - 1)
small_hands = st.lists(st.integers(0, DECK_SIZE - 1), min_size=0, max_size=9, unique=True).map(mask_of)
dense_hands = st.lists(st.integers(0, 25), min_size=3, max_size=10, unique=True).map(mask_of)


@given(st.one_of(small_hands, dense_hands))
@settings(max_examples=300)
def test_melds_in_is_every_valid_subset(hand: int) -> None:
    cards = list(cards_of(hand))
    brute = {mask_of(s) for n in range(3, len(cards) + 1) for s in itertools.combinations(cards, n)
             if meld_fault(mask_of(s)) is None}
    found = melds_in(hand)
    assert len(found) == len(set(found))
    assert set(found) == brute


@given(st.sampled_from(sorted(melds_in((1 << DECK_SIZE) - 1))), st.one_of(small_hands, dense_hands))
@settings(max_examples=300)
def test_layoffs_onto_is_every_valid_addition(meld: int, hand: int) -> None:
    cards = list(cards_of(hand & ~meld))
    brute = {mask_of(s) for n in range(1, len(cards) + 1) for s in itertools.combinations(cards, n)
             if meld_fault(meld | mask_of(s)) is None}
    assert set(layoffs_onto(meld, hand & ~meld)) == brute


# --- the deal -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_deal_follows_the_game_file(players: int) -> None:
    deck = fill_order()
    SplitMix64(7).shuffle(deck)
    size = {2: 7, 3: 10, 4: 10}[players]  # 7 cards each with two players, 10 with three or four
    dealt = size * players
    view = seeded(7, players).state()
    for seat in range(players):
        expected = [deck[i] for i in range(dealt) if i % players == seat]
        assert view["hands"][seat] == [card_name(c) for c in sorted(expected, key=SORT_KEY.__getitem__)]
    assert view["discard"] == [card_name(deck[dealt])]
    assert view["stock"] == [card_name(c) for c in deck[dealt + 1:]]
    assert view["hand_sizes"] == [size] * players
    assert (view["first"], view["to_act"], view["phase"]) == (0, 0, "draw")


def test_seeded_later_rounds_reshuffle_and_move_the_first_seat() -> None:
    game = seeded(3, 3, target=10**6)
    rng = random.Random(11)
    firsts = [game.first]
    while len(firsts) < 4:
        game.apply(game.to_act, rng.choice(game.legal_actions()))
        if game.round == len(firsts) + 1:
            firsts.append(game.first)
            assert game.to_act == game.first and game.phase == "draw" and not game.meld_cards
            assert sorted(cards_held(game)) == list(range(DECK_SIZE))
    assert firsts == [0, 1, 2, 0]


def test_bad_layouts_raise() -> None:
    with pytest.raises(ValueError):
        rummy.start({"game": "rummy", "rule_version": "1.1.0", "options": OPTIONS,
                     "layout": {"hands": [["2C"], ["3C"]], "stock": [], "discard": []}})
    with pytest.raises(ValueError):
        from_layout({"hands": [["2C"], ["3C"]], "melds": [{"owner": 0, "cards": ["AH", "2H", "3H"]}]})
    with pytest.raises(ValueError):
        seeded(1, 5)


# --- single rules -------------------------------------------------------------------------------

def test_refusal_reasons_are_declared() -> None:
    declared = set(SPEC["reasons"]) | set(yaml.safe_load((Path(__file__).parents[1] / "spec/reasons.yaml").read_text()))
    game = from_layout({"first": 0, "hands": [["7C", "7D", "7S"], ["2D", "5D", "8S"]], "discard": ["KS"],
                        "melds": [{"owner": 1, "cards": ["TS", "JS", "QS"]}]})
    for action in [{"meld": ["7C"]}, {"discard": "7C"}, {"draw": "stock", "x": 1}, {"layoff": ["KS"], "onto": 9}]:
        assert game.apply(0, action) in declared
    game.apply(0, {"draw": "discard"})
    attempts = [{"meld": ["7C", "7D", "7S"]}, {"discard": "KS"}, {"layoff": ["7C"], "onto": 0},
                 {"layoff": ["KS"], "onto": 9}, {"meld": ["2D", "5D", "8S"]}, {"draw": "stock"}]
    for action in attempts:
        reason = game.apply(0, action)
        assert reason in declared, (action, reason)
    assert game.apply(1, {"discard": "2D"}) == "not-your-turn"


def test_stranding_the_taken_card_is_refused_even_without_discard_to_win() -> None:
    game = from_layout({"first": 0, "hands": [["7C", "7D", "7S"], ["2D", "5D", "8S"]], "discard": ["KH"]})
    game.apply(0, {"draw": "discard"})
    assert game.apply(0, {"meld": ["7C", "7D", "7S"]}) == "taken-card-stranded"
    assert game.legal_actions() == [{"discard": "7C"}, {"discard": "7D"}, {"discard": "7S"}]


def test_observation_hides_other_hands_and_stock() -> None:
    game = seeded(5, 4)
    for seat in range(4):
        view = game.observation(seat)
        assert view["stock"] is None and view["stock_size"] == 11
        assert [h is None for h in view["hands"]] == [s != seat for s in range(4)]


# --- properties of whole games -------------------------------------------------------------------

ACTION_KINDS = ("draw", "meld", "layoff", "discard")


def random_action(rng: random.Random, game: rummy.RummyGame) -> dict[str, Any]:
    """A well-formed action, often illegal, biased towards the acting hand's cards."""
    kind = rng.choice(ACTION_KINDS)
    hand = list(cards_of(game.hands[game.to_act or 0])) or [0]
    pool = hand if rng.random() < 0.8 else list(range(DECK_SIZE))
    chosen = rng.sample(pool, min(len(pool), rng.randint(1, 4)))
    picks = [card_name(c) for c in sorted(chosen, key=SORT_KEY.__getitem__)]  # canonical, to compare with legal
    if kind == "draw":
        return {"draw": rng.choice(("stock", "discard"))}
    if kind == "meld":
        return {"meld": picks}
    if kind == "layoff":
        return {"layoff": picks, "onto": rng.randint(0, len(game.meld_cards))}
    return {"discard": picks[0]}


def check_invariants(game: rummy.RummyGame) -> None:
    """The table always holds the 52 cards once each, and results add up."""
    held = cards_held(game)
    assert sorted(held) == list(range(DECK_SIZE))
    for result in game.round_results:
        values = result["hand_values"]
        assert result["points"] == sum(values) - values[result["winner"]]
        if result["how"] != "empty-stock":
            assert values[result["winner"]] == 0
        else:
            assert values[result["winner"]] == min(values)
    assert sum(r["points"] for r in game.round_results) == sum(game.scores)


@given(seed=st.integers(0, 10**9), players=st.integers(2, 4), discard_to_win=st.booleans(),
       ace_high=st.booleans(), target=st.sampled_from([1, 60, 100]))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_games_end_and_keep_every_invariant(seed: int, players: int, discard_to_win: bool,
                                                     ace_high: bool, target: int) -> None:
    game = seeded(seed, players, discard_to_win=discard_to_win, ace_high=ace_high, target=target)
    rng = random.Random(seed)
    for _ in range(20000):
        if game.to_act is None:
            break
        legal = game.legal_actions()
        assert legal, "a seat to act always has something legal"
        assert len({json.dumps(a, sort_keys=True) for a in legal}) == len(legal)
        probe = random_action(rng, game)
        twin = game.clone()
        before = twin.state()
        reason = twin.apply(twin.to_act, probe)
        assert (reason is None) == (probe in legal), (probe, reason)
        if reason is not None:
            assert twin.state() == before
        action = rng.choice(legal)
        assert game.apply(game.to_act, action) is None, action
        check_invariants(game)
    assert game.to_act is None and game.game_result is not None
    STATE_SCHEMA.validate(game.state())
    best = max(game.scores)
    assert best >= target and game.scores[game.game_result["winner"]] == best


@given(seed=st.integers(0, 10**9), players=st.integers(2, 4))
@settings(max_examples=30, deadline=None)
def test_every_listed_action_is_accepted(seed: int, players: int) -> None:
    game = seeded(seed, players)
    rng = random.Random(seed)
    for _ in range(60):
        if game.to_act is None:
            break
        legal = game.legal_actions()
        for action in legal:
            assert game.clone().apply(game.to_act, action) is None, action
        other = (game.to_act + 1) % players
        assert game.clone().apply(other, legal[0]) == "not-your-turn"
        assert game.apply(game.to_act, rng.choice(legal)) is None
        STATE_SCHEMA.validate(game.state())


def test_legal_actions_are_canonical_and_in_the_stated_order() -> None:
    game = seeded(2024, 2)
    rng = random.Random(1)
    key = {card_name(c): SORT_KEY[c] for c in range(DECK_SIZE)}
    kinds = {"draw": 0, "meld": 1, "layoff": 2, "discard": 3}
    for _ in range(400):
        if game.to_act is None:
            break
        legal = game.legal_actions()
        for action in legal:
            for cards in (action.get("meld"), action.get("layoff")):
                if cards:
                    assert cards == sorted(cards, key=key.__getitem__)
        order = [(kinds[next(iter(a))], a.get("onto", 0),
                  [key[c] for c in a.get("meld") or a.get("layoff") or [a.get("discard")] if c]) for a in legal
                 if "draw" not in a]
        assert order == sorted(order)
        game.apply(game.to_act, rng.choice(legal))
