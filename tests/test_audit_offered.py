"""`audit` of records holding what the server offered (a legal list a move): an extra, a missing and a misordered
action each flagged under its clause; a card used that the rules dealt elsewhere charged to the deal."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from harness.audit.judge import audit_record
from harness.audit.sample import seeded_game
from harness.cli import main
from harness.records.record import RecordError, check_record
from reference_engine import create

ENGINE = create()
LEVELS = {"gin-rummy": ["easy", "easy"], "rummy": ["easy", "easy"], "president": ["easy"] * 4}


@pytest.fixture(scope="module")
def offered() -> dict[str, dict[str, Any]]:
    """A seeded reference game of each game, each move with the list the server offered."""
    return {game: seeded_game(ENGINE, game, 1, levels, retry_every=0, offered=True) for game, levels in LEVELS.items()}


def _move(data: dict[str, Any], kind: str) -> dict[str, Any]:
    """The first move after the opening offered at least three actions, one of them of ``kind`` (``lead``: a
    President lead, a list with no pass in it)."""
    moves = data["rounds"][0]["moves"]
    if kind == "lead":
        return next(m for m in moves[4:] if len(m["legal"]) >= 3 and {"pass": True} not in m["legal"])
    return next(m for m in moves[4:] if len(m["legal"]) >= 3 and any(kind in a for a in m["legal"]))


def _judged(data: dict[str, Any]) -> Any:
    """The disagreement the audit finds in ``data``."""
    found = audit_record(check_record(data), ENGINE).disagreement
    assert found is not None
    return found


@pytest.mark.parametrize("game", sorted(LEVELS))
def test_offered_lists_of_the_rules_are_clean(offered: dict[str, dict[str, Any]], game: str) -> None:
    data = offered[game]
    assert "legal" in data["recorded"] and all("legal" in m for m in data["rounds"][0]["moves"])
    assert audit_record(check_record(data), ENGINE).clean


@pytest.mark.parametrize(("game", "kind", "extra", "clause"), [
    ("gin-rummy", "discard", {"draw": "stock"}, "gin-rummy.draw"),  # drawn already this turn
    ("rummy", "discard", {"draw": "stock"}, "rummy.draw-first"),
    ("president", "lead", {"pass": True}, "president.leader-must-play"),
])
def test_an_extra_action_is_flagged_under_the_rule_that_refuses_it(offered: dict[str, dict[str, Any]], game: str,
                                                                   kind: str, extra: dict[str, Any],
                                                                   clause: str) -> None:
    data = copy.deepcopy(offered[game])
    _move(data, kind)["legal"].append(extra)
    found = _judged(data)
    assert found.kind == "legal" and found.offered.extra == (extra,) and not found.offered.missing
    assert "which the rules do not allow" in found.server and found.clause == clause


@pytest.mark.parametrize(("game", "kind", "clause"), [
    ("gin-rummy", "discard", "gin-rummy.discard"), ("rummy", "discard", "rummy.discard-ends-turn"),
    ("president", "play", "president.follow-or-pass"),
])
def test_a_missing_action_is_flagged_under_the_rule_that_allows_it(offered: dict[str, dict[str, Any]], game: str,
                                                                   kind: str, clause: str) -> None:
    data = copy.deepcopy(offered[game])
    move = _move(data, kind)
    gone = next(a for a in move["legal"] if a != move["action"] and kind in a)
    move["legal"].remove(gone)
    found = _judged(data)
    assert found.kind == "legal" and found.offered.missing == (gone,) and not found.offered.extra
    assert f"left out" in found.server and found.clause == clause


@pytest.mark.parametrize("game", sorted(LEVELS))
def test_a_misordered_list_is_flagged_at_its_first_early_action(offered: dict[str, dict[str, Any]], game: str) -> None:
    data = copy.deepcopy(offered[game])
    move = _move(data, "play" if game == "president" else "discard")
    move["legal"][0], move["legal"][1] = move["legal"][1], move["legal"][0]
    found = _judged(data)
    assert found.kind == "legal" and not found.offered.extra and not found.offered.missing
    assert found.offered.misplaced == move["legal"][0] and "canonical order" in found.rules
    assert found.clause in ENGINE_CLAUSES[game]


ENGINE_CLAUSES = {"gin-rummy": {"gin-rummy.discard"}, "rummy": {"rummy.discard-ends-turn"},
                  "president": {"president.follow-or-pass", "president.lead-one-to-four"}}


def test_a_list_spelled_with_cards_unsorted_is_the_same_list(offered: dict[str, dict[str, Any]]) -> None:
    data = copy.deepcopy(offered["president"])
    move = next(m for m in data["rounds"][0]["moves"] if any(len(a.get("play", [])) > 1 for a in m["legal"]))
    for action in move["legal"]:
        action.get("play", []).reverse()
    assert audit_record(check_record(data), ENGINE).clean


def test_a_legal_list_needs_legal_recorded(offered: dict[str, dict[str, Any]]) -> None:
    data = copy.deepcopy(offered["gin-rummy"])
    data["recorded"].remove("legal")
    with pytest.raises(RecordError, match=r"\$\.rounds\[0\]\.moves\[0\]\.legal: a legal list in a record whose"):
        check_record(data)


def test_a_card_of_a_later_deal_is_charged_to_the_deal() -> None:
    # A server whose round-2 deal differs: its seat discards a card the rules dealt elsewhere.
    data = seeded_game(ENGINE, "gin-rummy", 1, LEVELS["gin-rummy"], retry_every=0)
    assert len(data["rounds"]) > 1
    game = ENGINE.start(check_record(data).setup)
    for move in data["rounds"][0]["moves"]:
        game.apply(move["seat"], move["action"])
    state = game.state()
    at, move = next((i, m) for i, m in enumerate(data["rounds"][1]["moves"]) if "discard" in m["action"])
    for earlier in data["rounds"][1]["moves"][:at]:
        game.apply(earlier["seat"], earlier["action"])
    hand = game.state()["hands"][move["seat"]]
    elsewhere = next(c for c in state["stock"] if c not in hand)  # in the stock by the rules' deal of round 2
    move["action"] = {"discard": elsewhere}
    found = _judged(data)
    assert found.kind == "decision" and found.round == 2 and found.reference_reason == "card-not-in-hand"
    assert found.clause == "gin-rummy.deal-order"


def test_play_json_writes_legal_lists_and_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.jsonl"
    assert main(["play", "--game", "gin-rummy", "--seed", "2", "--option", "target=20", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["options"]["target"] == 20 and "legal" in data["recorded"]
    assert all("legal" in m for r in data["rounds"] for m in r["moves"])
    assert main(["audit", str(out)]) == 0
    capsys.readouterr()
    assert main(["play", "--game", "gin-rummy", "--option", "target=x"]) == 2
    assert "--option target=x: target takes integer values" in capsys.readouterr().err


@pytest.mark.parametrize("plant", ["extra", "missing", "order"])
def test_a_differing_list_is_written_as_a_fixture_that_passes_on_the_reference(
        offered: dict[str, dict[str, Any]], tmp_path: Path, plant: str, capsys: pytest.CaptureFixture[str]) -> None:
    data = copy.deepcopy(offered["gin-rummy"])
    move = _move(data, "discard")
    if plant == "extra":
        move["legal"].append({"draw": "stock"})
    elif plant == "missing":
        move["legal"].remove(next(a for a in move["legal"] if a != move["action"]))
    else:
        move["legal"][0], move["legal"][1] = move["legal"][1], move["legal"][0]
    records = tmp_path / "records.jsonl"
    records.write_text(json.dumps(data) + "\n", encoding="utf-8")
    assert main(["audit", str(records), "--out", str(tmp_path / "found")]) == 1
    out = capsys.readouterr().out
    (written,) = (tmp_path / "found").glob("gin-rummy.audit.legal-*.yaml")
    assert f"wrote {written} (lints, passes on the reference)" in out
    assert main(["run", str(written)]) == 0


def test_the_ladder_records_its_options_and_lists(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ladder.jsonl"
    main(["ladder", "easy", "normal", "--game", "president", "--cap", "1", "--option", "revolution=false",
          "--records", str(out)])
    capsys.readouterr()
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert lines and all(r["options"]["revolution"] is False and "legal" in r["recorded"] for r in lines)
    assert main(["audit", str(out)]) == 0
