"""Blame leaves out a clause whose rule the engine's answers keep: of two clauses that decided the same
field at the diverging step, the one the engine breaks is charged (the notes' ``holds`` tests)."""

from __future__ import annotations

from typing import Any

from harness.findings.clauses import divergence_clause
from harness.findings.games import facts
from harness.findings.model import Divergence, Move, Setup
from harness.fuzzing.blame import charge
from reference_engine import create
from reference_engine.clauses.trace import note, recording

DECK = [r + s for s in "CDHS" for r in "A23456789TJQK"]


def test_a_note_keeps_its_rules_test_beside_the_notes_as_before() -> None:
    with recording() as notes:
        note("president.points", "scores", holds=lambda answers: answers["scores"] == [3, 2, 1])
        note("president.titles", "round_results.titles")
    assert notes == [("president.points", ("scores",)), ("president.titles", ("round_results.titles",))]
    assert set(notes.holds) == {0} and notes.holds[0]({"scores": [3, 2, 1]})


def charged(game: str, layout: dict[str, Any], moves: list[tuple[int, dict[str, Any]]], theirs: dict[str, Any],
            options: dict[str, Any] | None = None) -> str:
    """The clause a state difference after the last of ``moves`` is charged to, the engine showing ``theirs``."""
    spec = facts(game)
    setup = Setup(game, spec.spec.rule_version, {**spec.spec.option_defaults, **(options or {})}, layout)
    reference = create().start(setup.as_dict())
    for seat, action in moves:
        assert reference.apply(seat, action) is None
    ours = reference.state()
    failure = Divergence("state", len(moves) - 1, "the state view differs after the move",
                         move=Move(*moves[-1]), check={"state": {k: ours[k] for k in theirs}}, actual=theirs)
    before = [Move(seat, action) for seat, action in moves[:-1]]
    charge(spec, create(), setup, before, failure)
    return divergence_clause(spec, failure)


def test_a_lead_given_to_a_seat_out_is_charged_to_the_text_and_to_a_wrong_seat_in_to_the_interpretation() -> None:
    # Seat 1 goes out on the king; all still in pass: P-6.2 gives the lead to a seat still in, the
    # interpretation to the next one after seat 1, seat 2.
    hands = [["5C", "6C"], ["KC"], ["7D", "8D"], ["9D", "TD"]]
    layout = {"first": 0, "hands": hands, "played": [c for c in DECK if all(c not in h for h in hands)]}
    moves = [(0, {"play": ["5C"]}), (1, {"play": ["KC"]}), (2, {"pass": True}), (3, {"pass": True}), (0, {"pass": True})]
    assert charged("president", layout, moves, {"to_act": 1, "leader": 1}) == "president.lead-after-out"
    assert charged("president", layout, moves, {"to_act": 3, "leader": 3}) == "president.trick-reset-after-out"


def test_a_turn_after_a_lead_given_as_if_the_last_tricks_passes_held_is_charged_to_the_pass_not_to_the_order() -> None:
    # Seat 0 wins the first trick (seats 1, 2 and 3 passed, P-2.3) and leads again: the passes are cleared
    # (pass-holds), so seat 1 follows. An engine that still holds them (the trick ends at once, seat 0 leads
    # again) breaks pass-holds; one that gives the turn to another seat breaks the order (follow-or-pass).
    hands = [["5C", "6C", "7C"], ["8D", "9D"], ["TD", "JD"], ["QS", "KS"]]
    layout = {"first": 0, "hands": hands, "played": [c for c in DECK if all(c not in h for h in hands)]}
    moves = [(0, {"play": ["5C"]}), (1, {"pass": True}), (2, {"pass": True}), (3, {"pass": True}), (0, {"play": ["6C"]})]
    assert charged("president", layout, moves, {"to_act": 0}) == "president.pass-holds"
    assert charged("president", layout, moves, {"to_act": 3}) == "president.follow-or-pass"
    assert charged("president", layout, moves, {"to_act": 2}) == "president.follow-or-pass"


