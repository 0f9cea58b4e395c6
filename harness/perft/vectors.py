"""The published perft vectors (spec/perft/<game>.json): positions with their counts at each depth."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from harness.spec.paths import spec_dir


@dataclass(frozen=True)
class Vector:
    """One published position: its name, what it varies, the setup as ``start`` takes it, perft(1..n)."""

    name: str
    about: str
    setup: dict[str, Any]
    counts: tuple[int, ...]


class VectorError(Exception):
    """A vectors file that cannot be read as spec/perft/README.md describes."""


def vector_games() -> list[str]:
    """The games with a vectors file, in name order."""
    return sorted(p.stem for p in (spec_dir() / "perft").glob("*.json"))


def vectors(game: str) -> list[Vector]:
    """The published positions of ``game``."""
    path = spec_dir() / "perft" / f"{game}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise VectorError(f"{path}: no perft vectors for {game}; the spec has them for "
                          f"{', '.join(vector_games())}") from None
    except ValueError as error:
        raise VectorError(f"{path}: not JSON ({error})") from None
    found = []
    for index, item in enumerate(data.get("positions", []) if isinstance(data, dict) else []):
        try:
            counts = tuple(int(n) for n in item["counts"])
            setup = dict(item["setup"])
            found.append(Vector(str(item["name"]), str(item.get("about", "")), setup, counts))
        except (KeyError, TypeError, ValueError) as error:
            raise VectorError(f"{path}: $.positions[{index}]: needs name, setup and counts ({error})") from None
        if setup.get("game") != game:
            raise VectorError(f"{path}: $.positions[{index}].setup.game: expected {game!r}")
    if not found:
        raise VectorError(f"{path}: $.positions: no position")
    return found
