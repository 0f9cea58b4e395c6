"""The checks every computer player must pass, over seeded games played by the players themselves.

At every decision: the choice is one of the legal actions; asked again with the same view and
seed it is the same; within ``seconds_per_decision``; it keeps every position clause of its level
(the checks the game files name, harness/findings/rules/, judged on the view, history included). Every round ends within ``actions_per_round``
and the game within ``rounds_per_game`` (the game file's ``computer_players.bounds``). After each
game, sampled positions are rebuilt as layouts with the cards the seat cannot see shuffled (an
information-set twin): the choice must be the same on both (R-7.0/G-7.0/P-7.0).
"""

from __future__ import annotations

import copy
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from harness.adapters.player_view import History, build_view
from harness.adapters.players import ask, declared_players
from harness.findings.games import TERMINAL_PHASES, GameFacts
from harness.findings.games import facts as game_facts
from harness.findings.layouts import hidden_from, position_layout, twin_layout
from harness.findings.judged import Broken, Trail
from harness.findings.rules import broken
from harness.spec import gamespec as specs
from harness.spec.cards import display_all, show

DEFAULT_GAMES = 10
DEFAULT_TWIN_EVERY = 7  # one position in this many is checked on a twin (each twin costs two starts)
SERIES_ROUNDS = 2  # President's rounds in a seeded game: the second starts with the exchange (easy gives, P-7.1)


@dataclass
class Finding:
    """A broken check: which, where, and the game up to the decision, to replay."""

    check: str
    message: str
    setup: dict[str, Any]
    decision: int
    moves: list[tuple[int, dict[str, Any]]]
    details: list[str] = field(default_factory=list)
    broken: Broken | None = None  # a position clause broken: the clause, why, the view and the choice
    trail: Trail | None = None  # the round so far, to write the finding as a fixture
    state: dict[str, Any] | None = None  # the state the decision was made in

    def __str__(self) -> str:
        return "\n".join([f"{self.check}: {self.message}", *("  " + d for d in self.details)])

    def replay_text(self) -> str:
        """The setup, then one accepted move a line: what `play --replay` reads."""
        lines = [json.dumps(self.setup, separators=(",", ":"))]
        lines += [json.dumps({"seat": seat, "action": action}, separators=(",", ":")) for seat, action in self.moves]
        return "\n".join(lines)


@dataclass
class LevelReport:
    """One game and level: how many games and decisions, their times, the first finding."""

    game: str
    level: str
    games: int = 0
    decisions: int = 0
    twins: int = 0
    times: list[float] = field(default_factory=list)
    finding: Finding | None = None

    def quantile(self, q: float) -> float:
        """The time per decision at quantile ``q`` (0.5: median), in seconds."""
        if not self.times:
            return 0.0
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if q < 1 else ordered[-1]

    def summary(self) -> str:
        """One line: counts, median and p99 per decision, the verdict."""
        head = (f"players {self.game} {self.level}: {self.games} games, {self.decisions} decisions, {self.twins} twins, "
                f"median {self.quantile(0.5) * 1000:.3f} ms, p99 {self.quantile(0.99) * 1000:.3f} ms per decision")
        if self.finding is None:
            return f"{head}: every check holds"
        what = self.finding.broken.clause if self.finding.broken else self.finding.check
        return f"{head}: FOUND {what} in game {self.games} at decision {self.finding.decision + 1}"


class _Found(Exception):
    """Ends a game at its first broken check."""

    def __init__(self, check: str, message: str, details: list[str] | None = None, decision: int | None = None,
                 broken: Broken | None = None) -> None:
        super().__init__(message)
        self.check, self.message, self.details, self.decision = check, message, details or [], decision
        self.broken = broken


def player_counts(spec: specs.GameSpec) -> list[int]:
    """The seat counts games cycle through: every count the game allows."""
    bounds = spec.data["players"]
    return list(range(int(bounds["min"]), int(bounds["max"]) + 1))


def series(spec: specs.GameSpec) -> dict[str, Any]:
    """The options of a seeded game: the defaults, President as two rounds so the exchange is played too."""
    options = dict(spec.option_defaults)
    if "rounds" in options:
        options["rounds"] = max(int(options["rounds"]), SERIES_ROUNDS)
    return options


def decision_seed(game_seed: int, decision: int) -> int:
    """The seed in the view of one decision: the game's seed and the decision's index, mixed."""
    return (game_seed * 1_000_003 + decision) % 2**31


