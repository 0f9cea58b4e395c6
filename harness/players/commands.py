"""The ``players`` and ``play`` commands: arguments, output, exit codes.

``players`` checks an engine's computer players over seeded games (harness.players.check);
``play`` shows a game between computer players turn by turn (harness.players.watch). Exit codes:
0 all is well, 1 something found, 2 a usage error (the message says what to do).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from harness import EXIT_FAILED as EXIT_FOUND, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from harness.adapters.engine import EngineLoadError
from harness.host.files import UnsafePath
from harness.host.text import console_text, cut
from harness.spec.gamespec import LEVELS
from harness.spec.names import did_you_mean, unknown

SERIES = 3  # President's rounds in `play`: a series, so the exchange, the titles and their points are played


def level_argument(value: str) -> str:
    """An argparse ``type`` for ``--level``: a level, else a usage error naming the close one."""
    if value not in LEVELS:
        raise argparse.ArgumentTypeError(unknown("level", value, LEVELS))
    return value


def add_commands(subparsers: Any) -> None:
    """Add ``players`` and ``play`` to the CLI's subparsers."""
    from harness.adapters.arguments import add_engine_options
    from harness.adapters.rule_versions import add_rule_version
    from harness.players.check import DEFAULT_GAMES, DEFAULT_TWIN_EVERY
    from harness.spec.options import add_option_argument

    check = subparsers.add_parser("players", help="check an engine's computer players over seeded games: legal, "
                                                  "deterministic, the same on twins, games that end; time per decision")
    add_engine_options(check)
    add_rule_version(check)
    check.add_argument("--game", action="append", help="only this game (repeatable; default: every game with players)")
    check.add_argument("--level", action="append", type=level_argument, help="only this level (repeatable; default: every declared one)")
    check.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="N", help=f"games per game and level (default {DEFAULT_GAMES})")
    check.add_argument("--seed", type=int, default=0, metavar="S", help="the first game's seed; game i has seed S+i (default 0)")
    check.add_argument("--twin-every", type=int, default=DEFAULT_TWIN_EVERY, metavar="K",
                       help=f"check one decision in K on an information-set twin (default {DEFAULT_TWIN_EVERY}; 1: all)")
    check.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                       help="a progress line on stderr (auto: only on a terminal outside CI)")
    check.add_argument("--out", metavar="DIR", help="write each broken position clause as a decision fixture here, "
                                                    "shrunk to the shortest history that still shows it")

    play = subparsers.add_parser("play", help="watch a game between computer players, turn by turn")
    add_engine_options(play)
    add_rule_version(play)
    play.add_argument("--game", help="rummy, gin-rummy or president (with --replay: the record's)")
    play.add_argument("--players", default="easy,easy", metavar="LEVELS",
                      help="one level per seat, e.g. easy,easy,easy,easy (default easy,easy)")
    play.add_argument("--seed", type=int, default=0, metavar="S", help="the deal's seed, and the players' (default 0)")
    play.add_argument("--rounds", type=int, default=None, metavar="N",
                      help=f"President: the rounds of the game, a series with the exchange and titles between rounds "
                           f"(default {SERIES})")
    add_option_argument(play)
    play.add_argument("--tries", type=int, default=0, metavar="K",
                      help="about one decision in K, a seat takes another action the engine lists than its player's "
                           "choice, as a person at a table might (default 0: never); shows what an engine wrongly offers")
    play.add_argument("--delay", type=float, default=None, metavar="SECONDS",
                      help="pause after each move (default 0.3 on a terminal, else 0)")
    play.add_argument("--json", metavar="FILE", help="also write the game as a game record (one JSON line, spec/records.md) that `audit` judges")
    play.add_argument("--replay", metavar="FILE", help="show a game record (written by --json, or a server's: spec/records.md) or a replay "
                                                       "found by `players`, without asking any player")
    play.add_argument("--fixture-out", metavar="DIR",
                      help="also ask the reference's players; at the first different choice write a decision fixture here")


def _open(args: argparse.Namespace) -> Any:
    """The engine the options name, or an error message."""
    from harness.adapters.arguments import engine_from

    try:
        return engine_from(args)
    except (EngineLoadError, ValueError, OSError) as error:
        return str(error)


