"""The ``perft`` command: counts per depth on any engine, divide, the published vectors, and the automatic divide.

stdout holds one line per depth (and per first action with ``--divide``), stable and parseable;
progress goes to stderr only on a terminal outside CI. Exit codes: 0 the counts agree with the
reference's (or the engine is the reference), 1 they differ or the engine misbehaved, 2 a usage error,
130 interrupted (the leaves counted so far said, and written to --json marked interrupted).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any

from harness import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE

MAX_DEPTH = 40  # plies counted at most: a card game's tree past some ten plies is too wide to count anyway
from harness.adapters.engine import EngineLoadError
from harness.host.progress import Progress

if TYPE_CHECKING:
    from harness.perft.beside import Beside, Handshake


def add_commands(subparsers: Any) -> None:
    """Add ``perft`` to the CLI's subparsers."""
    from harness.adapters.arguments import add_engine_options
    from harness.adapters.rule_versions import add_rule_version
    from harness.spec.options import add_option_argument

    perft = subparsers.add_parser("perft", help="count every line of legal play to a depth from a seeded deal or a "
                                                "fixture's layout; against the reference, divide down to the "
                                                "position whose legal actions differ")
    add_engine_options(perft)
    add_rule_version(perft)
    perft.add_argument("fixture", nargs="?", metavar="FIXTURE", help="start from this fixture's layout (its steps are not played)")
    perft.add_argument("--game", help="rummy, gin-rummy or president (with --seed or --vectors)")
    perft.add_argument("--seed", type=int, metavar="S", help="start from the spec's seeded deal of seed S")
    perft.add_argument("--players", type=int, metavar="P", help="seats of the seeded deal (default: the game's least)")
    add_option_argument(perft)
    perft.add_argument("--depth", type=int, metavar="N", help="count to this depth (plies of any seat)")
    perft.add_argument("--vectors", action="store_true",
                       help="check the engine against the published vectors of --game (spec/perft/), or of every game")
    perft.add_argument("--divide", action="store_true", help="also print the count below each first action")
    perft.add_argument("--json", metavar="FILE", help="write one JSON object per depth: {\"depth\": d, \"nodes\": n}")
    perft.add_argument("--out", metavar="DIR", help="write the position whose legal actions differ as a fixture here")
    perft.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                       help="a progress line on stderr (auto: only on a terminal outside CI)")


def chosen_setup(args: argparse.Namespace) -> dict[str, Any] | str:
    """The setup the command line names: a seeded deal or a fixture's layout; or an error."""
    from harness.findings.games import facts
    from harness.spec import gamespec as specs
    from harness.spec.options import option_values

    if (args.seed is None) == (args.fixture is None):
        return "give either --seed S (with --game) or a FIXTURE file to start from"
    if args.fixture is not None:
        from harness.suite.fixtures import load_paths

        loaded = load_paths([FilePath(args.fixture)])
        problems = [str(e) for e in [*loaded.path_errors, *loaded.errors]]
        if problems or not loaded.scenarios:
            return "\n".join(problems or [f"{args.fixture}: no fixture in it"]) + "\nfix the fixture, or start from --seed"
        scenario = loaded.scenarios[0]
        if args.game and args.game != scenario.game:
            return f"{args.fixture} is a {scenario.game} fixture, not {args.game}"
        covered = specs.specs_in_range(scenario.game, scenario.rule_versions)
        played = specs.played_spec(scenario.game)  # the version asked for, if the fixture covers it
        spec = played if played in covered and args.rule_version else covered[-1]
        options = option_values(spec, args.option)
        if isinstance(options, str):
            return options
        setup = {"game": scenario.game, "rule_version": spec.rule_version,
                 "options": {**spec.option_defaults, **scenario.options, **options}}
        if "seed" in scenario.layout:
            return {**setup, **scenario.layout}
        return {**setup, "layout": scenario.layout, "later_layouts": list(scenario.later_layouts)}
    if args.game not in specs.games():
        return f"--game: give one of {', '.join(specs.games())}" if not args.game else specs.unknown_game(args.game)
    game = facts(args.game)  # at the rule version being played
    low, high = game.players
    players = low if args.players is None else args.players
    if not low <= players <= high:
        return f"--players {players}: {args.game} is for {low} to {high} players"
    options = option_values(game.spec, args.option)
    if isinstance(options, str):
        return options
    return {"game": args.game, "rule_version": game.spec.rule_version,
            "options": {**game.spec.option_defaults, **options}, "seed": args.seed, "players": players}


