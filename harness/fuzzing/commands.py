"""The ``fuzz`` and ``properties`` commands: arguments, output, exit codes.

Output on stdout is one line per game or mutant, stable and parseable; progress goes to
stderr only on a terminal outside CI. Exit codes: 0 nothing found, 1 something found (a
divergence, a broken invariant, a surviving mutant), 2 a usage error (the message says what to do).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import EXIT_FAILED as EXIT_FOUND, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from harness.adapters.engine import EngineLoadError
from harness.fuzzing.interrupts import Interrupted, keeping_interrupts
from harness.host.files import UnsafePath, check_folder, file_part, write_inside
from harness.host.progress import Progress

KNOWN_FILE_LIMIT = 1 << 20  # bytes of a --known-file: a clause id or invariant a line
ON_CLUSTER = ("on a Dask cluster (the cluster extra): local:N worker processes here, or a running "
              "`dask scheduler`'s address; the same output as one process")


def add_commands(subparsers: Any) -> None:
    """Add ``fuzz`` and ``properties`` to the CLI's subparsers."""
    from harness.adapters.arguments import add_engine_options
    from harness.adapters.rule_versions import add_rule_version
    from harness.fuzzing.budget import (
        CI_EXAMPLES,
        DEFAULT_EXAMPLES,
        DEFAULT_MAX_STEPS,
        PROPERTIES_EXAMPLES,
    )
    from harness.fuzzing.seeds import seed_range


    def budget(sub: argparse.ArgumentParser, default: int = DEFAULT_EXAMPLES) -> None:
        sub.add_argument("--game", action="append", help="only this game (repeatable; default: every game)")
        sub.add_argument("--examples", type=int, metavar="N",
                         help=f"games per game (default {default}; {CI_EXAMPLES} when CI is set)")
        seeds = sub.add_mutually_exclusive_group()
        seeds.add_argument("--seed", type=int, default=0, metavar="S", help="Hypothesis seed (default 0): same seed, same games")
        seeds.add_argument("--seeds", type=seed_range, metavar="A:B", help="a campaign per game for each seed A to B-1, "
                                                                          "then a summary line")
        sub.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N",
                         help=f"moves per game at most (default {DEFAULT_MAX_STEPS})")
        sub.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                         help="a progress line on stderr (auto: only on a terminal outside CI)")
        sub.add_argument("--max-findings", type=int, default=1, metavar="N",
                         help="go on after a finding until N distinct ones (by clause or invariant; default 1)")
        sub.add_argument("--known", action="append", default=[], metavar="KEY",
                         help="a known difference to look past: a clause id (gin-rummy.knock) or an invariant "
                              "(hidden); repeatable")
        sub.add_argument("--known-file", metavar="FILE",
                         help="known differences to look past: a YAML or JSON list of keys, or a mapping key -> why")

    fuzz = subparsers.add_parser("fuzz", help="play random games on an engine and the reference in lockstep; "
                                              "write a fixture for each difference found")
    add_engine_options(fuzz)
    add_rule_version(fuzz)
    budget(fuzz)
    fuzz.add_argument("--records", metavar="FILE", help="write every game played (not shrinking's replays) as a "
                                                        "game record of the reference (spec/records.md), for audit")
    fuzz.add_argument("--out", metavar="DIR", help="write the fixture reproducing a difference here "
                                                   "(and keep Hypothesis' example database in DIR/.hypothesis)")
    fuzz.add_argument("--no-invariants", action="store_true", help="compare only; skip the invariant checks")
    fuzz.add_argument("--cluster", metavar="local[:N]|ADDRESS",
                      help="run the campaigns (one per game and seed) " + ON_CLUSTER)

    add_diff_command(subparsers)
    props = subparsers.add_parser("properties", help="check invariants that hold for every correct engine, "
                                                     "without the reference engine")
    add_engine_options(props)
    add_rule_version(props)
    budget(props, PROPERTIES_EXAMPLES)


