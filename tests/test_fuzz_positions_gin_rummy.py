"""Gin Rummy positions for the fuzzer: the reference takes every one, they are what they claim, fuzz finds more."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.findings.games import facts as game_facts
from harness.findings.layouts import deal_layout, restacked
from harness.findings.model import Setup
from harness.fuzzing.campaign import FuzzOptions, fuzz
from harness.fuzzing.positions import gin_rummy
from harness.fuzzing.positions.gin_rummy_hands import (
    Cards,
    copy_in,
    deadwood,
    draw_trap,
)
from harness.fuzzing.setups import draw_deck, draw_option, seeded_view
from harness.mutants.catalogue import _module
from harness.mutants.catalogue import engine as mutant
from harness.mutants.herd import fuzz_herd
from harness.spec.cards import FILL_ORDER
from reference_engine import create
from reference_engine.cards import parse_card

FACTS = game_facts("gin-rummy")
REFERENCE = create()
QUICK = settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def _options(data: Any) -> dict[str, Any]:
    """Options as draw_setup draws them."""
    return {name: draw_option(data, name, option) for name, option in FACTS.spec.data["options"].items()}


def _deal(data: Any, options: dict[str, Any]) -> dict[str, Any]:
    """A seeded deal's layout, sometimes dealt again from a nearly sorted deck."""
    base = {"game": "gin-rummy", "rule_version": FACTS.spec.rule_version, "options": options, "players": 2,
            "seed": data.draw(st.integers(0, 2**32 - 1))}
    deal = deal_layout(FACTS, seeded_view(REFERENCE, base))
    deck = draw_deck(data)
    return restacked(deal, deck) if deck is not None else deal


def _start(options: dict[str, Any], layout: dict[str, Any]) -> Any:
    """The reference's game from the layout (ValueError if it refuses it)."""
    return REFERENCE.start(Setup("gin-rummy", FACTS.spec.rule_version, options, layout).as_dict())


@QUICK
@given(st.data())
def test_every_position_is_a_complete_layout_the_reference_accepts(data: Any) -> None:
    options = _options(data)
    layout = gin_rummy.draw(data, FACTS, _deal(data, options), options)
    assert layout is not None
    assert set(layout) == set(FACTS.spec.data["conventions"]["layout_keys"]["position"])
    view = _start(options, layout).state()
    placed = [c for h in view["hands"] for c in h] + view["stock"] + view["discard"] + [c for m in view["melds"] for c in m]
    assert len(placed) == len(set(placed)) == 52
    assert view["phase"] == layout["phase"]
    assert view["to_act"] == (1 - layout["knocker"] if layout["phase"] == "layoff" else layout["to_act"])
    assert all(0 <= s < options["target"] for s in view["scores"])
    assert view["scores"] == layout["scores"] and view["hands_won"] == layout["hands_won"]


@QUICK
@given(st.data())
def test_a_predicted_gain_is_what_the_reference_scores(data: Any) -> None:
    """Lay-off positions nobody can lay off on and gin positions: the hand scores the gain the scores are shaped by."""
    options = _options(data)
    kind = data.draw(st.sampled_from(["layoff", "gin"]))
    deal = _deal(data, options)
    cards = Cards([c for hand in deal["hands"] for c in hand] + deal["discard"] + deal["stock"])
    plan = gin_rummy._BUILDERS[kind](data, cards, 0, options)
    if plan.gain is None or (kind == "layoff" and plan.phase != "layoff"):
        return
    game = _start(options, gin_rummy._layout(data, cards, 0, options, plan))
    legal = game.legal_actions()
    if kind == "layoff":
        assert legal == [{"pass": True}]  # the opponent's cards are in the other two suits
        action = legal[0]
    else:
        action = next(a for a in legal if "knock" in a and _gin_after(a, plan))  # discarding the extra card
    assert game.apply(game.state()["to_act"], action) is None
    result = game.state()["round_results"][-1]
    assert (result["winner"], result["points"]) == plan.gain


def _gin_after(action: dict[str, Any], plan: gin_rummy.Plan) -> bool:
    """Whether the knock leaves no deadwood."""
    kept = [c for c in plan.hands[plan.to_act] if c != action["knock"]]
    return sum(len(m) for m in action["melds"]) == len(kept)


@QUICK
@given(st.data())
def test_the_trap_needs_q_k_a_as_a_run(data: Any) -> None:
    cards = Cards(FILL_ORDER)
    trap = draw_trap(data, cards)
    mask = sum(1 << parse_card(c) for c in trap)
    assert deadwood(trap) >= 20  # the rules: the Jack goes to the set or to J-Q-K, Q-K or a Jack pair left
    assert _module("gin-rummy.qka-run").min_deadwood(mask) <= 5  # Q-K-A as a run melds (nearly) all


def test_a_copy_in_the_other_suits_has_the_same_deadwood() -> None:
    hand = ["AC", "2C", "3C", "9C", "5D", "6D", "7D", "8D", "KD", "4C"]
    twin = copy_in(hand, {0: 2, 1: 3})
    assert twin == ["AH", "2H", "3H", "9H", "5S", "6S", "7S", "8S", "KS", "4H"]
    assert deadwood(hand) == deadwood(twin) == 19


# Mutants that fuzz from fresh deals alone did not find within 200 games (seed 0, before positions):
# a gin's score, a box bonus at the end of the match, a match ended exactly at the target.
MISSED = ("gin-rummy.gin-bonus-only", "gin-rummy.box-bonus-winner-only", "gin-rummy.target-strict")


def test_fuzz_finds_mutants_that_fresh_deals_missed() -> None:
    found = fuzz_herd({m: mutant(m) for m in MISSED}, FuzzOptions("gin-rummy", examples=40))
    assert any(found.values()), "no position of 40 games reached a gin, a box bonus or the target"
