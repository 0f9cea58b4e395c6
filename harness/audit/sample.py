"""Records of seeded games played by an engine's computer players, as its server would log them.

Used by the tests and benchmarks/bench_audit.py: on the reference they are records of games that
followed the rules; on a mutant (``harness.mutants.catalogue``), records of a server with that mistake.
Now and then a seat takes another action than its player's choice (``findings.seats``): one the
server lists, or one the rules allow that the server does not (refused by a server that is wrong), and
now and then it tries an action again that it just played (mostly refused: the wrong phase, not
its turn), so the records hold refusals too. A game that stops before its end is logged unfinished,
and why, as a server would log it: its engine broke, its player failed, it named a seat to act
with nothing it could do (no-move), or the move cap came first.
"""

from __future__ import annotations

from typing import Any

from harness.adapters.player_view import History, build_view
from harness.findings.games import TERMINAL_PHASES
from harness.findings.games import facts as game_facts
from harness.findings.seats import canonical_text, seat_choice
from harness.records.record import Recorder, server_of

RETRY_EVERY = 7  # one decision in seven is followed by a retry of the same action


class KnownRules:
    """The rules as the seats know them: the game replayed on ``rules`` move by move, while it follows the server's."""

    def __init__(self, rules: Any, setup: dict[str, Any]) -> None:
        self.game = rules.start(setup) if rules is not None else None

    def unlisted(self, seat: int, listed: list[dict[str, Any]], canonical: Any) -> list[dict[str, Any]]:
        """What the rules allow ``seat`` that the server's list leaves out."""
        if self.game is None or self.game.state().get("to_act") != seat:
            return []
        return [a for a in (canonical(x) for x in self.game.legal_actions()) if a not in listed]

    def follow(self, seat: int, action: dict[str, Any], reason: str | None) -> None:
        """The server's answer; once the rules answer otherwise, the seats no longer know where the game stands."""
        if self.game is not None and self.game.apply(seat, action) != reason:
            self.game = None


def seeded_game(engine: Any, game: str, seed: int, levels: list[str], options: dict[str, Any] | None = None,
                retry_every: int = RETRY_EVERY, max_moves: int = 5000, try_every: int = 0,
                rules: Any = None, offered: bool = False) -> dict[str, Any]:
    """The record of one seeded game between ``engine``'s players of ``levels``, one per seat.

    ``try_every``: about one decision in that many a seat tries another action (0: never), one the
    server lists or, with ``rules`` (an engine), one those rules allow that the server does not list.
    ``offered``: each move carries the legal list the server offered its seat (spec/records.md).
    """
    from reference_engine import players

    spec = game_facts(game).spec
    setup: dict[str, Any] = {"game": game, "rule_version": spec.rule_version,
                             "options": {**spec.option_defaults, **(options or {})},
                             "seed": seed, "players": len(levels)}
    recorder = Recorder(setup, server_of(engine),
                        [{"name": f"seat {s}", "level": level} for s, level in enumerate(levels)])
    choose = getattr(engine, "choose", None) or players.choose
    played = engine.start(setup)
    known = KnownRules(rules if try_every else None, setup)
    history = History(game)
    state = played.state()
    why = "move-cap"  # why the game stopped, if it did not end (spec/records.md)
    for decision in range(max_moves):
        if state.get("phase") in TERMINAL_PHASES:
            break
        seat = state.get("to_act")
        if seat is None:  # a game not over with nobody to act
            why = "no-move"
            break
        # In canonical order: a record holds no list, so the list's order must not change what a seat takes.
        sent = played.legal_actions()
        listed = sorted((spec.card_order.canonical(a) for a in sent), key=canonical_text)
        if not listed:  # a seat to act with nothing it can do, in a game not over
            why = "no-move"
            break
        view = build_view(spec, setup["options"], seat, levels[seat], (seed * 7919 + decision) % 2**31,
                          played.observation(seat), history, listed)
        try:
            why = "player-failed"
            action = seat_choice(spec.card_order.canonical(choose(view)), listed, seed, decision, try_every,
                                 known.unlisted(seat, listed, spec.card_order.canonical))
            why = "engine-died"
            reason = played.apply(seat, action)
            known.follow(seat, action, reason)
            after = played.state()
            recorder.played(seat, action, reason, state, after, list(sent) if offered else None)
            if reason is None:
                history.record(seat, action, state)
            # Never into the next round: a seat's action accepted there is a decision its player did not make, and
            # a seat marked as a computer player would be judged on it against its level (audit.computer_seats).
            if retry_every and decision % retry_every == retry_every - 1 and after.get("round") == state.get("round"):
                again = played.apply(seat, action)
                known.follow(seat, action, again)
                recorder.played(seat, action, again, after, played.state())
                if again is None:
                    history.record(seat, action, after)
                after = played.state()
        except Exception:  # a server whose engine or player breaks logs the game so far, unfinished
            break
        why = "move-cap"
        state = after
    recorder.game_over(state.get("game_result") if state.get("phase") in TERMINAL_PHASES else None, why)
    return recorder.data
