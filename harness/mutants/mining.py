"""Generated mutants scored one by one: a crash at once, killed by a fixture, found by fuzz (its
fixture mined), found by ``properties``, or survived.

The fixtures run in process, in suite order, until the first that kills (the catalogue's rule:
a failure, or an error raised in the mutant's own code or on an answer of it). A mutant whose
first ``CRASH_AT_ONCE`` fixtures all crash in its code, or whose module does not even build,
breaks every game at its start: it is counted apart, as no fixture is needed to see it. A
survivor is fuzzed (one campaign, shrunk, as ``fuzz`` would), and the shrunk finding comes back
to be written as a fixture where the command runs; a survivor fuzz misses gets ``properties``.
Each mutant's work has a time and a memory limit (``deadline``): a mutant may loop for ever, or fill the
memory; either is counted as timed out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.adapters.rule_versions import Played, played_here
from harness.findings.model import Divergence, Finding
from harness.fuzzing.campaign import FuzzOptions, fuzz
from harness.fuzzing.properties import check_properties
from harness.mutants.catalogue import label
from harness.mutants.deadline import MEMORY_BYTES, TimedOut, deadline
from harness.mutants.generated import Place, by_id, engine
from harness.mutants.variants import raised_in_variant
from harness.run.runner import Runner
from harness.suite.model import Scenario

CRASH_AT_ONCE = 3  # the first fixtures of the game that must all crash in the mutant's code
FIXTURES_SECONDS = 20.0  # a mutant's whole fixture run (a sound one: under 2 s); past it, it loops for ever
PER_TASK = 8  # mutants a cluster task scores
FUZZ_SECONDS = 300.0  # its fuzz campaign with shrinking, then its properties

# What happened to a mutant, in the order of the summary's columns.
CRASH, KILLED, FUZZ, PROPERTIES, SURVIVED, TIMED_OUT = "crash", "killed", "fuzz", "properties", "survived", "timed out"
STATUSES = (CRASH, KILLED, FUZZ, PROPERTIES, SURVIVED, TIMED_OUT)


@dataclass
class Mined:
    """One generated mutant's fate; plain values and a finding, so it crosses to the command's process."""

    place: Place
    status: str
    why: str = ""  # the killing fixture, the crash, or what fuzz or properties saw
    finding: Finding | None = None  # fuzz's shrunk divergence, to be written as a fixture

    @property
    def mineable(self) -> bool:
        """Whether fuzz's finding can be written as a fixture (a seeded deal's setup cannot)."""
        failure = self.finding.failure if self.finding is not None else None
        return isinstance(failure, Divergence) and bool(failure.check or failure.move)


def kill(mutant_id: str, scenarios: list[Scenario]) -> tuple[str, str]:
    """The mutant against its game's fixtures, to the first kill: (status, why)."""
    place = by_id(mutant_id)
    try:
        runner = Runner(engine(mutant_id))
    except Exception as error:  # noqa: BLE001 (the mutant's module fails as it is built: every game fails)
        return CRASH, f"its module does not load: {type(error).__name__}: {error}"
    own = label(place.as_mutant())
    first, streak = "", True  # streak: every fixture so far crashed in the mutant's code
    for number, scenario in enumerate(s for s in scenarios if s.game == place.game):
        result = runner.run(scenario)
        crashed = result.kind == "crash" and raised_in_variant(result.raised_in, own)
        streak = streak and crashed
        if streak and number + 1 == CRASH_AT_ONCE:
            return CRASH, f"{scenario.id}: {result.message}"
        first = first or (scenario.id if result.outcome == "fail" or result.kind == "answer" or crashed else "")
        if first and not streak:
            return KILLED, first
    if first:  # fewer fixtures than CRASH_AT_ONCE, each crashed
        return KILLED, first
    return SURVIVED, ""


def hunt(mutant_id: str, options: FuzzOptions) -> Mined:
    """A survivor fuzzed (shrunk, its finding kept), and checked by ``properties`` when fuzz misses it."""
    place = by_id(mutant_id)
    mutant = engine(mutant_id)
    result = fuzz(mutant, FuzzOptions(place.game, options.examples, options.seed, options.max_steps))
    if result.finding is not None:
        return Mined(place, FUZZ, str(result.finding.failure).splitlines()[0], result.finding)
    checked = check_properties(mutant, FuzzOptions(place.game, options.examples, options.seed, options.max_steps))
    if checked.finding is not None:
        return Mined(place, PROPERTIES, str(checked.finding.failure).splitlines()[0])
    return Mined(place, SURVIVED)


def mined_on_a_worker(mutant_ids: list[str], scenarios: list[Scenario], options: FuzzOptions | None,
                      played: Played) -> list[Mined]:
    """On a cluster's worker: ``mine``, playing the command's game files and rule versions."""
    from harness.fuzzing.seeds import on_a_worker

    with on_a_worker(played):
        return mine(mutant_ids, scenarios, options)


def mine(mutant_ids: list[str], scenarios: list[Scenario], options: FuzzOptions | None) -> list[Mined]:
    """Each mutant scored, in order; ``options`` None: no fuzz."""
    found = []
    for mutant_id in mutant_ids:
        place = by_id(mutant_id)
        try:
            with deadline(FIXTURES_SECONDS) as fired:
                status, why = kill(mutant_id, scenarios)
        except TimedOut:
            found.append(Mined(place, TIMED_OUT, _ran_away("the fixtures", fired, FIXTURES_SECONDS)))
            continue
        if status != SURVIVED or options is None:
            found.append(Mined(place, status, why))
            continue
        try:
            with deadline(FUZZ_SECONDS) as fired:
                found.append(hunt(mutant_id, options))
        except TimedOut:
            found.append(Mined(place, TIMED_OUT, _ran_away("fuzz", fired, FUZZ_SECONDS)))
    return found


def _ran_away(what: str, fired: list[str], seconds: float) -> str:
    """Why a mutant's work was stopped: its time or its memory."""
    if fired == ["memory"]:
        return f"{what} grew the process past {MEMORY_BYTES >> 20} MB"
    return f"{what} took over {seconds:.0f} s"


def mine_all(mutant_ids: list[str], scenarios: list[Scenario], options: FuzzOptions | None,
             client: Any = None, ahead: int | None = None) -> Any:
    """Every mutant scored, in the order given: in this process, or in tasks of ``PER_TASK`` on a Dask
    client's workers, ``ahead`` tasks in flight (small tasks: progress moves, and a slow one holds back little)."""
    if client is None:
        for mutant_id in mutant_ids:
            yield from mine([mutant_id], scenarios, options)
        return
    from harness.host.cluster import ordered

    groups = [mutant_ids[i:i + PER_TASK] for i in range(0, len(mutant_ids), PER_TASK)]
    shared = client.scatter(scenarios, broadcast=True)  # the suite sent to each worker once, not with each task
    played = played_here()  # what this command plays, sent with each task
    for batch in ordered(client, mined_on_a_worker, ((group, shared, options, played) for group in groups), ahead):
        yield from batch
