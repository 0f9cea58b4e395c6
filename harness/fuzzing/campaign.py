"""A fuzzing campaign: Hypothesis draws deals, options and moves; a divergence is shrunk and kept.

Each example is one game: a seeded deal of the reference engine turned into an explicit layout
(so the finding never depends on a seed), random options, then moves played in lockstep on the
engine under test and the reference (``lockstep``). Hypothesis shrinks the first failure to a
short game; its last replay is the one recorded, since Hypothesis replays the minimal example last.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from harness.engine import Engine
from harness.fuzzing.actions import Draw
from harness.fuzzing.games import GameFacts, facts as game_facts
from harness.fuzzing.layouts import deal_layout, later_layout
from harness.fuzzing.lockstep import Lockstep
from harness.fuzzing.trace import Divergence, Finding, Setup, Violation

DEFAULT_EXAMPLES = 200
SHRINK_SECONDS = 20.0  # past this, shrinking stops and the shortest failing game so far is kept
CI_EXAMPLES = 25
DEFAULT_MAX_STEPS = 150

# The budget of a run: CI gets a small one so the suite stays fast; `--examples` overrides both.
settings.register_profile("cardverse-fuzz", max_examples=DEFAULT_EXAMPLES, deadline=None)
settings.register_profile("cardverse-fuzz-ci", max_examples=CI_EXAMPLES, deadline=None)


def profile_name() -> str:
    """The Hypothesis profile for this environment."""
    return "cardverse-fuzz-ci" if os.environ.get("CI") else "cardverse-fuzz"


@dataclass
class FuzzOptions:
    """What to fuzz and how long."""

    game: str
    examples: int | None = None  # None: the profile's budget
    seed: int = 0
    max_steps: int = DEFAULT_MAX_STEPS
    database: Path | None = None
    invariants: bool = True


@dataclass
class FuzzResult:
    """How a campaign on one game went."""

    game: str
    examples: int = 0
    steps: int = 0
    seconds: float = 0.0
    finding: Finding | None = None
    notes: list[str] = field(default_factory=list)


def draw_option(data: Draw, name: str, option: dict[str, Any]) -> Any:
    """A value for one option: its default or another value in its range (shrinks to the default)."""
    default = option["default"]
    if option["type"] == "boolean":
        return data.draw(st.sampled_from([default, not default]), label=name)
    low = int(option.get("minimum", 0))
    high = int(option.get("maximum", max(low + 5, 2 * default)))
    high = min(high, max(low + 5, 2 * default + 5))
    return data.draw(st.one_of(st.just(default), st.integers(low, high)), label=name)


def draw_setup(data: Draw, facts: GameFacts, reference: Engine, supported: set[str]) -> tuple[Setup, int]:
    """Players, options and seeded deals, turned into a setup from explicit layouts; and the seed."""
    low, high = facts.players
    players = data.draw(st.integers(low, high), label="players")
    options = dict(facts.spec.option_defaults)
    for name, option in facts.spec.data["options"].items():
        if name in supported:  # an option the engine does not implement stays at its default
            options[name] = draw_option(data, name, option)
    deal_seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    later = data.draw(st.integers(0, 2), label="later-rounds")
    base = {"game": facts.game, "rule_version": facts.spec.rule_version, "options": options, "players": players}
    first = deal_layout(facts, reference.start({**base, "seed": deal_seed}).state())
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


def run_examples(one_game: Callable[[Any], None], budget: int, options: FuzzOptions) -> None:
    """Run ``one_game`` on ``budget`` Hypothesis examples; the shrunk failure propagates."""
    run = settings(
        parent=settings.get_profile(profile_name()), max_examples=budget, deadline=None,
        database=DirectoryBasedExampleDatabase(str(options.database)) if options.database else None,
        suppress_health_check=list(HealthCheck), report_multiple_bugs=False, verbosity=Verbosity.debug if os.environ.get("CARDVERSE_FUZZ_DEBUG") else Verbosity.quiet,
        phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink), print_blob=False,
    )(given(st.data())(one_game))
    seed(options.seed)(run)()


def budget_of(options: FuzzOptions) -> int:
    """The number of examples: ``--examples``, else the profile's."""
    return options.examples or settings.get_profile(profile_name()).max_examples


def declared_options(engine: Engine, facts: GameFacts) -> set[str]:
    """The options the engine implements for the game; ValueError when it lacks the game."""
    declared = engine.describe().get("games", {}).get(facts.game)
    if declared is None or facts.spec.rule_version not in declared.get("rule_versions", []):
        raise ValueError(f"the engine does not implement {facts.game} {facts.spec.rule_version}; "
                         "check its describe() or choose another --game")
    return set(declared.get("options", []))


def fuzz(engine: Engine, options: FuzzOptions, reference: Engine | None = None,
         progress: Callable[[int, int], None] | None = None) -> FuzzResult:
    """Fuzz one game against the reference engine; the result holds the shrunk finding, if any."""
    if reference is None:
        from reference_engine import create

        reference = create()
    facts = game_facts(options.game)
    supported = declared_options(engine, facts)
    result = FuzzResult(facts.game)
    recorded: list[Finding] = []
    budget = budget_of(options)
    started = time.perf_counter()

    def one_game(data: Any) -> None:
        result.examples += 1
        max_steps = shrink_limit(recorded, options.max_steps)
        if max_steps == 0:
            return
        setup, deal_seed = draw_setup(data, facts, reference, supported)
        if result.examples == 1:  # once a run: a seed is a deal, not a rule, and costs a game each
            note = check_seeded_deal(engine, reference, setup, deal_seed)
            if note:
                result.notes.append(note)
        play = Lockstep(facts, engine, reference, setup, invariants=options.invariants)
        try:
            play.play(data, max_steps)
        except (Divergence, Violation) as failure:
            recorded.append(Finding(setup, list(play.moves), failure))
            raise
        finally:
            result.steps += play.steps
            if progress:
                progress(result.examples, budget)

    result.finding = run_to_finding(one_game, budget, options, recorded)
    result.seconds = time.perf_counter() - started
    return result


def shrink_limit(recorded: list[Finding], max_steps: int) -> int:
    """Moves a game may take now: all of them until a failure, then no more than the shortest
    failing game (a longer one cannot shrink it), and none once shrinking has had its time."""
    if not recorded:
        return max_steps
    if time.monotonic() - recorded[0].found > SHRINK_SECONDS:
        return 0
    return min(max_steps, min(len(f.moves) for f in recorded) + 1)


def run_to_finding(one_game: Callable[[Any], None], budget: int, options: FuzzOptions,
                   recorded: list[Finding]) -> Finding | None:
    """Run the examples; the shortest failing game recorded (Hypothesis' last replay on a tie)."""
    try:
        run_examples(one_game, budget, options)
    except Exception:
        if not recorded:  # not a failure of the engine's: a bug of ours, to be seen
            raise
        # A Divergence or a Violation, or Flaky once the shrinking budget cut a replay short:
        # every recorded game really failed, so the shortest one is kept.
    if not recorded:
        return None
    fewest = min(len(f.moves) for f in recorded)
    return [f for f in recorded if len(f.moves) == fewest][-1]
