"""The engine a command names: an in-process factory, or a remote one through the protocol adapters."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from typing import Any

from harness.adapters.arguments import engine_from
from harness.adapters.engine import DEFAULT_ENGINE, Engine

DEFAULT_TIMEOUT = 10.0


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """``--engine`` / ``--engine-cmd`` / ``--engine-url`` (one of them) and ``--timeout``."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--engine", default=DEFAULT_ENGINE, help="in-process engine factory, package.module:factory")
    group.add_argument("--engine-cmd", metavar="COMMAND", help="an engine speaking the protocol on stdio (spec/protocol.md)")
    group.add_argument("--engine-url", metavar="URL", help="an engine speaking the protocol over HTTP POST")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="per request to a remote engine (default: the adapter's)")


def build_engine(args: argparse.Namespace) -> Engine:
    """The engine the parsed options name; raises EngineLoadError with what to do."""
    return engine_from(args)


@contextlib.contextmanager
def opened(engine: Engine) -> Iterator[Engine]:
    """The engine, closed afterwards if it holds a process or a connection."""
    try:
        yield engine
    finally:
        close: Any = getattr(engine, "close", None)
        if callable(close):
            close()
