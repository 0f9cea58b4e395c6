"""A game between computer players, shown turn by turn with card glyphs; written and replayed as JSON lines.

With a fixture folder, the reference's player of the same level is asked every view too (the
same view, history included); the first position where it chooses otherwise becomes a decision
fixture, from the round's start so that the history is the same, whose expectation is the
reference's choice, marked so, to review against the rule text.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, TextIO

import yaml

from harness.adapters.player_view import History, build_view
from harness.adapters.players import ask, declared_players, missing_level
from harness.adapters.protocol import error_text
from harness.findings.games import TERMINAL_PHASES
from harness.findings.games import facts as game_facts
from harness.findings.layouts import position_layout
from harness.findings.seats import seat_choice
from harness.host.files import file_part, write_inside
from harness.host.text import console_text
from harness.players.check import decision_seed
from harness.findings.judged import Trail
from harness.players.telling import (
    Style,
    game_result,
    hand_line,
    move_events,
    round_result,
    scoreboard,
    seat_name,
    shown_melds,
)
from harness.records.record import (
    Record,
    Recorder,
    RecordError,
    from_moves,
    parse_record,
    server_of,
)
from harness.adapters.handshake import described
from harness.spec.cards import describe_action, display_all, show


class PlayError(Exception):
    """A game that cannot be played or replayed as asked; the message says what to do."""


class PlayerFault(PlayError):
    """A computer player (or the engine under it) that answered nothing usable, or something illegal."""

    def __init__(self, message: str, why: str = "player-failed") -> None:
        super().__init__(message)
        self.why = why  # why the game's record says it is unfinished (spec/records.md)


class MoveCap(PlayError):
    """A round not over after the game file's bound of moves: the game so far is kept as an unfinished record."""


