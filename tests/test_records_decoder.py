"""The typed record decoder (harness/records/decoder.py) says what spec/schemas/record.schema.json says."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from harness.audit.sample import seeded_game
from harness.records import decoder
from harness.records.record import RecordError, parse_record, validator
from harness.spec.paths import spec_dir
from reference_engine import create

ENGINE = create()
SCHEMA = json.loads((spec_dir() / "schemas" / "record.schema.json").read_text(encoding="utf-8"))
LEVELS = {"gin-rummy": ["easy", "normal"], "rummy": ["easy", "easy", "easy"], "president": ["easy"] * 4}


@pytest.fixture(scope="module")
def games() -> list[dict[str, Any]]:
    """Records of seeded reference games, refusals included, and of each bundled fixture's moves."""
    made = [seeded_game(ENGINE, game, seed, levels) for game, levels in LEVELS.items() for seed in range(2)]
    return made + fixture_records()


def fixture_records() -> list[dict[str, Any]]:
    """Each bundled fixture with a layout and actions, as the record of a server that logged its moves."""
    from harness.findings.games import facts
    from harness.spec.paths import fixtures_dir
    from harness.suite.fixtures import load_paths

    made = []
    for scenario in load_paths([fixtures_dir()]).scenarios:
        moves = [{"seat": s.seat, "action": s.action, **({"refused": True} if s.expect == "refused" else {})}
                 for s in scenario.steps if s.action is not None]
        if not moves:
            continue
        data: dict[str, Any] = {"record": "cardverse-game/1", "id": scenario.id, "game": scenario.game,
                                "rule_version": facts(scenario.game).spec.rule_version, "options": scenario.options,
                                "seats": [{} for _ in range(scenario.players)], "recorded": ["refusals"],
                                "rounds": [{"moves": moves}], "unfinished": True}
        data["rounds"][0]["deal"] = scenario.layout
        made.append(data)
    return made


def schema_part(path: str) -> dict[str, Any]:
    """The part of the record schema at ``path`` (dots; ``[]``: an array's items)."""
    part = SCHEMA
    for step in filter(None, path.split(".")):
        part = part["properties"][step.removesuffix("[]")]
        if step.endswith("[]"):
            part = part["items"]
    return part


@pytest.mark.parametrize(("struct", "path"), [(decoder.Record, ""), (decoder.Round, "rounds[]"),
                                              (decoder.Move, "rounds[].moves[]"), (decoder.Seat, "seats[]"),
                                              (decoder.Server, "server")])
def test_each_type_has_the_schemas_keys_and_requires_what_it_requires(struct: Any, path: str) -> None:
    part = schema_part(path)
    fields = msgspec.structs.fields(struct)
    assert {f.name for f in fields} == set(part["properties"])
    required = {f.name for f in fields if f.required}
    assert required == set(part.get("required", []))
    # a key the schema does not list is refused where the schema refuses it, and kept where it allows it
    assert struct.__struct_config__.forbid_unknown_fields == (part.get("additionalProperties") is False)


def verdicts(text: str) -> tuple[bool, bool]:
    """Whether the decoder and the schema each take ``text``."""
    try:
        data = json.loads(text)
    except ValueError:
        return decoder.decode(text) is not None, False
    return decoder.decode(text) is not None, validator().is_valid(data)


