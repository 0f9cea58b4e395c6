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
    serve = subparsers.add_parser("serve", help="an in-process engine as a protocol server (stdio, or HTTP on 127.0.0.1)")
    serve.add_argument("--engine", default=DEFAULT_ENGINE, help="in-process engine factory, package.module:factory")
    serve.add_argument("--http", type=int, metavar="PORT", help="serve HTTP on 127.0.0.1:PORT (0: any free port)")
    serve.add_argument("--no-perft", action="store_true",
                       help="do not declare or answer the perft request (the harness then counts a level at a time)")

    smoke = subparsers.add_parser("smoke", help="check that a remote engine speaks the protocol, before running fixtures")
    remote = smoke.add_mutually_exclusive_group(required=True)
    add_remote(smoke, remote)


def command_serve(args: argparse.Namespace) -> int:
    """Serve an in-process engine over the protocol until stop (stdio) or Ctrl-C (HTTP)."""
    from harness.serve.serve import serve_stdio

    try:
        engine = load_engine(args.engine)
    except EngineLoadError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
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
    from harness.serve.smoke import smoke

    try:
        engine = engine_from(args)
    except EngineLoadError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    try:
        problems = smoke(engine, sys.stdout, engine_option(args))  # type: ignore[arg-type]
    finally:
        engine.close()  # type: ignore[attr-defined]
    return EXIT_FAILED if problems else EXIT_OK


COMMANDS = {"serve": command_serve, "smoke": command_smoke}