def add_diff_command(subparsers: Any) -> None:
    """``diff`` (harness/versions/diff.py), with ``--play``: what the change does in play."""
    diff = subparsers.add_parser("diff", help="what changed between two rule versions, and the fixtures affected; "
                                              "--play: what it does in play")
    diff.add_argument("old", metavar="OLD", help="a game file, or GAME@VERSION for a bundled one (rummy@1.1.0)")
    diff.add_argument("new", metavar="NEW", help="the same for the other version")
    diff.add_argument("paths", nargs="*", help="fixture files or folders (default: the bundled suite)")
    diff.add_argument("--json", action="store_true", help="one JSON object instead of text")
    diff.add_argument("--play", action="store_true",
                      help="also play the reference at both versions in lockstep (fuzz) and show, for each clause, "
                           "the shortest game that plays differently")
    diff.add_argument("--out", metavar="DIR", help="with --play: write each difference as a pair of fixtures, one per "
                                                   "version, under DIR/CLAUSE/")
    diff.add_argument("--examples", type=int, metavar="N", help="with --play: games to play (default fuzz's)")
    diff.add_argument("--seed", type=int, default=0, metavar="S", help="with --play: Hypothesis seed (default 0)")



def _games(args: argparse.Namespace, engine: Any) -> list[str] | str:
    """The games to fuzz: those asked for, else every spec game the engine implements; or an error."""
    from harness.spec import gamespec as specs

    known = specs.games()
    unknown = [g for g in args.game or [] if g not in known]
    if unknown:
        return specs.unknown_game(unknown[0])
    from harness.adapters.handshake import described

    declared = described(engine).get("games", {})  # none: the engine never started (exit 3)
    chosen = args.game or [g for g in known if g in declared]
    return chosen or "the engine implements none of the spec's games; check its describe()"


def _open_engine(args: argparse.Namespace) -> Any:
    """The engine the options name, or an error message."""
    from harness.adapters.arguments import engine_from

    try:
        return engine_from(args)
    except (EngineLoadError, ValueError, OSError) as error:
        return str(error)


def known_keys(args: argparse.Namespace, game: str) -> frozenset[str] | str:
    """The known differences of ``--known`` and ``--known-file`` that belong to ``game``; or an error."""
    from harness.findings.games import facts
    from harness.fuzzing.invariants import INVARIANTS
    from harness.spec.gamespec import game_specs

    keys = list(args.known)
    if args.known_file:
        from harness.host.files import parse_data, read_utf8

        try:  # bounded as every data file is: its size, its depth, its aliases expanded
            kind = "json" if args.known_file.endswith(".json") else "yaml"
            data = parse_data(args.known_file, read_utf8(args.known_file, KNOWN_FILE_LIMIT), kind)
        except OSError as error:  # FileRefused too
            return f"--known-file {args.known_file}: cannot read it ({error})"
        if not isinstance(data, (list, dict)) or not all(isinstance(k, str) for k in data):
            return f"--known-file {args.known_file}: expected a list of clause ids or invariants, or a mapping of them"
        keys += list(data)
    clauses = {c for spec in game_specs() for c in spec.clauses}
    for key in keys:
        if key not in INVARIANTS and key != "seeded-deal" and key not in clauses:
            return (f"--known {key}: neither a clause id (`cardverse-conformance coverage` lists them) nor an "
                    f"invariant ({', '.join(sorted(INVARIANTS))}) nor seeded-deal")
    own = facts(game).spec.clauses
    return frozenset(k for k in keys if k in own or k not in clauses)


Plan = list[tuple[str, int, frozenset[str]]]  # the campaigns of a command: game, seed, known differences


