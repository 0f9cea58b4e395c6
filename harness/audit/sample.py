"""Records of seeded games played by an engine's computer players, as its server would log them.

Used by the tests and benchmarks/bench_audit.py: on the reference they are records of games that
followed the rules; on a mutant (``harness.mutants.catalogue``), records of a server with that mistake.
Now and then a seat takes another listed action than its player's choice (``findings.seats``), and
now and then it tries an action again that it just played (mostly refused: the wrong phase, not
its turn), so the records hold refusals too. A player that fails under a mutant's views ends the
game there, unfinished, as a server whose table breaks would log it.
"""

from __future__ import annotations

from typing import Any

from harness.adapters.player_view import History, build_view
from harness.findings.games import TERMINAL_PHASES
from harness.findings.games import facts as game_facts
from harness.findings.seats import canonical_text, seat_choice
from harness.records.record import Recorder, server_of

RETRY_EVERY = 7  # one decision in seven is followed by a retry of the same action


def seeded_game(engine: Any, game: str, seed: int, levels: list[str], options: dict[str, Any] | None = None,
                retry_every: int = RETRY_EVERY, max_moves: int = 5000, try_every: int = 0) -> dict[str, Any]:
    """The record of one seeded game between ``engine``'s players of ``levels``, one per seat."""
    from reference_engine import players

    spec = game_facts(game).spec
    setup: dict[str, Any] = {"game": game, "rule_version": spec.rule_version,
                             "options": {**spec.option_defaults, **(options or {})},
                             "seed": seed, "players": len(levels)}
    recorder = Recorder(setup, server_of(engine),
                        [{"name": f"seat {s}", "level": level} for s, level in enumerate(levels)])
    choose = getattr(engine, "choose", None) or players.choose
    played = engine.start(setup)
    history = History(game)
    state = played.state()
    for decision in range(max_moves):
        if state.get("phase") in TERMINAL_PHASES or state.get("to_act") is None:
            break
        seat = state["to_act"]
        # In canonical order: a record holds no list, so the list's order must not change what a seat takes.
        listed = sorted((spec.card_order.canonical(a) for a in played.legal_actions()), key=canonical_text)
        view = build_view(spec, setup["options"], seat, levels[seat], (seed * 7919 + decision) % 2**31,
                          played.observation(seat), history, listed)
        try:
            action = seat_choice(spec.card_order.canonical(choose(view)), listed, seed, decision, try_every)
            reason = played.apply(seat, action)
            after = played.state()
            recorder.played(seat, action, reason, state, after)
            if reason is None:
                history.record(seat, action, state)
            if retry_every and decision % retry_every == retry_every - 1:
                again = played.apply(seat, action)
                recorder.played(seat, action, again, after, played.state())
                if again is None:
                    history.record(seat, action, after)
                after = played.state()
        except Exception:  # a server that crashes logs the game so far, unfinished
            break
        state = after
    recorder.game_over(state.get("game_result") if state.get("phase") in TERMINAL_PHASES else None)
    return recorder.data
