"""Whether `run` charges a failure to the rule broken: ``python benchmarks/bench_step_blame.py``.

Runs each game's fixtures against every mutant of the catalogue and, for each failure, compares the
clauses it is charged to with the clause the mutant breaks: before (the step's clauses, else the
fixture's) and with the clause trace at the failing step (``audit.steps.blamed``). Prints, over all
failures, how many clauses each names on average, how often the mutant's own clause is among them,
and the time the trace took.
"""

from __future__ import annotations

import time
from dataclasses import replace

from harness.audit.steps import blamed
from harness.mutants.catalogue import CATALOGUE
from harness.mutants.catalogue import engine as mutant_engine
from harness.run.runner import Runner
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths


def main() -> None:
    scenarios = load_paths([fixtures_dir()]).scenarios
    failures = named_before = named_after = own_before = own_after = 0
    traced = 0.0
    for mutant in CATALOGUE:
        runner = Runner(mutant_engine(mutant.id))
        for scenario in (s for s in scenarios if s.game == mutant.game):
            result = runner.run(scenario)
            if result.outcome != "fail":
                continue
            before = result.charged
            began = time.perf_counter()
            after = replace(result, blamed=blamed(result, scenario)).charged
            traced += time.perf_counter() - began
            failures += 1
            named_before, named_after = named_before + len(before), named_after + len(after)
            own_before, own_after = own_before + (mutant.clause in before), own_after + (mutant.clause in after)
    print(f"{len(CATALOGUE)} mutants, {failures} failing fixtures")
    print(f"before: {named_before / failures:.2f} clauses a failure, the mutant's own among them in "
          f"{own_before}/{failures}")
    print(f"traced: {named_after / failures:.2f} clauses a failure, the mutant's own among them in "
          f"{own_after}/{failures}; the trace took {traced * 1000:.0f} ms ({traced / failures * 1000:.2f} ms a failure)")


if __name__ == "__main__":
    main()
