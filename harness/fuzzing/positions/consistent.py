"""Whether a generated position is one the rules can reach: what a test and a benchmark check of every generator."""

from __future__ import annotations

from typing import Any

from harness.findings.games import GameFacts
from harness.spec.cards import normalise
from harness.suite.layouts import card_slots

DECK = 52


def problems(facts: GameFacts, layout: dict[str, Any], engine: Any, options: dict[str, Any]) -> list[str]:
    """What makes ``layout`` a position the rules cannot produce (empty: none): every card once, a phase of
    the game, a seat to act that has a legal action, and what its phase allows (started on ``engine``)."""
    found: list[str] = []
    cards = [normalise(value) for _, value in card_slots(layout, facts.spec.data["layout"]["card_fields"])]
    if len(cards) != DECK or len(set(cards)) != DECK:
        twice = sorted({c for c in cards if cards.count(c) > 1})
        found.append(f"{len(cards)} cards placed ({len(set(cards))} different; twice: {', '.join(twice) or 'none'}), "
                     f"not each of the {DECK} once")
    setup = {"game": facts.game, "rule_version": facts.spec.rule_version, "options": options, "layout": layout,
             "later_layouts": []}
    try:
        game = engine.start(setup)
        state = game.state()
    except Exception as error:  # the reference refuses what the rules cannot produce
        return [*found, f"the reference refuses it: {type(error).__name__}: {error}"]
    if not facts.spec.state_validator.is_valid(state):
        found.append("its state view does not follow the game's state_view schema")
    seat, phase = state.get("to_act"), state.get("phase")
    seats = len(layout.get("hands", []))
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < seats):
        found.append(f"to_act {seat!r} is not a seat of {seats}")
    elif seat is not None and not game.legal_actions():
        found.append(f"seat {seat} is to act in phase {phase} but has no legal action")
    found += _phase_problems(facts.game, layout)
    return found


def _phase_problems(game: str, layout: dict[str, Any]) -> list[str]:
    """What the layout's phase allows of its cards (Gin Rummy's upcard offer, the hand sizes of each phase)."""
    if game != "gin-rummy":
        return []
    phase, hands, to_act = layout.get("phase"), layout.get("hands", []), layout.get("to_act")
    found = []
    if phase == "offer" and len(layout.get("discard", [])) != 1:
        found.append(f"an upcard offer with {len(layout.get('discard', []))} cards in the discard pile: the offer "
                     "comes only at the start of a hand (G-6.1), the upcard alone face up")
    sizes = [len(hand) for hand in hands]
    if phase in ("offer", "draw") and sizes != [10, 10]:
        found.append(f"phase {phase} with hands of {sizes} cards, not 10 each")
    if phase == "discard" and isinstance(to_act, int) and sorted(sizes) != [10, 11]:
        found.append(f"phase discard with hands of {sizes} cards: the seat to act holds 11, the other 10")
    return found