class Watch:
    """One game between an engine's computer players, one level per seat."""

    def __init__(self, engine: Any, game: str, levels: list[str], seed: int, delay: float, out: TextIO,
                 options: dict[str, Any] | None = None, try_every: int = 0) -> None:
        self.engine, self.levels, self.delay, self.out = engine, levels, delay, out
        self.try_every = try_every  # one decision in about this many, a seat tries another listed action (0: never)
        self.facts = game_facts(game)
        self.spec = self.facts.spec
        self.setup: dict[str, Any] = {"game": game, "rule_version": self.spec.rule_version,
                                      "options": {**self.spec.option_defaults, **(options or {})},
                                      "seed": seed, "players": len(levels)}
        self.moves: list[tuple[int, str, dict[str, Any]]] = []
        self.round: Any = None
        self.style = Style(out)
        self.recorder: Recorder | None = None
        self.stuck = False  # the game stopped, not over, with nobody able to act (its record: no-move)
        self.trail = Trail()  # the round so far: where a fixture of a difference starts

    def _interface(self) -> str:
        """The engine's players' interface, once the seats are right and every level exists."""
        low, high = self.facts.players
        if not low <= len(self.levels) <= high:
            raise PlayError(f"--players gives {len(self.levels)} seats; {self.spec.game} is for {low} to {high} players")
        description = described(self.engine)  # none: the engine never started (exit 3)
        for level in sorted(set(self.levels)):
            reason = missing_level(description, self.spec.game, level)
            if reason:
                raise PlayError(f"{reason}; seat other levels with --players")
        declared = declared_players(description, self.spec.game)
        return declared["interface"] if declared else "view"

    def say(self, text: str) -> None:
        """One line of the show, within the width, coloured on a terminal."""
        self.out.write("".join(line + "\n" for line in self.style.lines(console_text(text))))
        self.out.flush()

    def play(self, fixture_dir: Path | None = None) -> Path | None:
        """Play the whole game; the fixture written for a difference with the reference, if any."""
        interface = self._interface()
        seats = ", ".join(f"{seat}: {level}" for seat, level in enumerate(self.levels))
        self.say(f"{self.spec.data['title']} {self.spec.rule_version} · seed {self.setup['seed']} · seats {seats}")
        game = self.engine.start(self.setup)
        self.recorder = Recorder(self.setup, server_of(self.engine), [{"level": level} for level in self.levels])
        history, written = History(self.spec.game), None
        bound = self.spec.data["computer_players"]["bounds"]["actions_per_round"]
        in_round = decisions = 0
        while True:
            state = game.state()
            new_round = state.get("round") != self.round
            self._round_change(state)  # (it moves self.round on, so the new round is told first)
            if state.get("phase") in TERMINAL_PHASES:
                break
            legal = game.legal_actions() if state.get("to_act") is not None else []
            if not legal:
                self.stuck = True
                break
            in_round = 0 if new_round else in_round + 1
            if in_round > bound:
                raise MoveCap(f"round {state.get('round')} is not over after {bound} moves; "
                                "`cardverse-conformance players` checks why")
            seat, level = state["to_act"], self.levels[state["to_act"]]
            self.trail.at(state)
            view = build_view(self.spec, self.setup["options"], seat, level,
                              decision_seed(self.setup["seed"], len(self.moves)), game.observation(seat), history, legal)
            try:
                choice = self.spec.card_order.canonical(ask(self.engine, game, interface, view))
            except Exception as error:  # an engine error, garbage, not JSON, a crash, a timeout: the player's fault
                raise PlayerFault(f"seat {seat}'s {level} player failed at move {len(self.moves) + 1}, an engine "
                                  f"error: {type(error).__name__}: {error_text(error)}; `cardverse-conformance "
                                  "players` checks every choice", "engine-died") from None
            if choice not in legal:
                raise PlayerFault(f"seat {seat}'s {level} player chose {show(choice)}, which is not legal, at move "
                                  f"{len(self.moves) + 1}; "
                                "`cardverse-conformance players` reports such findings with a replay")
            if fixture_dir is not None and written is None:
                written = self._compare(state, view, choice, fixture_dir)
            taken = seat_choice(choice, [self.spec.card_order.canonical(a) for a in legal], self.setup["seed"], decisions,
                                self.try_every)
            decisions += 1
            reason = self._move(game, state, seat, level, taken)
            self.recorder.played(seat, taken, reason, state, game.state(), legal)
            if reason is None:
                history.record(seat, taken, state)
                self.trail.took(state, seat, taken)
            else:  # an action the engine listed, refused: the record says so, and the seat is asked again
                self.say(f"  {seat_name(seat, self.levels)} tries {describe_action(taken)}: refused ({reason})")
        final = game.state()
        if self.stuck:
            self.say(f"  the engine has nobody able to act (seat to act: {final.get('to_act')}), and the game is not "
                     "over: `cardverse-conformance audit` on its record says where the rules go on")
        self.recorder.game_over(final.get("game_result") if final.get("phase") in TERMINAL_PHASES else None,
                                "no-move" if self.stuck else True)
        self._result(final)
        return written

    def replay(self, path: Path) -> None:
        """Show a game from its record (spec/records.md; or the setup, then one move a line), asking no player."""
        record = read_replay(path)
        if record.spec.game != self.spec.game:
            raise PlayError(f"{path}: a record of a {record.spec.game} game, not {self.spec.game}; leave out --game "
                            "(the record names its game)")
        self.setup = record.setup
        self.say(f"{record.spec.data['title']} {record.spec.rule_version} · replay of {path}")  # the record's version
        game = self.engine.start(self.setup)
        levels = [seat.get("level") or seat.get("name") or "replay" for seat in record.data["seats"]]
        self.levels = levels
        for round_ in record.rounds:
            for move in round_["moves"]:
                state = game.state()
                self._round_change(state)
                seat, action = move["seat"], move["action"]
                reason = self._move(game, state, seat, levels[seat], action)
                if reason is not None and "refused" in move:
                    self.say(f"  seat {seat} ({levels[seat]}) tries {describe_action(action)}: refused ({reason})")
                elif reason is not None:
                    self.say(f"  (refused: {reason}; the record says it was accepted: "
                             "`cardverse-conformance audit` judges the record)")
                    return
        final = game.state()
        self._round_change(final)
        self._result(final)  # the last round's end and the game's, as a game played here ends

    def json_lines(self, stopped: str | bool = False) -> str:
        """The game played, as its record: one JSON line (spec/records.md); ``stopped``: unfinished, and why."""
        assert self.recorder is not None, "play() first"
        if stopped:
            self.recorder.game_over(None, stopped)
        return self.recorder.line()

    def _move(self, game: Any, state: dict[str, Any], seat: int, level: str, action: dict[str, Any]) -> str | None:
        """Apply and tell one move; the refusal reason, if any."""
        reason = game.apply(seat, action)
        if reason is not None:
            return str(reason)
        self.moves.append((seat, level, action))
        after = game.state()
        drawn = sorted(set((after.get("hands") or {})[seat] or []) - set((state.get("hands") or {})[seat] or [])) \
            if "draw" in action and after.get("hands") and state.get("hands") else []
        melds = shown_melds(state if "layoff" in action else after) if "layoff" in action or "meld" in action \
            or ("knock" in action and after.get("melds")) else None
        told = describe_action(action, taken=drawn[0] if action.get("draw") == "discard" and len(drawn) == 1 else None,
                               melds=melds)
        if action.get("draw") == "stock" and drawn:
            told += f" ({display_all(drawn)})"
        self.say(f"  {seat_name(seat, self.levels)} {told}")
        for event in move_events(state, after, seat, action):
            self.say(f"  {event}")
        if self.delay:
            time.sleep(self.delay)
        return None

    def _round_change(self, state: dict[str, Any]) -> None:
        """At a new round, every hand; at a round's end, its result."""
        if state.get("round") == self.round:
            return
        results = state.get("round_results") or []
        if self.round is not None and results:
            self._round_over(results[-1], state)
        self.round = state.get("round")
        self.say(f"round {self.round}")
        for seat, hand in enumerate(state.get("hands", [])):
            self.say(hand_line(seat_name(seat, self.levels), hand))
        if state.get("discard"):
            self.say(f"  discard pile: {display_all(state['discard'][:1])}")

    def _result(self, state: dict[str, Any]) -> None:
        """The last round's result and the game's."""
        results = state.get("round_results") or []
        last = results[-1] if results else None
        if last is not None and (not isinstance(last, dict) or last.get("round", self.round) == state.get("round", self.round)):
            self._round_over(last, state)  # not an earlier round's again when the record stops mid-round
        self.say(f"game over: {game_result(state['game_result'], self.levels)}" if isinstance(state.get("game_result"), dict)
                 else f"stopped in phase {state.get('phase')}")

    def _round_over(self, result: Any, state: dict[str, Any]) -> None:
        """A round's result in words, then the running scores."""
        number = result.get("round", self.round) if isinstance(result, dict) else self.round
        self.say(f"round {number} over: {round_result(result, self.levels) if isinstance(result, dict) else show(result)}")
        if isinstance(state.get("scores"), list):
            self.say(scoreboard(state["scores"], self.levels, self.setup.get("options", {}).get("target")))

    def _compare(self, state: dict[str, Any], view: dict[str, Any], choice: dict[str, Any], folder: Path) -> Path | None:
        """A decision fixture when the reference's player, asked the same view (history included), chooses otherwise."""
        from reference_engine import players

        if view["level"] not in players.levels(self.spec.game):
            return None
        expected = self.spec.card_order.canonical(players.choose(view))
        if expected == choice:
            return None
        # The fixture starts at the round's first position a layout can hold, its moves since as steps, so the
        # player decides on the history it had in the game.
        positions = [before for before, _, _ in self.trail.steps] + [state]
        layouts = (position_layout(self.facts, before) for before in positions)
        start, layout = next(((i, placed) for i, placed in enumerate(layouts) if placed is not None), (0, None))
        if layout is None:
            return None
        number = len(self.moves) + 1
        fixture_id = f"{self.spec.game}.players.found-{view['level']}-seed{self.setup['seed']}-move{number}"
        major = int(self.spec.rule_version.split(".")[0])
        clauses = [c.id for c in self.spec.clauses.values() if c.level == view["level"] and c.checked == "position"]
        steps: list[dict[str, Any]] = [{"seat": seat, "action": action} for _, seat, action in self.trail.steps[start:]]
        steps.append({"decide": {"level": view["level"], "seed": view["seed"], "exactly": expected}})
        document = {
            "id": fixture_id,
            "title": f"The {view['level']} player's choice at move {number} of seed {self.setup['seed']}",
            "game": self.spec.game, "rule_versions": f">={self.spec.rule_version} <{major + 1}.0.0",
            "clauses": clauses or [f"{self.spec.game}.players-choose-legal"], "basis": "interpretation",
            "description": (f"Written by `cardverse-conformance play --fixture-out`: the engine's player chose "
                            f"{show(choice)}, the reference's {show(expected)}. The expectation is the REFERENCE's "
                            "choice: check it against the rule text and the clauses, keep only the clauses it "
                            "shows, then move the file into fixtures/."),
            "layout": layout,
            "steps": steps,
        }
        path = write_inside(folder, f"{file_part(fixture_id)}.yaml",
                            yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=110))
        self.say(f"  >> the reference's {view['level']} player would choose {show(expected)} here: wrote {path}")
        return path


def read_replay(path: Path) -> Record:
    """The record in ``path``: its first line, or an older file (the setup, then one move a line) converted."""
    try:
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        first = json.loads(lines[0]) if lines else None
    except (OSError, ValueError) as error:
        raise PlayError(f"cannot read {path}: {error}; expected a game record written by `play --json` "
                        "(spec/records.md) or a replay printed by `players`") from None
    try:
        if isinstance(first, dict) and "record" in first:
            return parse_record(lines[0])
        if not isinstance(first, dict) or "game" not in first:
            raise PlayError(f"{path}:1: expected a game record (spec/records.md) or the setup of a game")
        moves = [json.loads(line) for line in lines[1:]]
        bad = next((n for n, m in enumerate(moves, start=2) if not isinstance(m, dict) or "seat" not in m
                    or "action" not in m), None)
        if bad is not None:
            raise PlayError(f"{path}:{bad}: expected {{\"seat\": s, \"action\": {{...}}}}")
        return from_moves(first, moves)
    except RecordError as error:
        raise PlayError(f"{path}:1: {error}") from None
    except ValueError as error:
        raise PlayError(f"cannot read {path}: {error}") from None
