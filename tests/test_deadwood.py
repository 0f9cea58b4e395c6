"""The Gin Rummy deadwood solver: hand-worked hands, then agreement with an independent brute force
(every set of disjoint melds) on a few thousand random and dense hands."""

from __future__ import annotations

import random

import pytest

from reference_engine.cards import cards_of, make_card, mask_of, parse_card
from reference_engine.gin_rummy.deadwood import (
    ALL_MELDS,
    VALUE,
    best_discards,
    is_meld,
    least_after_discard,
    min_deadwood,
    optimal_arrangements,
)


def mask(text: str) -> int:
    """A mask from space-separated card names."""
    return mask_of(parse_card(t) for t in text.split())


def value(hand: int) -> int:
    """Deadwood value of every card of ``hand``."""
    return sum(VALUE[c] for c in cards_of(hand))


def brute_arrangements(hand: int) -> tuple[int, set[frozenset[int]]]:
    """(least deadwood, every arrangement reaching it) by trying every set of disjoint melds."""
    melds = [m for m in ALL_MELDS if m & hand == m]
    least = value(hand)
    found: set[frozenset[int]] = {frozenset()}

    def walk(i: int, used: int, chosen: list[int]) -> None:
        nonlocal least, found
        if i == len(melds):
            left = value(hand & ~used)
            if left < least:
                least, found = left, set()
            if left == least:
                found.add(frozenset(chosen))
            return
        walk(i + 1, used, chosen)
        if not melds[i] & used:
            chosen.append(melds[i])
            walk(i + 1, used | melds[i], chosen)
            chosen.pop()

    walk(0, 0, [])
    return least, found


def dense_hand(rng: random.Random, size: int) -> int:
    """``size`` cards from four adjacent ranks: sets and runs overlap everywhere."""
    low = rng.randint(1, 10)
    pool = [make_card(r, s) for r in range(low, low + 4) for s in range(4)]
    return mask_of(rng.sample(pool, size))


@pytest.mark.parametrize("cards, expected", [
    ("AC 2C 3C 4C 5C 5D 5H 5S 9D KS", 19),  # 5C goes to the set: run A-4 and set of 5s, 9+10 left
    ("3C 4C 5C 7D 7H 7S 9S TS JS 2D", 2),
    ("QH KH AH 2D 3C 4C 5C 7D 7H 7S", 23),  # Q-K-A is no run
    ("AC AD AH AS 2C 3C 4C 5C 6C 7C", 0),
    ("5H 6H 7H 7D 7S 9S TS JS 2C 3C", 16),  # 7H in one meld only
    ("TC JD QH KS 9C 8D 7H 6S 5C 4D", 79),
    ("AC 2D 3H 4S 5C 6D 7H 8S 9C TD", 55),
])
def test_hand_worked_deadwood(cards: str, expected: int) -> None:
    assert min_deadwood(mask(cards)) == expected


def test_meld_shapes() -> None:
    assert is_meld(mask("7C 7D 7H")) and is_meld(mask("7C 7D 7H 7S"))
    assert is_meld(mask("AS 2S 3S")) and is_meld(mask("JS QS KS")) and is_meld(mask("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"))
    assert not is_meld(mask("QS KS AS")) and not is_meld(mask("KS AS 2S"))
    assert not is_meld(mask("7C 7D")) and not is_meld(mask("7C 8D 9C")) and not is_meld(mask("7C 8C TC"))
    assert len(ALL_MELDS) == 13 * 5 + 4 * 66


def test_tied_arrangements_are_all_listed() -> None:
    hand = mask("3C 4C 5C 6C 6D 6H 6S 9S TS JS")
    found = {frozenset(a) for a in optimal_arrangements(hand)}
    assert found == {frozenset({mask("3C 4C 5C 6C"), mask("6D 6H 6S"), mask("9S TS JS")}),
                     frozenset({mask("3C 4C 5C"), mask("6C 6D 6H 6S"), mask("9S TS JS")})}


def test_best_discards() -> None:
    after = best_discards(mask("3C 4C 5C 7D 7H 7S 9S TS JS 2D KH"))
    assert min(after.values()) == after[parse_card("KH")] == 2
    assert best_discards(mask("2C 3C 4C 5C 6C JD JH JS 4D 7H KS"))[parse_card("KS")] == 11


@pytest.mark.parametrize("dense", [False, True])
def test_agrees_with_brute_force(dense: bool) -> None:
    rng = random.Random(20261129 + dense)
    for _ in range(1500):
        hand = dense_hand(rng, 10) if dense else mask_of(rng.sample(range(52), 10))
        least, arrangements = brute_arrangements(hand)
        assert min_deadwood(hand) == least
        assert {frozenset(a) for a in optimal_arrangements(hand)} == arrangements


@pytest.mark.parametrize("dense", [False, True])
def test_best_discard_agrees_with_brute_force(dense: bool) -> None:
    rng = random.Random(7 + dense)
    for _ in range(300):
        hand = dense_hand(rng, 11) if dense else mask_of(rng.sample(range(52), 11))
        after = best_discards(hand)
        assert after == {c: brute_arrangements(hand & ~(1 << c))[0] for c in cards_of(hand)}
        assert least_after_discard(hand) == min(after.values())


@pytest.mark.parametrize(("cards", "expected"), [
    # Worked by hand: 7-8-9 of clubs and of hearts, the tens as a set, 9D discarded: 7S left.
    ("7S TS 7C 8C 9C TC 9D TD 7H 8H 9H", 7),
    # Every card in a set (4 + 4 + 3): the discard breaks the four of a kind into three, nothing left.
    ("7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H", 0),
    # Only runs of three (3 + 3 + 3) and two loose cards: the higher loose card goes.
    ("AC 2C 3C 4D 5D 6D 7H 8H 9H 2S KS", 2),
    # Three runs of three and a run of two: a card must leave a meld or the pair.
    ("AC 2C 3C 4D 5D 6D 7H 8H 9H JS QS", 10),
])
def test_least_after_discard_worked(cards: str, expected: int) -> None:
    assert least_after_discard(mask(cards)) == expected
