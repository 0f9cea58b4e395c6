"""One game record (spec/records.md): read from a JSON line and checked, or built as a game is played."""

from __future__ import annotations

import json
from itertools import chain, compress, repeat
from operator import contains, itemgetter, methodcaller, ne
from functools import cache
from typing import Any, NamedTuple

from harness.host.files import DATA_DEPTH, nesting_depth
from harness.host.text import LONE_SURROGATE, has_lone_surrogate
from harness.records.decoder import read
from harness.spec import gamespec as specs
from harness.spec.cards import ALL_CARDS
from harness.spec.gamespec import GameSpec, Validator
from harness.spec.paths import spec_dir
from harness.suite.layouts import card_slots, complete_layout, layout_kind
from harness.suite.model import json_path
from harness.suite.schema_words import deepest, schema_message

FORMAT = "cardverse-game/1"
MAX_DEPTH = DATA_DEPTH  # levels of nesting a record may have, as a data file
_seat, _moves, _refusal = itemgetter("seat"), itemgetter("moves"), methodcaller("get", "refused")
_NO_REASON = {None, True}  # a move's refusal that names no reason code: none, or refused with no reason


class RecordError(Exception):
    """A record that cannot be audited: where in the record (a JSON path) and what is wrong."""

    def __init__(self, path: tuple[str | int, ...], message: str, kind: str = "invalid") -> None:
        super().__init__(f"{json_path(path)}: {message}")
        self.kind = kind  # invalid, unknown-game, cut-short: how the summary counts it


class Record(NamedTuple):
    """A record that follows the format: what the engine is started with, and what the server did (a named tuple:
    each line makes one, and a frozen dataclass is slower to make)."""

    data: dict[str, Any]
    spec: GameSpec
    setup: dict[str, Any]

    @property
    def rounds(self) -> list[dict[str, Any]]:
        """The rounds, each with its moves."""
        return self.data["rounds"]  # type: ignore[no-any-return]

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.data["seats"])


@cache
def validator() -> Validator:
    """The validator of spec/schemas/record.schema.json."""
    return Validator(json.loads((spec_dir() / "schemas" / "record.schema.json").read_text(encoding="utf-8")))


def parse_record(text: str | bytes) -> Record:
    """The record on one JSON line, checked against the format and its game file; raises RecordError."""
    if has_lone_surrogate(text):
        raise RecordError((), f"{LONE_SURROGATE}: write the record's text as UTF-8", "not-json")
    try:
        found = read(text)
        if found is not None:
            return _checked(*found)
        try:  # the typed decoder said no: the schema says where and why, in the words it always has
            data = json.loads(text)
        except ValueError as error:
            raise RecordError((), f"not JSON ({error}); each line must be one whole game record", "not-json") from None
        if nesting_depth(data) > MAX_DEPTH:
            raise RecursionError
        return check_record(data)
    except RecursionError:  # the decoders, the schema's validator and the checks all recurse
        raise RecordError((), f"nested deeper than {MAX_DEPTH} levels (a record nests about 8): each line must be "
                              "one game record", "not-json") from None


def check_record(data: Any) -> Record:
    """``data`` as a Record once it follows the schema and its game file; raises RecordError."""
    schema = validator()
    if not schema.is_valid(data):
        error = deepest(min(schema.iter_errors(data), key=lambda e: len(e.absolute_path)))
        raise RecordError(tuple(error.absolute_path), schema_message(error))
    return _checked(data)


def _checked(data: dict[str, Any], odd: list[dict[str, Any]] | None = None) -> Record:
    """``data``, which follows the schema, as a Record once it follows its game file (``odd``: its moves that are
    more than a seat of its seats and an action, as the decoder lists them; None: any); raises RecordError."""
    spec = _spec(data["game"], data["rule_version"])
    players = len(data["seats"])
    low, high = spec.data["players"]["min"], spec.data["players"]["max"]
    if not low <= players <= high:
        raise RecordError(("seats",), f"{players} seats; {spec.game} is for {low} to {high} players")
    given = data.get("options", {})
    if not given.keys() <= spec.option_defaults.keys():
        unknown = sorted(set(given) - set(spec.option_defaults))
        raise RecordError(("options", unknown[0]), f"{spec.game} {spec.rule_version} has no option {unknown[0]!r} "
                                                   f"(it has {', '.join(sorted(spec.option_defaults))})")
    options = {**spec.option_defaults, **given}
    recorded = set(data["recorded"])
    unfinished = bool(data.get("unfinished", False))
    if not _rounds_fit(spec, data["rounds"], players, recorded, unfinished, odd):
        for number, round_ in enumerate(data["rounds"]):  # the first round that does not raises, in its words
            last = number == len(data["rounds"]) - 1
            _check_round(spec, round_, number, players, recorded, last, may_miss=last and unfinished)
    if unfinished and "game_result" in data:
        raise RecordError(("game_result",), "an unfinished game has no game_result; drop one of the two")
    if "game_result" in recorded and "game_result" not in data and not unfinished:
        raise RecordError(("game_result",), "missing, though `recorded` names it: the record stops before the "
                                            "game's end (a log cut short?)", "cut-short")
    setup: dict[str, Any] = {"game": spec.game, "rule_version": spec.rule_version, "options": options}
    if "seed" in data:
        if any(map(contains, data["rounds"], repeat("deal"))):
            where = next(i for i, r in enumerate(data["rounds"]) if "deal" in r)
            raise RecordError(("rounds", where, "deal"), "a seeded game deals every round from its seed; "
                                                          "give either `seed` or a deal for each round")
        setup.update(seed=data["seed"], players=players)
    else:
        setup.update(_deals(spec, data["rounds"], players))
    return Record(data, spec, setup)


