"""The CardVerse conformance harness: loads fixtures, runs them against an engine, reports."""

__version__ = "0.1.0"
KIT_NAME = "cardverse-conformance"
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2  # every command: nothing found, something found, a usage error
EXIT_NEVER_STARTED = 3  # run: the engine never answered hello (a few starts in a row), so the run stopped at once