class _GamePlay:
    """One seeded game between the engine's players of one level."""

    def __init__(self, engine: Any, spec: specs.GameSpec, level: str, interface: str, setup: dict[str, Any],
                 twin_every: int, report: LevelReport) -> None:
        self.engine, self.spec, self.level, self.interface = engine, spec, level, interface
        self.setup, self.twin_every, self.report = setup, twin_every, report
        self.facts: GameFacts = game_facts(spec.game, spec.rule_version)
        self.bounds = spec.data["computer_players"]["bounds"]
        self.history = History(spec.game)
        self.moves: list[tuple[int, dict[str, Any]]] = []
        self.points: list[tuple[int, dict[str, Any], dict[str, Any]]] = []  # (decision, state, layout)
        self.trail: Trail = Trail()
        self.state: dict[str, Any] | None = None
        # The first position clause broken, the round so far and its state: a finding once nothing worse is found.
        self.first_broken: _Found | None = None
        self.broken_at: tuple[Trail, dict[str, Any] | None] = (self.trail, None)

    def call(self, what: str, function: Callable[..., Any], *args: Any) -> Any:
        """Ask the engine; a failure is an engine-error finding."""
        try:
            return function(*args)
        except _Found:
            raise
        except Exception as error:
            raise _Found("engine-error", f"{what} failed: {type(error).__name__}: {error}") from None

    def choose(self, game: Any, view: dict[str, Any]) -> dict[str, Any]:
        """The player's choice, checked to be an action of the game and one of the legal ones."""
        choice = self.call(f"the {self.level} player's choose", ask, self.engine, game, self.interface, view)
        kind = self.spec.action_kind(choice) if isinstance(choice, dict) else None
        if kind is None or not self.spec.action_validators[kind].is_valid(choice):
            raise _Found("engine-error", f"the {self.level} player answered {show(choice)}, which is not a "
                                         f"{self.spec.game} action")
        choice = self.spec.card_order.canonical(choice)
        if choice not in [self.spec.card_order.canonical(a) for a in view["legal"]]:
            raise _Found("illegal-choice", f"seat {view['seat']}'s {self.level} player chose {show(choice)}, which is "
                                           f"not one of the legal actions ({self.spec.game}.players-choose-legal)",
                         [f"legal: {', '.join(show(a) for a in view['legal'][:12])}"
                          f"{' ...' if len(view['legal']) > 12 else ''}"])
        return dict(choice)

    def run(self) -> None:
        """Play the game to its end, checking every decision; then its twins; then the first clause broken."""
        game = self.call("start", self.engine.start, self.setup)
        round_, in_round = None, 0
        while True:
            state = self.call("state()", game.state)
            if state.get("phase") in TERMINAL_PHASES or state.get("to_act") is None:
                break
            if state.get("round") != round_:
                round_, in_round = state.get("round"), 0
                if int(round_ or 1) > self.bounds["rounds_per_game"]:
                    raise _Found("game-too-long", f"the game is in round {round_}, past rounds_per_game = "
                                                  f"{self.bounds['rounds_per_game']} (computer_players.bounds)")
            if in_round >= self.bounds["actions_per_round"]:
                raise _Found("round-too-long", f"round {round_} is not over after {in_round} actions "
                                               f"(actions_per_round = {self.bounds['actions_per_round']}): "
                                               f"the players never end it ({self.spec.game}.players-choose-legal)")
            self.decide(game, state)
            in_round += 1
        for decision, state, layout in self.points:
            self.twin(decision, state, layout)
        if self.first_broken is not None:
            self.trail, self.state = self.broken_at
            raise self.first_broken

    def decide(self, game: Any, state: dict[str, Any]) -> None:
        """One decision: asked twice, timed, played."""
        seat = state["to_act"]
        index = len(self.moves)
        self.trail.at(state)
        self.state = state
        legal = self.call("legal_actions()", game.legal_actions)
        observation = self.call(f"observation({seat})", game.observation, seat)
        view = build_view(self.spec, self.setup["options"], seat, self.level,
                          decision_seed(self.setup["seed"], index), observation, self.history, legal)
        started = time.perf_counter()
        choice = self.choose(game, view)
        seconds = time.perf_counter() - started
        self.report.times.append(seconds)
        self.report.decisions += 1
        again = self.choose(game, copy.deepcopy(view))
        if again != choice:
            raise _Found("not-deterministic", f"asked twice with the same view and seed, seat {seat}'s {self.level} "
                                              f"player chose {show(choice)}, then {show(again)}")
        if seconds > self.bounds["seconds_per_decision"]:
            raise _Found("too-slow", f"seat {seat}'s {self.level} player took {seconds:.1f} s to decide, more than "
                                     f"seconds_per_decision = {self.bounds['seconds_per_decision']}")
        kept = broken(self.spec, view, choice)
        if kept is not None and self.first_broken is None:  # kept until the game is over: the rest comes first
            self.first_broken = _Found(
                "clause-broken", f"seat {seat}'s {self.level} player chose {show(choice)}, which breaks {kept[0]}: "
                                 f"{kept[1]}",
                [f"hand: {_hand(view)}", f"legal: {', '.join(show(a) for a in view['legal'][:12])}"],
                index, Broken(kept[0], kept[1], view, choice))
            self.broken_at = (Trail(self.trail.round, list(self.trail.steps)), state)
        if index % self.twin_every == 0:
            layout = position_layout(self.facts, state)
            if layout is not None:
                self.points.append((index, state, layout))
        reason = self.call("apply()", game.apply, seat, choice)
        if reason is not None:
            raise _Found("refused-choice", f"the engine refused seat {seat}'s {self.level} player's choice "
                                           f"{show(choice)} ({reason}), though it listed it as legal")
        self.history.record(seat, choice, state)
        self.trail.took(state, seat, choice)
        self.moves.append((seat, choice))

    def twin(self, decision: int, state: dict[str, Any], layout: dict[str, Any]) -> None:
        """The same choice on the position and on its information-set twin."""
        seat = state["to_act"]
        twin = twin_layout(self.facts, layout, state, seat, random.Random(self.setup["seed"] * 7919 + decision))
        if twin is None:
            return
        history = History(self.spec.game)  # a rebuilt position starts with no history, on both sides
        choices = []
        for placed in (layout, twin):  # one after the other: a remote engine plays one game at a time
            setup = {"game": self.spec.game, "rule_version": self.spec.rule_version,
                     "options": self.setup["options"], "layout": placed, "later_layouts": []}
            game = self.call("start (a rebuilt position)", self.engine.start, setup)
            legal = self.call("legal_actions()", game.legal_actions)
            observation = self.call(f"observation({seat})", game.observation, seat)
            view = build_view(self.spec, self.setup["options"], seat, self.level,
                              decision_seed(self.setup["seed"], decision), observation, history, legal)
            choices.append(self.choose(game, view))
        self.report.twins += 1
        if choices[0] != choices[1]:
            raise _Found("twin-differs", f"seat {seat}'s {self.level} player chose {show(choices[0])}, but "
                                         f"{show(choices[1])} when only cards it cannot see were moved "
                                         f"({self.spec.game}.players-use-the-view)",
                         [f"{name}: {place}" for name, placed in (("position", layout), ("twin", twin))
                          for place in _hidden(self.facts, placed, state, seat)], decision)


