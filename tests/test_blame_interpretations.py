"""Blame names the interpretation that decides a lay-off list or an ace_high comparison, not the generic clause.

A legal-actions difference is charged to the clause the reference's trace notes for the actions in
dispute; a lay-off's shape (both ends at once, several cards, onto a run a lay-off extended, a card
of the opponent's own melds, the card just taken) and a full set are each decided by an
interpretation of the game file, which the trace now names; with ``ace_high`` an empty stock's
winner decided by the Ace's 11 is the comparison's interpretation (R-5.2 with R-4.1).
"""

from __future__ import annotations

from typing import Any

from harness.findings.clauses import divergence_clause
from harness.findings.games import facts
from harness.findings.model import Divergence, Move, Setup
from harness.fuzzing.blame import charge
from reference_engine import create

DECK = [r + s for s in "CDHS" for r in "A23456789TJQK"]


def setup_of(game: str, layout: dict[str, Any], options: dict[str, Any] | None = None) -> Setup:
    """A setup of ``layout`` (the cards it leaves out go to the stock when it gives none)."""
    spec = facts(game).spec
    if "stock" not in layout:
        places = [*layout["hands"], layout["discard"], *(m["cards"] if isinstance(m, dict) else m for m in layout["melds"])]
        layout = {**layout, "stock": [c for c in DECK if all(c not in cards for cards in places)]}
    return Setup(game, spec.rule_version, {**spec.option_defaults, **(options or {})}, layout)


def listed_otherwise(game: str, layout: dict[str, Any], missing: list[dict[str, Any]],
                     extra: list[dict[str, Any]] | None = None) -> str:
    """The clause charged when an engine's legal list at the layout lacks ``missing`` and lists ``extra``."""
    setup = setup_of(game, layout)
    reference = create().start(setup.as_dict())
    wanted, seat = reference.legal_actions(), reference.state()["to_act"]
    assert all(action in wanted for action in missing)
    check: dict[str, Any] = {"includes": missing} if missing else {}
    refused = None
    if extra:
        check["excludes"] = extra
        refused = Move(seat, extra[0], reference.apply(seat, extra[0]))
        assert refused.reason is not None
    failure = Divergence("legal", 0, "the legal actions differ", check={"legal": check}, refused=refused,
                         actual={"legal": [a for a in wanted if a not in missing] + (extra or [])})
    charge(facts(game), create(), setup, [], failure)
    return divergence_clause(facts(game), failure)


# Seat 0 has drawn; seat 1's 5♣-6♣-7♣ and the four Kings are on the table.
RUMMY = {"first": 0, "to_act": 0, "phase": "play", "hands": [["4C", "8C", "9C", "2D"], ["3S", "4S"]],
         "melds": [{"owner": 1, "cards": ["5C", "6C", "7C"]}, {"owner": 1, "cards": ["KH", "KD", "KS", "KC"]}],
         "discard": ["QD"]}


def test_rummy_lay_offs_left_out_are_charged_to_the_interpretation_that_admits_their_shape() -> None:
    assert listed_otherwise("rummy", RUMMY, [{"layoff": ["4C", "8C"], "onto": 0}]) == "rummy.layoff-both-ends"
    assert listed_otherwise("rummy", RUMMY, [{"layoff": ["8C", "9C"], "onto": 0}]) == "rummy.layoff-several-cards"
    taken = {**RUMMY, "taken_discard": "8C"}  # the card just taken may be laid off at once
    assert listed_otherwise("rummy", taken, [{"layoff": ["8C"], "onto": 0}]) == "rummy.no-stranding-taken-card"
    # one card at one end: no interpretation decides it, the text of does
    assert listed_otherwise("rummy", RUMMY, [{"layoff": ["8C"], "onto": 0}]) == "rummy.meld-and-layoff-after-draw"


def test_a_card_listed_onto_a_full_set_is_charged_to_the_full_set() -> None:
    assert listed_otherwise("rummy", RUMMY, [], [{"layoff": ["2D"], "onto": 1}]) == "rummy.full-set"