def _spec(game: str, version: str) -> GameSpec:
    """The game file of that game and rule version."""
    if not specs.is_game(game):
        raise RecordError(("game",), specs.unknown_game(game), "unknown-game")
    found = specs.specs_in_range(game, f"={version}")
    if not found:
        have = ", ".join(s.rule_version for s in specs.game_specs() if s.game == game)
        raise RecordError(("rule_version",), f"{game} has no rule version {version} in the spec (it has {have})",
                          "unknown-game")
    return found[0]


def _rounds_fit(spec: GameSpec, rounds: list[dict[str, Any]], players: int, recorded: set[str],
                unfinished: bool, odd: list[dict[str, Any]] | None = None) -> bool:
    """Whether no round breaks what ``_check_round`` checks: the same checks over the whole record at once, in
    loops in C (map, compress, set), as most records pass them; a record that fails is checked round by round.
    ``odd``: the moves that are more than a seat below ``players`` and an action (None: any move may be)."""
    if odd is None:
        odd = rounds[0]["moves"] if len(rounds) == 1 else list(chain.from_iterable(map(_moves, rounds)))
    if odd and max(map(_seat, odd)) >= players:
        return False
    # most moves are a seat and an accepted action: only the others hold something more to check
    extra = list(compress(odd, map(ne, map(len, odd), repeat(2))))
    if extra:
        said = set(map(_refusal, extra))
        if ("refusals" not in recorded and said != {None}) or not said.difference(spec.reasons) <= _NO_REASON:
            return False
        if "states" not in recorded and any(map(contains, extra, repeat("state"))):
            return False
        if "legal" not in recorded and any(map(contains, extra, repeat("legal"))):
            return False
    for field, name in (("result", "round_results"), ("scores", "scores")):
        having, wanted = sum(map(contains, rounds, repeat(field))), len(rounds) if name in recorded else 0
        if having != wanted and not (unfinished and wanted and having == wanted - 1 and field not in rounds[-1]):
            return False
    return all(len(round_["scores"]) == players for round_ in rounds if "scores" in round_)


def _check_round(spec: GameSpec, round_: dict[str, Any], number: int, players: int, recorded: set[str],
                 last: bool, may_miss: bool = False) -> None:
    """A round's moves name seats and actions of the game; what ``recorded`` names is there."""
    for index, move in enumerate(round_["moves"]):
        where = ("rounds", number, "moves", index)
        if move["seat"] >= players:
            raise RecordError(where + ("seat",), f"seat {move['seat']} in a game of {players} seats (0 to {players - 1})")
        if "refused" in move and "refusals" not in recorded:
            raise RecordError(where + ("refused",), "a refusal in a record whose `recorded` does not name refusals")
        if move.get("refused") is False:  # refused, or not? Neither pass of the audit may guess
            raise RecordError(where + ("refused",), "false is no refusal: give the server's reason code (or true "
                                                    "when reasons are not recorded), or leave refused out of a move "
                                                    "it accepted")
        if isinstance(move.get("refused"), str) and move["refused"] not in spec.reasons:
            raise RecordError(where + ("refused",), f"{move['refused']!r} is not a reason code of {spec.game}")
        if "state" in move and "states" not in recorded:
            raise RecordError(where + ("state",), "a state in a record whose `recorded` does not name states")
        if "legal" in move and "legal" not in recorded:
            raise RecordError(where + ("legal",), "a legal list in a record whose `recorded` does not name legal")
    for field, name in (("result", "round_results"), ("scores", "scores")):
        if field in round_ and name not in recorded:
            raise RecordError(("rounds", number, field), f"a {field} in a record whose `recorded` does not name {name}")
        if field not in round_ and name in recorded and not may_miss:
            raise RecordError(("rounds", number, field), f"missing, though `recorded` names {name}"
                              + (": the record stops before the round's end (a log cut short?)" if last else ""),
                              "cut-short" if last else "invalid")
    if "scores" in round_ and len(round_["scores"]) != players:
        raise RecordError(("rounds", number, "scores"), f"{len(round_['scores'])} scores for {players} seats")


