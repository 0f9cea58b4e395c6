"""``--rule-version`` for the commands that start games: the option, and the rule version each game is played at.

Without the option a game is played at the newest rule version the engine declares among the kit's
own game files; a game file of ./spec/games (a draft ``new-version`` wrote) is read too, but played
only when asked for by name, and then only if the engine declares it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.adapters.arguments import engine_from, is_remote, opened
from harness.spec import gamespec as specs
from harness.spec.gamefile import GameFileError, extra_game_files
from harness.spec.semver import parse_version

HELP = ("play this rule version: GAME@VERSION, or VERSION for every game played that has it (repeatable); a game "
        "file in ./spec/games (new-version) counts; default: the newest of the kit's the engine declares")


class RuleVersionError(Exception):
    """A rule version that cannot be played, in one line with what to do."""


def add_rule_version(parser: argparse.ArgumentParser) -> None:
    """``--rule-version [GAME@]VERSION`` (repeatable)."""
    parser.add_argument("--rule-version", action="append", metavar="[GAME@]VERSION", help=HELP)


def declared_versions(description: dict[str, Any], game: str) -> list[str]:
    """The rule versions of ``game`` the engine's description declares."""
    games = description.get("games") if isinstance(description, dict) else None
    found = games.get(game) if isinstance(games, dict) else None
    versions = found.get("rule_versions") if isinstance(found, dict) else None
    return [str(v) for v in versions] if isinstance(versions, list) else []


def asked_for(asked: Sequence[str] | None, games: Sequence[str]) -> dict[str, str]:
    """The version asked for each game of ``games``; RuleVersionError for a choice that names none of them."""
    chosen: dict[str, str] = {}
    for choice in asked or []:
        game, _, version = choice.rpartition("@")
        if game and game not in games:
            raise RuleVersionError(f"--rule-version {choice}: this command plays {', '.join(games) or 'no game'}, "
                                   f"not {game}")
        having = [g for g in ([game] if game else games)
                  if any(s.rule_version == version for s in specs.game_specs() if s.game == g)]
        if not having:
            known = sorted({s.rule_version for s in specs.game_specs() if s.game in ([game] if game else games)},
                           key=parse_version)
            raise RuleVersionError(f"--rule-version {choice}: {game or ' or '.join(games)} has no rule version "
                                   f"{version} (the spec has {', '.join(known) or 'none'}); a new one is written with "
                                   f"`cardverse-conformance new-version` into ./spec/games")
        for g in having:
            if chosen.get(g, version) != version:
                raise RuleVersionError(f"--rule-version {choice}: {g} is already asked at {chosen[g]}; "
                                       "give one rule version per game")
            chosen[g] = version
    return chosen


def picked_versions(description: dict[str, Any], games: Sequence[str], asked: Sequence[str] | None) -> dict[str, str]:
    """The rule version each game is played at; RuleVersionError for one the engine cannot play."""
    chosen = asked_for(asked, games)
    picked: dict[str, str] = {}
    for game in games:
        declared = declared_versions(description, game)
        if game in chosen:
            if chosen[game] not in declared:
                raise RuleVersionError(f"--rule-version {chosen[game]}: the engine does not implement {game} "
                                       f"{chosen[game]} (it declares {', '.join(declared) or 'none'})"
                                       f"{_code(game, chosen[game], declared)}; ask for one it declares, or give an "
                                       "engine that implements it")
            picked[game] = chosen[game]
            continue
        drafts = {id(s) for s in specs.extra_game_specs()}
        kit = [s.rule_version for s in specs.game_specs() if s.game == game and id(s) not in drafts]
        playable = [v for v in kit if v in declared]
        if playable:
            picked[game] = max(playable, key=parse_version)
        elif declared and kit:  # the engine declares only versions the kit does not bundle
            raise RuleVersionError(f"the engine declares {game} {', '.join(declared)}, none of the kit's "
                                   f"({', '.join(kit)}): give --rule-version with the one to play (its game file "
                                   "in ./spec/games)")
    return picked


def _code(game: str, version: str, declared: list[str]) -> str:
    """What the version asked for changes in the rules since the one the engine declares next below it, if any."""
    by_version = {s.rule_version: s for s in specs.game_specs() if s.game == game}
    known = sorted((v for v in declared if v in by_version), key=parse_version)
    if not known:
        return ""
    below = [v for v in known if parse_version(v) < parse_version(version)]
    nearest = below[-1] if below else known[0]
    changed = specs.changed_clauses(by_version[nearest], by_version[version])
    if not changed:
        return ""
    return (f"; since {nearest}, {version} changes the rule of {', '.join(changed)}, which needs code (a version "
            "that changes only data - players, options' defaults and ranges, numbers - needs none)")


