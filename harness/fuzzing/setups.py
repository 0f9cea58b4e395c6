"""What a fuzzed game starts from: players, options and deals, drawn by Hypothesis.

Deals come from the engine's seeded setups (the reference's when fuzzing, the engine's own for
``properties``) and are turned into explicit layouts; in half the games a nearly sorted deck is
dealt instead, since random deals seldom reach gin, melds that empty a hand or four of a kind.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from harness.cards import RANKS, SUITS
from harness.engine import Engine
from harness.fuzzing.actions import Draw
from harness.fuzzing.games import GameFacts
from harness.fuzzing.layouts import deal_layout, later_layout, restacked
from harness.fuzzing.trace import Setup


def draw_option(data: Draw, name: str, option: dict[str, Any]) -> Any:
    """A value for one option: its default or another value in its range (shrinks to the default)."""
    default = option["default"]
    if option["type"] == "boolean":
        return data.draw(st.sampled_from([default, not default]), label=name)
    low = int(option.get("minimum", 0))
    near = min(int(option.get("maximum", 2 * default + 5)), max(low + 5, 2 * default + 5))
    # Mostly near the default; sometimes anywhere in the declared range (knock_limit 100: every
    # hand can knock, so knocks, undercuts and lay-offs get played).
    values = st.one_of(st.just(default), st.integers(low, near))
    if "maximum" in option:
        values = values | st.integers(low, int(option["maximum"]))
    return data.draw(values, label=name)


def draw_deck(data: Draw) -> list[str] | None:
    """None for a random deal (half the games; shrinks to it), else a nearly sorted deck, by suit
    or by rank: hands of runs and sets, where gin, four of a kind and Q-K-A live."""
    if not data.draw(st.booleans(), label="stacked"):
        return None
    by_rank = data.draw(st.booleans(), label="by-rank")
    # The ranks start anywhere (Q K A 2 3 ...), so runs round the Ace get dealt too.
    turn = data.draw(st.integers(1, 12), label="rotation") if data.draw(st.booleans(), label="rotate") else 0
    ranks = RANKS[turn:] + RANKS[:turn]
    deck = [r + s for r in ranks for s in SUITS] if by_rank else [r + s for s in SUITS for r in ranks]
    for _ in range(data.draw(st.integers(0, 8), label="swaps")):
        i, j = data.draw(st.integers(0, 51), label="i"), data.draw(st.integers(0, 51), label="j")
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def draw_setup(data: Draw, facts: GameFacts, reference: Engine, supported: set[str]) -> tuple[Setup, int]:
    """Players, options and seeded deals, turned into a setup from explicit layouts; and the seed."""
    low, high = facts.players
    players = data.draw(st.integers(low, high), label="players")
    options = dict(facts.spec.option_defaults)
    for name, option in facts.spec.data["options"].items():
        if name in supported:  # an option the engine does not implement stays at its default
            options[name] = draw_option(data, name, option)
    deal_seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    later = data.draw(st.integers(0, 4), label="later-rounds")
    base = {"game": facts.game, "rule_version": facts.spec.rule_version, "options": options, "players": players}
    first = deal_layout(facts, reference.start({**base, "seed": deal_seed}).state())
    deck = draw_deck(data)
    if deck is not None:
        first = restacked(first, deck)
    more = tuple(later_layout(facts, reference.start({**base, "seed": deal_seed + i + 1}).state())
                 for i in range(later))
    return Setup(facts.game, facts.spec.rule_version, options, first, more), deal_seed


def check_seeded_deal(engine: Engine, reference: Engine, setup: Setup, deal_seed: int) -> str | None:
    """Whether the engine deals a seed as the game file says; a note when it does not."""
    seeded = {"game": setup.game, "rule_version": setup.rule_version, "options": setup.options,
              "seed": deal_seed, "players": setup.players}
    try:
        mine = engine.start(seeded).state()
    except Exception as error:  # seeded setups are optional for an engine's own tests
        return f"the engine cannot start a seeded game ({type(error).__name__}: {error}); deals were not compared"
    if mine != reference.start(seeded).state():
        return (f"the engine deals seed {deal_seed} ({setup.players} players) differently from the game file's "
                "`deal`; a fixture cannot show this (fixtures have no seeds), so it is only reported here")
    return None