def _deals(spec: GameSpec, rounds: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The layouts of a game dealt round by round, completed as the engine takes them."""
    layouts = []
    for number, round_ in enumerate(rounds):
        if "deal" not in round_:
            raise RecordError(("rounds", number), "no deal: give the record a `seed`, or each round its `deal` "
                                                  "(a layout of the game file)", "no-deal")
        deal = round_["deal"]
        kind = layout_kind(deal, first=number == 0)
        if number == 0 and not spec.layout_validator.is_valid(deal):
            error = deepest(min(spec.layout_validator.iter_errors(deal), key=lambda e: len(e.absolute_path)))
            raise RecordError(("rounds", 0, "deal", *error.absolute_path), schema_message(error))
        fields = ["deck"] if kind == "deck" else spec.data["layout"]["card_fields"]
        cards = [card for _, card in card_slots(deal, fields)]
        bad = next((c for c in cards if c not in ALL_CARDS), None)
        if bad is not None or len(set(cards)) != len(cards) or not cards:
            what = f"{bad!r} is not a card" if bad is not None else "a card dealt twice" if cards else "no card dealt"
            raise RecordError(("rounds", number, "deal"), f"{what}; a deal places each card of the deck once")
        layouts.append(complete_layout(spec, deal, set(cards), kind))
    if len(layouts[0].get("hands", [])) not in (0, players) or layouts[0].get("players", players) != players:
        raise RecordError(("rounds", 0, "deal"), f"the deal is not for the record's {players} seats")
    return {"layout": layouts[0], "later_layouts": layouts[1:]}


def from_moves(setup: dict[str, Any], moves: list[dict[str, Any]], server: dict[str, Any] | None = None) -> Record:
    """The record of an older replay file (the setup, then one accepted move a line): moves only, in one round
    per round the engine would play; checked as any record."""
    players = int(setup.get("players") or len(setup.get("layout", {}).get("hands", [])) or 0)
    recorder = Recorder(setup, server or {"name": "unknown"}, [{} for _ in range(players)], recorded=())
    for move in moves:
        recorder.move(move["seat"], move["action"])
    recorder.data["unfinished"] = True  # where its rounds end is not written: it is replayed, not judged
    return check_record(recorder.data)


def server_of(engine: Any) -> dict[str, str]:
    """A record's ``server``: the name and version ``engine`` describes itself with."""
    described = engine.describe()
    return {"name": str(described.get("name", "?")), "version": str(described.get("version", "?"))}


class Recorder:
    """A record built while a game is played: the setup, then each move and announcement."""

    def __init__(self, setup: dict[str, Any], server: dict[str, Any], seats: list[dict[str, Any]],
                 recorded: tuple[str, ...] = ("refusals", "reasons", "round_results", "scores", "game_result")) -> None:
        self.data: dict[str, Any] = {"record": FORMAT, "server": server, "game": setup["game"],
                                     "rule_version": setup["rule_version"], "options": dict(setup.get("options", {})),
                                     "seats": seats, "recorded": list(recorded)}
        if "seed" in setup:
            self.data["seed"] = setup["seed"]
        self.data["rounds"] = [{"moves": []}]
        if "layout" in setup:
            self.data["rounds"][0]["deal"] = setup["layout"]
            self.later = list(setup.get("later_layouts", []))

    def move(self, seat: int, action: dict[str, Any], refused: str | None = None,
             legal: list[dict[str, Any]] | None = None) -> None:
        """One action and the server's answer (None: accepted); ``legal``: the list the seat was offered before it."""
        move: dict[str, Any] = {"seat": seat, "action": action}
        if refused is not None:
            move["refused"] = refused if "reasons" in self.data["recorded"] else True
        if legal is not None:  # a server that logs what it offered: `recorded` names legal from its first list
            move["legal"] = legal
            if "legal" not in self.data["recorded"]:
                self.data["recorded"].append("legal")
        self.data["rounds"][-1]["moves"].append(move)

    def played(self, seat: int, action: dict[str, Any], reason: str | None, before: dict[str, Any],
               after: dict[str, Any], legal: list[dict[str, Any]] | None = None) -> None:
        """One action with the server's answer (and the legal list offered before it), and the round's end it
        brought, from the state views around it."""
        self.move(seat, action, reason, legal)
        if len(after["round_results"]) > len(before["round_results"]):
            over = after.get("game_result") is not None or after.get("to_act") is None
            self.round_over(after["round_results"][-1], after["scores"], more=not over)

    def round_over(self, result: dict[str, Any], scores: list[int], more: bool) -> None:
        """The round's result and running scores as announced; ``more``: another round follows."""
        current = self.data["rounds"][-1]
        if "round_results" in self.data["recorded"]:
            current["result"] = result
        if "scores" in self.data["recorded"]:
            current["scores"] = list(scores)
        if more:
            self.data["rounds"].append({"moves": []})
            if "deal" in current and self.later:
                self.data["rounds"][-1]["deal"] = self.later.pop(0)

    def game_over(self, result: dict[str, Any] | None, why: str | bool = True) -> None:
        """The game's result as announced (None: the game stopped unfinished, ``why`` as the record says it)."""
        if result is None:
            self.data["unfinished"] = why
            if len(self.data["rounds"]) > 1 and not self.data["rounds"][-1]["moves"]:
                self.data["rounds"].pop()  # the next round was announced but not played: no hand to audit
        elif "game_result" in self.data["recorded"]:
            self.data["game_result"] = result

    def line(self) -> str:
        """The record as one JSON line (no newline)."""
        return json.dumps(self.data, separators=(",", ":"), ensure_ascii=False)
