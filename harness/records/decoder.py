"""The record schema as msgspec types: a JSON line decoded and checked against it in one pass.

These types say what ``spec/schemas/record.schema.json`` says (tests/test_records_decoder.py holds
them to it, key by key and verdict by verdict); the schema stays the published contract. The
decoder's no is not the last word: a line it refuses is judged again by the schema, which words
the message. Its yes is: the line follows the schema, and its value is what ``json.loads`` gives.

A record's moves repeat (a Gin Rummy hand is mostly a few dozen kinds of draw and discard), so
each move's text is decoded once and the same dict given for every move spelled the same (and so
are the seats and the server, the same on most records, and an action whoever plays it): the dicts
of a record read here are shared, to be read and not changed. The moves are remembered per number of
seats, plain (a seat among them and an action) or not: ``read`` names the others, the only moves
the record's game-file checks need to look at.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union, get_args

import msgspec

UNSET = msgspec.UNSET
Unset = msgspec.UnsetType
RECORDED = Literal["refusals", "reasons", "round_results", "scores", "game_result", "states", "legal"]
WHY = Literal["move-cap", "interrupted", "engine-died", "player-failed", "no-move"]  # why a game is unfinished
WHYS: tuple[str, ...] = get_args(WHY)
MOVES_KEPT = 1 << 13  # distinct move texts remembered (at most ~10 MB): memory stays flat on any file


class Move(msgspec.Struct, forbid_unknown_fields=True):
    """One move: a seat, an action, and the server's answer when it refused it."""

    seat: Annotated[int, msgspec.Meta(ge=0)]
    action: Annotated[dict[str, Any], msgspec.Meta(min_length=1)]
    refused: Union[str, bool, Unset] = UNSET
    state: Union[dict[str, Any], Unset] = UNSET
    legal: Union[list[Annotated[dict[str, Any], msgspec.Meta(min_length=1)]], Unset] = UNSET


class Seat(msgspec.Struct):
    """Who sat in a seat; other keys are allowed (and kept: the seats are decoded again as they are)."""

    name: Union[str, Unset] = UNSET
    level: Union[str, Unset] = UNSET


class Server(msgspec.Struct):
    """The server that played the game; other keys are allowed."""

    name: str
    version: Union[str, Unset] = UNSET


class Round(msgspec.Struct, forbid_unknown_fields=True):
    """One round; its moves are kept as their text until the move cache decodes them."""

    moves: list[msgspec.Raw]
    deal: Union[dict[str, Any], Unset] = UNSET
    result: Union[dict[str, Any], Unset] = UNSET
    scores: Union[list[int], Unset] = UNSET


class Record(msgspec.Struct, forbid_unknown_fields=True):
    """The record's top level."""

    record: Literal["cardverse-game/1"]
    game: str
    rule_version: Annotated[str, msgspec.Meta(pattern=r"^[0-9]+\.[0-9]+\.[0-9]+$")]
    seats: Annotated[list[msgspec.Raw], msgspec.Meta(min_length=1, max_length=8)]
    recorded: list[RECORDED]
    rounds: Annotated[list[Round], msgspec.Meta(min_length=1)]
    id: Union[Annotated[str, msgspec.Meta(max_length=200)], Unset] = UNSET
    server: Union[msgspec.Raw, Unset] = UNSET
    options: Union[dict[str, Union[bool, int]], Unset] = UNSET
    seed: Union[Annotated[int, msgspec.Meta(ge=0)], Unset] = UNSET  # at most 2**64 - 1: checked below
    game_result: Union[dict[str, Any], Unset] = UNSET
    unfinished: Union[bool, WHY, Unset] = UNSET


TOP = [f for f in Record.__struct_fields__ if f != "rounds"]
ROUND = [f for f in Round.__struct_fields__ if f != "moves"]
_records = msgspec.json.Decoder(Record)
_moves = msgspec.json.Decoder(Move)
_seat, _server, _any = msgspec.json.Decoder(Seat), msgspec.json.Decoder(Server), msgspec.json.Decoder()
SEEN: dict[bytes, dict[str, Any] | None] = {}
# by the number of seats: the moves of SEEN that are a seat below it and an action, and the others (the odd ones)
KNOWN: dict[int, tuple[dict[bytes, dict[str, Any]], dict[bytes, dict[str, Any]]]] = {}
# seats and servers, each kind a cache of its own: a text may be one kind's and not the other's ({} is a seat, no server)
SEATS: dict[bytes, dict[str, Any] | None] = {}
SERVERS: dict[bytes, dict[str, Any] | None] = {}
ACTIONS: dict[bytes, dict[str, Any]] = {}  # the actions of the moves in SEEN, by their text as decoded


