"""The ``mutants`` command: the mutation score of a fixture suite, and whether fuzz finds each mutant."""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import sys
from typing import Any

from harness import EXIT_FAILED as EXIT_FOUND
from harness import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from harness.fuzzing.budget import DEFAULT_MAX_STEPS
from harness.fuzzing.commands import ON_CLUSTER
from harness.fuzzing.interrupts import keeping_interrupts
from harness.host.progress import Progress
from harness.suite.arguments import game_argument



def add_commands(subparsers: Any) -> None:
    """Add ``mutants`` to the CLI's subparsers."""
    from harness.adapters.rule_versions import add_rule_version

    mutants = subparsers.add_parser("mutants", help="run the fixture suite against every mutant of the "
                                                    "reference engine: the mutation score")
    mutants.add_argument("paths", nargs="*", help="fixture files or folders (default: the bundled suite)")
    mutants.add_argument("--game", action="append", type=game_argument, help="only mutants of this game (repeatable)")
    mutants.add_argument("--mutant", action="append", metavar="GLOB", help="only mutants whose id matches")
    mutants.add_argument("--list", action="store_true", help="list the catalogue and stop")
    mutants.add_argument("--no-fuzz", action="store_true", help="skip checking that fuzz finds each mutant")
    mutants.add_argument("--examples", type=int, metavar="N",
                         help="fuzz budget per herd of mutants (default: fuzz's, 200)")
    add_rule_version(mutants)
    mutants.add_argument("--seed", type=int, default=0, metavar="S", help="Hypothesis seed for fuzz (default 0)")
    mutants.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N", help="fuzz moves per game")
    mutants.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                         help="a progress line on stderr (auto: only on a terminal outside CI)")
    mutants.add_argument("--jobs", type=int, metavar="N", help="processes to spread the mutants over "
                                                              "(default: one per core)")
    mutants.add_argument("--json", metavar="FILE", help="also write one JSON line per mutant as it is scored, "
                                                        "then a summary line (--generated: no summary line)")
    mutants.add_argument("--cluster", metavar="local[:N]|ADDRESS",
                         help="score the herds (--jobs of them; default one per worker) " + ON_CLUSTER)
    mutants.add_argument("--generated", action="store_true",
                         help="mutants generated from the reference engine's code by mutmut's operators, not the "
                              "catalogue: crash at once, killed by fixtures, found by fuzz (fixture mined), survived")
    mutants.add_argument("--sample", type=int, metavar="N",
                         help="with --generated: N mutants of each game, drawn by --seed (the same for the same code)")
    mutants.add_argument("--out", metavar="DIR", help="with --generated: write there the fixture fuzz mines from each "
                                                      "mutant it finds, and mined.jsonl, each mutant's place")


def command_mutants(args: argparse.Namespace) -> int:
    """The mutation score of the fixture suite (and whether fuzz finds each mutant)."""
    from harness.adapters.rule_versions import played_by
    from harness.spec import gamespec as specs

    try:
        with played_by(args, args.game or specs.games()) as problem:  # the reference's rule version, for fuzz
            if problem:
                sys.stderr.write(f"{problem}\n")
                return EXIT_USAGE
            return _mutants(args)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted: stopped at Ctrl-C, the workers were ended (the mutants scored so far are above)\n")
        return EXIT_INTERRUPTED


