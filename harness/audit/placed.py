"""A card a server's seat used that the rules do not give it: charged to the step that put the card where the rules
have it (a round's deal, the exchange's transfers, a give), not to the move that later uses it.

The step is the latest whose state view moved the card (from a hand, a pile, ...); its clause is the one
the reference's clause trace noted there for the hands (the Scum's best cards) when the card is one the
seats of that transfer disagree on, else, at a round's start, the game's deal clause; any other step
names none, and the move keeps its own clause. A wrong deal that moves a card between the two seats of
an exchange looks like a wrong exchange, and is charged to it.
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


def transfer_seats(state: dict[str, Any]) -> set[int]:
    """The seats whose hands a round's opening transfers change, by the places of the round before (President's
    exchange: the first and last, and with four or more the second and second to last); none in another game."""
    results = state.get("round_results") or []
    order = results[-1].get("finishing_order") if results and isinstance(results[-1], dict) else None
    if not isinstance(order, list) or len(order) < 2:
        return set()
    return {order[0], order[-1]} | ({order[1], order[-2]} if len(order) >= 4 else set())


def placing_clause(facts: GameFacts, steps: list[Notes], states: list[dict[str, Any]], seat: int,
                   actions: tuple[dict[str, Any], ...], held: bool = False) -> str | None:
    """The clause of the step that put the first card of ``actions`` the rules do not give ``seat`` (``held``: the
    first they do give it, which the server's seat did not hold) where the rules have it (``steps[i]``: the notes
    of the step to ``states[i]``, ``[0]`` the deal); None when there is no such card, or that step is a move with
    no note for the hands (the move's own clause then stands)."""
    hand = set((states[-1].get("hands") or [[]] * (seat + 1))[seat] or ())
    card = next((c for action in actions for c in cards_of(action) if (c in hand) == held), None)
    if card is None:
        return None
    where = [place(state, card) for state in states]
    at = next((i for i in range(len(where) - 1, 0, -1) if where[i] != where[i - 1]), 0)
    # a transfer's note (the Scum's best cards) stands for a card the transfer's seats disagree on: one the seat
    # lacks that the rules gave it, or one it used that the rules keep with the other seat of the transfer
    parties = transfer_seats(states[at])
    moved = seat in parties and (held or where[at] in {("hands", p) for p in parties})
    noted = [c for c in meeting([n for n in steps[at] if n[1]], ["hands"]) if c in facts.spec.clauses]
    if noted and moved:
        return noted[0]
    opens = at == 0 or states[at].get("round") != states[at - 1].get("round")
    return DEAL[facts.game] if opens and DEAL.get(facts.game) in facts.spec.clauses else None