def decode(text: str | bytes) -> dict[str, Any] | None:
    """The record on ``text`` as ``json.loads`` gives it, when it follows the schema; else None."""
    found = read(text)
    return None if found is None else found[0]


def read(text: str | bytes) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """``decode(text)``, with the record's moves that are more than a seat (one of its seats) and an action: the
    only moves the record's game-file checks need to look at (``harness.records.record``); None: not the schema."""
    try:
        record = _records.decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    if len(set(record.recorded)) != len(record.recorded) or (record.seed is not UNSET and record.seed >= 2**64):
        return None  # what the types cannot say: `recorded` names each once, the seed fits 64 bits
    data = {name: value for name in TOP if (value := getattr(record, name)) is not UNSET}
    # seats and the server: checked as their types, kept with every key they have (and, as moves, decoded
    # once per spelling: a server writes the same few seats and its name on every record)
    seats = list(map(SEATS.get, map(bytes, record.seats)))
    if None in seats:
        seats = [_kept(raw, _seat, SEATS) for raw in record.seats]
        if None in seats:
            return None
    data["seats"] = seats
    if record.server is not UNSET:
        data["server"] = _kept(record.server, _server, SERVERS)
        if data["server"] is None:
            return None
    players, odd = len(seats), list[dict[str, Any]]()
    known = KNOWN.get(players) or KNOWN.setdefault(players, ({}, {}))
    rounds = []
    for round_ in record.rounds:
        keys = list(map(bytes, round_.moves))
        moves = list(map(known[0].get, keys))  # loops in C: most moves are a seat and an action seen before
        if not all(moves) and not _others(moves, keys, known, players, odd):  # a move's dict is never empty
            return None
        made: dict[str, Any] = {name: value for name in ROUND if (value := getattr(round_, name)) is not UNSET}
        made["moves"] = moves
        rounds.append(made)
    data["rounds"] = rounds
    return data, odd


def _others(moves: list[Any], keys: list[bytes], known: tuple[dict[bytes, Any], dict[bytes, Any]], players: int,
            odd: list[dict[str, Any]]) -> bool:
    """The moves that are not a seat and an action known for ``players`` seats filled in: the odd ones known, or
    those decoded now (if not seen before) and remembered as plain or odd; each odd one added to ``odd``.
    False: one does not follow the schema."""
    plain, others = known
    for at, move in enumerate(moves):
        if move is not None:
            continue
        move = others.get(keys[at])
        if move is None:
            move = SEEN.get(keys[at]) or _move(keys[at])
            if move is None:
                return False
            kept = plain if len(move) == 2 and move["seat"] < players else others
            if len(kept) < MOVES_KEPT and "legal" not in move:  # a move with its list is seldom seen twice
                kept[keys[at]] = move
        moves[at] = move
        if len(move) != 2 or move["seat"] >= players:
            odd.append(move)
    return True


def _kept(raw: msgspec.Raw, kind: Any, kept: dict[bytes, dict[str, Any] | None]) -> dict[str, Any] | None:
    """A seat's or the server's text decoded, as its type checks it, and remembered in ``kept`` (None: it does not)."""
    key = bytes(raw)
    if key in kept:
        return kept[key]
    try:
        kind.decode(key)
    except msgspec.ValidationError:
        made = None
    else:
        made = _any.decode(key)
    if len(kept) < MOVES_KEPT:
        kept[key] = made
    return made


def _move(key: bytes) -> dict[str, Any] | None:
    """A move's text decoded and remembered (None: it does not follow the schema)."""
    try:
        move = _moves.decode(key)
    except msgspec.ValidationError:
        made = None
    else:
        text = msgspec.json.encode(move.action)  # an action any seat plays shares one dict too
        action = ACTIONS.get(text) or move.action
        if len(ACTIONS) < MOVES_KEPT:
            ACTIONS.setdefault(text, action)
        made = {"seat": move.seat, "action": action}
        if move.refused is not UNSET:
            made["refused"] = move.refused
        if move.state is not UNSET:
            made["state"] = move.state
        if move.legal is not UNSET:
            made["legal"] = move.legal
    # full: the moves seen first (every draw and discard) stay, the rare ones pass, and those with a legal list
    if len(SEEN) < MOVES_KEPT and (made is None or "legal" not in made):
        SEEN[key] = made
    return made

