"""A card a server's seat used that the rules do not give it: charged to the step that put the card where the rules
have it (a round's deal, the exchange's transfers, a give), not to the move that later uses it.

The step is the latest whose state view moved the card (from a hand, a pile, ...); its clause is the one
the reference's clause trace noted there for the hands (the Scum's best cards, an exchange), else, at a
round's start, the game's deal clause; any other step names none, and the move keeps its own clause.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness.findings.clauses import meeting
from harness.findings.games import GameFacts
from harness.spec.cards import is_card

if TYPE_CHECKING:
    from reference_engine.clauses.trace import Notes

# The clause that says how each game's round is dealt (from the seed's deck, top first, one at a time).
DEAL = {"rummy": "rummy.deal-order", "gin-rummy": "gin-rummy.deal-order", "president": "president.deal-extra-cards"}


def cards_of(action: Any) -> list[str]:
    """Every card an action names from the seat's hand, in the order written (a lay-off's ``onto`` is on the table)."""
    if isinstance(action, dict):
        return [card for key, value in action.items() if key != "onto" for card in cards_of(value)]
    if isinstance(action, list):
        return [card for value in action for card in cards_of(value)]
    return [action] if isinstance(action, str) and is_card(action) else []


def place(state: dict[str, Any], card: str) -> tuple[Any, ...]:
    """Where ``card`` is in a state view: ``("hands", seat)``, the key of the pile or meld holding it, or nowhere."""
    for seat, hand in enumerate(state.get("hands") or []):
        if card in (hand or ()):
            return ("hands", seat)
    for key, value in state.items():
        if key != "hands" and card in cards_of(value):
            return (key,)
    return ()


def placing_clause(facts: GameFacts, steps: list[Notes], states: list[dict[str, Any]], seat: int,
                   actions: tuple[dict[str, Any], ...]) -> str | None:
    """The clause of the step that put the first card of ``actions`` the rules do not give ``seat`` where the rules
    have it (``steps[i]``: the notes of the step to ``states[i]``, ``[0]`` the deal); None when no card is
    elsewhere, or that step is a move with no note for the hands (the move's own clause then stands)."""
    hand = set((states[-1].get("hands") or [[]] * (seat + 1))[seat] or ())
    card = next((c for action in actions for c in cards_of(action) if c not in hand), None)
    if card is None:
        return None
    where = [place(state, card) for state in states]
    at = next((i for i in range(len(where) - 1, 0, -1) if where[i] != where[i - 1]), 0)
    noted = [c for c in meeting([n for n in steps[at] if n[1]], ["hands"]) if c in facts.spec.clauses]
    if noted:
        return noted[0]
    opens = at == 0 or states[at].get("round") != states[at - 1].get("round")
    return DEAL[facts.game] if opens and DEAL.get(facts.game) in facts.spec.clauses else None
