"""The default budgets of a fuzz run, apart so the CLI can show them without importing Hypothesis."""

DEFAULT_EXAMPLES = 200
# properties checks every listed action of one position in four on copies of the game: 40 games a
# game take about 6 s of CPU in all (200 took 62 s, 40 took 11 s before draws went straight to
# Hypothesis' choices) and still catch each broken invariant of the tests' fake engines (they need
# 20 at most) and every mutant it caught at 40 (`benchmarks/bench_fuzz.py --catalogue`).
PROPERTIES_EXAMPLES = 40
CI_EXAMPLES = 25  # CI gets a small budget so the suite stays fast; `--examples` overrides both
DEFAULT_MAX_STEPS = 150
SHRINK_SECONDS = 20.0  # past this, shrinking stops and the shortest failing game so far is kept
