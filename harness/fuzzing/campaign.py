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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import Flaky

from harness.adapters.engine import Engine
from harness.findings.clauses import divergence_clause
from harness.findings.games import GameFacts
from harness.findings.games import facts as game_facts
from harness.findings.model import Divergence, Finding, Violation
from harness.fuzzing import interrupts
from harness.fuzzing.blame import charge
from harness.fuzzing.budget import (
    CI_EXAMPLES,
    DEFAULT_EXAMPLES,
    DEFAULT_MAX_STEPS,
    SHRINK_SECONDS,
)
from harness.fuzzing.constants import without_local_constants
from harness.fuzzing.fresh import without_mutations
from harness.fuzzing.lockstep import Lockstep
from harness.fuzzing.reach import Reach
from harness.fuzzing.seeded_rounds import later_rounds
from harness.fuzzing.setups import check_seeded_deal, draw_setup

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
    max_findings: int = 1
    known: frozenset[str] = frozenset()  # clauses (or invariants) whose differences are looked past
    shrink: bool = True  # False: the first failing game is kept as it is (mutants only ask "found?")
    rule_version: str | None = None  # None: the version being played (--rule-version), else the newest


@dataclass
class FuzzResult:
    """How a campaign on one game went."""

    game: str
    examples: int = 0
    steps: int = 0
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    looked_past: dict[str, int] = field(default_factory=dict)  # known key -> games it ended
    interrupted: bool = False
    reach: Reach = field(default_factory=Reach)  # how far its games went (shrinking's replays left out)

    @property
    def finding(self) -> Finding | None:
        """The first finding, if any."""
        return self.findings[0] if self.findings else None


def run_examples(one_game: Callable[[Any], None], budget: int, options: FuzzOptions, seed_value: int) -> None:
    """Run ``one_game`` on ``budget`` Hypothesis examples; the shrunk failure propagates."""
    phases = (Phase.explicit, Phase.reuse, Phase.generate) + ((Phase.shrink,) if options.shrink else ())
    run = settings(
        parent=settings.get_profile(profile_name()), max_examples=budget, deadline=None,
        database=DirectoryBasedExampleDatabase(str(options.database)) if options.database else None,
        suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
        # CARDVERSE_FUZZ_DEBUG=1 shows every draw of every game: how a strategy behaves
        verbosity=Verbosity.debug if os.environ.get("CARDVERSE_FUZZ_DEBUG") else Verbosity.quiet,
        phases=phases, print_blob=False,
    )(given(st.data())(one_game))
    # the same games for a seed whatever the kit's source and install, each on a deal of its own
    with without_local_constants(), without_mutations():
        seed(seed_value)(run)()


def quick(data: Any) -> Any:
    """``data`` drawing straight from Hypothesis' choice sequence (its semi-stable ``conjecture_data``):
    the same choices, so the same games and the same shrinking, without the bookkeeping each draw
    does for test authors (a check that strategies leave the global random alone, a note per draw),
    which took a third of a game's time. With ``CARDVERSE_FUZZ_DEBUG`` the notes are wanted: ``data`` itself."""
    choices = getattr(data, "conjecture_data", None)
    return data if choices is None or os.environ.get("CARDVERSE_FUZZ_DEBUG") else QuickDraw(choices)


class QuickDraw:
    """A ``data`` with only ``draw``, on the choice sequence."""

    def __init__(self, choices: Any) -> None:
        self.choices = choices

    def draw(self, strategy: Any, label: str | None = None) -> Any:
        """One draw from ``strategy``; ``label`` is for the debug output only."""
        return self.choices.draw(strategy)


def budget_of(options: FuzzOptions) -> int:
    """The number of examples: ``--examples``, else the profile's."""
    return options.examples or settings.get_profile(profile_name()).max_examples


def declared(engine: Engine, facts: GameFacts) -> dict[str, Any]:
    """What the engine declares of the game; ValueError when it lacks the game."""
    found = engine.describe().get("games", {}).get(facts.game)
    if not isinstance(found, dict) or facts.spec.rule_version not in found.get("rule_versions", []):
        raise ValueError(f"the engine does not implement {facts.game} {facts.spec.rule_version}; "
                         "check its describe() or choose another --game")
    return found


def feature(game: dict[str, Any], name: str) -> bool:
    """Whether the engine declares ``name`` (spec/README.md: absent means yes, but clone absent means no)."""
    return bool((game.get("features") or {}).get(name, name != "clone"))


def fuzz(engine: Engine, options: FuzzOptions, reference: Engine | None = None,
         progress: Callable[[int, int], None] | None = None,
         played: Callable[[Any, list[Any], str | bool], None] | None = None) -> FuzzResult:
    """Fuzz one game against the reference engine; the result holds the shrunk findings, if any."""
    if reference is None:
        from reference_engine import create

        reference = create()
    facts = game_facts(options.game, options.rule_version)
    game = declared(engine, facts)
    clones = feature(game, "clone")

    def first_game() -> Finding | None:
        # once a run: a seed is a deal, not a rule, and costs a game each
        return check_seeded_deal(engine, reference, facts, options.seed) if feature(game, "seeded_deal") else None

    return run_campaign(
        options, facts, deals=reference, game=game,
        start_play=lambda setup: Lockstep(facts, engine, reference, setup, invariants=options.invariants,
                                          clones=clones, positions=feature(game, "positions"),
                                          illegal_only=(game.get("features") or {}).get("reasons") == "illegal"),
        failures=(Divergence, Violation), progress=progress, first_game=first_game, played=played,
        charge=lambda setup, moves, failure: charge(facts, reference, setup, moves, failure), seeded_games=True)


