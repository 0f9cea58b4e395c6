"""The mutation score: which mutants the fixture suite kills, and which ones fuzzing finds.

A mutant is killed when some fixture of its game fails or errors on it while passing on the
reference engine (a fixture the reference fails proves nothing). A survivor means a missing
fixture. The suite runs in process through the harness ``Runner``, as ``run`` would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from harness.fixtures import Scenario
from harness.fuzzing.campaign import FuzzOptions, FuzzResult, fuzz
from harness.fuzzing.mutants import Mutant, engine as mutant_engine
from harness.runner import Runner


@dataclass
class MutantOutcome:
    """What happened to one mutant."""

    mutant: Mutant
    killed_by: list[str] = field(default_factory=list)
    fuzz: FuzzResult | None = None

    @property
    def killed(self) -> bool:
        """Whether a fixture kills it."""
        return bool(self.killed_by)

    @property
    def found_by_fuzz(self) -> bool | None:
        """Whether fuzzing found it (None: not fuzzed)."""
        return None if self.fuzz is None else self.fuzz.finding is not None


def sound_fixtures(scenarios: list[Scenario]) -> tuple[list[Scenario], list[str]]:
    """The scenarios the reference engine passes, and the ids of those it fails (a skip is neither)."""
    from reference_engine import create

    runner = Runner(create())
    results = list(runner.run_all(scenarios))
    return ([r.scenario for r in results if r.outcome == "pass"],
            [r.scenario.id for r in results if r.outcome in ("fail", "error")])


def kills(mutant: Mutant, scenarios: list[Scenario]) -> list[str]:
    """The ids of the scenarios of the mutant's game that fail or error on it."""
    runner = Runner(mutant_engine(mutant.id))
    return [s.id for s in scenarios if s.game == mutant.game and runner.run(s).outcome in ("fail", "error")]


def score(mutants: list[Mutant], scenarios: list[Scenario], fuzz_options: FuzzOptions | None,
          progress: Callable[[int, int, str], None] | None = None) -> Iterator[MutantOutcome]:
    """Every mutant against the (sound) scenarios, and fuzzed when ``fuzz_options`` is given,
    one outcome at a time (fuzzing a mutant takes seconds: the report can follow along)."""
    for i, mutant in enumerate(mutants, start=1):
        if progress:
            progress(i, len(mutants), mutant.id)
        outcome = MutantOutcome(mutant, kills(mutant, scenarios))
        if fuzz_options is not None:
            options = FuzzOptions(mutant.game, fuzz_options.examples, fuzz_options.seed, fuzz_options.max_steps)
            outcome.fuzz = fuzz(mutant_engine(mutant.id), options)
        yield outcome
