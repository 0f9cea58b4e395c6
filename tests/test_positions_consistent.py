"""Every generated position is one the rules can reach: each card once, a phase, a seat to act with a legal
action, and what the phase allows (a Gin upcard offer has the upcard alone in the discard pile)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.findings.games import facts as game_facts
from harness.findings.layouts import deal_layout
from harness.fuzzing.positions import draw_position
from harness.fuzzing.positions.consistent import problems
from harness.fuzzing.setups import draw_option, seeded_view
from reference_engine import create

REFERENCE = create()
# A small budget here; benchmarks/bench_positions.py draws 10,000 a game.
QUICK = settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("game", ["rummy", "gin-rummy", "president"])
def test_every_generated_position_is_consistent(game: str) -> None:
    facts = game_facts(game)

    @QUICK
    @given(st.data())
    def check(data: Any) -> None:
        low, high = facts.players
        options = {name: draw_option(data, name, option) for name, option in facts.spec.data["options"].items()}
        base = {"game": game, "rule_version": facts.spec.rule_version, "options": options,
                "players": data.draw(st.integers(low, high)), "seed": data.draw(st.integers(0, 2**32 - 1))}
        layout = draw_position(data, facts, deal_layout(facts, seeded_view(REFERENCE, base)), options)
        if layout is not None:
            assert problems(facts, layout, REFERENCE, options) == [], layout

    check()


def test_the_check_catches_an_upcard_offer_with_cards_under_the_upcard() -> None:
    facts = game_facts("gin-rummy")
    options = dict(facts.spec.option_defaults)
    deal = deal_layout(facts, REFERENCE.start({"game": "gin-rummy", "rule_version": facts.spec.rule_version,
                                               "options": options, "players": 2, "seed": 1}).state())
    offer = {**deal, "phase": "offer", "to_act": 1 - deal["dealer"], "discard": deal["discard"] + deal["stock"][:5],
             "stock": deal["stock"][5:]}
    assert any(p.startswith("an upcard offer with 6 cards in the discard pile") for p in
               problems(facts, offer, REFERENCE, options))
    lost = {**deal, "stock": deal["stock"][1:]}
    assert any("51 cards placed" in p for p in problems(facts, lost, REFERENCE, options))
