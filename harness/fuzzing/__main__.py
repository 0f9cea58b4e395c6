"""``python -m harness.fuzzing fuzz|properties ...``: the commands without the main CLI."""

from __future__ import annotations

import sys

from harness.fuzzing import COMMANDS, add_commands
from harness.host.alone import run_alone

if __name__ == "__main__":
    sys.exit(run_alone("python -m harness.fuzzing", add_commands, COMMANDS))