BREAKS: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
    ("no rounds", lambda d: d.pop("rounds")), ("no record", lambda d: d.pop("record")),
    ("another format", lambda d: d.update(record="cardverse-game/2")), ("game a number", lambda d: d.update(game=7)),
    ("rule version not semver", lambda d: d.update(rule_version="1.0")),
    ("an unknown key", lambda d: d.update(colour="red")), ("id too long", lambda d: d.update(id="x" * 201)),
    ("id a number", lambda d: d.update(id=3)), ("server without a name", lambda d: d.update(server={"version": "1"})),
    ("server name a number", lambda d: d.update(server={"name": 1})),
    ("server version a number", lambda d: d.update(server={"name": "a", "version": 2})),
    ("options a list", lambda d: d.update(options=[])),
    ("an option a string", lambda d: d.update(options={"target": "x"})),
    ("no seats", lambda d: d.update(seats=[])), ("nine seats", lambda d: d.update(seats=[{}] * 9)),
    ("a seat a string", lambda d: d["seats"].__setitem__(0, "alice")),
    ("a seat's name a number", lambda d: d["seats"][0].update(name=1)),
    ("a seat's level null", lambda d: d["seats"][0].update(level=None)),
    ("recorded twice", lambda d: d.update(recorded=["scores", "scores"])),
    ("recorded unknown", lambda d: d.update(recorded=["everything"])),
    ("recorded a string", lambda d: d.update(recorded="scores")),
    ("seed negative", lambda d: d.update(seed=-1)), ("seed over 64 bits", lambda d: d.update(seed=2**64)),
    ("seed a float", lambda d: d.update(seed=1.5)), ("seed true", lambda d: d.update(seed=True)),
    ("rounds empty", lambda d: d.update(rounds=[])), ("a round without moves", lambda d: d["rounds"][0].pop("moves")),
    ("a round's unknown key", lambda d: d["rounds"][0].update(hand=1)),
    ("a deal a list", lambda d: d["rounds"][0].update(deal=[])),
    ("a result a number", lambda d: d["rounds"][0].update(result=1)),
    ("scores of strings", lambda d: d["rounds"][0].update(scores=["1"])),
    ("a move without a seat", lambda d: d["rounds"][0]["moves"][0].pop("seat")),
    ("a move without an action", lambda d: d["rounds"][0]["moves"][0].pop("action")),
    ("a seat negative", lambda d: d["rounds"][0]["moves"][0].update(seat=-1)),
    ("a seat a string", lambda d: d["rounds"][0]["moves"][0].update(seat="0")),
    ("an action a string", lambda d: d["rounds"][0]["moves"][2].update(action="draw")),
    ("an action empty", lambda d: d["rounds"][0]["moves"][0].update(action={})),
    ("refused a number", lambda d: d["rounds"][0]["moves"][0].update(refused=1)),
    ("a state a list", lambda d: d["rounds"][0]["moves"][0].update(state=[])),
    ("a move's unknown key", lambda d: d["rounds"][0]["moves"][0].update(when=3)),
    ("game_result a list", lambda d: d.update(game_result=[])),
    ("unfinished a number", lambda d: d.update(unfinished=1)),
    ("unfinished an unknown why", lambda d: d.update(unfinished="bored")),
]


def test_the_decoder_and_the_schema_agree_on_every_record(games: list[dict[str, Any]]) -> None:
    assert len(games) > 150
    for data in games:
        text = json.dumps(data)
        assert verdicts(text) == (True, True), data.get("id", data["game"])
        assert decoder.decode(text) == data  # what json.loads gives
    for why in (*decoder.WHYS, True, False):
        assert verdicts(json.dumps({**games[0], "unfinished": why})) == (True, True), why
    allowed = copy.deepcopy(games[0])
    allowed["seats"][0].update(seat_of="x", name="alice")  # other keys are allowed in a seat and a server
    allowed["server"]["build"] = 7
    assert verdicts(json.dumps(allowed)) == (True, True) and decoder.decode(json.dumps(allowed)) == allowed
    for name, change in BREAKS:
        data = copy.deepcopy(games[0])
        change(data)
        assert verdicts(json.dumps(data)) == (False, False), name
    for text in ('{"record": ', "[]", "null", json.dumps(games[0])[:300]):
        assert verdicts(text) == (False, False), text


def test_a_record_the_decoder_refuses_is_judged_by_the_schema(games: list[dict[str, Any]]) -> None:
    data = copy.deepcopy(games[0])
    seat = data["rounds"][0]["moves"][0]["seat"]
    data["rounds"][0]["moves"][0]["seat"] = float(seat)  # 1.0: an integer to JSON Schema, not to msgspec
    assert verdicts(json.dumps(data)) == (False, True)
    assert parse_record(json.dumps(data)).rounds[0]["moves"][0]["seat"] == seat
    data["rounds"][0]["moves"][0]["seat"] = 0.5
    with pytest.raises(RecordError, match=r"^\$\.rounds\[0\]\.moves\[0\]\.seat: 0\.5 is not of type integer"):
        parse_record(json.dumps(data))


