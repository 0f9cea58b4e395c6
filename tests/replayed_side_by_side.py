"""The first move where a mutant's record and the reference part, replayed side by side: what audit must point at."""

from __future__ import annotations

from typing import Any

from harness.records.record import check_record
from reference_engine import create

REFERENCE = create()


def first_wrong_move(data: dict[str, Any], mutant: Any) -> int | None:
    """The number of the first move where the mutant says something the reference does not, side by side (the
    last move both accepted when the mutant then has nobody able to act where the reference goes on)."""
    setup = check_record(data).setup
    theirs, ours = mutant.start(setup), REFERENCE.start(setup)
    number = 0
    for r, round_ in enumerate(data["rounds"]):
        for i, move in enumerate(round_["moves"]):
            number += 1
            if "legal" in move and theirs.legal_actions() != ours.legal_actions():  # what the server offered first
                return number
            if theirs.apply(move["seat"], move["action"]) != ours.apply(move["seat"], move["action"]):
                return number
            a, b = theirs.state(), ours.state()
            closing = i == len(round_["moves"]) - 1 and "result" in round_
            if a["round_results"] != b["round_results"] or (closing and a["scores"] != b["scores"]):
                return number
            last = r == len(data["rounds"]) - 1 and i == len(round_["moves"]) - 1
            if last and a["game_result"] != b["game_result"]:
                return number
    if data.get("unfinished") == "no-move" and not theirs.legal_actions() and ours.legal_actions():
        # the mutant's game went nowhere after the last move, the rules' goes on: the move that passed the turn on
        return max(n for n, move in enumerate((m for r in data["rounds"] for m in r["moves"]), 1) if "refused" not in move)
    return None