def command_players(args: argparse.Namespace) -> int:
    """The checks every computer player must pass."""
    from harness.adapters.arguments import opened
    from harness.adapters.players import declared_players
    from harness.adapters.rule_versions import played_at
    from harness.host.progress import Progress
    from harness.spec import gamespec as specs

    if args.games < 1 or args.twin_every < 1:
        sys.stderr.write("--games and --twin-every must be at least 1\n")
        return EXIT_USAGE
    unknown = [g for g in args.game or [] if g not in specs.games()]
    if unknown:
        sys.stderr.write(specs.unknown_game(unknown[0]) + "\n")
        return EXIT_USAGE
    engine = _open(args)
    if isinstance(engine, str):
        sys.stderr.write(f"{engine}\n")
        return EXIT_USAGE
    from harness.adapters.handshake import described

    with opened(engine):
        description = described(engine)  # none: the engine never started (exit 3)
        with played_at(args, description, args.game or specs.games()) as problem:
            if problem:
                sys.stderr.write(f"{problem}\n")
                return EXIT_USAGE
            return _check_declared(args, engine, description)


def _check_declared(args: argparse.Namespace, engine: Any, description: dict[str, Any]) -> int:
    """Check the computer players the engine declares for the games asked; the exit code."""
    from harness.adapters.players import declared_players
    from harness.host.progress import Progress
    from harness.spec import gamespec as specs

    games = {g: declared_players(description, g) for g in (args.game or specs.games())}
    if not any(games.values()):
        sys.stderr.write("the engine declares no computer players: describe() (or the hello answer) gives none "
                         "under games.<game>.players; see spec/players.md\n")
        return EXIT_USAGE
    progress = Progress(args.progress)
    try:
        found = _check_games(args, engine, games, progress)
    except KeyboardInterrupt:
        progress.done()
        sys.stderr.write("players interrupted: the levels checked so far are above\n")
        return EXIT_INTERRUPTED
    return EXIT_FOUND if found else EXIT_OK


def _check_games(args: argparse.Namespace, engine: Any, games: dict[str, Any], progress: Any) -> bool:
    """Check every level asked of every game; whether any finding was printed."""
    from harness.players.check import check_level

    found = False
    for game, declared in games.items():
        if declared is None:
            print(f"players {game}: skipped, the engine declares no computer players for {game}")
            continue
        for level in args.level or declared["levels"]:
            if level not in declared["levels"]:
                print(f"players {game} {level}: skipped, the engine has no {level} computer player for {game} "
                      f"(it declares {console_text(cut(', '.join(map(str, declared['levels']))))})")
                continue
            report = check_level(engine, game, level, args.games, args.seed, args.twin_every,
                                 lambda done, total: progress.show(f"players {game} {level}: game {done}/{total}"))
            progress.done()
            print(console_text(report.summary()), flush=True)
            if report.finding is not None:
                found = True
                print("  " + console_text(report.finding).replace("\n", "\n  "))
                print("  replay (the setup, then one move a line; save it and run "
                      "`cardverse-conformance play --replay FILE`):")
                print("  " + console_text(report.finding.replay_text()).replace("\n", "\n  "))
                if args.out and report.finding.broken is not None:
                    print("  " + console_text(_write_finding(engine, report.finding, Path(args.out), progress)))
    return found


def _play_options(args: argparse.Namespace, spec: Any) -> dict[str, Any] | str:
    """The options ``play`` sets up its game with, at the rule version played; or an error."""
    from harness.spec.options import option_values

    series = "rounds" in spec.option_defaults
    if args.rounds is not None and not series:
        return f"--rounds is for President; a {args.game} game ends at its target score"
    given = option_values(spec, args.option)
    if isinstance(given, str):
        return given
    # President plays a series unless told otherwise; --rounds N is --option rounds=N
    return {**({"rounds": SERIES} if series else {}), **given, **({"rounds": args.rounds} if args.rounds else {})}


def _write_finding(engine: Any, finding: Any, folder: Path, progress: Any) -> str:
    """The broken clause of ``finding`` written as a shrunk decision fixture in ``folder``; what became of it."""
    from harness.findings.games import facts
    from harness.findings.judged import shrunk_fixture
    from reference_engine import ReferenceEngine

    try:
        path, why = shrunk_fixture(facts(finding.setup["game"]), finding.setup, finding.trail, finding.state,
                                   finding.broken, engine, ReferenceEngine(), folder, "`cardverse-conformance players`",
                                   lambda moves: progress.show(f"shrinking: a fixture with {moves} moves of history"))
    except UnsafePath as error:
        return f"--out: {error}"
    finally:
        progress.done()
    if path is None:
        return f"no fixture written: {why}"
    return f"wrote {path}: it fails on the engine and passes on the reference; `cardverse-conformance run {path}`"


