"""The arguments naming an engine, shared by the commands that talk to one: the options, the engine they name, opened."""

from __future__ import annotations

import argparse
import contextlib
import shlex
from collections.abc import Iterator
from typing import Any

from harness.adapters import DEFAULT_TIMEOUT, connect
from harness.adapters.engine import DEFAULT_ENGINE, Engine, EngineLoadError, load_engine

EXAMPLES = {"engine_cmd": "'node engine.js'", "engine_url": "http://127.0.0.1:8080/", "engine_page": "dist/index.html"}
ENGINE_ARGS = ("engine", "engine_cmd", "engine_url", "engine_page", "timeout")  # what names an engine, and its timeout


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """``--engine`` / ``--engine-cmd`` / ``--engine-url`` / ``--engine-page`` (one of them) and ``--timeout``."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--engine", default=DEFAULT_ENGINE, help="in-process engine factory, package.module:factory")
    add_remote(parser, group)


def add_remote(sub: argparse.ArgumentParser, group: Any) -> None:
    """``--engine-cmd``, ``--engine-url`` and ``--engine-page`` (in ``group``), and ``--timeout``."""
    group.add_argument("--engine-cmd", metavar="COMMAND",
                       help='an engine speaking the protocol on stdio, e.g. "node engine.js" (spec/protocol.md)')
    group.add_argument("--engine-url", metavar="URL", help="an engine speaking the protocol over HTTP POST")
    group.add_argument("--engine-page", metavar="PAGE",
                       help="an engine living in a web page (a local .html file or an http(s):// URL), run in "
                            "headless Chromium; it answers through window.cardverseEngine.handle (the browser extra)")
    sub.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                     help=f"per request to a remote engine (default {DEFAULT_TIMEOUT:g})")


def seconds(text: str) -> float:
    """A positive number of seconds, for --timeout."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def is_remote(args: argparse.Namespace) -> bool:
    """Whether the options name an engine outside the process (--engine-cmd, --engine-url, --engine-page)."""
    return any(getattr(args, name, None) for name in ("engine_cmd", "engine_url", "engine_page"))


def engine_args(args: argparse.Namespace) -> argparse.Namespace:
    """The options naming the engine alone (picklable), for a worker that opens the engine itself."""
    return argparse.Namespace(**{name: getattr(args, name, None) for name in ENGINE_ARGS})


def engine_from(args: argparse.Namespace) -> Engine:
    """The engine the options name: a remote one (--engine-cmd, --engine-url, --engine-page) or an in-process factory."""
    for name in ("engine_cmd", "engine_url", "engine_page"):
        given = getattr(args, name, None)
        if given is not None and not given.strip():
            option = "--" + name.replace("_", "-")
            raise EngineLoadError(f"{option} is empty: give your engine, e.g. {option} {EXAMPLES[name]}")
    if is_remote(args):
        try:
            return connect(getattr(args, "engine_cmd", None), getattr(args, "engine_url", None),
                           getattr(args, "timeout", None) or DEFAULT_TIMEOUT, getattr(args, "engine_page", None))
        except ValueError as error:
            raise EngineLoadError(str(error)) from None
    return load_engine(getattr(args, "engine", None) or DEFAULT_ENGINE)


def engine_option(args: argparse.Namespace) -> str:
    """The option naming the remote engine, as a user would type it again."""
    if getattr(args, "engine_page", None):
        return f"--engine-page {shlex.quote(args.engine_page)}"
    return f"--engine-cmd {shlex.quote(args.engine_cmd)}" if args.engine_cmd else f"--engine-url {args.engine_url}"


@contextlib.contextmanager
def opened(engine: Engine) -> Iterator[Engine]:
    """The engine, closed afterwards if it holds a process or a connection."""
    try:
        yield engine
    finally:
        close: Any = getattr(engine, "close", None)
        if callable(close):
            close()
