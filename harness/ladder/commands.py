"""The ``ladder`` command: arguments, output and exit codes (0 A shown stronger, 1 not, 2 usage)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from typing import Any

from harness import EXIT_FAILED as EXIT_NOT_SHOWN, EXIT_INTERRUPTED, EXIT_OK as EXIT_STRONGER, EXIT_USAGE
from harness.host.files import UnsafePath
from harness.host.progress import Progress
from harness.host.text import console_text

DEFAULT_CAP = 2000


def add_commands(subparsers: Any) -> None:
    """Add ``ladder`` to the CLI's subparsers."""
    from harness.adapters.arguments import add_engine_options
    from harness.adapters.rule_versions import add_rule_version
    from harness.ladder.sprt import Bounds
    from harness.spec.options import add_option_argument

    bounds = Bounds()
    ladder = subparsers.add_parser(
        "ladder", help="play computer player A against B on duplicate deals until a sequential test "
                       "shows whether A is stronger")
    ladder.add_argument("a", metavar="A", help="a reference level (easy, normal, hard), engine:LEVEL for the "
                                               "plugged-in engine's player, or package.module:factory")
    ladder.add_argument("b", metavar="B", help="the same, for the opponent")
    ladder.add_argument("--game", required=True, help="the game (rummy, gin-rummy, president)")
    ladder.add_argument("--players", type=int, metavar="N",
                        help="seats at the table (default 2; President 4); A plays one seat, B the others")
    ladder.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the deals (default 0)")
    ladder.add_argument("--cap", type=int, default=DEFAULT_CAP, metavar="N",
                        help=f"deals at most (default {DEFAULT_CAP}); undecided at the cap exits 1")
    ladder.add_argument("--elo0", type=float, default=bounds.elo0, help=f"H0: A is this much stronger at most, in Elo (default {bounds.elo0:g}); "
                        "with --elo1 a margin to test, e.g. --elo0 50 --elo1 100")
    ladder.add_argument("--elo1", type=float, default=bounds.elo1, help=f"H1: A is this much stronger at least (default {bounds.elo1:g})")
    ladder.add_argument("--alpha", type=float, default=bounds.alpha, help=f"false positive rate (default {bounds.alpha:g})")
    ladder.add_argument("--beta", type=float, default=bounds.beta, help=f"false negative rate (default {bounds.beta:g})")
    ladder.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                        help="worker processes (default 1; 0: one per core); the verdict does not depend on it")
    ladder.add_argument("--json", metavar="FILE", help="write the result as JSON (with its course: the LLR and Elo after each deal)")
    ladder.add_argument("--plot", metavar="FILE.svg", help="draw the LLR and the Elo interval over the deals as an SVG file")
    ladder.add_argument("--cluster", metavar="local[:N]|ADDRESS", help="play the deals on a Dask cluster: local:N "
                        "worker processes here, or a running `dask scheduler`'s address (the cluster extra); "
                        "the deals are counted in deal order, so the verdict is the one without")
    ladder.add_argument("--records", metavar="FILE", help="write every game as a game record (spec/records.md), "
                                                          "in deal order, for `audit`; .jsonl, .jsonl.gz or .jsonl.zst")
    ladder.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                        help="a progress line on stderr (auto: only on a terminal outside CI)")
    add_option_argument(ladder)
    add_engine_options(ladder)
    add_rule_version(ladder)


def _table(args: argparse.Namespace) -> Any:
    """The ladder's table from the options, or an error message."""
    from harness.ladder.deals import Table
    from harness.spec import gamespec as specs
    from harness.spec.options import option_values

    if not specs.is_game(args.game):
        return specs.unknown_game(args.game)
    spec = specs.played_spec(args.game)  # the version asked for, else the newest the engine declares
    players = args.players or (4 if args.game == "president" else 2)
    low, high = int(spec.data["players"]["min"]), int(spec.data["players"]["max"])
    if not low <= players <= high:
        return f"--players {players}: {args.game} is played by {low} to {high}"
    options = option_values(spec, args.option)
    if isinstance(options, str):
        return options
    return Table(args.game, spec.rule_version, {**spec.option_defaults, **options}, players, args.seed,
                 bool(args.records))


