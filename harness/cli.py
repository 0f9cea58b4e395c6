"""The ``cardverse-conformance`` command: assembles the commands each package registers from its ``commands.py``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from harness import EXIT_OK, KIT_NAME, __version__
from harness.audit import commands as audit
from harness.book import commands as book
from harness.fuzzing import commands as fuzzing
from harness.host.stopping import stopped_like_ctrl_c
from harness.ladder import commands as ladder
from harness.mutants import commands as mutants
from harness.perft import commands as perft
from harness.players import commands as players
from harness.reports import commands as reports
from harness.serve import commands as serve
from harness.suite import commands as suite
from harness.versions import commands as versions


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog=KIT_NAME, description="Check a CardVerse engine against the rules.")
    parser.add_argument("--version", action="version", version=f"{KIT_NAME} {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    reports.add_run_command(commands)
    suite.add_commands(commands)
    reports.add_commands(commands)
    serve.add_commands(commands)
    fuzzing.add_commands(commands)
    mutants.add_commands(commands)
    versions.add_commands(commands)
    book.add_commands(commands)
    ladder.add_commands(commands)
    players.add_commands(commands)
    perft.add_commands(commands)
    audit.add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        with stopped_like_ctrl_c():
            return int(COMMANDS[args.command](args))
    except BrokenPipeError:  # `... | head` is a normal way to read a long listing
        return EXIT_OK


COMMANDS = {**reports.COMMANDS, **suite.COMMANDS, **serve.COMMANDS, **fuzzing.COMMANDS, **mutants.COMMANDS,
            **versions.COMMANDS, **book.COMMANDS, **ladder.COMMANDS, **players.COMMANDS, **perft.COMMANDS,
            **audit.COMMANDS}
