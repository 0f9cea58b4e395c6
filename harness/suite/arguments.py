"""The arguments every command that reads fixtures shares: the paths, the selection, the cache."""

from __future__ import annotations

import argparse
import fnmatch
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import TextIO

from harness.spec.names import unmatched
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import Loader, load_paths
from harness.suite.model import LoadResult, Scenario
from harness.suite.scenario_cache import default_cache


def game_argument(value: str) -> str:
    """An argparse ``type`` for ``--game``: a game of the spec, else a usage error naming the close ones."""
    from harness.spec.gamespec import games, unknown_game

    if value not in games():
        raise argparse.ArgumentTypeError(unknown_game(value))
    return value


def clause_argument(value: str) -> str:
    """An argparse ``type`` for ``--clause``: a glob matching some clause id of the spec."""
    from harness.spec.gamespec import all_clauses

    problems = unmatched("clause", [value], all_clauses())
    if problems:
        raise argparse.ArgumentTypeError(f"{problems[0]}; `cardverse-conformance coverage` lists the clauses")
    return value


def unmatched_ids(args: argparse.Namespace, ids: Iterable[str]) -> list[str]:
    """A message for each ``--id`` glob that matches no fixture of ``ids`` (with the close ones)."""
    return unmatched("fixture id", getattr(args, "id", None) or [], ids)


def add_selection(sub: argparse.ArgumentParser) -> None:
    """The paths, and ``--game``, ``--clause`` and ``--id``."""
    sub.add_argument("paths", nargs="*", help="fixture files or folders (default: the bundled suite)")
    sub.add_argument("--game", action="append", type=game_argument, help="only this game (repeatable)")
    sub.add_argument("--clause", action="append", type=clause_argument,
                     help="only fixtures covering a clause matching this glob")
    sub.add_argument("--id", action="append", help="only fixtures whose id matches this glob")


def add_no_cache(sub: argparse.ArgumentParser) -> None:
    """``--no-cache``."""
    sub.add_argument("--no-cache", action="store_true",
                     help="parse and lint every file again, without the cache of linted fixtures "
                          "(also: CARDVERSE_NO_CACHE=1)")


def load_reporting(paths: Sequence[str | os.PathLike[str]], out: TextIO | None = None) -> LoadResult:
    """Load fixtures, printing every path problem and lint error."""
    out = out or sys.stderr
    result = load_paths(paths or [fixtures_dir()])
    for problem in result.path_errors:
        sys.stderr.write(f"{problem}\n")
    for error in result.errors:
        out.write(f"{error}\n")
    return result


def reporting_loader(args: argparse.Namespace, out: TextIO) -> Loader:
    """A loader of the paths given (with the cache unless turned off) that prints each lint error as found."""
    loader = Loader(args.paths or [fixtures_dir()], default_cache(not args.no_cache),
                    on_error=lambda error: out.write(f"{error}\n"))
    for problem in loader.path_errors:
        sys.stderr.write(f"{problem}\n")
    return loader


def select(scenarios: Iterable[Scenario], args: argparse.Namespace) -> Iterator[Scenario]:
    """The scenarios matching ``--game``, ``--clause`` and ``--id``, as they come."""
    for s in scenarios:
        if args.game and s.game not in args.game:
            continue
        if args.clause and not any(fnmatch.fnmatchcase(c, g) for c in s.clauses for g in args.clause):
            continue
        if args.id and not any(fnmatch.fnmatchcase(s.id, g) for g in args.id):
            continue
        yield s
