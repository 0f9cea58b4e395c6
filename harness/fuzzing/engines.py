"""The engine a command names: an in-process factory, or a remote one through the protocol adapters."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from typing import Any

from harness.adapters.engine import DEFAULT_ENGINE, Engine, load_engine

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
    """The engine the parsed options name; raises EngineLoadError or ValueError with what to do."""
    command, url = getattr(args, "engine_cmd", None), getattr(args, "engine_url", None)
    if command or url:
        try:
            from harness.adapters import DEFAULT_TIMEOUT as adapter_timeout
            from harness.adapters import connect
        except ImportError:
            raise ValueError("--engine-cmd and --engine-url need harness.adapters, which this kit lacks; "
                             "use --engine package.module:factory") from None
        timeout = getattr(args, "timeout", None) or adapter_timeout
        return connect(command, url, timeout)  # type: ignore[no-any-return]
    return load_engine(getattr(args, "engine", None) or DEFAULT_ENGINE)


@contextlib.contextmanager
def opened(engine: Engine) -> Iterator[Engine]:
    """The engine, closed afterwards if it holds a process or a connection."""
    try:
        yield engine
    finally:
        close: Any = getattr(engine, "close", None)
        if callable(close):
            close()