def empty_stock_winner(winner: int) -> str:
    """The clause an empty-stock round won by ``winner`` is charged to; seats 0 and 1 tie at 9, seat 2 has 10."""
    layout = {"first": 0, "to_act": 0, "stock": [],
              "hands": [["2C", "3D", "4S"], ["2S", "3S", "4D"], ["KS"]],
              "discard": ["QS", "AC", "3C", "4C", "AD", "2D", "5D", "AH", "AS", "5S", "JS"],
              "melds": [{"owner": 0, "cards": ["5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]},
                        {"owner": 1, "cards": ["6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD"]},
                        {"owner": 0, "cards": ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"]},
                        {"owner": 1, "cards": ["6S", "7S", "8S", "9S", "TS"]}]}
    result = {"round": 1, "winner": winner, "how": "empty-stock", "points": 19 - 9 * (winner < 2) + 9 * (winner == 2),
              "hand_values": [9, 9, 10]}
    return charged("rummy", layout, [(0, {"draw": "stock"})], {"round_results": [result]})


def test_an_empty_stock_won_by_a_higher_hand_is_charged_to_the_lowest_hand_rule_and_by_the_other_tied_seat_to_the_tie() -> None:
    # R-5.2: the lowest hand wins (seat 2's 10 is not); the tied seats 0 and 1 go by turn order from the asker, seat 0.
    assert empty_stock_winner(2) == "rummy.empty-stock-ends-hand"
    assert empty_stock_winner(1) == "rummy.empty-stock-tie-order"


def gin_scored(points: int, deadwood: list[int], phase: str) -> str:
    """The clause a gin scored ``points`` with ``deadwood``, the hand then in ``phase``, is charged to; the
    match is to 50, which the reference's 57 reaches."""
    hands = [["3C", "4C", "5C", "6C", "6D", "6H", "6S", "9S", "TS", "JS", "KH"],
             ["7C", "QS", "8H", "8D", "8C", "AH", "2H", "3H", "KD", "5D"]]
    layout = {"dealer": 1, "phase": "discard", "to_act": 0, "hands": hands, "discard": ["QD"],
              "stock": [c for c in DECK if c != "QD" and all(c not in h for h in hands)]}
    knock = {"knock": "KH", "melds": [["3C", "4C", "5C", "6C"], ["6D", "6H", "6S"], ["9S", "TS", "JS"]]}
    result = {"round": 1, "how": "gin", "knocker": 0, "winner": 0, "points": points, "deadwood": deadwood}
    over = {"winner": 0, "scores": [points, 0], "bonuses": [0, 0]} if phase == "game-over" else None
    return charged("gin-rummy", layout, [(0, knock)], {"round_results": [result], "scores": [points, 0],
                                                        "deadwood": deadwood, "phase": phase, "game_result": over},
                   {"target": 50})


def test_a_gin_is_charged_to_the_rule_its_score_or_the_matchs_end_breaks_not_to_the_gins_end_of_the_hand() -> None:
    # G-4.3: 25 plus the opponent's 32 (8C-8D-8H and AH-2H-3H melded; 7C QS KD 5D left): 57, past 50.
    # Each engine ends the hand at once (G-3.3), as the gin's end of the hand demands.
    assert gin_scored(25, [0, 32], "round-over") == "gin-rummy.gin-score"  # 25 is short of 50: the match goes on
    assert gin_scored(57, [0, 32], "round-over") == "gin-rummy.target-reached"  # 57 reached 50, the match goes on
    # 25 + 72: the gin score of the engine's own count, a count of the opponent's cards none melded (G-3.2's deadwood).
    assert gin_scored(97, [0, 72], "game-over") == "gin-rummy.layoff-any-card"


def knocks_charged(*discards: str, melds_turned: bool = False) -> str:
    """The clause a legal-actions difference is charged to where the engine knocks only with ``discards``
    (with every knock's melds in reverse order if ``melds_turned``)."""
    gin = facts("gin-rummy")
    # Discarding 4♥ or 4♠ leaves 9 on 5♦5♥5♠, 6♣6♥6♠; 3♣ leaves 10 on them; 6♣ leaves 10 only arranged
    # anew as 4-5-6♥, 4-5-6♠ (3♣ 5♦ A♦ A♠ left); any other discard leaves more than 10.
    mine = ["3C", "4H", "4S", "5D", "5H", "5S", "6C", "6H", "6S", "AD", "AS"]
    rest = [c for c in DECK if c not in mine]
    layout = {"dealer": 1, "hands": [mine, rest[:10]], "stock": rest[10:30], "discard": rest[30:], "phase": "discard",
              "to_act": 0}
    setup = Setup("gin-rummy", gin.spec.rule_version, dict(gin.spec.option_defaults), layout)
    ours = create().start(setup.as_dict()).legal_actions()
    theirs = [a for a in ours if a.get("knock") in (None, *discards)]
    check = {"includes": [a for a in ours if a not in theirs]}
    if melds_turned:
        theirs, check = [{**a, "melds": a["melds"][::-1]} if "knock" in a else a for a in ours], {"exactly": ours}
    failure = Divergence("legal", 0, "the legal actions differ", check={"legal": check}, actual={"legal": theirs})
    charge(gin, create(), setup, [], failure)
    return divergence_clause(gin, failure)


def test_knocks_left_out_at_the_limit_are_the_limits_and_one_left_out_that_needs_new_melds_is_the_arrangements() -> None:
    assert knocks_charged("4H", "4S") == "gin-rummy.knock"  # the two at 10 left out: below the limit only
    assert knocks_charged() == "gin-rummy.knock"  # no knock at all: the hand judged over the limit
    assert knocks_charged("3C", "4H", "4S") == "gin-rummy.knock-arrangement"  # 6♣: within only arranged anew (G-3.1)
    # 3♣ and 6♣ at 10 without 4♥ and 4♠ at 9: no limit gives that, the deadwood after each discard is wrong (G-3.1).
    assert knocks_charged("3C", "6C") == "gin-rummy.knock-arrangement"


def test_knocks_whose_melds_are_only_listed_in_another_order_keep_both_rules_and_the_charge_is_the_traces() -> None:
    # Neither the limit's test nor the arrangement's finds a rule broken: nothing is left out, the
    # listing's first clause is charged (the knocks are right, their melds out of the canonical order).
    assert knocks_charged(melds_turned=True) == "gin-rummy.knock"
