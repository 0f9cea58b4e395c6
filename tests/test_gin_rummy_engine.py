"""The Gin Rummy 1.0.0 reference engine: the seeded deal, and properties of random hands (they end,
cards are conserved, one side scores, a knock is offered exactly when the deadwood allows it,
legal lists are canonical and accepted, refusals change nothing, any input is answered without
raising). Fixture scenarios are run by the harness, not here."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_deadwood import brute_arrangements

from reference_engine.cards import DECK_SIZE, card_name, cards_of, parse_card
from reference_engine.gin_rummy import game as gin_rummy
from reference_engine.gin_rummy.actions import KEY as GIN_KEY
from reference_engine.gin_rummy.deadwood import best_discards
from reference_engine.seeded import SplitMix64

ROOT = Path(__file__).parents[1]
SPEC = yaml.safe_load((ROOT / "spec/games/gin-rummy-1.0.0.yaml").read_text())
STATE_SCHEMA = jsonschema.Draft202012Validator(SPEC["state_view"]["schema"])
REASONS = set(yaml.safe_load((ROOT / "spec/reasons.yaml").read_text())) | set(SPEC["reasons"])
OPTIONS = {name: option["default"] for name, option in SPEC["options"].items()}
KEY = {card_name(c): k for c, k in enumerate(GIN_KEY)}
FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seeded(seed: int, **options: Any) -> gin_rummy.Game:
    """A match the engine deals itself."""
    return gin_rummy.start({"game": "gin-rummy", "rule_version": "1.0.0", "options": {**OPTIONS, **options},
                            "seed": seed, "players": 2})


def all_cards(view: dict[str, Any]) -> list[str]:
    """Every card on the table in a full state view, with repeats if any."""
    cards = [c for hand in view["hands"] for c in hand] + view["stock"] + view["discard"]
    return cards + [c for meld in view["melds"] for c in meld]


def choose(rng: random.Random, game: gin_rummy.Game, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A random legal action, mostly greedy on deadwood so that hands reach every kind of ending.

    Python's Random, not Hypothesis's chooser: a seat that always takes the discard pile and
    throws another card back never runs the stock down, and the rules set no turn limit.
    """
    showdown = [a for a in actions if "knock" in a or "layoff" in a]
    if showdown and rng.random() < 0.6:
        return rng.choice(showdown)
    discards = [a for a in actions if "discard" in a and len(a) == 1]
    if discards and rng.random() < 0.8:
        seat = game.to_act
        assert seat is not None
        after = best_discards(game.hands[seat])
        return min(discards, key=lambda a: after[parse_card(a["discard"])])
    return rng.choice(actions)


def is_canonical(action: dict[str, Any]) -> bool:
    """Card lists in card order; meld lists sorted card by card."""
    for key in ("layoff",):
        if key in action and action[key] != sorted(action[key], key=KEY.__getitem__):
            return False
    if "melds" in action:
        melds = action["melds"]
        if any(m != sorted(m, key=KEY.__getitem__) for m in melds):
            return False
        if melds != sorted(melds, key=lambda m: [KEY[c] for c in m]):
            return False
    return True


def play_hand(game: gin_rummy.Game, rng: random.Random, check: Any = None) -> int:
    """Play the current hand with random legal actions to its end; the number of steps."""
    start_round = game.round
    steps = 0
    while game.phase != "game-over" and game.round == start_round:
        if check:
            check(game)
        actions = game.legal_actions()
        assert actions, game.phase
        seat = game.to_act
        assert seat is not None
        assert game.apply(seat, choose(rng, game, actions)) is None
        steps += 1
        assert steps < 400, "a hand that does not end"
    return steps


def test_seeded_deal_follows_the_game_file() -> None:
    deck = list(range(DECK_SIZE))
    SplitMix64(42).shuffle(deck)
    view = seeded(42).state()
    assert view["dealer"] == 0 and view["to_act"] == 1 and view["phase"] == "offer"
    assert set(view["hands"][1]) == {card_name(c) for c in deck[0:20:2]}
    assert set(view["hands"][0]) == {card_name(c) for c in deck[1:20:2]}
    assert view["discard"] == [card_name(deck[20])]
    assert view["stock"] == [card_name(c) for c in deck[21:]]
    again = seeded(42)
    assert again.state() == view


