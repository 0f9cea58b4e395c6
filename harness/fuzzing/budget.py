"""The default budgets of a fuzz run, apart so the CLI can show them without importing Hypothesis."""

DEFAULT_EXAMPLES = 200
# properties checks every listed action of one position in four on copies of the game: a game
# costs about 4x a fuzz game, so 40 games a game keep the whole run near 12 s of CPU (200 took 62 s)
# and still catch each broken invariant of the tests' fake engines (they need 20 at most).
PROPERTIES_EXAMPLES = 40
CI_EXAMPLES = 25  # CI gets a small budget so the suite stays fast; `--examples` overrides both
DEFAULT_MAX_STEPS = 150
SHRINK_SECONDS = 20.0  # past this, shrinking stops and the shortest failing game so far is kept