def _hand(view: dict[str, Any]) -> str:
    """The hand of the seat deciding, in glyphs."""
    hands = view["observation"].get("hands") or []
    return display_all(hands[view["seat"]] or []) if view["seat"] < len(hands) else "?"


def _hidden(facts: GameFacts, layout: dict[str, Any], state: dict[str, Any], seat: int) -> list[str]:
    """The places of ``layout`` that ``seat`` cannot see, with their cards, in words."""
    view = {**state, **{key: layout[key] for key in layout if key in state}}
    order = facts.spec.card_order
    return [f"{'.'.join(map(str, path))} {display_all(order.sort(cards))}" for path, cards in hidden_from(facts, view, seat)]


def check_level(engine: Any, game: str, level: str, games: int = DEFAULT_GAMES, seed: int = 0,
                twin_every: int = DEFAULT_TWIN_EVERY, progress: Callable[[int, int], None] | None = None,
                counts: list[int] | None = None) -> LevelReport:
    """``games`` seeded games of ``game`` between the engine's ``level`` players, every check made; the games
    cycle through ``counts`` seats (default: every count the game allows)."""
    spec = game_facts(game).spec
    declared = declared_players(engine.describe(), game)
    interface = declared["interface"] if declared else "view"
    report = LevelReport(game, level)
    counts = counts or player_counts(spec)
    for i in range(games):
        if progress:
            progress(i + 1, games)
        setup = {"game": game, "rule_version": spec.rule_version, "options": series(spec),
                 "seed": seed + i, "players": counts[i % len(counts)]}
        play = _GamePlay(engine, spec, level, interface, setup, twin_every, report)
        report.games += 1
        try:
            play.run()
        except _Found as found:
            decision = len(play.moves) if found.decision is None else found.decision
            report.finding = Finding(found.check, found.message, setup, decision, play.moves[:decision], found.details,
                                     found.broken, play.trail, play.state)
            break
    return report
