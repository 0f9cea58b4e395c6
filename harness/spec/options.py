"""Game options given on a command line as ``--option NAME=VALUE``, checked against a game file's options."""

from __future__ import annotations

import argparse
import json
from typing import Any

from harness.spec.gamespec import GameSpec


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--option NAME=VALUE`` (repeatable) to a command that plays a game."""
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (repeatable), e.g. knock_limit=5 or revolution=false")


def option_values(spec: GameSpec, given: list[str]) -> dict[str, Any] | str:
    """The ``--option`` values, checked against the options of ``spec``; or an error saying what is expected."""
    options = spec.data["options"]
    chosen: dict[str, Any] = {}
    for text in given:
        name, _, raw = text.partition("=")
        option = options.get(name)
        if option is None or not raw:
            return f"--option {text}: expected NAME=VALUE with NAME one of {', '.join(options)}"
        try:
            value = json.loads(raw.lower() if option["type"] == "boolean" else raw)
        except ValueError:
            value = None
        wanted = bool if option["type"] == "boolean" else int
        if type(value) is not wanted or (wanted is int and not option.get("minimum", 0) <= value <= option.get(
                "maximum", value)):
            return f"--option {text}: {name} takes {option['type']} values" + (
                f" from {option.get('minimum', 0)}" + (f" to {option['maximum']}" if "maximum" in option else "")
                if wanted is int else " (true or false)")
        chosen[name] = value
    return chosen