def _usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the numbers given, if anything."""
    if args.cap < 1:
        return f"--cap {args.cap}: give at least 1 deal"
    if args.jobs < 0:
        return f"-j {args.jobs}: give 0 (one per core) or more"
    if not (0 < args.alpha < 1 and 0 < args.beta < 1):
        return "--alpha and --beta are probabilities between 0 and 1"
    if args.elo1 <= args.elo0:
        return f"--elo1 {args.elo1:g} must be above --elo0 {args.elo0:g}"
    return None


def command_ladder(args: argparse.Namespace) -> int:
    """The ladder at the rule version asked for (``--rule-version``), else the newest the engine declares."""
    from harness.adapters.rule_versions import played_by

    with played_by(args, [args.game]) as problem:
        if problem:
            sys.stderr.write(f"{problem}\n")
            return EXIT_USAGE
        return climbed(args)


def climbed(args: argparse.Namespace) -> int:
    """Run the ladder; print and write the result."""
    from harness.host.cluster import ClusterError, connected
    from harness.ladder.contestants import ContestantError, parse_contestant
    from harness.ladder.deals import IllegalChoice
    from harness.ladder.ladder import STRONGER, LadderResult, run_ladder
    from harness.ladder.sprt import Bounds
    from harness.records.writer import RecordWriter

    table = _table(args)
    problem = table if isinstance(table, str) else _usage_problem(args)
    try:
        engine = (args.engine, args.engine_cmd, args.engine_url, args.engine_page, args.timeout)
        a, b = parse_contestant(args.a, engine), parse_contestant(args.b, engine)
    except ContestantError as error:
        problem = problem or str(error)
    if problem:
        sys.stderr.write(f"{problem}\n")
        return EXIT_USAGE
    bounds = Bounds(args.elo0, args.elo1, args.alpha, args.beta)
    jobs = args.jobs or os.cpu_count() or 1
    progress = Progress(args.progress)

    def show(result: LadderResult) -> None:
        low, high = result.points.interval()
        interval = f" [{low:+.2f}, {high:+.2f}]" if result.deals > 1 else ""
        progress.show(f"ladder {table.game} {a.name} vs {b.name}: deal {result.deals}/{args.cap}, "
                      f"{result.points.mean:+.2f} points/deal{interval}, LLR {result.llr:+.2f} "
                      f"({bounds.lower:+.2f}, {bounds.upper:+.2f})")

    try:
        with (connected(args.cluster) if args.cluster else contextlib.nullcontext()) as client, \
                (RecordWriter(args.records) if args.records else contextlib.nullcontext()) as records:
            try:
                result = run_ladder(table, a, b, bounds, args.cap, jobs, show,
                                    (lambda deal: records.write_all(deal.records)) if records else None, client)
            except IllegalChoice as error:  # the game a player broke is a record too, marked unfinished
                if records:
                    records.write_all(error.records)
                raise
            if records:
                records.write_all(result.stopped)
    except UnsafePath as error:
        sys.stderr.write(f"--records {error}\n")
        return EXIT_USAGE
    except ClusterError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:  # while the players were being built: nothing played yet
        progress.done()
        sys.stderr.write("ladder interrupted before the first deal\n")
        return EXIT_INTERRUPTED
    except (ContestantError, IllegalChoice) as error:
        progress.done()
        named = "" if isinstance(error, ContestantError) else f" (A is {a.name}, B is {b.name})"
        sys.stderr.write(f"{console_text(error)}{named}\n")
        return EXIT_USAGE if isinstance(error, ContestantError) else EXIT_NOT_SHOWN
    progress.done()
    if result.interrupted:  # one line, and the deals so far kept
        sys.stderr.write(f"ladder interrupted after {result.deals} deal(s)"
                         + (f"; the deals so far are in {args.json}\n" if args.json else "\n"))
    else:
        print(format_result(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({**result.record(), **({"interrupted": True} if result.interrupted else {})}, out, indent=2)
            out.write("\n")
    if args.plot and result.deals:
        from harness.ladder.plot import course_svg

        with open(args.plot, "w", encoding="utf-8") as out:
            out.write(course_svg(result.record()))
    if result.interrupted:
        return EXIT_INTERRUPTED
    return EXIT_STRONGER if result.verdict == STRONGER else EXIT_NOT_SHOWN


def accepted(record: dict[str, Any]) -> str:
    """The hypothesis the test accepted, in plain words."""
    from harness.ladder.ladder import NOT_STRONGER, STRONGER

    sprt = record["sprt"]
    if record["verdict"] == STRONGER:
        return f"H1 accepted: {record['a']} is at least {sprt['elo1']:g} Elo stronger than {record['b']}"
    if record["verdict"] == NOT_STRONGER:
        return f"H0 accepted: {record['a']} is at most {sprt['elo0']:g} Elo stronger than {record['b']}"
    return "neither hypothesis accepted: more deals (--cap) would tell"


def format_result(result: Any) -> str:
    """The result for people, four lines."""
    record = result.record()
    points, scores, sprt = record["points_per_deal"], record["deal_scores"], record["sprt"]
    interval = (f" [95% CI {points['low']:+.2f}, {points['high']:+.2f}]" if points["low"] is not None else "")
    unfinished = f", {record['unfinished']} games stopped at the move cap" if record["unfinished"] else ""
    return "\n".join([
        f"{record['game']}: {record['a']} vs {record['b']}, {record['deals']} deals ({record['games']} games"
        f"{unfinished}) in {record['seconds']:.1f} s: {record['verdict']} ({accepted(record)})",
        f"  points per deal (A minus B, per game): {points['mean']:+.2f}{interval}",
        f"  deals won/level/lost by A: {scores['wins']}/{scores['draws']}/{scores['losses']} "
        f"(score {scores['mean']:.3f}, {scores['elo']:+.0f} Elo{_elo_interval(scores)})",
        f"  SPRT elo0={sprt['elo0']:g} elo1={sprt['elo1']:g} alpha={sprt['alpha']:g} beta={sprt['beta']:g}: "
        f"LLR {sprt['llr']:+.2f} (accept H0 at {sprt['lower']:+.2f}, H1 at {sprt['upper']:+.2f})",
    ])


def _elo_interval(scores: dict[str, Any]) -> str:
    """`` [95% CI +12, +71]`` for the Elo difference; an end not known yet (too few deals, or all won) as ``?``."""
    low, high = scores["elo_low"], scores["elo_high"]
    if low is None and high is None:
        return ""
    return f" [95% CI {'?' if low is None else f'{low:+.0f}'}, {'?' if high is None else f'{high:+.0f}'}]"


COMMANDS = {"ladder": command_ladder}
