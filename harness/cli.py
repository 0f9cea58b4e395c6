"""The ``cardverse-conformance`` command: assembles the commands each package registers from its ``commands.py``."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence
from types import ModuleType

from harness import EXIT_INTERRUPTED, EXIT_NEVER_STARTED, EXIT_OK, KIT_NAME, NeverStarted, __version__
from harness.host.stopping import stopped_like_ctrl_c

# The folders whose commands.py registers commands, in the order of the help's listing (run comes first).
FOLDERS = ("reports", "suite", "serve", "fuzzing", "mutants", "versions", "book", "ladder", "players", "perft", "audit")
# serve is the engine behind the protocol that every remote run starts, and waits for: it loads nothing else
ALONE = {"serve": ("serve",)}


def folders(names: Sequence[str] = FOLDERS) -> list[ModuleType]:
    """The ``commands`` modules of ``names``, imported."""
    return [importlib.import_module(f"harness.{name}.commands") for name in names]


def build_parser(names: Sequence[str] = FOLDERS) -> argparse.ArgumentParser:
    """The argument parser with the subcommands of ``names`` (every one by default)."""
    parser = argparse.ArgumentParser(prog=KIT_NAME, description="Check a CardVerse engine against the rules.")
    parser.add_argument("--version", action="version", version=f"{KIT_NAME} {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in folders(names):
        if hasattr(module, "add_run_command"):
            module.add_run_command(commands)
        module.add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    import sys

    given = list(sys.argv[1:] if argv is None else argv)
    names = ALONE.get(given[0], FOLDERS) if given else FOLDERS
    args = build_parser(names).parse_args(given)
    table = {name: command for module in folders(names) for name, command in module.COMMANDS.items()}
    try:
        with stopped_like_ctrl_c():
            return int(table[args.command](args))
    except BrokenPipeError:  # `... | head` is a normal way to read a long listing
        return EXIT_OK
    except NeverStarted as stop:  # every command that talks to an engine: the same words, the same exit code
        from harness.adapters.handshake import never_started_words, stderr_tail

        sys.stderr.write(never_started_words(args, stop.error, stderr_tail(stop.error)))
        return EXIT_NEVER_STARTED
    except KeyboardInterrupt:  # a command with no Ctrl-C of its own (docs, serve...): one line, never a traceback
        sys.stderr.write(f"{args.command}: interrupted (Ctrl-C)\n")
        return EXIT_INTERRUPTED
