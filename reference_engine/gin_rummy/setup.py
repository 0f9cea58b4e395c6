"""Gin Rummy 1.0.0 setups: a complete layout (fresh or mid-game) or a later fresh deal, checked.

Loads what the harness sends into a ``game.Game``; a layout that is not a legal position
raises ValueError (a refusal is only ever for actions). Knows nothing of turns or scoring.
"""

from __future__ import annotations

from typing import Any

from reference_engine.cards import DECK_SIZE, FULL_DECK, parse_card
from reference_engine.gin_rummy.deadwood import is_meld

HAND_SIZE = 10
PHASES = ("offer", "draw", "discard", "layoff", "round-over", "game-over")
OVER = ("round-over", "game-over")

# A fresh deal: the two hands, the stock top first, the discard pile top first.
Deal = tuple[list[list[int]], list[int], list[int]]


def parse_list(texts: list[Any]) -> list[int]:
    """Card names to ints (the layout is already schema-valid)."""
    return [parse_card(t) for t in texts]


def check_cards(game: Any) -> None:
    """Every card exactly once across hands, stock, discard pile and melds; else ValueError."""
    seen = 0
    total = 0
    for group in (*game.hands, *(1 << c for c in game.stock), *(1 << c for c in game.discard), *game.melds):
        if seen & group:
            raise ValueError("a card is placed twice in the layout")
        seen |= group
        total += group.bit_count()
    if seen != FULL_DECK or total != DECK_SIZE:
        raise ValueError("the layout does not place all 52 cards")


def load_layout(game: Any, layout: dict[str, Any]) -> None:
    """Load a complete layout (every key present, all 52 cards placed) into ``game``."""
    game.dealer = int(layout.get("dealer") or 0)
    game.round = int(layout.get("round") or 1)
    game.scores = list(layout.get("scores") or [0, 0])
    game.hands_won = list(layout.get("hands_won") or [0, 0])
    if layout.get("deck") is not None:  # a fresh deal from a given deck, in the offer phase
        if layout.get("hands") or layout.get("stock") or layout.get("discard") or layout.get("phase") not in (None, "offer"):
            raise ValueError("a layout with a deck gives no hands, stock, discard or phase")
        deck = parse_list(layout["deck"])
        if len(deck) != DECK_SIZE or len(set(deck)) != DECK_SIZE:
            raise ValueError("the deck must hold all 52 cards once")
        game.deal_deck(deck)
        game.phase, game.to_act = "offer", 1 - game.dealer
        return
    game.deal_fresh([parse_list(h) for h in layout["hands"]], parse_list(layout.get("stock") or []),
                    parse_list(layout["discard"]))
    phase = layout.get("phase") or "offer"
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r}")
    game.phase = phase
    game.melds = [sum(1 << c for c in parse_list(m)) for m in layout.get("melds") or []]
    knocker = layout.get("knocker")
    game.knocker = knocker
    to_act = layout.get("to_act")
    if to_act is None:
        to_act = None if phase in OVER else (1 - knocker if phase == "layoff" and knocker is not None
                                             else 1 - game.dealer)
    game.to_act = to_act
    taken = layout.get("taken")
    game.taken = None if taken is None else parse_card(taken)
    game.upcard_refused = bool(layout.get("upcard_refused"))
    check_cards(game)
    check_position(game)


def check_position(game: Any) -> None:
    """Raise ValueError on a layout no game could reach (sizes, knocker, melds, stock)."""
    sizes = [h.bit_count() for h in game.hands]
    phase = game.phase
    if phase in ("offer", "draw") and (sizes != [HAND_SIZE, HAND_SIZE] or len(game.stock) <= game.drawn_at
                                       or not game.discard):
        raise ValueError(f"phase {phase} needs 10 cards a hand, a discard pile and over {game.drawn_at} stock cards")
    if phase == "discard":
        if game.to_act is None or sizes[game.to_act] != HAND_SIZE + 1 or sizes[1 - game.to_act] != HAND_SIZE:
            raise ValueError("phase discard needs 11 cards in the hand of the seat to act and 10 in the other")
        if len(game.stock) < game.drawn_at:
            raise ValueError(f"phase discard needs at least {game.drawn_at} stock cards")
        if game.taken is not None and not game.hands[game.to_act] >> game.taken & 1:
            raise ValueError("taken must be a card of the seat to act")
    if phase == "layoff":
        if game.knocker is None or game.to_act != 1 - game.knocker or not game.melds:
            raise ValueError("phase layoff needs a knocker, its melds and the other seat to act")
        if not all(is_meld(m) for m in game.melds):
            raise ValueError("the knocker's melds must be valid melds")
        if not game.hands[game.knocker]:
            raise ValueError("a knocker without deadwood has gin, which ends the hand at once: no layoff phase")
    elif game.knocker is not None or game.melds:
        raise ValueError("knocker and melds belong to phase layoff only")
    if phase == "offer" and game.to_act not in (0, 1):
        raise ValueError("phase offer needs a seat to act")
    if game.upcard_refused and (phase != "draw" or game.to_act != 1 - game.dealer):
        raise ValueError("upcard_refused belongs to the non-dealer's draw in phase draw")
    if game.taken is not None and phase != "discard":
        raise ValueError("taken belongs to phase discard")


def fresh_deal(layout: dict[str, Any], drawn_at: int) -> Deal:
    """The cards of a later layout (its other keys follow from the game); ValueError if impossible.

    ``drawn_at``: the stock a discard may leave without drawing the hand (the game file's ``numbers.drawn_at``)."""
    hands = [parse_list(h) for h in layout["hands"]]
    stock, discard = parse_list(layout.get("stock") or []), parse_list(layout["discard"])
    cards = [c for h in hands for c in h] + stock + discard
    if len(cards) != DECK_SIZE or len(set(cards)) != DECK_SIZE:
        raise ValueError("a later layout must place all 52 cards once")
    if [len(h) for h in hands] != [HAND_SIZE, HAND_SIZE] or not discard or len(stock) <= drawn_at:
        raise ValueError(f"a later layout is a fresh deal: 10 cards a hand, an upcard, over {drawn_at} stock cards")
    return hands, stock, discard
