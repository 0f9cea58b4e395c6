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
from harness.fuzzing.positions.later_round import later_round
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


# The option that sets a match's length, per game, and the short lengths drawn for it: a series of
# a few rounds, or a target a round or two reach, so that games get to later rounds and the match's end.
MATCH_LENGTH = {"president": ("rounds", 3, 5), "rummy": ("target", 1, 40), "gin-rummy": ("target", 1, 40)}


def draw_match_length(data: Draw, game: str, options: dict[str, Any], supported: set[str],
                      ranges: dict[str, Any], always: bool = False) -> bool:
    """In three games in four (shrinking to none; ``always``: in this one), a short match: ``options``' match length
    set from MATCH_LENGTH, unless the engine does not take the option or declares a range of its own for it;
    whether it was."""
    name, low, high = MATCH_LENGTH[game]
    if name in supported and name not in ranges and (always or data.draw(st.integers(0, 3), label="short-match") > 0):
        options[name] = data.draw(st.integers(low, high), label="match-length")
        return True
    return False


def draw_setup(data: Draw, facts: GameFacts, reference: Engine, supported: set[str],
               ranges: dict[str, Any] | None = None, positions: bool = True, match: bool = True,
               seeded: bool = False) -> tuple[Setup, int]:
    """Players, options (within the engine's ``option_ranges``) and seeded deals, turned into a
    setup from explicit layouts; and the seed. With ``positions`` (the engine declares mid-game
    layouts) half the games start from a generated mid-game position instead of the deal; later
    rounds only with ``match`` (the engine declares several rounds or hands). With ``seeded`` too (it
    declares the seeded deal), one game in four is the seed itself: the engine deals every round."""
    deal_seed = drawn_seed(data)
    low, high = facts.players
    players = data.draw(st.integers(low, high), label="players")
    options = dict(facts.spec.option_defaults)
    for name, option in facts.spec.data["options"].items():
        if name in supported:  # an option the engine does not implement stays at its default
            options[name] = draw_option(data, name, option, (ranges or {}).get(name))
    dealt_by_engine = match and seeded and data.draw(st.integers(0, 3), label="seeded") == 3
    # A seeded President game is a series, so that it has a round 2 to deal; a seeded Rummy or Gin Rummy game
    # keeps its drawn target, which a short one would reach in its first round.
    several = dealt_by_engine and MATCH_LENGTH[facts.game][0] == "rounds"
    short = match and (not dealt_by_engine or several) and \
        draw_match_length(data, facts.game, options, supported, ranges or {}, several)
    base = {"game": facts.game, "rule_version": facts.spec.rule_version, "options": options, "players": players}
    first = deal_layout(facts, seeded_view(reference, {**base, "seed": deal_seed}))
    if dealt_by_engine:
        return Setup(facts.game, facts.spec.rule_version, options, first, seed=deal_seed), deal_seed
    # later rounds only with match; a short match gets two at least, so that its rounds after a position are played
    later = data.draw(st.integers(2 if short else 0, 4 if match else 0), label="later-rounds")
    deck = draw_deck(data)
    if deck is not None:
        first = restacked(first, deck)
    if positions and data.draw(st.integers(0, 1), label="position") == 1:  # shrinks towards the deal
        first = draw_position(data, facts, first, options) or first
    elif positions and short and data.draw(st.integers(0, 2), label="later-round-start") > 0:
        first = later_round(data, facts, first, options) or first  # the first moves of a later round
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