def _per_game(args: argparse.Namespace, run_game: Callable[[Any, str, Progress, frozenset[str], int], Any],
              start: Callable[[Plan], None] | None = None) -> int:
    """Open the engine, then ``run_game(engine, game, progress, known, seed)`` for each seed and game (it
    returns the campaign's result), ``start`` told the plan first; whether any found something. Ctrl-C
    ends the engine and exits 130."""
    from harness.adapters.arguments import opened
    from harness.adapters.rule_versions import played_at
    from harness.fuzzing.seeds import summary
    from harness.host.cluster import ClusterError

    if getattr(args, "max_findings", 1) < 1:
        sys.stderr.write("--max-findings must be 1 or more\n")
        return EXIT_USAGE
    progress = Progress(args.progress)
    found = False
    try:
        engine = _open_engine(args)
        if isinstance(engine, str):
            sys.stderr.write(f"{engine}\n")
            return EXIT_USAGE
        with opened(engine), contextlib.ExitStack() as inside:
            games = _games(args, engine)
            if isinstance(games, str):
                sys.stderr.write(f"{games}\n")
                return EXIT_USAGE
            problem = inside.enter_context(played_at(args, engine, games))
            if problem:
                sys.stderr.write(f"{problem}\n")
                return EXIT_USAGE
            keys: dict[str, frozenset[str]] = {}
            for game in games:
                known = known_keys(args, game)
                if isinstance(known, str):
                    sys.stderr.write(f"{known}\n")
                    return EXIT_USAGE
                keys[game] = known
            plan = [(game, seed, keys[game]) for seed in args.seeds or [args.seed] for game in games]
            results = []
            try:
                if start is not None:
                    start(plan)
                for game, seed, known in plan:
                    results.append(run_game(engine, game, progress, known, seed))
                    found = bool(results[-1].findings) or found
                    if results[-1].interrupted:
                        raise Interrupted
            except (ValueError, ClusterError) as error:  # the engine does not implement the game; a cluster unusable
                progress.done()
                sys.stderr.write(f"{error}\n")
                return EXIT_USAGE
            if args.seeds:
                print(summary(args.seeds, results))
    except (KeyboardInterrupt, Interrupted):
        progress.done()
        kept = " (the findings so far are above)" if found else ""
        sys.stderr.write(f"interrupted: stopped at Ctrl-C, the engine was ended{kept}\n")
        return EXIT_INTERRUPTED
    return EXIT_FOUND if found else EXIT_OK


def _options(args: argparse.Namespace, game: str, known: frozenset[str], seed: int, out: Path | None = None,
             invariants: bool = True) -> Any:
    """The campaign options the command line asks for."""
    from harness.fuzzing.campaign import FuzzOptions
    from harness.fuzzing.seeds import database
    from harness.spec.gamespec import played_spec

    kept = None if out is None else database(out, game, seed) if args.seeds else out / ".hypothesis"
    return FuzzOptions(game, args.examples, seed, args.max_steps, kept, invariants, max_findings=args.max_findings,
                       known=known, rule_version=played_spec(game).rule_version)


def command_fuzz(args: argparse.Namespace) -> int:
    """Differential fuzzing against the reference engine."""
    from harness.fuzzing.campaign import fuzz
    from harness.fuzzing.recording import recording
    from harness.records.record import server_of
    from harness.records.writer import RecordWriter
    from reference_engine import create

    out = Path(args.out) if args.out else None
    try:
        if out:
            check_folder(out)  # before any engine starts: a finding must have somewhere to go
    except UnsafePath as error:
        sys.stderr.write(f"--out {error}\n")
        return EXIT_USAGE
    reference = create()
    server = server_of(reference)
    stack, remote = contextlib.ExitStack(), []
    try:
        records = stack.enter_context(RecordWriter(args.records)) if args.records else None
    except UnsafePath as error:  # a folder that does not exist, or a path that is not a file
        sys.stderr.write(f"--records {error}\n")
        return EXIT_USAGE

    def start(plan: Plan) -> None:
        from harness.fuzzing.seeds import on_cluster
        from harness.host.cluster import connected

        client = stack.enter_context(connected(args.cluster))
        options = [_options(args, game, known, seed, out, not args.no_invariants) for game, seed, known in plan]
        remote.append(on_cluster(client, args.cluster, args, options))

    def run_game(engine: Any, game: str, progress: Progress, known: frozenset[str], seed: int) -> Any:
        where = f"fuzz {game}" + (f" seed {seed}" if args.seeds else "")
        if remote:
            progress.show(f"{where}: on the cluster")
            result, lines = next(remote[0])
            if records:
                records.write_all(lines)
        else:
            played = recording(reference, server, seed, records.write) if records else None
            result = fuzz(engine, _options(args, game, known, seed, out, not args.no_invariants), reference,
                          lambda done, total: progress.show(f"{where}: example {done}/{total}"), played)
        progress.done()
        print(_headline(result, seed if args.seeds else None))
        print(f"  {result.reach.line()}")
        for note in result.notes:
            print(f"  note: {note}")
        _print_looked_past(result)
        for number, finding in enumerate(result.findings, start=1):
            _print_finding(finding, number, len(result.findings), out, engine, reference, result.interrupted)
        return result

    with stack:  # the cluster closed, then the records
        return _per_game(args, run_game, start if args.cluster else None)


