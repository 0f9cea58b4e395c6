"""The ``diff``, ``new-version`` and ``texts`` commands: arguments, output, exit codes.

Exit codes: 0 nothing to report (no difference, documents in agreement with each other and the
spec), 1 something to report, 2 a usage error (the message says what to do).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


def add_commands(subparsers: Any) -> None:
    """Add ``new-version`` and ``texts`` to the CLI's subparsers (``diff`` is fuzzing's, which has --play)."""
    new = subparsers.add_parser("new-version", help="write a game file for a new rule version from an old one")
    new.add_argument("game", metavar="GAME")
    new.add_argument("old", metavar="FROM", help="the version to start from (bundled)")
    new.add_argument("to", metavar="TO", help="the new version, e.g. 1.2.0")
    new.add_argument("--out", metavar="FILE", help="where to write it (default: spec/games/GAME-TO.yaml in the working directory)")

    texts = subparsers.add_parser("texts", help="check rule documents against each other and the spec")
    texts.add_argument("documents", nargs="+", metavar="DOC", help="CardVerse rule documents (any language)")
    texts.add_argument("--game-file", action="append", metavar="FILE",
                       help="a game file beside the bundled ones to check against (repeatable)")
    texts.add_argument("--record", action="store_true",
                       help="print the `sources:` section to end the game file with (the documents' fingerprints)")
    texts.add_argument("--game", metavar="GAME", help="the documents' game, when no game file has their fingerprints yet")
    texts.add_argument("--json", action="store_true", help="one JSON object instead of text")


def command_diff(args: argparse.Namespace) -> int:
    """Print the differences between two game files; 1 when there are any (``diff``, registered by fuzzing)."""
    from harness.spec import gamespec as specs
    from harness.spec.gamefile import GameFileError, extra_game_files, resolve
    from harness.suite.arguments import load_reporting
    from harness.versions.diff import compare, format_diff

    try:
        old, new = resolve(args.old), resolve(args.new)
        if old.game != new.game:
            raise GameFileError(f"{args.old} is {old.game} and {args.new} is {new.game}: compare two versions of one game")
        known = {(s.game, s.rule_version) for s in specs.game_specs()}
        extra = [str(s.path) for s in (old, new) if (s.game, s.rule_version) not in known]
        with extra_game_files(extra):  # fixtures ranging over a version not bundled still lint
            loaded = load_reporting(args.paths)
            diff = compare(old, new, loaded.scenarios)
    except GameFileError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    print(json.dumps(diff.record(), ensure_ascii=False, indent=2) if args.json else format_diff(diff))
    if loaded.errors:
        return EXIT_USAGE
    return EXIT_OK if diff.empty and not (diff.only_old or diff.only_new) else EXIT_FOUND


def command_new_version(args: argparse.Namespace) -> int:
    """Write the new game file and list what needs a decision."""
    from harness.host.files import UnsafePath, write_file
    from harness.spec.gamefile import GameFileError, load_game_file, resolve
    from harness.spec.paths import local_games_dir, shown_path
    from harness.suite.arguments import load_reporting
    from harness.versions.newversion import check_versions, decisions, new_version_text

    # the user's folder, never the installed kit: later commands find it there (./spec/games)
    out = Path(args.out) if args.out else local_games_dir() / f"{args.game}-{args.to}.yaml"
    try:
        old = resolve(f"{args.game}@{args.old}")
        check_versions(old, args.to)
        if out.exists() or out.is_symlink():
            raise GameFileError(f"{out} exists already: remove it or give another --out")
        text = new_version_text(old, args.to)
        try:
            if not args.out:
                out.parent.mkdir(parents=True, exist_ok=True)  # ./spec/games, made on first use
            write_file(out, text)
        except OSError as error:
            raise GameFileError(f"cannot write {out} ({error.strerror or error}); give another --out") from None
        try:
            load_game_file(out)  # what was written must be a valid game file
        except GameFileError:
            out.unlink(missing_ok=True)  # an invalid game file left in the spec would fail every fixture
            raise
    except (GameFileError, UnsafePath) as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    print(f"wrote {shown_path(out)}: {args.game} {args.to}, a copy of {args.old} to edit")
    print("to decide:")
    for line in decisions(old, args.to, Path(shown_path(out)), load_reporting([]).scenarios):
        print(f"- {line}")
    return EXIT_OK


def command_texts(args: argparse.Namespace) -> int:
    """Check rule documents; 1 when they disagree or changed since the spec was written."""
    from harness.spec.gamefile import GameFileError, extra_game_files
    from harness.versions.texts.commands import texts

    try:
        with extra_game_files(args.game_file):
            return texts(args.documents, record=args.record, as_json=args.json, game=args.game)
    except GameFileError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE


COMMANDS = {"new-version": command_new_version, "texts": command_texts}  # command_diff: see fuzzing/versions.py