def title(setup: dict[str, Any]) -> str:
    """The position for the headline: ``gin-rummy seed 1, 2 players, knock_limit 5``."""
    from harness.findings.games import facts

    defaults = facts(setup["game"], setup["rule_version"]).spec.option_defaults
    changed = ", ".join(f"{k} {json.dumps(v)}" for k, v in setup["options"].items() if defaults.get(k) != v)
    start = (f"seed {setup['seed']}, {setup['players']} players" if "seed" in setup
             else f"a layout, {len(setup['layout'].get('hands', []))} players")
    return f"{setup['game']} {start}" + (f", {changed}" if changed else "")


class Ticker:
    """The progress line: leaves counted so far, redrawn at most ten times a second."""

    def __init__(self, progress: Progress, label: str) -> None:
        self.progress, self.label, self.leaves, self.shown = progress, label, 0, 0.0

    def __call__(self, leaves: int) -> None:
        """``leaves`` more counted."""
        self.leaves += leaves
        now = time.monotonic()
        if self.progress.on and now - self.shown > 0.1:
            self.progress.show(f"{self.label}: {self.leaves:,} leaves")
            self.shown = now


def command_perft(args: argparse.Namespace) -> int:
    """``perft`` at the rule version asked for (``--rule-version``), else the newest the engine declares."""
    from harness.adapters.rule_versions import played_by

    with played_by(args, [args.game] if args.game else []) as problem:
        if problem:
            sys.stderr.write(f"{problem}\n")
            return EXIT_USAGE
        return counted_and_compared(args)


def counted_and_compared(args: argparse.Namespace) -> int:
    """``perft``: count, compare with the reference, divide."""
    from harness.adapters.arguments import engine_from, is_remote, opened
    from harness.perft.beside import Beside, Handshake

    if args.vectors:
        from harness.perft.check import command_vectors

        return command_vectors(args)
    if args.depth is None or not 1 <= args.depth <= MAX_DEPTH:
        sys.stderr.write(f"--depth N: give the depth to count to, 1 to {MAX_DEPTH} (e.g. --depth 4)\n")
        return EXIT_USAGE
    if args.seed is not None and not 0 <= args.seed < 2**64:
        sys.stderr.write(f"--seed {args.seed}: a seed is an integer from 0 to 2^64-1\n")
        return EXIT_USAGE
    setup = chosen_setup(args)
    if isinstance(setup, str):
        sys.stderr.write(setup + "\n")
        return EXIT_USAGE
    # a remote engine mostly makes the harness wait (its start, its own count): the reference counts meanwhile,
    # started before the engine is
    beside = Beside(lambda: reference_tree(setup), args.depth) if is_remote(args) else None
    try:
        try:
            engine = engine_from(args)
        except (EngineLoadError, ValueError, OSError) as error:
            sys.stderr.write(f"{error}\n")
            return EXIT_USAGE
        with opened(engine):
            return perft_on(engine, setup, args, Handshake(engine) if is_remote(args) else None, beside)
    finally:
        if beside is not None:
            beside.close()


def reference_tree(setup: dict[str, Any]) -> Any:
    """The reference's tree from ``setup``."""
    from harness.adapters.engine import DEFAULT_ENGINE, load_engine
    from harness.perft.tree import LocalTree

    return LocalTree(load_engine(DEFAULT_ENGINE), setup)


def is_reference(args: argparse.Namespace) -> bool:
    """Whether the engine is the reference itself (nothing to compare with)."""
    from harness.adapters.arguments import is_remote
    from harness.adapters.engine import DEFAULT_ENGINE

    return not is_remote(args) and args.engine in (None, DEFAULT_ENGINE)


