"""The default budgets of a fuzz run, apart so the CLI can show them without importing Hypothesis."""

DEFAULT_EXAMPLES = 200
CI_EXAMPLES = 25  # CI gets a small budget so the suite stays fast; `--examples` overrides both
DEFAULT_MAX_STEPS = 150
SHRINK_SECONDS = 20.0  # past this, shrinking stops and the shortest failing game so far is kept
