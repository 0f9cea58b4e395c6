"""One record replayed on the reference engine: clean, or the first move where the server and the rules disagree.

A clean game costs one ``apply`` per move and one state view per round: the fast pass asks the
state view only where the record says something about it (a round's end, a recorded state). A
game where anything differs is replayed again with the state view asked before and after every
move, which finds the first move the server got wrong and the position before it; that move is then
charged to the clause the reference's clause trace names for it (``traced``), else the one it names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from harness.audit import clauses
from harness.audit.offered import Offered, compared
from harness.audit.traced import charged
from harness.findings.games import facts as game_facts
from harness.records.record import Record
from harness.spec.cards import describe_action, show

KEPT = 1 << 13  # actions kept parsed per game (a few MB at most): memory stays flat on any file


@dataclass(frozen=True)
class Disagreement:
    """The first place where the server's record and the rules differ."""

    kind: str  # decision, legal, round-end, result, scores, game-result, state, next-turn, player
    move: int  # counted from 1 over the game, refused moves included; 0: after the last move
    round: int
    seat: int | None
    action: dict[str, Any] | None
    server: str  # what the server did or announced, in words
    rules: str  # what the rules say there, in words
    clause: str
    position: dict[str, Any] | None = None  # the reference's state view before the move
    reference_reason: str | None = None  # the reference's answer to the move (None: accepted)
    check: tuple[str, ...] = ()  # the state keys a fixture checks after the move
    opens_round: bool = False  # the first move of a later round: the mistake may be in the passage to it
    offered: Offered | None = None  # a legal list: how the server's differs from the rules'
    player: Any = None  # kind player: the clause broken (findings.judged.Broken) and the round so far (Trail)

    def words(self) -> str:
        """One line: where, what, the server and the rules, the clause."""
        where = f"move {self.move} (round {self.round})" if self.move else f"after round {self.round}"
        played = f" seat {self.seat} {describe_action(self.action)}:" if self.action is not None else \
            f" to seat {self.seat}:" if self.offered is not None else ""
        return f"{where}:{played} the server {self.server}; the rules: {self.rules} [{self.clause}]"


class GameAudit(NamedTuple):
    """What auditing one record found (a named tuple: one a record, made faster than a frozen dataclass)."""

    hands: int
    moves: int
    disagreement: Disagreement | None = None

    @property
    def clean(self) -> bool:
        """The server followed the rules in everything the record holds."""
        return self.disagreement is None


class _Recheck(Exception):
    """The fast pass saw a difference: the exact pass finds where it starts."""


def _said(reason: Any) -> str:
    """A server's or the rules' answer to an action, in words."""
    if reason is None:
        return "accepted it"
    return "refused it" + (f" ({reason})" if isinstance(reason, str) else "")


def _answers_agree(play: Any, parse: Any, known: dict[int, tuple[Any, Any]], moves: list[dict[str, Any]],
                   reasons: bool) -> bool:
    """Whether the rules answer each move as the server did (the fast pass's inner loop: nothing else), each
    action parsed once by the game's own ``parse`` (``known``: the actions parsed, by id) and played parsed."""
    get = known.get
    for move in moves:
        action = move["action"]
        seen = get(id(action))
        if seen is None:
            seen = (action, parse(action))  # the action kept beside its parse: its id is no other dict's
            if len(known) < KEPT:
                known[id(action)] = seen
        reason = play(move["seat"], seen[1])
        if reason is None:
            if "refused" in move:  # the schema has no null refusal: present is refused
                return False
        else:
            server = move.get("refused")
            if server is None or (reasons and server is not True and reason != server):
                return False
    return True


class Parsed:
    """The actions of the records of one audit, each parsed once per game: a game's ``apply(seat, action)`` is
    its ``apply_parsed(seat, parse(action))``, and the records' dicts are read, never changed (the decoder
    gives one dict for every move spelled the same, so a draw or a discard is parsed once for the file)."""

    def __init__(self) -> None:
        self.games: dict[Any, dict[int, tuple[Any, Any]]] = {}

    def of(self, parse: Any) -> dict[int, tuple[Any, Any]]:
        """The actions ``parse`` has read, by the id of their dict."""
        return self.games.setdefault(parse, {})


def _as_is(action: Any) -> Any:
    """An action as an engine without ``parse`` takes it (its ``apply`` reads it each time)."""
    return action


def audit_record(record: Record, engine: Any, parsed: Parsed | None = None) -> GameAudit:
    """Replay ``record`` on ``engine`` (the reference) and check every decision and announcement it holds
    (``parsed``: the actions parsed by the records judged before, shared over one audit)."""
    try:
        return _Pass(record, engine, exact=False, parsed=parsed).run()
    except _Recheck:
        audited = _Pass(record, engine, exact=True).run()
    found = audited.disagreement
    clause = charged(record, engine, found) if found is not None else None  # once, at the first wrong move
    return audited._replace(disagreement=replace(found, clause=clause)) if clause and found else audited


