"""Late positions easy to write: the rest of the cards out of play, `first` left to its default, a pile's top
checked alone, President's `played` by membership, a lay-off's meld named by its cards in a `legal` check."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from reference_engine import ReferenceEngine

HEAD = """id: {game}.late.{name}
title: A late position written the short way
game: {game}
rule_versions: "{versions}"
clauses: [{clause}]
basis: text
"""
GIN = {"game": "gin-rummy", "versions": ">=1.0.0 <2.0.0"}
KNOCKED = """layout:
  dealer: 1
  phase: discard
  to_act: 0
  hands:
    - [3C, 4C, 5C, 7D, 7H, 7S, 9S, TS, JS, 2D, KH]
    - [8S, QS, KS, 2H, 5H, 9H, AD, 4D, 6D, 8D]
  discard: [QD]
steps:
  - seat: 0
    action: {{knock: KH, melds: [[3C, 4C, 5C], [7D, 7H, 7S], [9S, TS, JS]]}}
    legal:
      {check}
"""


def run(tmp_path: Path, name: str, text: str, **fields: str) -> tuple[str, str, list[str]]:
    """The outcome, message and details of one fixture on the reference; its lint errors as the message."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(HEAD.format(name=name, **fields) + text, encoding="utf-8")
    loaded = load_paths([path])
    if loaded.errors:
        return "lint", "\n".join(str(e) for e in loaded.errors), []
    result = Runner(ReferenceEngine()).run(loaded.scenarios[0])
    return result.outcome, result.message, list(result.details)


def test_the_rest_of_a_near_empty_stock_goes_out_of_play(tmp_path: Path) -> None:
    # three stock cards given, the other 27 left out go under the discard pile: the hand is drawn at two
    text = """layout:
  dealer: 1
  phase: draw
  to_act: 0
  hands:
    - [3C, 4C, 5C, 7D, 7H, 7S, 9S, TS, JS, KH]
    - [8C, 8D, 8H, TH, JH, QH, AS, 2S, 3S, 4H]
  stock: [2D, 6H, 9D]
  discard: [QC]
  rest: discard
steps:
  - state: {stock: [2D, 6H, 9D], discard: {0: QC}}
  - seat: 0
    action: {draw: stock}
  - seat: 0
    action: {discard: KH}
    state: {discard: {0: KH, 1: QC}, stock_size: 2, phase: round-over}
"""
    assert run(tmp_path, "rest", text, clause="gin-rummy.hand-end", **GIN) == ("pass", "", [])


def test_rest_names_one_of_the_games_piles(tmp_path: Path) -> None:
    text = "layout:\n  hands: [[AC], [2C], [3C]]\n  rest: stock\nsteps:\n  - state: {to_act: 0}\n"
    outcome, message, _ = run(tmp_path, "bad-rest", text, game="president", versions=">=1.1.0 <2.0.0",
                              clause="president.first-seat-starts")
    assert outcome == "lint"
    assert message.endswith("$.layout.rest: rest names the pile the cards a layout leaves out go to: one of played "
                            "(default played)")


def test_first_may_be_left_to_the_game_files_default(tmp_path: Path) -> None:
    text = "layout:\n  hands: [[5C, 9C], [6C, 7C], [4C, 8C]]\nsteps:\n  - state: {to_act: 0}\n"
    assert run(tmp_path, "no-first", text, game="president", versions=">=1.1.0 <2.0.0",
               clause="president.first-seat-starts") == ("pass", "", [])


def test_played_is_checked_by_membership_and_a_pile_by_its_top(tmp_path: Path) -> None:
    text = """layout:
  hands: [[5C, 9C], [6C, 7C], [4C, 8C]]
steps:
  - seat: 0
    action: {play: [5C]}
  - seat: 1
    action: {pass: true}
  - seat: 2
    action: {pass: true}
    state: {played: {includes: [5C, 3D]}, trick: []}
"""
    assert run(tmp_path, "played", text, game="president", versions=">=1.1.0 <2.0.0",
               clause="president.trick-won") == ("pass", "", [])


@pytest.mark.parametrize(("check", "outcome"), [
    ("{includes: [{layoff: [8S], onto: [9S, TS, JS]}], excludes: [{layoff: [KS], onto: [9S, TS, JS]}]}", "pass"),
    ("{excludes: [{layoff: [8S], onto: [9S, TS, JS]}]}", "fail"),
])
def test_a_layoff_in_a_legal_check_may_name_its_meld_by_its_cards(tmp_path: Path, check: str, outcome: str) -> None:
    found = run(tmp_path, "onto", KNOCKED.format(check=check), clause="gin-rummy.layoff", **GIN)
    assert found[0] == outcome
    if outcome == "fail":
        assert found[2] == ["not legal, but listed: {layoff: [8♠], onto: 2}"]


def test_a_layoff_onto_no_meld_in_a_legal_check_says_so(tmp_path: Path) -> None:
    found = run(tmp_path, "no-meld", KNOCKED.format(check="{includes: [{layoff: [8S], onto: [9S, TS]}]}"),
                clause="gin-rummy.layoff", **GIN)
    assert found[:2] == ("fail", "step 1 (line 16): there is no meld [9♠, 10♠] to lay off onto; the melds are "
                                 "[[3♣, 4♣, 5♣], [7♦, 7♥, 7♠], [9♠, 10♠, J♠]]")
