"""The boundary fixtures of the position clauses (issue 45) tell a player on one side of a threshold, or one
that misreads a history, from the reference: each passes on the reference and fails on the player off by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.adapters.player_view import History, build_view
from harness.findings.games import facts
from harness.findings.rules import broken
from reference_engine import ReferenceEngine
from reference_engine.cards import parse_card
from reference_engine.gin_rummy import hard
from reference_engine.rummy import hard as rummy_hard
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _outcome(path: str) -> str:
    return Runner(ReferenceEngine()).run(load_paths([FIXTURES / path]).scenarios[0]).outcome


@pytest.mark.parametrize(("margin", "nine"), [(7, "pass"), (8, "pass"), (9, "fail")])
def test_hard_gin_rummy_bound_of_8_is_pinned_from_above(margin: int, nine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Hard would keep back the king the opponent surely melds at any price: only the bound of 8 stops it. A
    # smaller margin keeps the clause (it is a ceiling), so only a larger one fails.
    monkeypatch.setattr(hard, "KEEP_MARGIN", margin)
    assert _outcome("gin-rummy/gin-rummy.hard.never-throws-nine-above-the-least.yaml") == nine


def test_hard_gin_rummy_reads_a_discard_left_on_the_pile(monkeypatch: pytest.MonkeyPatch) -> None:
    fixture = "gin-rummy/gin-rummy.hard.reads-a-discard-left-on-the-pile.yaml"
    assert _outcome(fixture) == "pass"

    def only_discards(view: dict[str, Any]) -> tuple[set[int], set[int]]:
        """The opponent's takes and discards, but never a card of hard's it left by drawing from the stock."""
        taken, let_go = set(), set()
        for entry in view["history"]:
            action = entry["action"]
            if entry["seat"] != view["seat"]:
                if action.get("draw") == "discard" and "card" in action:
                    taken.add(parse_card(action["card"]))
                let_go |= {parse_card(action[key]) for key in ("discard", "knock") if key in action}
        return taken, let_go

    monkeypatch.setattr(hard, "inferred", only_discards)
    assert _outcome(fixture) == "fail"


@pytest.mark.parametrize(("close", "three", "four"), [(2, "fail", "pass"), (3, "pass", "pass"), (4, "pass", "fail")])
def test_hard_rummy_another_seat_close_to_out_is_pinned_at_3_and_4_seats(close: int, three: str, four: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # The seat that holds three or four cards is never the next one here (the seat after next, the seat before).
    monkeypatch.setattr(rummy_hard, "CLOSE_TO_OUT", close)
    for seats in (3, 4):
        short = "after-next" if seats == 3 else "before-it"
        assert _outcome(f"rummy/rummy.players.hard-cuts-points-when-the-seat-{short}-holds-three-of-{seats}.yaml") == three
        assert _outcome(f"rummy/rummy.players.hard-keeps-its-pair-while-every-seat-holds-four-of-{seats}.yaml") == four


def test_with_no_history_hard_gin_rummy_weighs_its_discards_not_its_knocks() -> None:
    # A position rebuilt from seed 2's hand 2 (benchmarks/bench_rebuilt_positions.py): no history, and two knocks legal.
    spec = facts("gin-rummy").spec
    layout = {"dealer": 1, "hands": [["AC", "AH", "3D", "3S", "6C", "6H", "6S", "7H", "7S", "8H"],
                                     ["AD", "2C", "2D", "4C", "4D", "4S", "5C", "5H", "8C", "8D", "8S"]],
              "stock": ["JS", "2S", "9D", "5S", "4H", "TS", "TH", "TD", "3H", "QD", "9S", "QC", "AS", "JH", "7C", "KD",
                        "3C", "5D", "TC", "6D", "9H", "2H"],
              "discard": ["JC", "QS", "9C", "KS", "7D", "KC", "JD", "KH", "QH"], "phase": "discard", "to_act": 1,
              "scores": [0, 35], "hands_won": [0, 1], "round": 2, "taken": None, "upcard_refused": False,
              "knocker": None, "melds": None}
    options = dict(spec.option_defaults)
    game = ReferenceEngine().start({"game": "gin-rummy", "rule_version": spec.rule_version, "options": options,
                                    "layout": layout, "later_layouts": []})
    view = build_view(spec, options, 1, "hard", 1, game.observation(1), History("gin-rummy"), game.legal_actions())
    melds = [["4C", "4D", "4S"], ["8C", "8D", "8S"]]
    # Knocking with 5C or 5H leaves 10 either way: a knock has no next draw to weigh.
    assert broken(spec, view, {"knock": "5C", "melds": melds}) is None
    assert broken(spec, view, {"knock": "5H", "melds": melds}) is None
    # Discarding without a knock, 5H leaves the least average after the next draw; 5C does not.
    assert broken(spec, view, {"discard": "5H"}) is None
    found = broken(spec, view, {"discard": "5C"})
    assert found is not None and found[0] == "gin-rummy.hard-estimates"
    assert ReferenceEngine().choose(view) == {"knock": "5C", "melds": melds}