@FAST
@given(seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**32))
def test_random_hands_end_conserve_cards_and_score_one_side(seed: int, choice_seed: int) -> None:
    game, choices = seeded(seed), random.Random(choice_seed)
    for _ in range(3):
        before = list(game.scores)
        results = len(game.round_results)

        def conserved(g: gin_rummy.Game) -> None:
            view = g.state()
            cards = all_cards(view)
            assert len(cards) == DECK_SIZE and len(set(cards)) == DECK_SIZE
            assert view["stock_size"] == len(view["stock"])
            assert view["hand_sizes"] == [len(h) for h in view["hands"]]

        play_hand(game, choices, conserved)
        assert len(game.round_results) == results + 1
        result = game.round_results[-1]
        gains = [game.scores[s] - before[s] for s in (0, 1)]
        if result["how"] == "draw":
            assert gains == [0, 0] and result["winner"] is None
        else:
            winner = result["winner"]
            assert gains[winner] == result["points"] and gains[1 - winner] == 0
            assert (winner == result["knocker"]) == (result["how"] in ("knock", "gin"))
        assert STATE_SCHEMA.is_valid(game.state())
        if game.phase == "game-over":
            break


@FAST
@given(seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**32), limit=st.sampled_from([0, 5, 10, 20]))
def test_knock_offered_exactly_when_deadwood_allows(seed: int, choice_seed: int, limit: int) -> None:
    game, choices = seeded(seed, knock_limit=limit), random.Random(choice_seed)

    def knocks_match(g: gin_rummy.Game) -> None:
        if g.phase != "discard":
            return
        seat = g.to_act
        assert seat is not None
        hand = g.hands[seat]
        listed: dict[str, list[Any]] = {}
        for action in g.legal_actions():
            assert is_canonical(action)
            if "knock" in action:
                listed.setdefault(action["knock"], []).append(action["melds"])
        expected = {}
        for card in cards_of(hand):
            if card == g.taken:
                continue
            least, arrangements = brute_arrangements(hand & ~(1 << card))
            if least <= limit:
                expected[card_name(card)] = arrangements
        assert set(listed) == set(expected)
        for name, melds in listed.items():
            shown = {frozenset(sum(1 << parse_card(c) for c in m) for m in ms) for ms in melds}
            assert shown == expected[name] and len(melds) == len(shown)

    play_hand(game, choices, knocks_match)


def canonical(action: dict[str, Any]) -> dict[str, Any]:
    """``action`` with its card lists in canonical order."""
    out = dict(action)
    if "layoff" in out:
        out["layoff"] = sorted(out["layoff"], key=KEY.__getitem__)
    if "melds" in out:
        out["melds"] = sorted((sorted(m, key=KEY.__getitem__) for m in out["melds"]), key=lambda m: [KEY[c] for c in m])
    return out


def candidate_actions(game: gin_rummy.Game, rng: random.Random) -> list[dict[str, Any]]:
    """Actions of every kind, most of them illegal here."""
    cards = [card_name(c) for c in rng.sample(range(DECK_SIZE), 6)]
    return [
        {"draw": "stock"}, {"draw": "discard"}, {"pass": True},
        *({"discard": c} for c in cards),
        {"knock": cards[0], "melds": [cards[1:4]]}, {"knock": cards[0], "melds": []},
        {"layoff": cards[:2], "onto": rng.randint(0, 3)}, {"layoff": [cards[3]], "onto": 0},
    ]


@FAST
@given(seed=st.integers(0, 2**32), choice_seed=st.integers(0, 2**32))
def test_illegal_actions_are_refused_without_change(seed: int, choice_seed: int) -> None:
    game, choices = seeded(seed), random.Random(choice_seed)

    def refusals(g: gin_rummy.Game) -> None:
        legal = {json.dumps(a, sort_keys=True) for a in g.legal_actions()}
        before = g.state()
        for action in candidate_actions(g, choices):
            for seat in (0, 1):
                if seat == g.to_act and json.dumps(canonical(action), sort_keys=True) in legal:
                    continue
                reason = g.apply(seat, action)
                assert reason in REASONS, (action, reason)
                assert g.state() == before

    play_hand(game, choices, refusals)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["stock", "discard", "QH", "10D", "XX", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["draw", "pass", "discard", "knock", "melds", "layoff", "onto", "x"]), inner, max_size=3),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(action=json_values, seat=st.integers(-1, 3), seed=st.integers(0, 50))