def perft_on(engine: Any, setup: dict[str, Any], args: argparse.Namespace, hello: Handshake | None = None,
             beside: Beside | None = None) -> int:
    """Count on ``engine``, print, compare with the reference and divide when they differ; ``hello``: its
    handshake, and ``beside``: the reference's count, both already under way."""
    from harness import NeverStarted
    from harness.adapters.handshake import start_error
    from harness.adapters.protocol import AdapterError, EngineError
    from harness.perft.beside import handed_back
    from harness.perft.counted import CountingTree
    from harness.perft.locate import tree
    from harness.perft.tree import PerftError

    game = setup["game"]
    reference = None if is_reference(args) else reference_tree(setup)
    try:
        declared = (hello.description() if hello is not None else engine.describe()).get("games", {})
    except Exception as error:  # no answer to hello: the engine never started (exit 3)
        raise NeverStarted(start_error(error)) from None
    if game not in declared:
        sys.stderr.write(f"the engine does not implement {game} (its describe() lists {', '.join(declared) or 'none'})\n")
        return EXIT_USAGE
    progress = Progress(args.progress)
    tested = tree(engine, setup)
    ticker = Ticker(progress, f"perft depth {args.depth}")
    try:
        print(title(setup), flush=True)  # from here a Ctrl-C says what was counted
        began = time.perf_counter()
        with handed_back(beside is not None and beside.threaded and not isinstance(tested, CountingTree)):
            counts = tested.counts(args.depth, tick=ticker)
        seconds = time.perf_counter() - began
        wanted = (beside.result() if beside is not None else reference.counts(args.depth)
                  ) if reference is not None else counts
        divide_differs = isinstance(tested, CountingTree) and beside is not None and \
            divided(tested.divide(args.depth)) != divided(beside.divide)
    except (PerftError, AdapterError, EngineError) as error:
        progress.done()
        print(f"error: {error}" if isinstance(error, PerftError) else f"error: the engine failed: {error}")
        return EXIT_FAILED
    except KeyboardInterrupt:  # the walk is depth-first (or a level at a time): what is kept is the leaves so far
        progress.done()
        print(f"interrupted (Ctrl-C) after {ticker.leaves:,} leaves counted toward depth {args.depth}: no depth's "
              "count is complete; count to a smaller depth first")
        if args.json:
            write_lines(args.json, [{"depth": args.depth, "interrupted": True, "leaves_counted": ticker.leaves}])
        return EXIT_INTERRUPTED
    progress.done()
    for depth, (nodes, want) in enumerate(zip(counts, wanted), start=1):
        print(f"depth {depth}: {nodes}" + ("" if nodes == want else f"  DIFFERS: the reference counts {want}"))
    rate = f" ({sum(counts) / seconds:,.0f} nodes/s)" if seconds > 0 else ""
    print(f"{sum(counts):,} nodes in {seconds:.2f} s{rate}")
    if args.json and not write_json(args.json, counts, wanted if reference is not None else None):
        return EXIT_USAGE
    try:
        if args.divide:
            print_divide(tested, reference, args.depth)
        if counts == wanted and not divide_differs:
            if reference is not None:  # compared, not merely counted: say so, or a bare count reads as unchecked
                print(f"the engine's counts agree with the reference's at every depth, 1 to {args.depth}")
            return EXIT_OK
        from harness.perft.check import explain

        if counts == wanted:  # the same totals, split otherwise: a child miscounted, or two bugs that cancel out
            print(f"the counts agree, but the engine's divide at depth {args.depth} differs from the reference's")
        first = next((depth for depth, (a, b) in enumerate(zip(counts, wanted), start=1) if a != b), args.depth)
        explain(engine, tested, reference, setup, first, FilePath(args.out) if args.out else None)
    except PerftError as error:
        print(f"error: {error}")
    return EXIT_FAILED


def divided(divide: list[tuple[dict[str, Any], int]]) -> dict[str, int]:
    """A divide as a mapping, for comparing: each first action's key with its count."""
    from harness.spec.cards import action_key

    return {action_key(action): nodes for action, nodes in divide}


def print_divide(tested: Any, reference: Any, depth: int) -> None:
    """The count below each first action, the reference's beside it where it differs."""
    from harness.spec.cards import action_key, show

    mine = tested.divide(depth)
    theirs = {action_key(a): n for a, n in reference.divide(depth)} if reference is not None else None
    for action, nodes in mine:
        want = theirs.get(action_key(action)) if theirs is not None else nodes
        note = "" if want == nodes else ("  DIFFERS: not legal for the reference" if want is None
                                         else f"  DIFFERS: the reference counts {want}")
        print(f"  {show(action)}: {nodes}{note}")
    if theirs is not None:
        listed = {action_key(a) for a, _ in mine}
        for action, nodes in reference.divide(depth):
            if action_key(action) not in listed:
                print(f"  {show(action)}: missing  DIFFERS: the reference counts {nodes}")


def write_json(name: str, counts: list[int], wanted: list[int] | None) -> bool:
    """``--json``: one object per depth (with the reference's count when compared); whether it was written."""
    records: list[dict[str, Any]] = []
    for depth, nodes in enumerate(counts, start=1):
        records.append({"depth": depth, "nodes": nodes})
        if wanted is not None:
            records[-1]["reference"] = wanted[depth - 1]
    return write_lines(name, records)


def write_lines(name: str, records: list[dict[str, Any]]) -> bool:
    """``records`` as JSON lines in the file ``name``; whether it was written (else the error is on stderr)."""
    try:
        with open(name, "w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record) + "\n")
    except OSError as error:
        sys.stderr.write(f"cannot write --json {name}: {error.strerror}; give a file in a folder you can write\n")
        return False
    return True


COMMANDS = {"perft": command_perft}