def _print_looked_past(result: Any) -> None:
    """One line for the known differences the campaign looked past."""
    if result.looked_past:
        print("  looked past (known): " + ", ".join(f"{k} in {n} game(s)" for k, n in sorted(result.looked_past.items())))


def _print_finding(finding: Any, number: int, count: int, out: Path | None, engine: Any, reference: Any,
                   interrupted: bool) -> None:
    """One finding of ``fuzz``: what differs, then its fixture, replay file or replay text."""
    from harness.findings.model import Divergence
    from harness.findings.verify import verify_fixture
    from harness.findings.writer import write_fixture

    if count > 1:
        print(f"  finding {number}/{count}, after {len(finding.moves)} moves:")
    print("  " + str(finding.failure).replace("\n", "\n  "))
    failure = finding.failure
    if out is None:
        print("  replay (the setup, then one move a line; --out DIR writes a fixture instead):")
        print("  " + finding.replay_text().replace("\n", "\n  "))
    elif isinstance(failure, Divergence) and failure.check | ({"move": 1} if failure.move else {}):
        path = write_fixture(finding, out)
        if interrupted:  # no more engine calls after Ctrl-C: the fixture is kept, unchecked
            print(f"  fixture: {path} (not checked: interrupted)")
        else:
            print(f"  fixture: {path} ({verify_fixture(path, engine, reference).summary()})")
    else:
        path = _write_replay(finding, out)
        why = ("a seeded deal cannot be a fixture (fixtures have no seeds)" if isinstance(failure, Divergence)
               else "an invariant needs no reference, so there is no fixture to write")
        print(f"  replay: {path} ({why})")


def _headline(result: Any, seed: int | None = None) -> str:
    """``game: N examples, M steps in S s: verdict`` (``game seed S: ...`` in a campaign over seeds)."""
    rate = f", {result.steps / result.seconds:.0f} steps/s" if result.seconds > 0 else ""
    game = result.game if seed is None else f"{result.game} seed {seed}"
    head = f"{game}: {result.examples} examples, {result.steps} steps in {result.seconds:.1f} s{rate}"
    if result.interrupted:
        head += " (interrupted)"
    if not result.findings:
        return f"{head}: nothing found"
    if len(result.findings) > 1:
        return f"{head}: {len(result.findings)} distinct findings"
    finding = result.finding
    what = "DIVERGENCE" if type(finding.failure).__name__ == "Divergence" else "VIOLATION"
    return f"{head}: {what} after {len(finding.moves)} moves"


def _write_replay(finding: Any, out: Path) -> Path:
    """The finding's setup and moves as JSON lines in ``out``."""
    text = finding.replay_text()
    name = f"{file_part(finding.setup.game)}.violation-{hashlib.sha1(text.encode()).hexdigest()[:10]}.jsonl"
    return write_inside(out, name, text + "\n")


def command_properties(args: argparse.Namespace) -> int:
    """The engine-agnostic invariants on one engine."""
    from harness.fuzzing.budget import PROPERTIES_EXAMPLES
    from harness.fuzzing.properties import check_properties

    if args.examples is None and not os.environ.get("CI"):
        args.examples = PROPERTIES_EXAMPLES

    def run_game(engine: Any, game: str, progress: Progress, known: frozenset[str], seed: int) -> Any:
        result = check_properties(engine, _options(args, game, known, seed),
                                  lambda done, total: progress.show(f"properties {game}: {done}/{total}"))
        progress.done()
        print(_headline(result, seed if args.seeds else None).replace("nothing found", "every invariant holds"))
        _print_looked_past(result)
        for number, finding in enumerate(result.findings, start=1):
            if len(result.findings) > 1:
                print(f"  finding {number}/{len(result.findings)}, after {len(finding.moves)} moves:")
            print("  " + str(finding.failure).replace("\n", "\n  "))
            print("  replay (the setup, then one move a line with the engine's answer):")
            print("  " + finding.replay_text().replace("\n", "\n  ").replace('"reference"', '"engine"'))
        return result

    return _per_game(args, run_game)


def command_diff(args: argparse.Namespace) -> int:
    """``diff`` of two rule versions, and with --play what the change does in play (harness/fuzzing/versions.py)."""
    from harness.fuzzing.versions import command_diff as diff

    return diff(args)


COMMANDS = {name: keeping_interrupts(command) for name, command in
            {"fuzz": command_fuzz, "properties": command_properties, "diff": command_diff}.items()}
