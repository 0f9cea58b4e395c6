"""The spec as loaded data: game files, reason codes, schemas, with validators built once."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

try:  # Rust-backed: checks a valid document ~50x faster; python-jsonschema still words the errors
    import jsonschema_rs as _fast_schemas
except ImportError:  # pragma: no cover - an optional accelerator
    _fast_schemas = None  # type: ignore[assignment]

from harness.spec.cards import CardOrder
from harness.spec.paths import spec_dir
from harness.spec.semver import in_range, parse_version
from harness.spec.store import parsed_yaml


class Validator:
    """A Draft 2020-12 validator: a fast yes/no, and python-jsonschema's errors when it is no."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self._fast = _fast_schemas.validator_for(schema) if _fast_schemas is not None else None
        self._slow: Any = None

    def is_valid(self, instance: Any) -> bool:
        """Whether ``instance`` follows the schema."""
        if self._fast is not None:
            try:
                return bool(self._fast.is_valid(instance))
            except ValueError:  # keys that are not strings (seat numbers): only the slow validator takes them
                pass
        return not any(True for _ in self.iter_errors(instance))

    def iter_errors(self, instance: Any) -> Any:
        """Every error, each with its ``absolute_path`` (none at all when the instance is valid)."""
        if self._fast is not None:
            try:
                if self._fast.is_valid(instance):
                    return iter(())
            except ValueError:  # keys that are not strings: let the slow validator judge
                pass
        if self._slow is None:
            import jsonschema  # ~80 ms to import: only when an error must be worded

            self._slow = jsonschema.Draft202012Validator(self.schema)
        return self._slow.iter_errors(instance)


LEVELS = ("easy", "normal", "hard")  # the computer players' levels every rule document names (R-7, G-7, P-7)


@dataclass(frozen=True)
class Clause:
    """One rule of a game, with its stable id."""

    id: str
    source: str
    basis: str
    rule: str
    question: str | None = None
    refusable: bool = True
    level: str | None = None  # computer-player clauses only: any, easy, normal or hard
    checked: str | None = None  # computer-player clauses only: position, players or aggregate
    check: str | None = None  # position clauses only: module:function of its check (harness/findings/rules/)


@dataclass
class GameSpec:
    """One game at one rule version."""

    data: dict[str, Any]
    path: Path
    clauses: dict[str, Clause] = field(init=False)

    def __post_init__(self) -> None:
        self.clauses = {c["id"]: Clause(**c) for c in self.data["clauses"]}

    @property
    def game(self) -> str:
        """The game's name (``gin-rummy``)."""
        return str(self.data["game"])

    @property
    def rule_version(self) -> str:
        """The rule version (``1.0.0``)."""
        return str(self.data["rule_version"])

    @cached_property
    def card_order(self) -> CardOrder:
        """The canonical card order of this game."""
        return CardOrder(self.data["card_order"])

    @cached_property
    def option_defaults(self) -> dict[str, Any]:
        """Every option with its default value."""
        return {name: option["default"] for name, option in self.data["options"].items()}

    @cached_property
    def reasons(self) -> frozenset[str]:
        """The closed list of reason codes for this game."""
        return common_reasons() | frozenset(self.data["reasons"])

    @cached_property
    def layout_validator(self) -> Any:
        """The validator of this game's layouts."""
        return Validator(self.data["layout"]["schema"])

    @cached_property
    def action_validators(self) -> dict[str, Any]:
        """One validator per action kind, keyed by the action's main key."""
        return {kind: Validator(action["schema"]) for kind, action in self.data["actions"].items()}

    @cached_property
    def state_validator(self) -> Any:
        """The validator of a full state view."""
        return Validator(self.data["state_view"]["schema"])

    @cached_property
    def checkpoint_validator(self) -> Any:
        """The validator of a checkpoint: a part of a state view (some keys, some seats, some fields of an item)."""
        return Validator(_partial(self.data["state_view"]["schema"], top=True))

    @cached_property
    def state_fields(self) -> frozenset[str]:
        """The keys a state view may hold."""
        return frozenset(self.data["state_view"]["fields"]) | COMMON_STATE_FIELDS

    def reason_meaning(self, code: str) -> str:
        """What a reason code means, in words."""
        return str(self.data["reasons"].get(code) or common_reason_meanings().get(code, ""))

    def action_kind(self, action: dict[str, Any]) -> str | None:
        """The vocabulary entry ``action`` belongs to, if any."""
        for key in action:
            if key in self.data["actions"]:
                return key
        return None


