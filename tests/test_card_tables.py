"""The reference engine's table lookups agree with naming and adding card by card, on any mask."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reference_engine.cards import (
    FULL_DECK,
    CardNames,
    CardSums,
    card_name,
    cards_of,
    sort_key,
)

ORDERS = ["A23456789TJQK", "23456789TJQKA", "3456789TJQKA2"]  # Gin, Rummy, President
masks = st.integers(0, FULL_DECK)


@given(masks, st.sampled_from(ORDERS))
def test_card_names_are_the_cards_sorted_in_the_order_and_named(mask: int, order: str) -> None:
    key = sort_key(order)
    assert CardNames(order)(mask) == [card_name(c) for c in sorted(cards_of(mask), key=key.__getitem__)]


@given(masks, st.lists(st.integers(-20, 20), min_size=52, max_size=52))
def test_card_sums_add_each_card_once(mask: int, values: list[int]) -> None:
    assert CardSums(values)(mask) == sum(values[c] for c in cards_of(mask))


def test_the_edges_of_the_deck() -> None:
    names = CardNames("A23456789TJQK")
    assert names(0) == [] and names(1) == ["AC"] and names(1 << 51) == ["KS"]
    assert len(names(FULL_DECK)) == 52 and len(set(names(FULL_DECK))) == 52
    assert CardSums([1] * 52)(FULL_DECK) == 52
