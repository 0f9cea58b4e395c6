"""``smoke``'s check of an engine's computer players: each declared level answers a choose with a legal action."""

from __future__ import annotations

from typing import Any

from harness import spec as specs
from harness.cards import show
from harness.players.player import ask, declared_players
from harness.players.view import History, build_view


def check_players(smoke: Any, spec: specs.GameSpec, game: Any) -> None:
    """One smoke check per level the engine declares for ``spec.game``."""
    declared = declared_players(smoke.engine.describe(), spec.game)
    if declared is None:
        return
    for level in declared["levels"]:
        smoke.check(f"{spec.game}: {level} player ({declared['interface']} interface)", _choose, smoke, spec, game,
                    level, declared["interface"])


def _choose(smoke: Any, spec: specs.GameSpec, game: Any, level: str, interface: str) -> tuple[None, str]:
    """Ask the player of ``level`` in the smoke position; its choice must be legal."""
    from harness.smoke import _Problem

    seat = game.state()["to_act"]
    legal = game.legal_actions()
    view = build_view(spec, spec.option_defaults, seat, level, 0, game.observation(seat), History(spec.game), legal)
    choice = ask(smoke.engine, game, interface, view)
    order = spec.card_order  # compared in canonical form: a non-canonical list is the legal-actions check's finding
    if not isinstance(choice, dict) or order.canonical(choice) not in [order.canonical(a) for a in legal]:
        request = "choose_seat" if interface == "seat" else "choose"
        raise _Problem(f"the answer to {request} is {show(choice)}, which is not one of the {len(legal)} legal "
                       "actions: answer with one of them, as listed by legal_actions (spec/players.md)")
    return None, f"chose {show(choice)}, one of the {len(legal)} legal actions"
