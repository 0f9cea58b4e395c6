"""``python -m harness.mutants mutants ...``: the ``mutants`` command without the main CLI."""

from __future__ import annotations

import sys

from harness.host.alone import run_alone
from harness.mutants.commands import COMMANDS, add_commands

if __name__ == "__main__":
    sys.exit(run_alone("python -m harness.mutants", add_commands, COMMANDS))
