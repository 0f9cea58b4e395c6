"""A fuzzing campaign: Hypothesis runs games; the first failure is shrunk and kept.

Each example is one game: a setup drawn by ``setups`` (explicit layouts, so a finding never
depends on a seed), then moves played in lockstep on the engine under test and the reference
(``lockstep``). Every failing game Hypothesis plays while shrinking is recorded; the shortest
one is the finding (each of them really failed, so any is a true reproduction).
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
from harness.fuzzing.games import GameFacts, facts as game_facts
from harness.fuzzing.lockstep import Lockstep
from harness.fuzzing.setups import check_seeded_deal, draw_setup
from harness.fuzzing.trace import Divergence, Finding, Violation

from harness.fuzzing.budget import CI_EXAMPLES, DEFAULT_EXAMPLES, DEFAULT_MAX_STEPS, SHRINK_SECONDS

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
    shrink_seconds: float = SHRINK_SECONDS


@dataclass
class FuzzResult:
    """How a campaign on one game went."""

    game: str
    examples: int = 0
    steps: int = 0
    seconds: float = 0.0
    finding: Finding | None = None
    notes: list[str] = field(default_factory=list)


def run_examples(one_game: Callable[[Any], None], budget: int, options: FuzzOptions) -> None:
    """Run ``one_game`` on ``budget`` Hypothesis examples; the shrunk failure propagates."""
    run = settings(
        parent=settings.get_profile(profile_name()), max_examples=budget, deadline=None,
        database=DirectoryBasedExampleDatabase(str(options.database)) if options.database else None,
        suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
        # CARDVERSE_FUZZ_DEBUG=1 shows every draw of every game: how a strategy behaves
        verbosity=Verbosity.debug if os.environ.get("CARDVERSE_FUZZ_DEBUG") else Verbosity.quiet,
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

    def first_game(setup: Any, deal_seed: int) -> str | None:
        # once a run: a seed is a deal, not a rule, and costs a game each
        return check_seeded_deal(engine, reference, setup, deal_seed)

    return run_campaign(
        options, facts, deals=reference, supported=declared_options(engine, facts),
        start_play=lambda setup: Lockstep(facts, engine, reference, setup, invariants=options.invariants),
        failures=(Divergence, Violation), progress=progress, first_game=first_game)


def run_campaign(options: FuzzOptions, facts: Any, deals: Engine, supported: set[str],
                 start_play: Callable[[Any], Any], failures: tuple[type[Divergence] | type[Violation], ...],
                 progress: Callable[[int, int], None] | None = None,
                 first_game: Callable[[Any, int], str | None] | None = None) -> FuzzResult:
    """Hypothesis games played by ``start_play(setup)``; the shortest game raising one of ``failures``.

    ``deals`` deals the seeded setups; a play has ``play(data, max_steps)``, ``moves`` and ``steps``.
    """
    result = FuzzResult(facts.game)
    recorded: list[Finding] = []
    budget = budget_of(options)
    started = time.perf_counter()

    def one_game(data: Any) -> None:
        result.examples += 1
        max_steps = shrink_limit(recorded, options.max_steps, options.shrink_seconds)
        if max_steps == 0:
            return
        setup, deal_seed = draw_setup(data, facts, deals, supported)
        if first_game is not None and result.examples == 1:
            note = first_game(setup, deal_seed)
            if note:
                result.notes.append(note)
        play = start_play(setup)
        try:
            play.play(data, max_steps)
        except failures as failure:
            recorded.append(Finding(setup, list(play.moves), failure))
            raise
        finally:
            result.steps += play.steps
            if progress:
                progress(result.examples, budget)

    result.finding = run_to_finding(one_game, budget, options, recorded)
    result.seconds = time.perf_counter() - started
    return result


def shrink_limit(recorded: list[Finding], max_steps: int, seconds: float = SHRINK_SECONDS) -> int:
    """Moves a game may take now: all of them until a failure, then no more than the shortest
    failing game (a longer one cannot shrink it), and none once shrinking has had its time."""
    if not recorded:
        return max_steps
    if time.monotonic() - recorded[0].found > seconds:
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
