"""A closer (a style of fuzzed game) takes a legal action that ends the hand whenever one is listed."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.findings.games import facts
from harness.fuzzing.actions import (
    GameStyle,
    choose_action,
    ends_hand,
    plays_all,
    worse_arrangement,
)

GIN_HAND = ["AC", "2C", "3C", "4D", "5D", "6D", "7H", "8H", "9H", "KS", "QS"]
GIN_LEGAL = [{"discard": c} for c in GIN_HAND] + [
    {"knock": "KS", "melds": [["AC", "2C", "3C"], ["4D", "5D", "6D"], ["7H", "8H", "9H"]]}]


def test_a_knock_ends_a_gin_hand_and_a_discard_does_not() -> None:
    gin = facts("gin-rummy")
    assert ends_hand(gin, GIN_LEGAL[-1], GIN_HAND)
    assert not ends_hand(gin, {"discard": "KS"}, GIN_HAND)


def test_playing_every_card_held_ends_a_rummy_or_president_hand() -> None:
    assert ends_hand(facts("rummy"), {"meld": ["5H", "6H", "7H"]}, ["7H", "5H", "6H"])
    assert not ends_hand(facts("rummy"), {"meld": ["5H", "6H", "7H"]}, ["7H", "5H", "6H", "KD"])
    assert ends_hand(facts("rummy"), {"discard": "KD"}, ["KD"])
    assert ends_hand(facts("president"), {"play": ["9C", "9D"]}, ["9D", "9C"])
    assert not ends_hand(facts("president"), {"pass": True}, ["9D"])


class Labelled:
    """Hypothesis' data, noting the label of each draw (which path of choose_action was taken)."""

    def __init__(self, data: Any) -> None:
        self.data = data
        self.labels: list[str] = []

    def draw(self, strategy: Any, label: str | None = None) -> Any:
        """One draw, its label noted."""
        self.labels.append(label or "")
        return self.data.draw(strategy)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.data())
def test_a_closer_picks_an_ending_action_whenever_it_picks_a_legal_one(data: Any) -> None:
    view: dict[str, Any] = {"to_act": 0, "phase": "discard", "hands": [GIN_HAND, None]}
    closer, by_kind = data.draw(st.booleans()), data.draw(st.booleans())
    labelled = Labelled(data)
    seat, action = choose_action(labelled, facts("gin-rummy"), view, GIN_LEGAL, 2, GameStyle(0, by_kind, 7, closer))
    if "legal" in labelled.labels and seat == 0:  # the legal path, not a near miss or the wrong seat
        assert not closer or "knock" in action


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.data())
def test_a_game_that_is_no_closer_still_discards(data: Any) -> None:
    view: dict[str, Any] = {"to_act": 0, "phase": "discard", "hands": [GIN_HAND, None]}
    picked = [choose_action(data, facts("gin-rummy"), view, GIN_LEGAL, 2, GameStyle(0, False, i))[1] for i in range(12)]
    assert any("discard" in a for a in picked if a in GIN_LEGAL) or not any(a in GIN_LEGAL for a in picked)


KNOCK = {"knock": "KS", "melds": [["AC", "2C", "3C", "4C"], ["5D", "6D", "7D"], ["9H", "9S", "9D", "9C"]]}


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.data())
def test_a_worse_arrangement_shows_fewer_cards_still_in_melds(data: Any) -> None:
    worse = worse_arrangement(data, KNOCK)
    assert worse is not None and worse["knock"] == "KS"
    shown = [c for meld in worse["melds"] for c in meld]
    assert len(shown) < sum(len(m) for m in KNOCK["melds"]) and len(set(shown)) == len(shown)
    for meld in worse["melds"]:  # each meld shown is one of the knock's, or it less an end card (any of a set)
        whole = next(m for m in KNOCK["melds"] if set(meld) <= set(m))
        left_out = [c for c in whole if c not in meld]
        assert len(meld) >= 3 and (not left_out or left_out[0] in (whole[0], whole[-1]) or len({c[0] for c in whole}) == 1)


def test_the_cheapest_worse_arrangement_leaves_out_the_lowest_end_card() -> None:
    class Zeros:
        def draw(self, strategy: Any, label: str | None = None) -> int:
            return 0

    worse = worse_arrangement(Zeros(), KNOCK)
    assert worse is not None
    assert worse["melds"] == [["2C", "3C", "4C"], ["5D", "6D", "7D"], ["9H", "9S", "9D", "9C"]]
    assert worse_arrangement(Zeros(), {"discard": "KS"}) is None


def test_a_closer_with_a_gin_knocks_gin_not_a_knock_with_deadwood() -> None:
    hand = ["AC", "2C", "3C", "4C", "5D", "6D", "7D", "9H", "9S", "9D", "KS"]
    gin = {"knock": "KS", "melds": [["AC", "2C", "3C", "4C"], ["5D", "6D", "7D"], ["9D", "9H", "9S"]]}
    knock = {"knock": "9S", "melds": [["AC", "2C", "3C", "4C"], ["5D", "6D", "7D"]]}
    assert plays_all(gin, hand) and not plays_all(knock, hand)