def _partial(schema: Any, top: bool = False) -> Any:
    """``schema`` without the keywords a checkpoint need not meet: it compares as a subset, seat by seat."""
    if isinstance(schema, list):
        return [_partial(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    dropped = {"required", "minItems", "maxItems", "minProperties"} | ({"additionalProperties"} if top else set())
    return {key: _partial(value) for key, value in schema.items() if key not in dropped}


COMMON_STATE_FIELDS = frozenset(
    {"phase", "to_act", "round", "scores", "hands", "hand_sizes", "round_results", "game_result"})


def _read_yaml(path: Path) -> Any:
    """A spec file's data (the spec is ours, so the fast plain loader is enough), parsed once per content."""
    import yaml  # only when a spec file is read: serve, which needs the schemas alone, starts without it

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return parsed_yaml(path.read_bytes(), lambda data: yaml.load(data, Loader=loader))


@cache
def schema(name: str) -> dict[str, Any]:
    """A JSON Schema from ``spec/schemas``."""
    with (spec_dir() / "schemas" / name).open(encoding="utf-8") as handle:
        return dict(json.load(handle))


@cache
def validator(name: str) -> Any:
    """A validator for the schema ``name``, built once per process."""
    return Validator(schema(name))


@cache
def common_reason_meanings() -> dict[str, str]:
    """The reason codes shared by every game, with their meanings."""
    return dict(_read_yaml(spec_dir() / "reasons.yaml"))


def common_reasons() -> frozenset[str]:
    """The reason codes shared by every game."""
    return frozenset(common_reason_meanings())


_EXTRA: list[GameSpec] = []  # game files named on the command line (--game-file), beside the bundled ones
_PLAYED: dict[str, str] = {}  # game -> the rule version a command plays it at (--rule-version), while inside


def extra_game_specs() -> list[GameSpec]:
    """The game files added for what follows (``use_extra_game_specs``)."""
    return list(_EXTRA)


def use_extra_game_specs(extra: list[GameSpec]) -> None:
    """Add these game files to the bundled ones for what follows (an empty list: the bundled ones only)."""
    _EXTRA[:] = extra
    game_specs.cache_clear()
    _game_names.cache_clear()
    _specs_in_range.cache_clear()


def played_versions() -> dict[str, str]:
    """The rule version each game is played at now (``playing``), for work sent to another process."""
    return dict(_PLAYED)


@contextmanager
def playing(versions: dict[str, str]) -> Iterator[None]:
    """Play each game of ``versions`` at that rule version while inside (``played_spec``)."""
    before = dict(_PLAYED)
    _PLAYED.update(versions)
    try:
        yield
    finally:
        _PLAYED.clear()
        _PLAYED.update(before)


def played_spec(game: str, version: str | None = None) -> GameSpec:
    """The game file of ``game`` at ``version``, else at the version being played, else the kit's newest; ValueError if none."""
    found = [s for s in game_specs() if s.game == game]
    if not found:
        raise ValueError(unknown_game(game))
    wanted = version or _PLAYED.get(game)
    if wanted is None:  # the newest of the kit's own: a game file added beside them is played only when asked for
        kit = [s for s in found if not any(s is extra for extra in _EXTRA)]
        return (kit or found)[-1]
    for spec in found:
        if spec.rule_version == wanted:
            return spec
    raise ValueError(f"{game} has no rule version {wanted} in the spec (it has {', '.join(s.rule_version for s in found)})")


@cache
def game_specs() -> tuple[GameSpec, ...]:
    """Every game file in the spec, sorted by game then version."""
    specs = [GameSpec(_read_yaml(path), path) for path in sorted((spec_dir() / "games").glob("*.yaml"))]
    return tuple(sorted(specs + _EXTRA, key=lambda s: (s.game, parse_version(s.rule_version))))


def games() -> list[str]:
    """The games the spec knows."""
    return sorted({spec.game for spec in game_specs()})


def is_game(name: str) -> bool:
    """Whether the spec knows the game ``name`` (a record reader asks it for every record)."""
    return name in _game_names()


@cache
def _game_names() -> frozenset[str]:
    """The games the spec knows, as a set."""
    return frozenset(games())


def unknown_game(name: str) -> str:
    """The message for a game the spec does not know."""
    from harness.spec.names import did_you_mean

    return f"unknown game {name!r}{did_you_mean(name, games())}; the spec has {', '.join(games())}"


def specs_in_range(game: str, range_text: str) -> list[GameSpec]:
    """The game's rule versions that lie in ``range_text``, newest last."""
    return list(_specs_in_range(game, range_text))


@cache
def _specs_in_range(game: str, range_text: str) -> tuple[GameSpec, ...]:
    """``specs_in_range``, worked out once per game and range (a suite repeats a few ranges)."""
    return tuple(s for s in game_specs() if s.game == game and in_range(s.rule_version, range_text))


def changed_clauses(old: GameSpec, new: GameSpec) -> list[str]:
    """The clauses whose rule (text, basis, refusable, question) differs between two versions, added or removed.

    A rule whose text differs only in numbers the data changed (``data_moves``: "100 unless
    configured" for a default target raised to 150) has not changed: it restates the data.
    """
    moves = data_moves(old.data, new.data)

    def logic(clause: Clause | None) -> Any:
        return None if clause is None else (_NUMBER.sub("#", clause.rule), clause.basis, clause.refusable,
                                            clause.question)

    def restated(a: Clause, b: Clause) -> bool:
        pairs = zip(_NUMBER.findall(a.rule), _NUMBER.findall(b.rule))
        return logic(a) == logic(b) and all(x == y or (int(x), int(y)) in moves for x, y in pairs)

    found = []
    for cid in sorted(set(old.clauses) | set(new.clauses)):
        a, b = old.clauses.get(cid), new.clauses.get(cid)
        if a is None or b is None or (a != b and not restated(a, b)):
            found.append(cid)
    return found


_NUMBER = re.compile(r"\d+")


def data_moves(old: dict[str, Any], new: dict[str, Any]) -> set[tuple[int, int]]:
    """Each number of the data (players, options' defaults and ranges, numbers) as it goes from ``old`` to ``new``."""
    def numbers(data: dict[str, Any]) -> dict[tuple[str, ...], int]:
        found: dict[tuple[str, ...], int] = {("players", k): v for k, v in data["players"].items()}
        found |= {("options", name, k): o[k] for name, o in data["options"].items()
                  for k in ("default", "minimum", "maximum") if type(o.get(k)) is int}
        for name, value in (data.get("numbers") or {}).items():
            found |= {("numbers", name, str(k)): v for k, v in value.items()} if isinstance(value, dict) \
                else {("numbers", name): value}
        return found

    was, now = numbers(old), numbers(new)
    return {(was[k], now[k]) for k in was.keys() & now.keys() if was[k] != now[k]}


def all_clauses() -> dict[str, tuple[GameSpec, Clause]]:
    """Every clause id of every game file."""
    return {cid: (spec, clause) for spec in game_specs() for cid, clause in spec.clauses.items()}
