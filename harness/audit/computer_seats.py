"""The seats a record marks as computer players (``seats[i].level``: easy, normal or hard) judged at every
decision against their level's position clauses (the game file's checks, on the view the seat had).

Runs after the rules pass, only on records with such seats: the record replayed on the reference,
the view of each decision built as `players` builds it (the history of the round as the seat saw
it; the decision's seed is not recorded, and no check reads it).
"""

from __future__ import annotations

from typing import Any

from harness.adapters.player_view import History, build_view
from harness.audit.judge import Disagreement
from harness.findings.games import facts as game_facts
from harness.findings.judged import Broken, Trail
from harness.findings.rules import broken
from harness.records.record import Record
from harness.spec.gamespec import LEVELS


def levels_of(record: Record) -> dict[int, str]:
    """The seats the record marks as computer players, with their level."""
    return {seat: entry["level"] for seat, entry in enumerate(record.data["seats"])
            if isinstance(entry, dict) and entry.get("level") in LEVELS}


def judge_seats(record: Record, engine: Any) -> Disagreement | None:
    """The first decision of a computer-player seat that breaks a position clause of its level, or None."""
    levels = levels_of(record)
    if not levels:
        return None
    spec = game_facts(record.spec.game).spec
    options = {**spec.option_defaults, **(record.setup.get("options") or {})}
    game, history, trail, number = engine.start(record.setup), History(spec.game), Trail(), 0
    for r, round_ in enumerate(record.rounds, 1):
        for move in round_["moves"]:
            number += 1
            seat, action = move["seat"], move["action"]
            state = game.state()
            trail.at(state)
            if seat in levels and "refused" not in move and state.get("to_act") == seat:
                legal = game.legal_actions()
                view = build_view(spec, options, seat, levels[seat], 0, game.observation(seat), history, legal)
                choice = spec.card_order.canonical(action)
                kept = broken(spec, view, choice) if choice in [spec.card_order.canonical(a) for a in legal] else None
                if kept is not None:
                    return Disagreement("player", number, r, seat, action, f"let its {levels[seat]} player choose it",
                                        kept[1], kept[0], state, None,
                                        player=(Broken(kept[0], kept[1], view, choice), trail))
            if game.apply(seat, action) is None:
                history.record(seat, action, state)
                trail.took(state, seat, action)
            elif "refused" not in move:
                return None  # the rules pass has said where the record and the rules part
    return None