@contextmanager
def played_at(args: argparse.Namespace, engine: Any, games: Sequence[str]) -> Iterator[str | None]:
    """Inside, each of ``games`` is played at its rule version (``specs.played_spec``); yields the problem, if any.

    ``engine`` is an engine or its description. An engine that cannot describe itself is left to the
    command, which says so in its own words.
    """
    asked = getattr(args, "rule_version", None)
    with ExitStack() as stack:
        try:
            # the game files of ./spec/games too (a record of a draft replayed, a version asked for by name); a
            # draft is never the default (picked_versions, specs.played_spec)
            stack.enter_context(extra_game_files([]))
            try:
                description = engine if isinstance(engine, dict) else engine.describe()
            except Exception:  # the command reports a describe() that fails, in its own words
                description = {}
            versions = picked_versions(description, [g for g in games if specs.is_game(g)], asked)
        except (RuleVersionError, GameFileError) as error:
            yield str(error)
            return
        stack.enter_context(specs.playing(versions))
        yield None


@contextmanager
def played_by(args: argparse.Namespace, games: Sequence[str]) -> Iterator[str | None]:
    """``played_at`` for the engine the options name, started to describe itself (for a command that starts it later)."""
    description: dict[str, Any] = {}
    # a remote engine is started once more only when a version is asked for; else its games play at the newest
    if getattr(args, "rule_version", None) or not is_remote(args):
        try:
            with opened(engine_from(args)) as engine:
                description = engine.describe()
        except Exception:  # an engine that does not start or describe itself: the command tells it when it starts it
            pass
    with played_at(args, description, games) as problem:
        yield problem


@dataclass(frozen=True)
class Played:
    """What a command plays beyond the kit's own: the game files added, as their paths and texts, and each game's
    rule version; sent with a task (plain values: they pickle), so a cluster's worker plays the same."""

    files: tuple[tuple[str, str], ...]  # (path, YAML text) of each game file added (--game-file, ./spec/games)
    versions: tuple[tuple[str, str], ...]  # (game, rule version) as ``specs.playing`` holds them

    def texts(self) -> dict[str, str]:
        """The game files' texts by a file name of each, unique (for the reference engine's ``sent_game_files``)."""
        return {f"{i}-{Path(path).name}": text for i, (path, text) in enumerate(self.files)}


def played_here() -> Played:
    """The game files and rule versions this command plays now (inside ``played_at``)."""
    return Played(tuple((str(s.path), s.path.read_text(encoding="utf-8")) for s in specs.extra_game_specs()),
                  tuple(sorted(specs.played_versions().items())))


# The folder of game files the reference engine reads beside the kit's (reference_engine/gamefiles/rules.py,
# SENT: the engine imports nothing of the harness, so the name is written in both; tests/test_cluster_draft.py).
SENT = "CARDVERSE_GAME_FILES"


@contextmanager
def playing_as(played: Played) -> Iterator[None]:
    """On a cluster's worker: the harness and the reference engine play the game files and rule versions ``played``
    holds, while inside, whatever folder the worker runs in."""
    import yaml

    # The reference reads them from a folder, one per set of files, kept: the tasks a worker runs at once in its
    # threads name the same folder, so none takes it from under another (left set, not put back, for that reason).
    if played.files:
        os.environ[SENT] = str(written(played.texts()))
    else:
        os.environ.pop(SENT, None)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    before = specs.extra_game_specs()
    specs.use_extra_game_specs([specs.GameSpec(yaml.load(text, Loader=loader), Path(path))
                                for path, text in played.files])
    try:
        with specs.playing(dict(played.versions)):
            yield
    finally:
        specs.use_extra_game_specs(before)


def written(texts: dict[str, str]) -> Path:
    """A folder of the temporary directory holding the game files ``texts`` (file name -> text), named by their digest."""
    digest = hashlib.sha256(json.dumps(texts, sort_keys=True).encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / f"cardverse-game-files-{digest}"
    if not folder.is_dir():
        building = Path(tempfile.mkdtemp(prefix="cardverse-game-files-"))
        for name, text in texts.items():
            (building / name).write_text(text, encoding="utf-8")
        try:
            building.rename(folder)  # whole or not at all, should another task write the same at once
        except OSError:
            shutil.rmtree(building, ignore_errors=True)
    return folder


class DeclaringOnly:
    """An engine that declares only the rule versions picked for each game (``serve --rule-version``)."""

    def __init__(self, engine: Any, versions: dict[str, str]) -> None:
        self.engine, self.versions = engine, versions

    def describe(self) -> dict[str, Any]:
        """The engine's description, each picked game with its one rule version."""
        description = dict(self.engine.describe())
        games = dict(description.get("games") or {})
        for game, version in self.versions.items():
            games[game] = {**games[game], "rule_versions": [version]}
        return {**description, "games": games}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)
