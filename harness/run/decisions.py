"""Decision steps judged: a computer player of a level decides in the fixture's position.

A ``decide`` step names a level and exactly one expectation: ``exactly`` one action, ``one_of``
several, or ``never`` any of several (their lint: ``harness.suite.decide``). The runner asks the engine's player through the interface
the engine declares (spec/players.md); the choice is never played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.adapters.player_view import History, build_view
from harness.adapters.players import ask, cannot_choose, declared_players, missing_level
from harness.run.verdicts import Verdict, traceback_files
from harness.spec.cards import action_key, show


def has_decisions(scenario: Any) -> bool:
    """Whether some step of ``scenario`` asks a player to decide."""
    return any(getattr(step, "decide", None) for step in scenario.steps)


def skip_reason(description: dict[str, Any], scenario: Any) -> str | None:
    """Why the engine cannot judge the scenario's decisions (it lacks the level), or None."""
    for step in scenario.steps:
        decide = getattr(step, "decide", None)
        if decide:
            reason = missing_level(description, scenario.game, decide["level"])
            if reason:
                return reason
    return None


@dataclass
class Question:
    """One decision's question to a player: the step's expectation and the view (with the seat and legal list)."""

    decide: dict[str, Any]
    view: dict[str, Any]
    unchecked: int  # how many unchecked notes the scenario had then (a verdict here reports only those)


class Decider:
    """Asks one engine's players during one scenario, keeping the round's history for the views."""

    def __init__(self, engine: Any, description: dict[str, Any], game: str) -> None:
        declared = declared_players(description, game) or {"interface": "view"}
        self.engine, self.interface = engine, declared["interface"]
        self.unable = cannot_choose(engine, self.interface, game)  # said once per decision, not as a traceback
        self.history = History(game)
        self.pending: list[Question] | None = None  # the questions kept to be asked together (remote engines)
        self.asks_views = self.interface == "view"  # its questions need no live game: they can wait

    def judge(self, play: Any, decide: dict[str, Any]) -> None:
        """Ask the player in the current position; a wrong choice raises the runner's Verdict.

        While ``pending`` is a list (a remote engine, the plan answered ahead), the question is kept
        there instead of being asked, and its choice is judged later by ``judge_choice``.
        """
        if self.unable:
            raise Verdict("error", self.unable, kind="interface")
        question = self.question(play, decide)
        if self.pending is not None:
            self.pending.append(question)
            return
        choice: Any = play.call(f"the {decide['level']} player's choose", ask, self.engine, play.game,
                                self.interface, question.view)
        self.judge_choice(play, question, choice)

    def question(self, play: Any, decide: dict[str, Any]) -> Question:
        """The view the player decides from, in the current position (the state, legal actions, observation)."""
        state = play.state()
        seat = state.get("to_act")
        level = decide["level"]
        if seat is None:
            raise Verdict("fail", f"no seat is to act (phase {state.get('phase')}), so no {level} player can decide")
        legal = play.call("legal_actions()", play.game.legal_actions)
        observation = play.call(f"observation({seat})", play.game.observation, seat)
        if not isinstance(legal, list) or not all(isinstance(a, dict) for a in legal) or not legal:
            raise Verdict("error", f"legal_actions() returned {show(legal)}; a seat to act has a non-empty list of actions")
        play.checked_legal(legal)  # the list decided from holds only real actions, as a legal step's must
        options = play.setup()["options"]
        view = build_view(play.spec, options, seat, level, decide["seed"], observation, self.history, legal)
        return Question(decide, view, len(play.unchecked))

    def judge_choice(self, play: Any, question: Question, choice: Any) -> None:
        """The player's answer to ``question`` (an exception: the engine failed to answer) against the step."""
        spec, decide, view = play.spec, question.decide, question.view
        level, seat, legal = decide["level"], view["seat"], view["legal"]
        if isinstance(choice, Exception):
            raise Verdict("error", f"the engine raised in the {level} player's choose: "
                                   f"{type(choice).__name__}: {choice}", raised_in=traceback_files(choice))
        kind = spec.action_kind(choice) if isinstance(choice, dict) else None
        if kind is None or not spec.action_validators[kind].is_valid(choice):
            raise Verdict("error", f"the engine's {level} player answered {show(choice)}, which is not a "
                                   f"{spec.game} action (spec/games/{spec.path.name}, actions)")
        choice = spec.card_order.canonical(choice)
        canonical_keys: set[str] = set()

        def listed(action: Any) -> bool:
            """Whether ``action`` is legal here: as listed (a canonical list lists it so), else once canonical."""
            if action in legal:
                return True
            if not canonical_keys:
                canonical_keys.update(action_key(spec.card_order.canonical(a)) for a in legal)
            return action_key(action) in canonical_keys

        who = f"the {level} player at seat {seat}"
        if not listed(choice):
            raise Verdict("fail", f"{who} chose {show(choice)}, which is not one of the legal actions "
                                  f"({spec.game}.players-choose-legal)", [f"legal: {show(a)}" for a in legal][:12])
        wanted = [decide["exactly"]] if "exactly" in decide else decide.get("one_of", [])
        absent = [a for a in wanted if not listed(a)]
        if absent:
            raise Verdict("fail", f"the fixture expects {who} to choose {', '.join(show(a) for a in absent)}, "
                                  "which is not among the legal actions", [f"legal: {show(a)}" for a in legal][:12])
        if "exactly" in decide and action_key(choice) != action_key(decide["exactly"]):
            raise Verdict("fail", f"{who} chose {show(choice)}, but must choose {show(decide['exactly'])}")
        if "one_of" in decide and action_key(choice) not in {action_key(a) for a in wanted}:
            raise Verdict("fail", f"{who} chose {show(choice)}, but must choose one of "
                                  f"{', '.join(show(a) for a in wanted)}")
        if "never" in decide and action_key(choice) in {action_key(a) for a in decide["never"]}:
            raise Verdict("fail", f"{who} chose {show(choice)}, which it must never choose here")

    def record(self, seat: int, action: dict[str, Any], before: dict[str, Any]) -> None:
        """Note an accepted action for the views of later decisions."""
        self.history.record(seat, action, before)


def decider(engine: Any, description: dict[str, Any], scenario: Any) -> Decider | None:
    """A Decider when the scenario has decision steps, else None (the runner then does nothing extra)."""
    return Decider(engine, description, scenario.game) if has_decisions(scenario) else None
