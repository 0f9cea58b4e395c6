"""One duplicate deal of the ladder: the same seeded deal played once per seating of A and B.

The reference engine plays the games; each player sees only its view (R-7.0/G-7.0/P-7.0): the
observation of its seat, the public history of the round, the legal actions, its level and seed.
With two seats the deal is played twice, the players exchanged; with more (President) A takes
each seat in turn against B in all the others, so every hand of the deal is played by A once.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from harness.adapters.player_view import History, build_view
from harness.adapters.players import Player
from harness.adapters.protocol import error_text
from harness.host.text import cut
from harness.records.record import Recorder, server_of
from harness.spec import gamespec as specs
from harness.spec.cards import show

# A game longer than this is stopped and counted level: no computer player should need it
# (Rummy's longest random games are ~400 moves), and the ladder must always finish.
MAX_MOVES = 3000


@dataclass(frozen=True)
class Table:
    """What every deal of a ladder shares: the game, its rules, the number of seats and the seed."""

    game: str
    rule_version: str
    options: dict[str, Any]
    players: int
    seed: int
    records: bool = False  # keep each game's record (spec/records.md) in its DealResult

    def setup(self, seed: int) -> dict[str, Any]:
        """The setup of a game of the deal ``seed``, as ``Engine.start`` takes it."""
        return {"game": self.game, "rule_version": self.rule_version, "options": self.options, "seed": seed,
                "players": self.players}


@dataclass
class DealResult:
    """A's points minus B's per game of one deal, and how the deal went."""

    index: int
    deal_seed: int
    points: list[float] = field(default_factory=list)
    unfinished: int = 0
    records: list[str] = field(default_factory=list)  # with Table.records: each game's record line, in order
    interrupted: bool = False  # Ctrl-C stopped the deal in its middle: records holds its games so far, not counted

    @property
    def net(self) -> float:
        """A's net points per game of the deal."""
        return sum(self.points) / len(self.points) if self.points else 0.0

    @property
    def score(self) -> float:
        """1 when A won the deal on points, 1/2 when level, 0 when B won it."""
        return 1.0 if self.net > 0 else 0.0 if self.net < 0 else 0.5


def deal_seed(seed: int, index: int) -> int:
    """The engine seed of deal ``index``: the same whatever the number of workers."""
    return random.Random(f"ladder:{seed}:{index}").getrandbits(32)


def seatings(players: int) -> list[list[str]]:
    """Who sits where in each game of a deal: ``["A", "B"]``, ``["B", "A"]``; A in each seat else."""
    if players == 2:
        return [["A", "B"], ["B", "A"]]
    return [["A" if seat == turn else "B" for seat in range(players)] for turn in range(players)]


def seat_points(game: str, result: dict[str, Any], players: int) -> list[float]:
    """The points each seat made in a finished round."""
    if game == "president":
        return [float(p) for p in result["points"]]
    points = [0.0] * players
    if result.get("winner") is not None:
        points[result["winner"]] = float(result.get("points") or 0)
    return points


def play_game(engine: Any, table: Table, seed: int, seats: list[Player], levels: list[str],
              player_seed: int, recorder: Recorder | None = None,
              stop: Callable[[], bool] | None = None) -> list[float] | None:
    """Play one round of a seeded deal; each seat's points, or None past MAX_MOVES. A ``recorder`` is
    told each move and the round's end, and the game's when the round ends it; ``stop`` is asked
    before each move and stops the game as Ctrl-C does (a worker's Ctrl-C is its parent's to pass on)."""
    game = engine.start(table.setup(seed))
    spec = next(s for s in specs.game_specs() if s.game == table.game and s.rule_version == table.rule_version)
    history = History(table.game)
    state = game.state()
    for move in range(MAX_MOVES):
        if stop is not None and stop():
            raise KeyboardInterrupt
        if state["round_results"]:
            if recorder is not None:
                recorder.game_over(state.get("game_result"))
            return seat_points(table.game, state["round_results"][0], table.players)
        legal = game.legal_actions()
        seat = state["to_act"]
        if not legal or seat is None:  # nobody able to act in a round not over: the record says so (no-move)
            if recorder is not None:
                recorder.game_over(state.get("game_result"), "no-move")
            return [0.0] * table.players
        view = build_view(spec, table.options, seat, levels[seat], (player_seed + seat) & 0xFFFFFFFF,
                          game.observation(seat), history, legal)
        try:
            action = seats[seat].choose(view)
        except Exception as error:  # a player's fault (an engine error, garbage, a crash, a hang) is its own
            if recorder is not None:
                recorder.game_over(None, "engine-died")
            raise PlayerFailed.of(table.game, seat, levels[seat], move, error) from None
        if action not in legal:
            if recorder is not None:
                recorder.game_over(None, "player-failed")
            raise IllegalChoice.of(table.game, seat, levels[seat], action, move)
        refused = game.apply(seat, action)
        if refused is not None:  # the reference listed it as legal: a bug in the engine itself
            raise RuntimeError(f"the reference engine refused its own legal action {action} ({refused})")
        history.record(seat, action, state)
        after = game.state()
        if recorder is not None:
            recorder.played(seat, action, None, state, after, legal)
        state = after
    if recorder is not None:
        recorder.game_over(None, "move-cap")
    return None