def test_any_input_is_answered_without_raising(action: Any, seat: int, seed: int) -> None:
    game = seeded(seed)
    before = game.state()
    reason = game.apply(seat, action)
    if reason is not None:
        assert reason in REASONS
        assert game.state() == before


def test_observation_hides_the_other_hand_and_the_stock() -> None:
    game = seeded(3)
    for seat in (0, 1):
        view = game.observation(seat)
        assert view["stock"] is None and view["hands"][1 - seat] is None
        assert view["hands"][seat] == game.state()["hands"][seat]
        assert view["stock_size"] == 31 and view["hand_sizes"] == [10, 10]


def test_refusal_codes_are_declared() -> None:
    declared = set(SPEC["reasons"])
    source = (ROOT / "reference_engine/gin_rummy/game.py").read_text()
    for reason in declared:
        assert f'"{reason}"' in source, f"{reason} is declared but never answered"


def complete(layout: dict[str, Any]) -> dict[str, Any]:
    """``layout`` completed as the harness does: schema defaults, left-out cards below the stock."""
    schema = SPEC["layout"]["schema"]["properties"]
    full = {key: layout.get(key, prop.get("default")) for key, prop in schema.items() if key in layout or "default" in prop}
    placed = {c for hand in full["hands"] for c in hand} | set(full["stock"]) | set(full["discard"])
    placed |= {c for meld in full.get("melds") or [] for c in meld}
    full["stock"] = list(full["stock"]) + [card_name(c) for c in range(DECK_SIZE) if card_name(c) not in placed]
    return full


def from_layout(layout: dict[str, Any]) -> gin_rummy.Game:
    """A game from a partial layout."""
    return gin_rummy.start({"game": "gin-rummy", "rule_version": "1.0.0", "options": OPTIONS,
                            "layout": complete(layout), "later_layouts": []})


HANDS = [["AC", "2D", "4H", "6S", "8C", "TD", "QH", "KS", "5C", "9D"],
         ["3C", "3D", "5H", "7S", "9C", "JD", "KH", "2S", "6D", "8H"]]


def test_null_defaults_start_a_fresh_deal() -> None:
    view = from_layout({"dealer": 1, "hands": HANDS, "discard": ["7C"]}).state()
    assert (view["phase"], view["to_act"], view["scores"], view["round"], view["melds"]) == ("offer", 0, [0, 0], 1, [])
    assert STATE_SCHEMA.is_valid(view)


def test_impossible_layouts_are_rejected_at_start() -> None:
    bad = [
        {"dealer": 0, "phase": "discard", "to_act": 0, "hands": HANDS, "discard": ["7C"]},  # 10 cards, not 11
        {"dealer": 0, "phase": "layoff", "hands": HANDS, "discard": ["7C"]},  # no knocker, no melds
        {"dealer": 0, "phase": "draw", "to_act": 0, "taken": "AC", "hands": HANDS, "discard": ["7C"]},
        {"dealer": 0, "phase": "layoff", "knocker": 0, "melds": [["JC", "QC", "AC"]], "hands": [[], HANDS[1]],
         "discard": ["7C"]},
    ]
    for layout in bad:
        try:
            from_layout(layout)
        except ValueError:
            continue
        raise AssertionError(f"accepted {layout}")


def test_layout_round_trips_through_the_state_view() -> None:
    game = seeded(11)
    rng = random.Random(11)
    for _ in range(40):
        if game.phase in ("round-over", "game-over") or game.round > 1:
            break
        view = game.state()
        layout = {key: view[key] for key in ("dealer", "hands", "stock", "discard", "phase", "to_act", "scores",
                                               "hands_won", "round", "taken", "upcard_refused", "knocker")}
        layout["melds"] = view["melds"] or None
        again = gin_rummy.start({"game": "gin-rummy", "rule_version": "1.0.0", "options": OPTIONS,
                                 "layout": layout, "later_layouts": []})
        assert again.state() == view and again.legal_actions() == game.legal_actions()
        seat = game.to_act
        assert seat is not None
        assert game.apply(seat, choose(rng, game, game.legal_actions())) is None
