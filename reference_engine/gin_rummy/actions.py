"""Gin Rummy's actions: how one is read, and how the legal ones are listed in canonical order.

``parse_action`` turns an action into its kind and cards (None when it is malformed);
``discard_actions`` and ``layoff_actions`` list the discards, knocks and lay-offs of a hand in
the fixed order of the spec, with cards and melds named canonically (``names``, ``meld_key``).
Which kinds a phase allows, and whether an action is accepted, is the game's (``game``).
"""

from __future__ import annotations

from typing import Any

from reference_engine.cards import (
    CardError,
    CardNames,
    card_name,
    cards_of,
    parse_card,
    sort_key,
)
from reference_engine.gin_rummy.deadwood import optimal_arrangements

CARD_ORDER = "A23456789TJQK"
KEY = sort_key(CARD_ORDER)

# The extra keys each action kind carries.
EXTRA_KEYS = {"draw": (), "pass": (), "discard": (), "knock": ("melds",), "layoff": ("onto",)}


class Malformed(Exception):
    """An action that does not fit the vocabulary."""


names = CardNames(CARD_ORDER)  # the cards of a mask as canonical names, in card order


def meld_key(mask: int) -> list[int]:
    """Sort key of a meld: its cards' keys in card order (canonical list-of-lists order)."""
    return sorted(KEY[c] for c in cards_of(mask))


def _card(value: Any) -> int:
    """One card of an action, or Malformed."""
    if not isinstance(value, str):
        raise Malformed
    try:
        return parse_card(value)
    except CardError:
        raise Malformed from None


def _cards(value: Any, seen: int) -> int:
    """A non-empty list of distinct cards as a mask, none already in ``seen``; or Malformed."""
    if not isinstance(value, list) or not value:
        raise Malformed
    mask = 0
    for item in value:
        bit = 1 << _card(item)
        if (mask | seen) & bit:
            raise Malformed  # a repeated card
        mask |= bit
    return mask


def parse_action(action: Any) -> tuple[str, Any] | None:
    """(kind, payload) of a well-formed action, or None when it is malformed."""
    try:
        if not isinstance(action, dict):
            raise Malformed
        kinds = [k for k in action if k in EXTRA_KEYS]
        if len(kinds) != 1:
            raise Malformed
        kind = kinds[0]
        if set(action) != {kind, *EXTRA_KEYS[kind]}:
            raise Malformed
        value = action[kind]
        if kind == "draw":
            if value not in ("stock", "discard") or not isinstance(value, str):
                raise Malformed
            return kind, value
        if kind == "pass":
            if value is not True:
                raise Malformed
            return kind, None
        if kind == "discard":
            return kind, _card(value)
        if kind == "knock":
            card = _card(value)
            melds = action["melds"]
            if not isinstance(melds, list):
                raise Malformed
            # The knock card inside a meld is not a repeat but a wrong arrangement, refused later.
            seen = 0
            masks = []
            for meld in melds:
                mask = _cards(meld, seen)
                seen |= mask
                masks.append(mask)
            return kind, (card, tuple(masks))  # a tuple: a parsed action is shared, never changed
        onto = action["onto"]
        if not isinstance(onto, int) or isinstance(onto, bool) or onto < 0:
            raise Malformed
        return kind, (_cards(value, 0), onto)
    except Malformed:
        return None


def discard_actions(hand: int, taken: int | None, after: dict[int, int], limit: int) -> list[dict[str, Any]]:
    """Every discard but ``taken``, then every knock within ``limit`` (``after``: least deadwood per discard)."""
    order = sorted((c for c in cards_of(hand) if c != taken), key=KEY.__getitem__)
    actions: list[dict[str, Any]] = [{"discard": card_name(c)} for c in order]
    if not after:
        return actions
    for card in order:
        if after[card] <= limit:
            arrangements = [sorted((meld_key(m), names(m)) for m in a) for a in
                            optimal_arrangements(hand & ~(1 << card))]
            for melds in sorted(arrangements):
                actions.append({"knock": card_name(card), "melds": [n for _, n in melds]})
    return actions


def layoff_actions(melds: list[int], hand: int) -> list[dict[str, Any]]:
    """Every lay-off of ``hand`` onto every meld (any number of cards at once), then pass."""
    actions: list[dict[str, Any]] = []
    for index, meld in enumerate(melds):
        for cards in sorted(extensions(meld, hand), key=meld_key):
            actions.append({"layoff": names(cards), "onto": index})
    actions.append({"pass": True})
    return actions


def extensions(meld: int, hand: int) -> list[int]:
    """Every non-empty set of cards of ``hand`` that leaves ``meld`` a valid meld."""
    cards = list(cards_of(meld))
    if len({c % 13 for c in cards}) == 1:  # a set: only its missing suit can join
        if len(cards) == 3:
            rank = cards[0] % 13
            missing = sum(1 << (rank + 13 * suit) for suit in range(4)) & ~meld
            return [missing] if missing & hand else []
        return []
    low, high = cards[0], cards[-1]  # a run: contiguous cards below and above, in this suit
    below, above = [0], [0]
    card, run = low, 0
    while card % 13 > 0 and hand >> (card - 1) & 1:
        card -= 1
        run |= 1 << card
        below.append(run)
    card, run = high, 0
    while card % 13 < 12 and hand >> (card + 1) & 1:
        card += 1
        run |= 1 << card
        above.append(run)
    return [b | a for b in below for a in above if b | a]
