"""Fuzz's games as game records (spec/records.md): each game replayed on the reference, as its server would log it."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from harness.findings.games import TERMINAL_PHASES
from harness.findings.model import Move, Setup
from harness.records.record import Recorder


def record_of(reference: Any, server: dict[str, str], setup: Setup, moves: list[Move], number: int, seed: int,
              why: str | bool = True) -> str:
    """The record (one JSON line) of game ``number`` of a campaign: ``moves`` on the reference from ``setup``;
    a game the rules did not end is unfinished for ``why``."""
    started = setup.as_dict()
    recorder = Recorder(started, server, [{"name": f"seat {seat}"} for seat in range(setup.players)])
    recorder.data["id"] = f"fuzz/{setup.game}/seed-{seed}/game-{number}"
    game = reference.start(started)
    state = game.state()
    for move in moves:
        reason = game.apply(move.seat, move.action)
        after = game.state()
        recorder.played(move.seat, move.action, reason, state, after)
        state = after
    over = state.get("phase") in TERMINAL_PHASES or state.get("to_act") is None
    recorder.game_over(state.get("game_result") if over else None, why)
    return recorder.line()


def recording(reference: Any, server: dict[str, str], seed: int,
              write: Callable[[str], None]) -> Callable[[Setup, list[Move], str | bool], None]:
    """A campaign's ``played``: each game it plays as a record (numbered from 1), given to ``write``."""
    count = itertools.count(1)
    return lambda setup, moves, why: write(record_of(reference, server, setup, moves, next(count), seed, why))
