"""The ``serve`` and ``smoke`` commands: an engine behind the protocol, and the protocol check of a remote one."""

from __future__ import annotations

import argparse
import gc
import sys
from typing import Any

from harness import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from harness.adapters.arguments import add_remote, engine_from, engine_option
from harness.adapters.engine import DEFAULT_ENGINE, EngineLoadError, load_engine


def add_commands(subparsers: Any) -> None:
    """Add ``serve`` and ``smoke`` to the CLI's subparsers."""
    from harness.adapters.rule_versions import add_rule_version

    serve = subparsers.add_parser("serve", help="an in-process engine as a protocol server (stdio, or HTTP on 127.0.0.1)")
    serve.add_argument("--engine", default=DEFAULT_ENGINE, help="in-process engine factory, package.module:factory")
    serve.add_argument("--http", type=int, metavar="PORT", help="serve HTTP on 127.0.0.1:PORT (0: any free port)")
    add_rule_version(serve)
    serve.add_argument("--no-perft", action="store_true",
                       help="do not declare or answer the perft request (the harness then counts a level at a time)")

    smoke = subparsers.add_parser("smoke", help="check that a remote engine speaks the protocol, before running fixtures")
    remote = smoke.add_mutually_exclusive_group(required=True)
    add_remote(smoke, remote)
    add_rule_version(smoke)


def command_serve(args: argparse.Namespace) -> int:
    """Serve an in-process engine over the protocol until stop (stdio) or Ctrl-C (HTTP)."""
    try:
        engine = load_engine(args.engine)
    except EngineLoadError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    if args.rule_version:  # the engine declares only the versions asked for: a client that picks the newest plays them
        from harness.adapters.rule_versions import DeclaringOnly, RuleVersionError, asked_for, picked_versions
        from harness.spec.gamefile import GameFileError, extra_game_files

        try:
            with extra_game_files([]):  # a draft of ./spec/games, for as long as it is served
                description = engine.describe()
                games = list(description.get("games") or {})
                picked = picked_versions(description, games, args.rule_version)
                asked = asked_for(args.rule_version, games)  # the games not named keep every version they have
                return served(DeclaringOnly(engine, {g: v for g, v in picked.items() if g in asked}), args)
        except (RuleVersionError, GameFileError) as error:
            sys.stderr.write(f"{error}\n")
            return EXIT_USAGE
    return served(engine, args)


def served(engine: Any, args: argparse.Namespace) -> int:
    """``engine`` served until stop (stdio) or Ctrl-C (HTTP)."""
    from harness.serve.serve import serve_stdio

    gc.freeze()  # what start-up made (modules, schemas, the engine) stays out of every collection from now on
    # a young collection every 10,000 new objects, not 700: a harness walking a tree a level at a time has serve make
    # hundreds of thousands of copies and answers, and each collection went through the ones made since the last
    gc.set_threshold(10_000)
    declares = {"perft": False} if args.no_perft else None
    if args.http is not None:
        from harness.serve.http import serve_http  # http.server: only for HTTP

        return serve_http(engine, args.http, declares)
    return serve_stdio(engine, declares=declares)


def command_smoke(args: argparse.Namespace) -> int:
    """Check the protocol itself; non-zero on any problem."""
    from harness.adapters.rule_versions import played_at
    from harness.serve.smoke import smoke
    from harness.spec import gamespec as specs

    try:
        engine = engine_from(args)
    except EngineLoadError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    try:
        with played_at(args, engine if args.rule_version else {}, specs.games()) as problem:
            if problem:
                sys.stderr.write(f"{problem}\n")
                return EXIT_USAGE
            problems = smoke(engine, sys.stdout, engine_option(args))  # type: ignore[arg-type]
    finally:
        engine.close()  # type: ignore[attr-defined]
    return EXIT_FAILED if problems else EXIT_OK


COMMANDS = {"serve": command_serve, "smoke": command_smoke}
