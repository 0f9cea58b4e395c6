"""``python -m harness.fuzzing fuzz|properties ...``: the commands without the main CLI."""

from __future__ import annotations

import argparse
import sys

from harness.fuzzing import COMMANDS, add_commands


def main() -> int:
    """Parse the arguments and run the command; its exit code."""
    parser = argparse.ArgumentParser(prog="python -m harness.fuzzing")
    add_commands(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    args = parser.parse_args()
    try:
        return int(COMMANDS[args.command](args))
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
