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

from harness.spec.cards import FILL_ORDER
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


def dealt(game: str, deck: list[str], players: int, number: int) -> dict[str, Any]:
    """Round ``number``'s deal from ``deck`` as a later layout (its keys: hands, stock and discard, or hands and played)."""
    hands: list[list[str]] = [[] for _ in range(players)]
    if game == "president":
        # deck[i] to seat i mod players: the extra cards go to the lowest seats
        for i, card in enumerate(deck):
            hands[i % players].append(card)
        return {"hands": hands, "played": []}
    if game == "rummy":
        # from the round's first seat (seat 0 in round 1, then + 1 a round), 7 cards each (2 players) or 10
        first, size = (number - 1) % players, 7 if players == 2 else 10
        for i in range(size * players):
            hands[(first + i) % players].append(deck[i])
        return {"hands": hands, "stock": deck[size * players + 1:], "discard": [deck[size * players]]}
    if game == "gin-rummy":
        # seat 0 deals the first hand and the deal alternates; even indexes to the non-dealer
        dealer = (number - 1) % 2
        for i in range(20):
            hands[1 - dealer if i % 2 == 0 else dealer].append(deck[i])
        return {"hands": hands, "stock": deck[21:], "discard": [deck[20]]}
    raise ValueError(f"no seeded deal known for {game}")


def later_rounds(game: str, seed: int, players: int, last: int) -> list[dict[str, Any]]:
    """The later layouts of rounds 2 to ``last`` of a seeded game."""
    decks = shuffled_decks(seed, last)
    return [dealt(game, decks[n - 1], players, n) for n in range(2, last + 1)]


def misdealt(game: str, view: Any, deal: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """How the engine's view at the start of a round parts from ``deal`` (empty: it dealt it): the cards of
    each seat (President: after the Scum's automatic gift to the President, so those two seats' cards together,
    the rest seat by seat; the reference's view ``expected`` names them), and the stock and discard pile in order."""
    hands = view.get("hands") if isinstance(view, dict) else None
    if not isinstance(hands, list) or len(hands) != len(deal["hands"]) or \
            not all(isinstance(h, list) for h in hands):
        return [f"hands: {hands!r} is not one list of cards a seat"]
    wrong = []
    pairs: list[tuple[int, ...]] = [(seat,) for seat in range(len(hands))]
    results = expected.get("round_results") or []
    if game == "president" and results:
        order = results[-1]["finishing_order"]
        pairs = [(order[0], order[-1])] + [(s,) for s in range(len(hands)) if s not in (order[0], order[-1])]
    for seats in pairs:
        have = sorted(c for s in seats for c in hands[s])
        want = sorted(c for s in seats for c in deal["hands"][s])
        if have != want:
            whose = " and ".join(f"seat {s}" for s in seats)
            wrong.append(f"{whose}: dealt {want}, the engine has {have}")
    for key in ("stock", "discard"):
        if key in deal and view.get(key) != deal[key]:
            wrong.append(f"{key}: dealt {deal[key]} (top first), the engine has {view.get(key)}")
    return wrong