def command_play(args: argparse.Namespace) -> int:
    """A game between computer players, shown turn by turn."""
    from harness.adapters.arguments import opened
    from harness.adapters.protocol import AdapterError, EngineError, error_text
    from harness.adapters.rule_versions import played_at
    from harness.findings.games import facts as game_facts
    from harness.players.watch import MoveCap, PlayerFault, PlayError, Watch, read_replay
    from harness.spec import gamespec as specs

    if args.replay and args.game is None:  # the record names its game
        try:
            args.game = read_replay(Path(args.replay)).spec.game
        except PlayError as error:
            sys.stderr.write(f"{console_text(error)}\n")
            return EXIT_USAGE
    if args.game is None:
        sys.stderr.write(f"--game GAME: give the game to play ({', '.join(specs.games())})\n")
        return EXIT_USAGE
    if args.game not in specs.games():
        sys.stderr.write(specs.unknown_game(args.game) + "\n")
        return EXIT_USAGE
    levels = [level.strip() for level in args.players.split(",") if level.strip()]
    bad = [level for level in levels if level not in LEVELS]
    if bad:
        sys.stderr.write(f"--players {args.players!r}: {bad[0]!r} is not a level{did_you_mean(bad[0], LEVELS)}; "
                         "use easy, normal or hard, one per seat\n")
        return EXIT_USAGE
    if (args.rounds is not None and args.rounds < 1) or args.tries < 0:
        sys.stderr.write("--rounds must be at least 1 and --tries at least 0 (0: the seats play their players' choices)\n")
        return EXIT_USAGE
    engine = _open(args)
    if isinstance(engine, str):
        sys.stderr.write(f"{engine}\n")
        return EXIT_USAGE
    delay = args.delay if args.delay is not None else (0.3 if sys.stdout.isatty() else 0.0)
    watch = None
    with opened(engine), played_at(args, engine, [args.game]) as problem:
        if problem:
            sys.stderr.write(f"{problem}\n")
            return EXIT_USAGE
        options = _play_options(args, game_facts(args.game).spec)  # the options of the version played
        if isinstance(options, str):
            sys.stderr.write(f"{options}\n")
            return EXIT_USAGE
        try:
            watch = Watch(engine, args.game, levels, args.seed, delay, sys.stdout, options, args.tries)
            if args.replay:
                watch.replay(Path(args.replay))
                return EXIT_OK
            difference = watch.play(Path(args.fixture_out) if args.fixture_out else None)
        except KeyboardInterrupt:  # one line; the game so far kept as its record
            sys.stderr.write(f"play interrupted{_keep_moves(args, watch, 'interrupted')}\n")
            return EXIT_INTERRUPTED
        except (AdapterError, EngineError) as error:  # the engine died or broke under the game
            sys.stderr.write(f"an engine error during the game: {console_text(error_text(error))}"
                             f"{_keep_moves(args, watch, 'engine-died')}\n")
            return EXIT_FOUND
        except MoveCap as error:  # a game that does not end: the one an operator most needs to audit
            sys.stderr.write(f"{console_text(error)}{_keep_moves(args, watch, 'move-cap')}\n")
            return EXIT_FOUND
        except PlayError as error:
            kept = _keep_moves(args, watch, error.why) if isinstance(error, PlayerFault) else ""
            sys.stderr.write(f"{console_text(error)}{kept}\n")
            return EXIT_FOUND if isinstance(error, PlayerFault) else EXIT_USAGE
        if args.json:
            problem = _write_record(args.json, watch.json_lines())
            if problem:
                sys.stderr.write(f"--json {problem}\n")
                return EXIT_USAGE
            print(f"wrote {args.json} ({len(watch.moves)} moves; `cardverse-conformance play --replay {args.json} "
                  f"--game {args.game}` shows it again)")
    return EXIT_FOUND if difference or watch.stuck else EXIT_OK  # a game that cannot go on is a finding too


def _keep_moves(args: argparse.Namespace, watch: Any, why: str) -> str:
    """Write the game so far to --json, if asked, as a record unfinished for ``why``; what to add to its line."""
    if not args.json or watch is None or watch.recorder is None:
        return ""
    try:
        problem = _write_record(args.json, watch.json_lines(stopped=why))
    except KeyboardInterrupt:  # a second Ctrl-C while writing: never half a record under the final name
        return f"; {args.json} not written (stopped again while writing it)"
    if problem:
        return f"; --json {problem}"
    moves = sum(len(round_["moves"]) for round_ in watch.recorder.data["rounds"])
    return (f"; the game so far ({moves} moves) is in {args.json}, a record marked unfinished ({why}) that "
            "`cardverse-conformance audit` judges")


def _write_record(path: str, line: str) -> str:
    """One record to ``path``, under that name only once it is whole (harness/records/writer.py); what went wrong."""
    from harness.records.writer import write_records

    try:
        write_records(path, [line])
    except UnsafePath as error:
        return str(error)
    return ""


COMMANDS = {"players": command_players, "play": command_play}
