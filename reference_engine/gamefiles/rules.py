"""The rules as data: each rule version's numbers and option defaults, read from its game file.

The reference engine implements the clauses of one game file per game (its ``RULE_VERSION``). A
game file whose clauses and vocabulary are the same and that differs only in data - the players,
the options' defaults and ranges, the ``numbers`` - is another version the engine plays as it is
written; one that changes anything else needs code, and is not declared. The game files are those
the kit bundles (``spec/games`` beside this package, or inside the installed kit) and those of
``./spec/games`` of the working directory, where ``new-version`` writes (and, on a cluster's worker, those the
command sent: ``SENT``). The engine reads them
itself, with no part of the harness: it must know its versions before any setup (``describe``),
and the same way when it is served over the protocol in a process of its own.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent.parent  # reference_engine/
# Where the kit's game files are: a checkout has spec/ beside the package, an installed kit inside harness/_bundled.
BUNDLED = (_HERE.parent / "spec" / "games", _HERE.parent / "harness" / "_bundled" / "spec" / "games")
LOCAL = Path("spec") / "games"
# A folder of game files read beside the kit's, before ./spec/games': those a cluster's worker was sent by the
# command (an environment variable, so a copy of this module in a mutant, and an engine the worker starts, see it too).
SENT = "CARDVERSE_GAME_FILES"
# What a game file may change and still be played by the same code; everything else is logic.
DATA_KEYS = frozenset({"players", "numbers", "options"})
OPTION_DATA = frozenset({"default", "minimum", "maximum"})
# What never changes how a game is played: names, the rule document, its fingerprints, the players' notes.
PROSE_KEYS = frozenset({"title", "rule_version", "source", "sources", "computer_players"})


@dataclass(frozen=True)
class Rules:
    """One game at one rule version, as the engine plays it."""

    game: str
    rule_version: str
    players: tuple[int, int]
    options: dict[str, dict[str, Any]]
    numbers: dict[str, Any]

    def number(self, name: str, players: int | None = None) -> int:
        """The number ``name``; for one given per number of players, the one for ``players``."""
        value = self.numbers[name]
        return int(value[players] if isinstance(value, dict) else value)

    def read_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """The setup's options, checked against the game file, with its defaults for any left out."""
        given = dict(given or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            raise ValueError(f"unknown {self.game} {self.rule_version} options: {unknown}")
        merged = {name: option["default"] for name, option in self.options.items()} | given
        for name, option in self.options.items():
            value = merged[name]
            if option["type"] == "boolean" and not isinstance(value, bool):
                raise ValueError(f"option {name} must be a boolean, not {value!r}")
            if option["type"] == "integer" and (type(value) is not int or not option.get("minimum", value) <= value
                                                <= option.get("maximum", value)):
                low, high = option.get("minimum"), option.get("maximum")
                within = f" from {low}" if low is not None else ""
                within += f" to {high}" if high is not None else ""
                raise ValueError(f"option {name} must be an integer{within}, not {value!r}")
        return merged

    def check_players(self, players: int, where: str = "players") -> None:
        """ValueError unless the game is for ``players``."""
        low, high = self.players
        if not low <= players <= high:
            raise ValueError(f"{where}: {self.game} is for {low} to {high} players, not {players}")


def _read(path: Path) -> dict[str, Any]:
    """A game file's data."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load(path.read_bytes(), Loader=loader)
    if not isinstance(data, dict) or "game" not in data or "rule_version" not in data:
        raise ValueError(f"{path}: not a game file")
    return data


def _stamps() -> tuple[tuple[str, int, int], ...]:
    """Each game file the engine can see with its mtime and size: the kit's, those sent (``SENT``), then ./spec/games'."""
    sent = os.environ.get(SENT)
    return (_bundled_stamps() + (_folder_stamps(Path(sent)) if sent else ())
            + (() if _in_kit(os.getcwd()) else _folder_stamps(LOCAL)))


def _kit_folder() -> Path:
    """The kit's spec/games."""
    return next((f for f in BUNDLED if f.is_dir()), BUNDLED[0])


@cache
def _bundled_stamps() -> tuple[tuple[str, int, int], ...]:
    """The kit's game files, looked at once: they do not change under a running engine."""
    return _folder_stamps(_kit_folder())


@cache
def _in_kit(cwd: str) -> bool:
    """Whether ./spec/games of ``cwd`` is the kit's own (a checkout's root): nothing more to look at each start."""
    return (Path(cwd) / LOCAL).resolve() == _kit_folder().resolve()


def _folder_stamps(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """The game files of ``folder`` with their mtimes and sizes (a draft edited is read again)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return ()
    return tuple((os.path.abspath(e.path), e.stat().st_mtime_ns, e.stat().st_size)
                 for e in entries if e.name.endswith(".yaml") and e.is_file())


@cache
def _game_files(stamps: tuple[tuple[str, int, int], ...]) -> tuple[dict[str, Any], ...]:
    """The game files of ``stamps``, read once while none changes; a copy of an earlier version left out."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path, _, _ in stamps:
        try:
            data = _read(Path(path))
        except Exception:  # noqa: BLE001 - a draft being written (bad YAML, not a game file) is no version yet
            if Path(path).parent == BUNDLED[0] or "_bundled" in path:
                raise
            continue
        found.setdefault((str(data["game"]), str(data["rule_version"])), data)
    return tuple(found.values())


def game_files() -> tuple[dict[str, Any], ...]:
    """Every game file the engine can see: the kit's, then those of ./spec/games (a copy of the kit's left out)."""
    return _game_files(_stamps())


def logic(data: dict[str, Any]) -> dict[str, Any]:
    """What of a game file the code implements: all but its data and prose, each option without its data."""
    kept = {k: v for k, v in data.items() if k not in DATA_KEYS | PROSE_KEYS}
    kept["options"] = {name: {k: v for k, v in option.items() if k not in OPTION_DATA}
                       for name, option in data.get("options", {}).items()}
    kept["clauses"] = {c["id"]: {k: v for k, v in c.items() if k != "source"} for c in data.get("clauses", [])}
    kept["numbers"] = sorted(data.get("numbers") or {})  # the names are logic (the code reads them), the values data
    return kept


def needs_code(data: dict[str, Any], implemented: dict[str, Any]) -> list[str]:
    """What ``data`` changes beyond data against the game file the code implements: clause ids, else section names.

    A clause whose rule differs only in numbers the data changed ("100 unless configured" for a
    default target raised to 150) restates the data, and needs no code.
    """
    mine, theirs = logic(implemented), logic(data)
    moves = _moves(implemented, data)
    changed = [cid for cid in sorted(set(mine["clauses"]) | set(theirs["clauses"]))
               if mine["clauses"].get(cid) != theirs["clauses"].get(cid)
               and not _restated(mine["clauses"].get(cid), theirs["clauses"].get(cid), moves)]
    changed += [key for key in sorted(set(mine) | set(theirs)) if key != "clauses" and mine.get(key) != theirs.get(key)]
    return changed


_NUMBER = re.compile(r"\d+")


def _restated(old: dict[str, Any] | None, new: dict[str, Any] | None, moves: set[tuple[int, int]]) -> bool:
    """Whether two versions of a clause differ only in numbers of its rule that the data moved."""
    if old is None or new is None or {**old, "rule": ""} != {**new, "rule": ""}:
        return False
    if _NUMBER.sub("#", old["rule"]) != _NUMBER.sub("#", new["rule"]):
        return False
    return all(a == b or (int(a), int(b)) in moves
               for a, b in zip(_NUMBER.findall(old["rule"]), _NUMBER.findall(new["rule"])))


def _moves(old: dict[str, Any], new: dict[str, Any]) -> set[tuple[int, int]]:
    """Each number of the data (players, options' defaults and ranges, numbers) as it goes from ``old`` to ``new``."""
    def numbers(data: dict[str, Any]) -> dict[tuple[str, ...], int]:
        found: dict[tuple[str, ...], int] = {("players", k): v for k, v in data["players"].items()}
        found |= {("options", name, k): o[k] for name, o in data["options"].items()
                  for k in OPTION_DATA if type(o.get(k)) is int}
        for name, value in (data.get("numbers") or {}).items():
            found |= ({("numbers", name, str(k)): v for k, v in value.items()} if isinstance(value, dict)
                      else {("numbers", name): value})
        return found

    was, now = numbers(old), numbers(new)
    return {(was[k], now[k]) for k in was.keys() & now.keys() if was[k] != now[k]}


def versions(game: str, implemented: str) -> tuple[str, ...]:
    """The rule versions of ``game`` the engine plays: ``implemented``, and every version differing from it only in data."""
    return _versions(game, implemented, _stamps())


@cache
def _versions(game: str, implemented: str, stamps: tuple[tuple[str, int, int], ...]) -> tuple[str, ...]:
    """``versions`` while the game files are these."""
    mine = [d for d in _game_files(stamps) if d["game"] == game]
    base = next((d for d in mine if str(d["rule_version"]) == implemented), None)
    if base is None:
        return (implemented,)
    found = [str(d["rule_version"]) for d in mine if d is base or not needs_code(d, base)]
    return tuple(sorted(found, key=lambda v: tuple(int(p) for p in v.split("."))))


def rules_of(game: str, version: str, implemented: str) -> Rules:
    """``game`` at ``version``, as data; ValueError for a version the engine does not play, naming what needs code."""
    return _rules(game, version, implemented, _stamps())


@cache
def _rules(game: str, version: str, implemented: str, stamps: tuple[tuple[str, int, int], ...]) -> Rules:
    """``rules_of`` while the game files are these."""
    by_version = {str(d["rule_version"]): d for d in _game_files(stamps) if d["game"] == game}
    data, base = by_version.get(version), by_version.get(implemented)
    if data is None or base is None:
        raise ValueError(f"not a {game} setup the reference engine plays: {game} {version} (it has no game file for "
                         f"it; it implements {implemented})")
    changed = needs_code(data, base)
    if changed:
        raise ValueError(f"the reference engine does not play {game} {version}: it changes {', '.join(changed)} since "
                         f"{implemented}, which needs code (reference_engine/{game.replace('-', '_')}/)")
    return Rules(game, version, (int(data["players"]["min"]), int(data["players"]["max"])),
                 {name: dict(option) for name, option in data["options"].items()}, dict(data.get("numbers") or {}))
