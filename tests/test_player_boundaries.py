"""The boundary fixtures of the position clauses (issue 45) tell a player on one side of a threshold, or one
that misreads a history, from the reference: each passes on the reference and fails on the player off by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reference_engine import ReferenceEngine
from reference_engine.cards import parse_card
from reference_engine.gin_rummy import hard
from reference_engine.rummy import hard as rummy_hard
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _outcome(path: str) -> str:
    return Runner(ReferenceEngine()).run(load_paths([FIXTURES / path]).scenarios[0]).outcome


@pytest.mark.parametrize(("margin", "nine", "eight"), [(7, "pass", "fail"), (8, "pass", "pass"), (9, "fail", "pass")])
def test_hard_gin_rummy_bound_is_pinned_on_both_sides(margin: int, nine: str, eight: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # Hard would keep back the king the opponent surely melds at any price: only the bound of 8 stops it.
    monkeypatch.setattr(hard, "KEEP_MARGIN", margin)
    assert _outcome("gin-rummy/gin-rummy.hard.never-throws-nine-above-the-least.yaml") == nine
    assert _outcome("gin-rummy/gin-rummy.hard.keeps-a-king-the-opponent-melds-at-eight-above.yaml") == eight


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