# Seat 0 knocked with 5♣-6♣-7♣, J♥-J♦-J♣, T♥-T♦-T♣ and the A♥; seat 1 holds its own run 8♠-9♠-T♠ and set of 4s.
GIN = {"dealer": 0, "phase": "layoff", "to_act": 1, "knocker": 0,
       "hands": [["AH"], ["8C", "9C", "8S", "9S", "TS", "4H", "4D", "4S", "2S", "3D"]],
       "melds": [["5C", "6C", "7C"], ["JH", "JD", "JC"], ["TH", "TD", "TC"]], "discard": ["QD"]}


def test_gin_lay_offs_left_out_are_charged_to_the_interpretation_that_admits_them() -> None:
    assert listed_otherwise("gin-rummy", GIN, [{"layoff": ["8C", "9C"], "onto": 0}]) == \
        "gin-rummy.layoff-on-extended-run"
    assert listed_otherwise("gin-rummy", GIN, [{"layoff": ["TS"], "onto": 2}]) == "gin-rummy.layoff-any-card"
    assert listed_otherwise("gin-rummy", GIN, [{"layoff": ["8C"], "onto": 0}]) == "gin-rummy.layoff"


def test_a_lay_off_onto_a_run_an_earlier_lay_off_extended_is_that_interpretations() -> None:
    setup = setup_of("gin-rummy", GIN)
    reference = create().start(setup.as_dict())
    assert reference.apply(1, {"layoff": ["8C"], "onto": 0}) is None
    listed = [a for a in reference.legal_actions() if a != {"layoff": ["9C"], "onto": 0}]
    failure = Divergence("legal", 1, "the legal actions differ", check={"legal": {"includes": [{"layoff": ["9C"], "onto": 0}]}},
                         actual={"legal": listed})
    charge(facts("gin-rummy"), create(), setup, [Move(1, {"layoff": ["8C"], "onto": 0})], failure)
    assert divergence_clause(facts("gin-rummy"), failure) == "gin-rummy.layoff-on-extended-run"


def empty_stock_won(winner: int, values: list[int]) -> str:
    """With ace_high, seat 0 (A♣ 2♣: 13, or 3 with the Ace at 1) asks the empty stock; seat 1 holds 9♦. The clause
    charged when the engine says seat ``winner`` won with these hand values."""
    hands = [["AC", "2C"], ["9D"]]
    layout = {"first": 0, "to_act": 0, "phase": "draw", "stock": [], "hands": hands,
              "discard": [c for c in DECK if all(c not in h for h in hands)]}
    setup = setup_of("rummy", layout, {"ace_high": True})
    reference = create().start(setup.as_dict())
    assert reference.apply(0, {"draw": "stock"}) is None
    ours = reference.state()
    assert ours["round_results"][-1]["winner"] == 1  # 9 against 13: with the Ace worth 11
    theirs = {"round": 1, "winner": winner, "how": "empty-stock", "points": values[1 - winner], "hand_values": values}
    failure = Divergence("state", 0, "the state view differs after the move", move=Move(0, {"draw": "stock"}),
                         check={"state": {"round_results": ours["round_results"]}}, actual={"round_results": [theirs]})
    charge(facts("rummy"), create(), setup, [], failure)
    return divergence_clause(facts("rummy"), failure)


def test_an_ace_high_empty_stock_compared_with_the_ace_at_one_is_the_comparisons_interpretation() -> None:
    assert empty_stock_won(0, [13, 9]) == "rummy.ace-high-in-comparison"  # right values, the Ace at 1 to compare
    assert empty_stock_won(0, [3, 9]) == "rummy.hand-value"  # ace_high ignored in the values themselves


def test_an_engine_raising_at_the_start_is_charged_to_what_the_references_start_decided() -> None:
    """A position with Q-K-A on the table that an engine refuses to start (the Ace taken as low): the clause the
    reference noted reading it, the Ace after the King (R-3.1), not the game's objective."""
    layout = {**RUMMY, "melds": RUMMY["melds"][:1] + [{"owner": 1, "cards": ["QH", "KH", "AH"]}]}
    failure = Divergence("error", 0, "the engine raised in start(): ValueError: melds[1]: not a valid set or run")
    charge(facts("rummy"), create(), setup_of("rummy", layout), [], failure)
    assert divergence_clause(facts("rummy"), failure) == "rummy.ace-after-king"
