"""A folder's commands run without the main CLI (``python -m harness.fuzzing``, ``python -m harness.mutants``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import Any


def run_alone(prog: str, add_commands: Callable[[Any], None], commands: Mapping[str, Callable[[Any], int]]) -> int:
    """Parse the arguments for ``commands`` and run the one named; its exit code."""
    parser = argparse.ArgumentParser(prog=prog)
    add_commands(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    args = parser.parse_args()
    try:
        return int(commands[args.command](args))
    except BrokenPipeError:  # `... | head` is a normal way to read a long listing
        return 0