def _mutants(args: argparse.Namespace) -> int:
    """``mutants`` itself; Ctrl-C propagates."""
    if args.generated:
        from harness.mutants.generated_command import run_generated

        return run_generated(args)
    if args.sample is not None or args.out:
        sys.stderr.write("--sample and --out go with --generated\n")
        return EXIT_USAGE
    from harness.fuzzing.campaign import FuzzOptions
    from harness.host.cluster import ClusterError, connected, workers
    from harness.mutants.catalogue import CATALOGUE
    from harness.mutants.scoring import (
        default_jobs,
        outcome_line,
        outcome_record,
        score,
    )
    from harness.mutants.variants import VariantError

    chosen = [m for m in CATALOGUE if (not args.game or m.game in args.game)
              and (not args.mutant or any(fnmatch.fnmatchcase(m.id, g) for g in args.mutant))]
    if args.list:
        for mutant in chosen:
            print(f"{mutant.id}\t{mutant.clause}\t{mutant.mistake}")
        return EXIT_OK
    if not chosen:
        sys.stderr.write("no mutant matches; `cardverse-conformance mutants --list` shows the catalogue\n")
        return EXIT_USAGE
    if args.jobs is not None and args.jobs < 1:
        sys.stderr.write("--jobs must be 1 or more\n")
        return EXIT_USAGE
    from harness.mutants.scoring import sound_suite

    scenarios = sound_suite(args.paths)
    if scenarios is None:
        return EXIT_USAGE
    if args.no_fuzz and not any(s.game == m.game for s in scenarios for m in chosen):
        sys.stderr.write("nothing to check: no fixture of the mutants' games among the paths given, and --no-fuzz: "
                         "give fixtures of those games, or let fuzz look for the mutants\n")
        return EXIT_USAGE
    progress = Progress(args.progress)
    fuzz_options = None if args.no_fuzz else FuzzOptions("", args.examples, args.seed, args.max_steps)
    outcomes = []
    try:
        lines = open(args.json, "w", encoding="utf-8") if args.json else None  # noqa: SIM115 (closed below)
    except OSError as error:
        sys.stderr.write(f"cannot write --json {args.json}: {error.strerror}; give a file in a folder you can write\n")
        return EXIT_USAGE
    stack = contextlib.ExitStack()
    try:
        for mutant in chosen:  # built here once: a mutant that no longer applies is a usage error up front
            from harness.mutants.catalogue import engine

            engine(mutant.id)
        client = stack.enter_context(connected(args.cluster)) if args.cluster else None
        jobs = args.jobs or (workers(client) if client is not None else default_jobs())
        for outcome in score(chosen, scenarios, fuzz_options,
                             lambda i, n, name: progress.show(f"mutant {i}/{n}: {name}"), jobs, client):
            progress.done()
            print(outcome_line(outcome), flush=True)
            if lines is not None:
                lines.write(json.dumps(outcome_record(outcome)) + "\n")
                lines.flush()  # kept line by line: a Ctrl-C leaves every mutant scored so far
            outcomes.append(outcome)
    except (VariantError, ClusterError) as error:
        progress.done()
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        progress.done()
        raise
    finally:
        stack.close()
        if lines is not None:
            lines.close()
    killed = sum(o.killed for o in outcomes)
    print(f"mutation score: {killed}/{len(outcomes)} mutants killed by {len(scenarios)} fixtures")
    kit_errors = sum(len(o.kit_errors) for o in outcomes)
    if kit_errors:  # not kills: the kit or the wrapper failed, so those fixtures said nothing about the mutant
        print(f"kit errors: {kit_errors} on {sum(bool(o.kit_errors) for o in outcomes)} mutant(s), counted as no kill")
    missed = 0
    if fuzz_options is not None:
        missed = sum(not o.found_by_fuzz for o in outcomes)
        print(f"fuzz: {len(outcomes) - missed}/{len(outcomes)} mutants found within the budget")
    if args.json:
        summary = {"summary": {"mutants": len(outcomes), "killed": killed, "fixtures": len(scenarios), "kit_errors": kit_errors,
                               "found_by_fuzz": None if fuzz_options is None else len(outcomes) - missed}}
        with open(args.json, "a", encoding="utf-8") as out:
            out.write(json.dumps(summary) + "\n")
    return EXIT_FOUND if killed < len(outcomes) or missed else EXIT_OK


COMMANDS = {"mutants": keeping_interrupts(command_mutants)}
