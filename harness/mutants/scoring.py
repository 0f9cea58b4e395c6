"""The mutation score: which mutants the fixture suite kills, and which ones fuzzing finds.

A mutant is killed when some fixture of its game fails on it, or errors from an exception raised
in the mutant's own code or on an answer of it, while passing on the reference engine (a fixture the reference fails
proves nothing); other errors are the kit's or the wrapper's, reported apart as kit errors. A survivor means a missing
fixture. The suite runs in process through the harness ``Runner``, as ``run`` would.

Fuzzing asks only "found or not", so it does not shrink, and the mutants of a game are fuzzed
as a herd (``herd``): the same games for all, the reference asked once. The work is spread over
the cores in groups, one herd per group, in forked processes (the loaded suite is inherited).
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from harness.adapters.rule_versions import Played, played_here
from harness.audit.steps import charge
from harness.fuzzing.campaign import FuzzOptions, budget_of
from harness.host.cores import usable_cores
from harness.mutants.catalogue import BY_ID, Mutant, label
from harness.mutants.catalogue import engine as mutant_engine
from harness.mutants.variants import raised_in_variant
from harness.run.runner import Runner
from harness.suite.model import Scenario


@dataclass(frozen=True)
class FuzzSummary:
    """How fuzzing one mutant went: plain values, so it crosses process boundaries."""

    examples: int
    moves: int | None  # the moves of the failing game; None: not found
    seconds: float


@dataclass
class MutantOutcome:
    """What happened to one mutant."""

    mutant: Mutant
    killed_by: list[str] = field(default_factory=list)
    kit_errors: list[str] = field(default_factory=list)  # errors of the kit or the wrapper, not of the mutated rule
    own_kills: int = 0  # how many of ``killed_by`` (the first ones) are fixtures of the mutant's own clause
    fuzz: FuzzSummary | None = None

    @property
    def killed(self) -> bool:
        """Whether a fixture kills it."""
        return bool(self.killed_by)

    @property
    def found_by_fuzz(self) -> bool | None:
        """Whether fuzzing found it (None: not fuzzed)."""
        return None if self.fuzz is None else self.fuzz.moves is not None


def sound_fixtures(scenarios: list[Scenario]) -> tuple[list[Scenario], list[str]]:
    """The scenarios the reference engine passes, and the ids of those it fails (a skip is neither)."""
    from reference_engine import create

    runner = Runner(create())
    results = list(runner.run_all(scenarios))
    return ([r.scenario for r in results if r.outcome == "pass"],
            [r.scenario.id for r in results if r.outcome in ("fail", "error")])


def sound_suite(paths: list[str]) -> list[Scenario] | None:
    """The fixtures of ``paths`` (default: the bundled suite) the reference passes, each one it fails noted;
    None, with the lint errors on stderr, when they do not lint."""
    from harness.spec.paths import fixtures_dir
    from harness.suite.fixtures import load_paths

    loaded = load_paths(paths or [fixtures_dir()])
    for error in loaded.errors:
        sys.stderr.write(f"{error}\n")
    if loaded.errors:
        sys.stderr.write("fix the lint errors first (`cardverse-conformance lint` lists them)\n")
        return None
    for problem in loaded.path_errors:
        sys.stderr.write(f"{problem}\n")
    if loaded.path_errors:
        sys.stderr.write("no mutant was scored: fix the paths above and run again\n")
        return None
    scenarios, unsound = sound_fixtures(loaded.scenarios)
    for fixture_id in unsound:
        print(f"note: {fixture_id} does not pass on the reference engine, so it kills nothing here")
    return scenarios


@dataclass(frozen=True)
class Kills:
    """The fixtures that kill a mutant (its own clause's first, ``own`` of them) and its kit errors."""

    by: list[str]
    own: int
    kit_errors: list[str]

    def __bool__(self) -> bool:
        return bool(self.by)


def kills(mutant: Mutant, scenarios: list[Scenario], engine: Any = None) -> Kills:
    """The fixtures of the mutant's game that kill it (its own clause's first), and its kit errors.

    A fixture kills when it fails on the mutant, errors from an exception raised inside the
    mutant's code, or errors on an answer of the mutant that breaks the interface (a legal list out
    of order); any other error (the kit's or the wrapper's: a missing method, an exception outside
    the mutant) says nothing about the mutated rule, so it is kept as ``fixture id: message``.
    """
    runner = Runner(engine if engine is not None else mutant_engine(mutant.id))
    own: list[str] = []
    other: list[str] = []
    kit_errors: list[str] = []
    for scenario in (s for s in scenarios if s.game == mutant.game):
        result = runner.run(scenario)
        if result.outcome == "fail" or result.kind == "answer" or (
                result.kind == "crash" and raised_in_variant(result.raised_in, label(mutant))):
            (own if mutant.clause in charge(result, scenario).charged else other).append(scenario.id)
        elif result.outcome == "error":
            kit_errors.append(f"{scenario.id}: {result.message}")
    return Kills(own + other, len(own), kit_errors)


def fuzz_mutants(mutants: list[Mutant], options: FuzzOptions) -> dict[str, FuzzSummary]:
    """Whether fuzz finds each mutant (all of one game) within the budget: one herd, the same games for all."""
    from harness.mutants.herd import fuzz_herd

    budget = budget_of(options)  # fuzz's own (200; 25 in CI): "found" means found as `fuzz` would find it
    found = fuzz_herd({m.id: mutant_engine(m.id) for m in mutants},
                      FuzzOptions(mutants[0].game, budget, options.seed, options.max_steps))
    return {name: FuzzSummary(budget, None, 0.0) if f is None else FuzzSummary(f.examples, f.moves, f.seconds)
            for name, f in found.items()}


# What the forked workers read: set before the pool starts, so nothing large is pickled.
_WORK: dict[str, Any] = {}


def _outcomes(mutant_ids: list[str]) -> list[MutantOutcome]:
    """A group of mutants of one game scored (in a forked worker, or in this process)."""
    return scored(mutant_ids, _WORK["scenarios"], _WORK["fuzz"])


def scored(mutant_ids: list[str], scenarios: list[Scenario], fuzz_options: FuzzOptions | None) -> list[MutantOutcome]:
    """A group of mutants of one game scored (here, or on a cluster's worker)."""
    mutants = [BY_ID[i] for i in mutant_ids]
    outcomes = []
    for mutant in mutants:
        found = kills(mutant, scenarios)
        outcomes.append(MutantOutcome(mutant, found.by, found.kit_errors, found.own))
    if fuzz_options is not None:
        summaries = fuzz_mutants(mutants, fuzz_options)
        for outcome in outcomes:
            outcome.fuzz = summaries[outcome.mutant.id]
    return outcomes


def herd(mutant_ids: list[str], scenarios: list[Scenario], fuzz_options: FuzzOptions | None,
         played: Played) -> list[MutantOutcome]:
    """On a cluster's worker: a group of mutants scored, playing the command's game files and rule versions."""
    from harness.fuzzing.seeds import on_a_worker

    with on_a_worker(played):
        return scored(mutant_ids, scenarios, fuzz_options)


def _quiet_worker() -> None:
    """Ctrl-C is the parent's to handle: it ends the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def default_jobs() -> int:
    """One worker per core this process may use."""
    return usable_cores()


def groups(mutants: list[Mutant], jobs: int) -> list[list[str]]:
    """The mutants split into tasks: a herd per game (it shares its games), each game's herd split
    only when there are more cores than games."""
    games = list(dict.fromkeys(m.game for m in mutants))
    split = max(1, jobs // len(games))
    tasks = []
    for game in games:
        ids = [m.id for m in mutants if m.game == game]
        tasks += [ids[i::split] for i in range(min(split, len(ids)))]
    return tasks


def score(mutants: list[Mutant], scenarios: list[Scenario], fuzz_options: FuzzOptions | None,
          progress: Callable[[int, int, str], None] | None = None, jobs: int = 1,
          client: Any = None) -> Iterator[MutantOutcome]:
    """Every mutant against the (sound) scenarios, and fuzzed when ``fuzz_options`` is given, in
    catalogue order, computed on ``jobs`` processes, or in ``jobs`` groups on a Dask client's workers.
    Ctrl-C ends the workers at once."""
    _WORK.update(scenarios=scenarios, fuzz=fuzz_options)
    order = {m.id: i for i, m in enumerate(mutants)}
    tasks = groups(mutants, jobs)
    done: dict[int, MutantOutcome] = {}
    shown = 0

    def ready(batch: list[MutantOutcome]) -> Iterator[MutantOutcome]:
        nonlocal shown
        done.update((order[o.mutant.id], o) for o in batch)
        while shown in done:  # in catalogue order, as soon as the ones before are known
            yield done.pop(shown)
            shown += 1
        if progress and shown < len(mutants):
            progress(shown + 1, len(mutants), mutants[shown].id)

    if progress:
        progress(1, len(mutants), mutants[0].id)
    if client is not None:
        from harness.host.cluster import ordered

        played = played_here()
        herds = ((task, scenarios, fuzz_options, played) for task in sorted(tasks, key=len, reverse=True))
        for batch in ordered(client, herd, herds):
            yield from ready(batch)
        return
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield from ready(_outcomes(task))
        return
    context = multiprocessing.get_context("fork")  # the workers inherit the loaded suite and the built mutants
    pool = context.Pool(min(jobs, len(tasks)), initializer=_quiet_worker)
    finished = False
    try:
        for batch in pool.imap_unordered(_outcomes, sorted(tasks, key=len, reverse=True)):
            yield from ready(batch)
        finished = True
    finally:
        # Every herd scored: the workers take their end-of-work sentinels and leave. terminate() is
        # for stopping early only: after a finished run it left a worker waiting, now and then,
        # on a queue lock terminate() holds, and join() waited on it for ever.
        if finished:
            pool.close()
        else:
            pool.terminate()
        pool.join()


def outcome_record(outcome: Any) -> dict[str, Any]:
    """One mutant's outcome as a JSON object: what it gets wrong, the fixtures that kill it, what fuzz did."""
    mutant, found = outcome.mutant, outcome.fuzz
    fuzz = None if found is None else {"found": found.moves is not None, "examples": found.examples,
                                       "moves": found.moves, "seconds": round(found.seconds, 3)}
    return {"mutant": mutant.id, "game": mutant.game, "clause": mutant.clause, "mistake": mutant.mistake,
            "killed_by": list(outcome.killed_by), "kit_errors": list(outcome.kit_errors), "fuzz": fuzz}


def outcome_line(outcome: Any) -> str:
    """``killed   id  by N (M of its clause): fixtures | kit errors: K | fuzz: ...`` for one mutant."""
    mutant = outcome.mutant
    if outcome.killed:
        more = " ..." if len(outcome.killed_by) > 5 else ""
        line = (f"killed   {mutant.id:<40} by {len(outcome.killed_by)} ({outcome.own_kills} of {mutant.clause}): "
                f"{', '.join(outcome.killed_by[:5])}{more}")
    else:
        line = f"SURVIVED {mutant.id:<40} no fixture ({mutant.mistake})"
    if outcome.kit_errors:
        line += f" | kit errors: {len(outcome.kit_errors)} (first: {outcome.kit_errors[0]})"
    found = outcome.fuzz
    if found is not None:
        line += (f" | fuzz: found in {found.examples} examples, after {found.moves} moves" if found.moves is not None
                 else f" | fuzz: NOT FOUND in {found.examples} examples")
    return line
