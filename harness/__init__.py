"""The CardVerse conformance harness: loads fixtures, runs them against an engine, reports."""

__version__ = "0.1.0"
KIT_NAME = "cardverse-conformance"
KIT_URL = "git+https://github.com/cardverse/cardverse-conformance"  # not on PyPI: installed from its git URL


def install_line(extra: str) -> str:
    """The command that installs the kit with ``extra`` (README.md, docs/ci.md)."""
    return f'pip install "{KIT_NAME}[{extra}] @ {KIT_URL}@v{__version__}"'
# One exit code per situation, in every command (the table is in README.md, "Exit codes"; tests/test_exit_codes.py
# holds every command to it).
EXIT_OK = 0  # everything asked for was checked, and it is clean
EXIT_FAILED = 1  # findings: a rule failure, an engine error, a difference, a lint error in what was checked
EXIT_USAGE = 2  # a usage or input error: an option, a path, a file that cannot be read; nothing was checked
EXIT_NEVER_STARTED = 3  # the engine never answered hello (or a few starts in a row): nothing of its rules was checked
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as a shell reports it); what was done so far is kept


class NeverStarted(Exception):
    """The engine never answered its handshake: the command stops at once with EXIT_NEVER_STARTED (the CLI words it)."""

    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = error
