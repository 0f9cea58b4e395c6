"""Card notation, canonical order, version ranges, subset comparison and safe YAML."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from harness.run.compare import differences
from harness.spec.cards import FILL_ORDER, CardOrder, display, is_card, normalise, show
from harness.spec.semver import in_range
from harness.suite.yamlsafe import YamlError, load
from reference_engine.cards import card_name, parse_card

cards = st.sampled_from(FILL_ORDER)
rummy_order = CardOrder("23456789TJQKA")


def test_every_card_round_trips_between_notations() -> None:
    assert len(set(FILL_ORDER)) == 52
    for card in FILL_ORDER:
        assert card_name(parse_card(card)) == card
    assert normalise("10D") == "TD" and is_card("10D") and not is_card("1D") and not is_card("qh")


def test_people_see_glyphs() -> None:
    assert [display(c) for c in ("QH", "TD", "AS", "2C")] == ["Q♥", "10♦", "A♠", "2♣"]
    assert show({"meld": ["QH", "KH", "AH"]}) == "{meld: [Q♥, K♥, A♥]}"


@given(st.lists(cards, unique=True, min_size=1, max_size=8))
def test_canonical_form_ignores_the_written_order(hand: list[str]) -> None:
    forward = rummy_order.canonical({"meld": hand})
    assert forward == rummy_order.canonical({"meld": hand[::-1]})
    assert rummy_order.canonical(forward) == forward


def test_the_ace_sorts_after_the_king_in_rummy() -> None:
    assert rummy_order.sort(["AH", "QH", "KH"]) == ["QH", "KH", "AH"]
    assert CardOrder("A23456789TJQK").sort(["KH", "AH", "2H"]) == ["AH", "2H", "KH"]
    assert rummy_order.sort(["5S", "5C", "5H"]) == ["5C", "5H", "5S"]


def test_version_ranges() -> None:
    assert in_range("1.1.0", ">=1.1.0 <2.0.0")
    assert not in_range("2.0.0", ">=1.1.0 <2.0.0")
    assert in_range("1.4.2", "^1.1.0") and not in_range("1.0.9", "^1.1.0")
    assert in_range("1.1.7", "~1.1.0") and not in_range("1.2.0", "~1.1.0")
    assert in_range("3.0.0", "1.0.0 || 3.0.0") and in_range("1.1.0", "1.1.0")


def test_subset_comparison() -> None:
    assert differences({"hands": {1: ["AH"]}}, {"hands": [["2C"], ["AH"]], "x": 1}) == []
    assert [str(d) for d in differences({"to_act": 1}, {"to_act": True})] == ["to_act: expected 1, got True"]
    assert [str(d) for d in differences({"melds": [{"owner": 0}]}, {"melds": []})] == [
        "melds: expected [{'owner': 0}], got []"]
    assert [str(d) for d in differences({"phase": "draw"}, {})] == ["phase: expected 'draw', got (missing)"]


def test_safe_yaml_keeps_positions_and_refuses_objects() -> None:
    document = load("a: 1\nb:\n  - [x, y]\n")
    assert document.data == {"a": 1, "b": [["x", "y"]]}
    assert document.position(("b", 0, 1)) == (3, 9)
    for text, where in [("a: !!python/name:os.system x", (1, 4)), ("a: 1\na: 2", (2, 1)), ("a: [", (2, 1))]:
        try:
            load(text)
        except YamlError as error:
            assert (error.line, error.column) == where
        else:
            raise AssertionError(f"{text!r} was accepted")