def test_moves_spelled_alike_share_one_dict_and_memory_stays_bounded(games: list[dict[str, Any]]) -> None:
    first, second = decoder.decode(json.dumps(games[0])), decoder.decode(json.dumps(games[0]))
    assert first is not None and second is not None
    assert first["rounds"][0]["moves"][0] is second["rounds"][0]["moves"][0]
    # an action played by another seat is another move's text, and still the same action's dict
    line = {**games[0], "rounds": [{"moves": [{"seat": 0, "action": {"draw": "stock"}},
                                              {"seat": 1, "action": {"draw": "stock"}, "refused": True}]}]}
    moves = decoder.decode(json.dumps(line))["rounds"][0]["moves"]  # type: ignore[index]
    assert moves[0] is not moves[1] and moves[0]["action"] is moves[1]["action"] == {"draw": "stock"}
    kept = decoder.MOVES_KEPT
    try:
        decoder.MOVES_KEPT = 3
        for cache in (decoder.SEEN, decoder.ACTIONS, decoder.SEATS, decoder.SERVERS, decoder.KNOWN):
            cache.clear()
        for _ in range(2):  # the second time, with the caches full
            assert decoder.decode(json.dumps(games[1])) == games[1]
        assert 0 < len(decoder.SEEN) <= 3 and len(decoder.ACTIONS) <= 3 and len(decoder.SEATS) <= 3
        assert all(len(moves) <= 3 and len(odd) <= 3 for moves, odd in decoder.KNOWN.values())
    finally:
        decoder.MOVES_KEPT = kept


def test_a_move_the_caches_know_is_checked_against_each_record_all_the_same() -> None:
    # the decoder remembers moves per number of seats, and which carry more than a seat and an action:
    # a move that is plain in a game of four seats is past the seats in a game of three
    line = {"record": "cardverse-game/1", "game": "president", "rule_version": "1.1.0", "seed": 1,
            "recorded": ["refusals"], "unfinished": True, "seats": [{}, {}, {}, {}],
            "rounds": [{"moves": [{"seat": 3, "action": {"pass": True}},
                                  {"seat": 0, "action": {"pass": True}, "refused": "not-your-turn"}]}]}
    assert parse_record(json.dumps(line)).players == 4
    with pytest.raises(RecordError, match=r"^\$\.rounds\[0\]\.moves\[0\]\.seat: seat 3 in a game of 3 seats"):
        parse_record(json.dumps({**line, "seats": [{}, {}, {}]}))
    # a refusal the caches know is still checked against what this record says it logs
    with pytest.raises(RecordError, match=r"^\$\.rounds\[0\]\.moves\[1\]\.refused: a refusal in a record whose"):
        parse_record(json.dumps({**line, "recorded": []}))
    # and against its game's reasons: a President reason, in a Gin Rummy record
    passed = {"seat": 0, "action": {"pass": True}, "refused": "already-passed"}
    assert parse_record(json.dumps({**line, "rounds": [{"moves": [passed]}]})).players == 4
    with pytest.raises(RecordError, match=r"^\$\.rounds\[0\]\.moves\[0\]\.refused: 'already-passed' is not a reason"):
        parse_record(json.dumps({**line, "game": "gin-rummy", "rule_version": "1.0.0", "seats": [{}, {}],
                                 "rounds": [{"moves": [passed]}]}))


def test_a_seat_the_decoder_knows_is_no_server() -> None:
    # {} is a seat, and no server (a server has a name): the caches of the two kinds are apart
    line = {"record": "cardverse-game/1", "game": "president", "rule_version": "1.1.0", "seed": 1,
            "recorded": [], "unfinished": True, "seats": [{}, {}, {}], "rounds": [{"moves": []}]}
    assert parse_record(json.dumps(line)).players == 3
    assert decoder.decode(json.dumps({**line, "server": {}})) is None
    with pytest.raises(RecordError, match=r"^\$\.server: 'name' is a required property"):
        parse_record(json.dumps({**line, "server": {}}))
