"""What a fuzzed game starts from: players, options and deals, drawn by Hypothesis.

Deals come from the engine's seeded setups (the reference's when fuzzing, the engine's own for
``properties``) and are turned into explicit layouts; in half the games a nearly sorted deck is
dealt instead, since random deals seldom reach gin, melds that empty a hand or four of a kind.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from harness.adapters.engine import Engine
from harness.findings.games import GameFacts
from harness.findings.layouts import deal_layout, later_layout, restacked
from harness.findings.model import Divergence, Finding, Setup
from harness.fuzzing.actions import Draw
from harness.fuzzing.positions import draw_position
from harness.spec.cards import RANKS, SUITS


def draw_option(data: Draw, name: str, option: dict[str, Any], declared: dict[str, Any] | None = None) -> Any:
    """A value for one option: its default or another value in its range (shrinks to the default).

    ``declared`` is the engine's ``option_ranges`` entry: ``{"values": [...]}`` or a minimum and
    maximum narrower than the game file's; values outside it are never drawn.
    """
    default = option["default"]
    if declared and "values" in declared:
        listed = list(declared["values"])
        return data.draw(st.sampled_from(sorted(listed, key=lambda v: v != default)), label=name)  # default first
    if option["type"] == "boolean":
        return data.draw(st.sampled_from([default, not default]), label=name)
    low = int((declared or {}).get("minimum", option.get("minimum", 0)))
    top = (declared or {}).get("maximum", option.get("maximum"))
    start = default if low <= default <= (top if top is not None else default) else low
    near = max(low, min(int(top) if top is not None else 2 * start + 5, max(low + 5, 2 * start + 5)))
    # Mostly near the default; sometimes anywhere in the declared range (knock_limit 100: every
    # hand can knock, so knocks, undercuts and lay-offs get played).
    values = st.one_of(st.just(start), st.integers(low, near))
    if top is not None:
        values = values | st.integers(low, int(top))
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


def draw_setup(data: Draw, facts: GameFacts, reference: Engine, supported: set[str],
               ranges: dict[str, Any] | None = None, positions: bool = True, match: bool = True) -> tuple[Setup, int]:
    """Players, options (within the engine's ``option_ranges``) and seeded deals, turned into a
    setup from explicit layouts; and the seed. With ``positions`` (the engine declares mid-game
    layouts) half the games start from a generated mid-game position instead of the deal; later
    rounds only with ``match`` (the engine declares several rounds or hands)."""
    deal_seed = drawn_seed(data)
    low, high = facts.players
    players = data.draw(st.integers(low, high), label="players")
    options = dict(facts.spec.option_defaults)
    for name, option in facts.spec.data["options"].items():
        if name in supported:  # an option the engine does not implement stays at its default
            options[name] = draw_option(data, name, option, (ranges or {}).get(name))
    later = data.draw(st.integers(0, 4 if match else 0), label="later-rounds")  # later rounds: only with match
    base = {"game": facts.game, "rule_version": facts.spec.rule_version, "options": options, "players": players}
    first = deal_layout(facts, seeded_view(reference, {**base, "seed": deal_seed}))
    deck = draw_deck(data)
    if deck is not None:
        first = restacked(first, deck)
    if positions and data.draw(st.integers(0, 1), label="position") == 1:  # shrinks towards the deal
        first = draw_position(data, facts, first, options) or first
    more = tuple(later_layout(facts, seeded_view(reference, {**base, "seed": deal_seed + i + 1}))
                 for i in range(later))
    return Setup(facts.game, facts.spec.rule_version, options, first, more), deal_seed


SEED_HALVES = st.binary(min_size=2, max_size=2)  # bytes are drawn uniformly; integers mostly near 0


def drawn_seed(data: Draw) -> int:
    """A game's deal seed, uniform in 0 .. 2**32 - 1, from two draws made first in the game.

    Integers are drawn mostly near the bottom of their range, so seeds drawn as one repeated
    within a campaign; two halves of random bytes do not. Two draws, since Hypothesis plays each
    of its first new games twice, the second time with the rest of its draws the simplest: the
    first draw is the new one, so the second half still gives that game another deal.
    """
    high = data.draw(SEED_HALVES, label="seed")
    return int.from_bytes(high + data.draw(SEED_HALVES, label="seed-low"), "big")

_DEALS: dict[str, dict[str, Any]] = {}  # the reference's seeded deals, shared by every campaign of a process


def seeded_view(engine: Engine, setup: dict[str, Any]) -> dict[str, Any]:
    """The state view of a seeded deal; the reference's are computed once (campaigns on many
    mutants draw the same seeds), an engine under test is always asked."""
    from reference_engine import ReferenceEngine

    if type(engine) is not ReferenceEngine:
        return engine.start(setup).state()
    key = json.dumps(setup, sort_keys=True)
    view = _DEALS.get(key)
    if view is None:
        if len(_DEALS) > 20_000:  # a bound on memory; a long campaign draws new seeds all the time
            _DEALS.clear()
        view = _DEALS[key] = engine.start(setup).state()
    return json.loads(json.dumps(view))  # a copy: layouts are built from it


def check_seeded_deal(engine: Engine, reference: Engine, facts: GameFacts, deal_seed: int) -> Finding | None:
    """Whether the engine deals ``deal_seed`` as the game file's ``deal`` says, for every player count;
    a finding (no moves: a fixture cannot show it, fixtures have no seeds) when it does not."""
    options = dict(facts.spec.option_defaults)
    low, high = facts.players
    for players in range(low, high + 1):
        seeded = {"game": facts.game, "rule_version": facts.spec.rule_version, "options": options,
                  "seed": deal_seed, "players": players}
        want = reference.start(seeded).state()
        setup = Setup(facts.game, facts.spec.rule_version, options, deal_layout(facts, want))
        try:
            mine = engine.start(seeded).state()
        except Exception as error:
            return Finding(setup, [], Divergence("deal", 0, f"the engine declares the seeded deal but raised dealing "
                                                            f"seed {deal_seed} ({players} players): "
                                                            f"{type(error).__name__}: {error}",
                                                 ["declare \"seeded_deal\": false in describe() features if it has none"]))
        if mine != want:
            keys = sorted(k for k in set(want) | set(mine if isinstance(mine, dict) else {})
                          if not isinstance(mine, dict) or want.get(k) != mine.get(k))
            return Finding(setup, [], Divergence(
                "deal", 0, f"the engine deals seed {deal_seed} ({players} players) differently from the game file's "
                           "`deal`", [f"{k}: reference {json.dumps(want.get(k))}, engine "
                                      f"{json.dumps(mine.get(k) if isinstance(mine, dict) else mine)}" for k in keys]
                + ["fix the deal (spec/README.md, seeded deals) or declare \"seeded_deal\": false in describe() features"]))
    return None
