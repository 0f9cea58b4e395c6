"""Rummy 1.1.0 setups: options, complete layouts (fresh or mid-game) and the seeded deal.

Turns what the harness sends into a checked ``Round``; a setup that is not a legal position
raises ValueError (a refusal is only ever for actions). Knows nothing of turns or scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reference_engine.cards import (
    DECK_SIZE,
    FULL_DECK,
    CardError,
    fill_order,
    parse_card,
)
from reference_engine.gamefiles.rules import Rules
from reference_engine.rummy.melds import meld_fault
from reference_engine.seeded import SplitMix64


@dataclass(frozen=True, slots=True)
class Round:
    """The table at the start of play: stock and discard lists hold the top card last."""

    round: int
    first: int
    hands: tuple[int, ...]
    stock: tuple[int, ...]
    discard: tuple[int, ...]
    melds: tuple[tuple[int, int], ...]  # (owner, mask), in the order laid down
    phase: str
    to_act: int
    taken: int | None
    scores: tuple[int, ...]


def hand_size(rules: Rules, players: int) -> int:
    """R-1.2: the cards each seat is dealt (the game file's ``numbers.hand_size``: 7 with two players, 10 with more)."""
    return rules.number("hand_size", players)


def _cards(texts: Any, where: str) -> list[int]:
    """Parse a list of card names, naming the place on error."""
    if not isinstance(texts, list):
        raise ValueError(f"{where}: expected a list of cards, got {texts!r}")
    try:
        return [parse_card(t) for t in texts]
    except CardError as error:
        raise ValueError(f"{where}: {error}") from None


def _mask(cards: list[int], where: str, seen: list[int]) -> int:
    """A mask of ``cards``, adding them to ``seen`` to catch a card placed twice."""
    seen.extend(cards)
    mask = 0
    for card in cards:
        mask |= 1 << card
    if mask.bit_count() != len(cards):
        raise ValueError(f"{where}: a card is repeated")
    return mask


def _players(hands: Any, rules: Rules) -> int:
    """The number of players a layout's hands imply, checked against R-1.1 (the game file's ``players``)."""
    if not isinstance(hands, list):
        raise ValueError("hands: expected a list of hands, one per player")
    rules.check_players(len(hands), "hands")
    return len(hands)


def _table(layout: dict[str, Any], players: int, seen: list[int]) -> tuple[tuple[int, ...], ...]:
    """Hands, stock and discard (top last) of a layout."""
    hands = tuple(_mask(_cards(h, f"hands[{i}]"), f"hands[{i}]", seen) for i, h in enumerate(layout["hands"]))
    if not all(hands):
        raise ValueError("hands: an empty hand means the round is already over")
    stock = _cards(layout.get("stock") or [], "stock")
    discard = _cards(layout.get("discard") or [], "discard")
    seen.extend(stock + discard)
    return hands, tuple(reversed(stock)), tuple(reversed(discard))


def _check_all_placed(seen: list[int]) -> None:
    """Every one of the 52 cards exactly once."""
    if len(seen) != DECK_SIZE or sum(1 << c for c in set(seen)) != FULL_DECK:
        missing = sorted(set(range(DECK_SIZE)) - set(seen))
        raise ValueError(f"layout must place all 52 cards once ({len(seen)} placed, missing {missing})")


def _seat(value: Any, players: int, where: str) -> int:
    """A seat number, checked."""
    if type(value) is not int or not 0 <= value < players:
        raise ValueError(f"{where}: not a seat of {players} players: {value!r}")
    return value


def read_layout(layout: dict[str, Any], rules: Rules) -> Round:
    """The round a (complete) first layout describes, possibly in mid-game, or a deck to deal."""
    if layout.get("deck") is not None:
        return _deal_layout(layout, rules)
    players = _players(layout.get("hands"), rules)
    seen: list[int] = []
    hands, stock, discard = _table(layout, players, seen)
    melds = []
    for i, meld in enumerate(layout.get("melds") or []):
        owner = _seat(meld.get("owner"), players, f"melds[{i}].owner")
        mask = _mask(_cards(meld.get("cards"), f"melds[{i}].cards"), f"melds[{i}].cards", seen)
        if meld_fault(mask):
            raise ValueError(f"melds[{i}]: not a valid set or run")
        melds.append((owner, mask))
    _check_all_placed(seen)
    number = layout.get("round") or 1
    first = layout.get("first")
    first = (number - 1) % players if first is None else _seat(first, players, "first")
    to_act = layout.get("to_act")
    to_act = first if to_act is None else _seat(to_act, players, "to_act")
    phase = layout.get("phase") or "draw"
    if phase not in ("draw", "play"):
        raise ValueError(f"phase: a layout starts in draw or play, not {phase!r}")
    taken = layout.get("taken_discard")
    if taken is not None:
        taken = _cards([taken], "taken_discard")[0]
        if phase != "play" or not hands[to_act] >> taken & 1:
            raise ValueError("taken_discard: must be in the hand of the seat to act, in phase play")
        if hands[to_act] == 1 << taken:
            raise ValueError("taken_discard: the only card in hand could never be discarded")
    scores = layout.get("scores")
    scores = (0,) * players if scores is None else tuple(scores)
    if len(scores) != players or not all(type(s) is int for s in scores):
        raise ValueError(f"scores: expected {players} integers")
    return Round(number, first, hands, stock, discard, tuple(melds), phase, to_act, taken, scores)


def read_later_layout(layout: dict[str, Any], players: int, first: int, number: int,
                      scores: list[int], rules: Rules) -> Round:
    """A later round's deal: only hands, stock and discard are read; the rules decide the rest."""
    if _players(layout.get("hands"), rules) != players:
        raise ValueError(f"later layout: expected {players} hands")
    if layout.get("first") not in (None, first):
        raise ValueError(f"later layout: round {number} is started by seat {first}, not {layout['first']}")
    seen: list[int] = []
    hands, stock, discard = _table(layout, players, seen)
    _check_all_placed(seen)
    return Round(number, first, hands, stock, discard, (), "draw", first, None, tuple(scores))


def _deal_layout(layout: dict[str, Any], rules: Rules) -> Round:
    """A fresh round dealt from the layout's deck (top first), as the deal-order clause says."""
    players = layout.get("players")
    if type(players) is not int:
        raise ValueError("players: a layout with a deck must say how many players there are")
    deck = _cards(layout["deck"], "deck")
    _check_all_placed(list(deck))
    if layout.get("hands") or layout.get("stock") or layout.get("discard") or layout.get("melds"):
        raise ValueError("deck: a layout with a deck gives no hands, stock, discard or melds")
    number = layout.get("round") or 1
    first = layout.get("first")
    first = (number - 1) % players if first is None else _seat(first, players, "first")
    scores = layout.get("scores")
    return deal_from_deck(deck, players, first, number, [0] * players if scores is None else list(scores), rules)


def deal_round(rng: SplitMix64, players: int, first: int, number: int, scores: list[int], rules: Rules) -> Round:
    """A seeded deal: the fill-order deck shuffled by ``rng``, then dealt."""
    deck = fill_order()
    rng.shuffle(deck)
    return deal_from_deck(deck, players, first, number, scores, rules)


def deal_from_deck(deck: list[int], players: int, first: int, number: int, scores: list[int],
                   rules: Rules) -> Round:
    """Deal ``deck`` (top first) one card at a time from the first seat; upcard; the rest is the stock."""
    rules.check_players(players)
    hands = [0] * players
    dealt = hand_size(rules, players) * players
    for i in range(dealt):
        hands[(first + i) % players] |= 1 << deck[i]
    return Round(number, first, tuple(hands), tuple(reversed(deck[dealt + 1:])), (deck[dealt],), (),
                 "draw", first, None, tuple(scores))