def as_layouts(setup: Any, play: Any) -> Any:
    """A seeded game's setup as explicit layouts of the rounds it reached (a fixture has no seeds); any other as it is."""
    if getattr(setup, "seed", None) is None:
        return setup
    last = play.reached.round if play is not None else 1
    return replace(setup, seed=None, later_layouts=tuple(later_rounds(setup.game, setup.seed, setup.players, last)))


def difference_key(facts: GameFacts, failure: Divergence | Violation) -> str:
    """What makes two findings the same difference: the clause a divergence is filed under, or the
    invariant broken (``--known`` names either)."""
    if isinstance(failure, Violation):
        return failure.invariant
    if failure.kind == "deal":
        return "seeded-deal"
    return divergence_clause(facts, failure)


def run_campaign(options: FuzzOptions, facts: Any, deals: Engine, game: dict[str, Any],
                 start_play: Callable[[Any], Any], failures: tuple[type[Divergence] | type[Violation], ...],
                 progress: Callable[[int, int], None] | None = None,
                 first_game: Callable[[], Finding | None] | None = None,
                 played: Callable[[Any, list[Any], str | bool], None] | None = None,
                 charge: Callable[[Any, list[Any], Any], None] | None = None,
                 seeded_games: bool = False) -> FuzzResult:
    """Hypothesis games played by ``start_play(setup)``; up to ``max_findings`` distinct failures.

    ``deals`` deals the seeded setups; a play has ``play(data, max_steps)``, ``moves`` and ``steps``.
    After a finding the campaign goes on with the rest of the budget (and the next seed), looking
    past that difference; Ctrl-C ends it with what was found so far (``interrupted``). ``played`` is
    given each game's setup, moves and why it stopped (spec/records.md's ``unfinished``: true at
    --max-steps or a difference, engine-died, interrupted), but not the replays of shrinking. ``charge`` (setup, moves,
    failure) names the clauses a failure is charged to: every failure while some difference is
    looked past, else only the finding kept (a replay of the game each).
    """
    result = FuzzResult(facts.game)
    budget = budget_of(options)
    started = time.perf_counter()
    past = set(options.known)
    supported = set(game.get("options", []))
    ranges = dict(game.get("option_ranges") or {})
    positions = feature(game, "positions")  # mid-game layouts only for an engine that takes them
    match = feature(game, "match")  # later layouts only for an engine that plays several rounds
    seeded = seeded_games and feature(game, "seeded_deal")  # games the engine deals itself, every round
    recorded: list[Finding] = []

    def one_game(hypothesis_data: Any) -> None:
        data = quick(hypothesis_data)
        interrupts.check()  # a Ctrl-C swallowed inside a garbage-collector callback comes out here
        result.examples += 1
        max_steps = shrink_limit(recorded, options.max_steps, options.shrink_seconds)
        if max_steps == 0:
            return
        setup, deal_seed = draw_setup(data, facts, deals, supported, ranges, positions, match, seeded)
        shrinking = bool(recorded)
        play = None
        why: str | bool = True  # how the game's record says it stopped: at --max-steps or a difference, by design
        try:
            play = start_play(setup)  # an engine raising in start() is a finding too
            play.play(data, max_steps)
        except KeyboardInterrupt:
            why = "interrupted"
            raise
        except failures as failure:
            if getattr(failure, "kind", None) == "error":  # the engine under test raised, died or broke
                why = "engine-died"
            if past and charge is not None:
                charge(setup, list(play.moves) if play is not None else [], failure)
            key = difference_key(facts, failure)
            if key in past:  # a known difference: this game stops here, the campaign goes on
                result.looked_past[key] = result.looked_past.get(key, 0) + 1
                return
            kept = setup if getattr(failure, "kind", None) == "deal" else as_layouts(setup, play)
            recorded.append(Finding(kept, list(play.moves) if play is not None else [], failure))
            raise
        finally:
            if play is not None:
                result.steps += play.steps
                if not shrinking:
                    reached = getattr(play, "reached", None)
                    if reached is not None:
                        result.reach.add(reached)
                    if played is not None:
                        played(setup, list(play.moves), why)
            if progress:
                progress(result.examples, budget)

    round_ = 0
    try:
        dealt = first_game() if first_game is not None and "seeded-deal" not in past else None
        if dealt is not None:
            result.findings.append(dealt)
            past.add("seeded-deal")
        while len(result.findings) < options.max_findings and result.examples < budget:
            recorded.clear()
            finding = run_to_finding(one_game, budget - result.examples, options, recorded, options.seed + round_)
            round_ += 1
            if finding is None:
                break
            if charge is not None:
                charge(finding.setup, finding.moves, finding.failure)
            result.findings.append(finding)
            past.add(difference_key(facts, finding.failure))
    except KeyboardInterrupt:
        result.interrupted = True
        if recorded and len(result.findings) < options.max_findings:  # shrinking was cut short: keep the shortest
            kept = shortest(recorded)
            if charge is not None:
                charge(kept.setup, kept.moves, kept.failure)
            result.findings.append(kept)
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


def shortest(recorded: list[Finding]) -> Finding:
    """The shortest failing game recorded (Hypothesis' last replay on a tie)."""
    fewest = min(len(f.moves) for f in recorded)
    return [f for f in recorded if len(f.moves) == fewest][-1]


def run_to_finding(one_game: Callable[[Any], None], budget: int, options: FuzzOptions,
                   recorded: list[Finding], seed_value: int) -> Finding | None:
    """Run the examples; the shortest failing game recorded."""
    try:
        run_examples(one_game, budget, options, seed_value)
    except (Divergence, Violation, Flaky):
        pass  # every recorded game really failed (Flaky: the shrinking budget cut a replay short)
    except Exception:
        if not recorded:  # not a failure of the engine's: a bug of ours, to be seen
            raise
    return shortest(recorded) if recorded else None