class IllegalChoice(Exception):
    """A player chose an action that is not among the legal ones."""

    seat = 0  # the seat of the player at fault
    records: tuple[str, ...] = ()  # with records kept: the deal's so far, the last game unfinished (and why)

    @classmethod
    def of(cls, game: str, seat: int, level: str, action: Any, move: int) -> IllegalChoice:
        """The error for ``action`` (made with its message alone, so that it crosses a worker's pipe)."""
        made = cls(f"{game}: the {level} player in seat {seat} chose {shown(action)}, which is not legal, "
                   f"at move {move + 1}; fix the player (`cardverse-conformance players` checks every choice)")
        made.seat = seat
        return made


class PlayerFailed(IllegalChoice):
    """A player that answered nothing usable: its choose raised (an engine error, not JSON, a crash, a timeout)."""

    @classmethod
    def of(cls, game: str, seat: int, level: str, move: int, error: Exception) -> PlayerFailed:  # type: ignore[override]
        """The error for what ``choose`` raised."""
        made = cls(f"{game}: the {level} player in seat {seat} failed at move {move + 1}, an engine error: "
                   f"{type(error).__name__}: {error_text(error)}; fix the player "
                   "(`cardverse-conformance players` checks every choice)")
        made.seat = seat
        return made


def shown(action: Any) -> str:
    """An action as players read it; anything else a player answered, quoted and cut."""
    try:
        return show(action)
    except Exception:  # garbage: not an action at all
        return cut(repr(action))


def play_deal(engine: Any, table: Table, index: int, make: Callable[[str], tuple[Player, str]],
              stop: Callable[[], bool] | None = None) -> DealResult:
    """Every seating of deal ``index``; A's net points in each game. Ctrl-C (or ``stop``) in its middle
    gives the deal so far, marked interrupted, its game in progress recorded as such."""
    seed = deal_seed(table.seed, index)
    result = DealResult(index, seed)
    a, a_level = make("A")
    b, b_level = make("B")
    server = server_of(engine) if table.records else {}
    for number, seating in enumerate(seatings(table.players)):
        if stop is not None and stop():  # stopped between games: no game begun to record
            result.interrupted = True
            return result
        seats = [a if who == "A" else b for who in seating]
        levels = [a_level if who == "A" else b_level for who in seating]
        recorder = _recorder(table, seed, server, seating, levels, index) if table.records else None
        # Each game of the deal gives the players fresh seeds: a player that draws at random
        # must not replay its own mirror image.
        try:
            points = play_game(engine, table, seed, seats, levels, deal_seed(seed, number) & 0xFFFFFF00, recorder, stop)
        except IllegalChoice as error:  # which side the faulty player is: both may be of one level
            raised = type(error)(f"player {seating[error.seat]}, {error}")
            raised.seat, raised.records = error.seat, tuple(_so_far(result, recorder))
            raise raised from None
        except KeyboardInterrupt:
            if recorder is not None and not {"game_result", "unfinished"} & set(recorder.data):
                recorder.game_over(None, "interrupted")
            result.records, result.interrupted = _so_far(result, recorder), True
            return result
        if recorder is not None:
            result.records.append(recorder.line())
        if points is None:
            result.unfinished += 1
            result.points.append(0.0)
            continue
        mine = [p for p, who in zip(points, seating) if who == "A"]
        theirs = [p for p, who in zip(points, seating) if who == "B"]
        result.points.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
    return result


def _so_far(result: DealResult, recorder: Recorder | None) -> list[str]:
    """The records of a deal stopped in its middle: its games so far, the last one unfinished (and why)."""
    return result.records + ([recorder.line()] if recorder is not None else [])


def _recorder(table: Table, seed: int, server: dict[str, str], seating: list[str], levels: list[str],
              index: int) -> Recorder:
    """The record of one game of deal ``index``, as the reference (the ladder's server) plays it."""
    recorder = Recorder(table.setup(seed), server, [{"name": who, "level": level} for who, level in zip(seating, levels)])
    recorder.data["id"] = f"ladder/{table.seed}/deal-{index + 1}/{''.join(seating)}"
    return recorder
