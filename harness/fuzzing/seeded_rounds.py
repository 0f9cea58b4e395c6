"""The rounds of a seeded game as the spec deals them, worked out here from the game files' words.

A seeded game (``{seed, players}``) deals every round itself: one SplitMix64 for the game, a fresh
fill-order deck shuffled for each round (spec/seeded-deal.md), dealt as the game file's
``conventions.seeded_deal`` says. Fuzz compares the engine's deal of every round with these, at
the step that deals it, and writes the later rounds of a seeded game as later layouts when a
finding in it becomes a fixture (fixtures have no seeds). The generator is the reference's
(its vectors are the spec's); the dealing is written again here from the words, not taken from
the reference, so the two check each other (tests/test_fuzz_matches.py).
"""

from __future__ import annotations

from typing import Any

from harness.spec.cards import FILL_ORDER, display_all
from reference_engine.seeded import SplitMix64


def shuffled_decks(seed: int, rounds: int) -> list[list[str]]:
    """The decks of rounds 1 to ``rounds``, top first: each a fresh fill-order deck shuffled by the game's one generator."""
    rng = SplitMix64(seed)
    decks = []
    for _ in range(rounds):
        deck = list(range(len(FILL_ORDER)))  # indexes into the fill order, as seeded-deal.md shuffles them
        rng.shuffle(deck)
        decks.append([FILL_ORDER[i] for i in deck])
    return decks


def dealt(game: str, deck: list[str], players: int, number: int, seat: int | None = None) -> dict[str, Any]:
    """Round ``number``'s deal from ``deck`` as a later layout (its keys: hands, stock and discard, or hands and played).
    ``seat`` is the round's first seat (Rummy) or dealer (Gin Rummy) when another than the rules' is to deal it:
    who starts a round is another rule (rummy.first-seat, gin-rummy.dealer-rotation) than how its cards are dealt."""
    hands: list[list[str]] = [[] for _ in range(players)]
    if game == "president":
        # deck[i] to seat i mod players: the extra cards go to the lowest seats
        for i, card in enumerate(deck):
            hands[i % players].append(card)
        return {"hands": hands, "played": []}
    if game == "rummy":
        # from the round's first seat (seat 0 in round 1, then + 1 a round), 7 cards each (2 players) or 10
        first, size = (number - 1) % players if seat is None else seat, 7 if players == 2 else 10
        for i in range(size * players):
            hands[(first + i) % players].append(deck[i])
        return {"hands": hands, "stock": deck[size * players + 1:], "discard": [deck[size * players]]}
    if game == "gin-rummy":
        # seat 0 deals the first hand and the deal alternates; even indexes to the non-dealer
        dealer = (number - 1) % 2 if seat is None else seat
        for i in range(20):
            hands[1 - dealer if i % 2 == 0 else dealer].append(deck[i])
        return {"hands": hands, "stock": deck[21:], "discard": [deck[20]]}
    raise ValueError(f"no seeded deal known for {game}")


def later_rounds(game: str, seed: int, players: int, last: int) -> list[dict[str, Any]]:
    """The later layouts of rounds 2 to ``last`` of a seeded game."""
    decks = shuffled_decks(seed, last)
    return [dealt(game, decks[n - 1], players, n) for n in range(2, last + 1)]


def finishing_order(view: dict[str, Any]) -> list[int] | None:
    """The last finishing order a President view's round results show, if it shows one as a list of seats."""
    results = view.get("round_results")
    order = results[-1].get("finishing_order") if isinstance(results, list) and results and \
        isinstance(results[-1], dict) else None
    seats = len(view.get("hands") or ())
    if isinstance(order, list) and sorted(order) == list(range(seats)):
        return order
    return None


def misdealt(game: str, view: Any, deal: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """How the engine's view at the start of a round parts from ``deal`` (empty: it dealt it): the cards of
    each seat (President: after the Scum's automatic gift to the President, so those two seats' cards together,
    the rest seat by seat; the engine's finishing order names them, else the reference's view ``expected``'s),
    and the stock and discard pile in order."""
    hands = view.get("hands") if isinstance(view, dict) else None
    if not isinstance(hands, list) or len(hands) != len(deal["hands"]) or \
            not all(isinstance(h, list) for h in hands):
        return [f"hands: {hands!r} is not one list of cards a seat"]
    wrong = []
    pairs: list[tuple[int, ...]] = [(seat,) for seat in range(len(hands))]
    if game == "president":
        order = finishing_order(view) or finishing_order(expected)  # who gave to whom is the titles' rule, not the deal's
        if order:
            pairs = [(order[0], order[-1])] + [(s,) for s in range(len(hands)) if s not in (order[0], order[-1])]
    for seats in pairs:
        have = {c for s in seats for c in hands[s]}
        want = {c for s in seats for c in deal["hands"][s]}
        if have != want:
            whose = " and ".join(f"seat {s}" for s in seats)
            wrong.append(f"{whose}: lacks {display_all(in_order(want - have))}; holds {display_all(in_order(have - want))}"
                         " dealt elsewhere")
    for key in ("stock", "discard"):
        if key in deal and view.get(key) != deal[key]:
            wrong.append(f"{key}: dealt {display_all(deal[key][:6])}{' ...' if len(deal[key]) > 6 else ''} (top first), "
                         f"the engine has {display_all(view.get(key))}")
    return wrong


def in_order(cards: set[Any]) -> list[Any]:
    """Cards in the fill order (anything else after them, as written)."""
    return sorted(cards, key=lambda c: (FILL_ORDER.index(c) if c in FILL_ORDER else 52, str(c)))