class _Pass:
    """One replay of a record: fast (state views only where the record needs them) or exact (at every move)."""

    def __init__(self, record: Record, engine: Any, exact: bool, parsed: Parsed | None = None) -> None:
        self.record, self.exact, self.engine = record, exact, engine
        self.facts = game_facts(record.spec.game, record.spec.rule_version)
        self.game = engine.start(record.setup)
        # The fast pass plays each action as the game parses it, once per action: the same answers as apply.
        parse = getattr(self.game, "parse", None)
        self.play: Any = self.game.apply_parsed if parse else self.game.apply
        self.parse: Any = parse or _as_is
        self.known = (parsed or Parsed()).of(self.parse)
        self.recorded = record.data["recorded"]  # a few names: a list is as quick to look in as a set is to make
        # The fast pass checks only what a round's end decides: a model with a narrower view than
        # state() (the reference's outcome(), which skips the showdown's deadwood) gives just that.
        self.outcome = getattr(self.game, "outcome", self.game.state)

    def differs(self, make: Any) -> Disagreement:
        """In the fast pass: start again exactly. In the exact pass: the disagreement ``make()`` words."""
        if not self.exact:
            raise _Recheck()
        return make()  # type: ignore[no-any-return]

    def run(self) -> GameAudit:
        """The whole record."""
        rounds, data, game = self.record.rounds, self.record.data, self.game
        reasons, states = "reasons" in self.recorded, "states" in self.recorded
        offers = "legal" in self.recorded  # then a move may carry the list the server offered its seat
        number, state = 0, None
        last: tuple[Any, ...] = (None, None, None, None)  # the last move: seat, action, position, the rules' answer
        for r, round_ in enumerate(rounds, 1):
            moves = round_["moves"]
            ends = r < len(rounds) or "result" in round_ or "scores" in round_ or "game_result" in data
            start = 0
            if not self.exact and not states and not offers:  # before the round's last move only the answers are checked
                start = max(len(moves) - 1 if ends else len(moves), 0)
                if start and not _answers_agree(self.play, self.parse, self.known, moves[:start], reasons):
                    raise _Recheck()
                number += start
            for i in range(start, len(moves)):
                move = moves[i]
                number += 1
                seat, action, server = move["seat"], move["action"], move.get("refused")
                before = game.state() if self.exact else None
                if offers and "legal" in move:
                    found = self.offered(move["legal"], before, r, number, seat)
                    if found is not None:
                        return self.found(found, number)
                reason = game.apply(seat, action)
                last = (seat, action, before, reason)
                if (reason is None) != (server is None) or (reasons and isinstance(server, str) and reason != server):
                    return self.found(self.differs(lambda: Disagreement(
                        "decision", number, r, seat, action, _said(server), _said(reason),
                        clauses.decision_clause(self.facts, action, reason, server, r > 1 and i == 0, before,
                                                self.record.setup.get("options")), before, reason,
                        opens_round=r > 1 and i == 0)), number)
                closing = ends and i == len(moves) - 1
                if not (self.exact or closing or "state" in move):
                    continue
                state = game.state() if self.exact or "state" in move else self.outcome()
                found = self.after_move(state, r, closing, number, seat, action, move, before, reason)
                if found is not None:
                    return self.found(found, number)
            if ends and not moves:
                state = game.state() if self.exact else self.outcome()
                if len(state["round_results"]) != r:
                    return self.found(self.differs(lambda: Disagreement(
                        "round-end", 0, r, None, None, f"ended round {r} with no move", "it is not over",
                        clauses.round_end_clause(self.facts, []))), number)
        if data.get("unfinished") == "no-move":
            found = self.stuck(len(rounds))
            if found is not None:
                return self.found(found, number)
        if "game_result" in data:
            state = game.state() if self.exact else self.outcome() if state is None else state
            if state["game_result"] != data["game_result"]:
                return self.found(self.differs(lambda: Disagreement(
                    "game-result", number, len(rounds), last[0], last[1], f"announced {show(data['game_result'])}",
                    f"{show(state['game_result'])}" if state["game_result"] is not None else "the game is not over",
                    clauses.game_end_clause(self.facts, data["game_result"], state["game_result"]), last[2], last[3],
                    ("game_result",))), number)
        if self.exact:
            raise AssertionError("the fast pass saw a difference the exact pass does not: a bug of the audit")
        return GameAudit(len(rounds), number)

    def offered(self, server: list[dict[str, Any]], before: dict[str, Any] | None, r: int, number: int,
                seat: int) -> Disagreement | None:
        """The legal list the server offered ``seat`` before its move against the rules' (a list offered to a seat
        that is not to act is left to the move's own check, which refuses it)."""
        listed = self.game.legal_actions()
        offered = compared(self.record.spec, listed, server) if server != listed else None
        if offered is None or (before or self.game.state()).get("to_act") != seat:
            return None
        return self.differs(lambda: Disagreement(
            "legal", number, r, seat, None, offered.server_words(), offered.rules_words(),
            clauses.decision_clause(self.facts, offered.disputed[0], None, None), before, check=("legal",),
            offered=offered))

    def after_move(self, state: dict[str, Any], r: int, closing: bool, number: int, seat: int, action: dict[str, Any],
                   move: dict[str, Any], before: Any, reason: str | None) -> Disagreement | None:
        """The round's end, result and scores, and a recorded state, after one move."""
        results = state["round_results"]
        wanted = r if closing else r - 1
        if len(results) != wanted:
            def ended() -> Disagreement:
                if len(results) > wanted:
                    over = state.get("game_result") is not None  # the game ends here: a match-end rule
                    return Disagreement("round-end", number, r, seat, action, f"went on with round {r}",
                                        f"{'the game' if over else f'round {r}'} is over after this move "
                                        f"({show(results[-1])})", clauses.played_on_clause(self.facts) if over
                                        else clauses.round_end_clause(self.facts, results[-1:], action), before, reason,
                                        ("round_results",))
                announced = self.record.rounds[r - 1].get("result")
                return Disagreement("round-end", number, r, seat, action, f"ended round {r} after this move"
                                    + (f" ({show(announced)})" if announced else ""), f"round {r} goes on",
                                    clauses.round_end_clause(self.facts, [announced] if announced else []),
                                    before, reason, ("round",))
            return self.differs(ended)
        round_ = self.record.rounds[r - 1]
        if closing and "result" in round_ and results[-1] != round_["result"]:
            return self.differs(lambda: Disagreement(
                "result", number, r, seat, action, f"announced {show(round_['result'])}", show(results[-1]),
                clauses.result_clause(self.facts, action, [round_["result"], results[-1]]), before, reason,
                ("round_results",)))
        if closing and "scores" in round_ and state["scores"] != round_["scores"]:
            return self.differs(lambda: Disagreement(
                "scores", number, r, seat, action, f"announced scores {round_['scores']}", f"scores {state['scores']}",
                clauses.result_clause(self.facts, action, [round_.get("result"), results[-1]]), before, reason,
                ("scores",)))
        shown = move.get("state")
        if shown is not None:
            keys = sorted(k for k in shown if state.get(k) != shown[k])
            if keys:
                return self.differs(lambda: Disagreement(
                    "state", number, r, seat, action, "showed " + "; ".join(f"{k}: {json.dumps(shown[k])}" for k in keys),
                    "; ".join(f"{k}: {json.dumps(state.get(k))}" for k in keys),
                    clauses.state_clause(self.facts, action, set(keys)), before, reason, tuple(keys)))
        return None

    def stuck(self, r: int) -> Disagreement | None:
        """A game the server stopped with nobody able to act (no-move) where the rules go on: their next turn,
        at the last move both accepted (the one that passed the turn on)."""
        legal = self.game.legal_actions()
        if not legal:
            return None  # the rules have nobody to act either
        to_act = self.game.state()["to_act"]

        def make() -> Disagreement:
            moves = [(number, move) for number, round_ in enumerate(self.record.rounds, 1) for move in round_["moves"]]
            at = max((i for i, (_, move) in enumerate(moves) if "refused" not in move), default=None)
            said = ("had no seat able to act after it, and stopped (no-move)",
                    f"seat {to_act} is to act ({describe_action(legal[0])}"
                    f"{f' or {len(legal) - 1} more' if len(legal) > 1 else ''})")
            if at is None:  # no move accepted: the deal named the seat to act
                return Disagreement("next-turn", 0, r, None, None, *said,
                                    clauses.state_clause(self.facts, None, {"to_act"}))
            game = self.engine.start(self.record.setup)  # the position before that move, for its fixture
            for _, move in moves[:at]:
                game.apply(move["seat"], move["action"])
            (in_round, move) = moves[at]
            return Disagreement("next-turn", at + 1, in_round, move["seat"], move["action"], *said,
                                clauses.state_clause(self.facts, move["action"], {"to_act"}), game.state(), None,
                                ("to_act",))
        return self.differs(make)

    def found(self, disagreement: Disagreement, number: int) -> GameAudit:
        """The audit of a game that stops at ``disagreement``."""
        return GameAudit(disagreement.round, number, disagreement)
