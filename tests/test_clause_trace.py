"""The clause trace names the rules the reference applied, and fuzz charges a mutant to its own clause."""

from __future__ import annotations

from harness.fuzzing.campaign import FuzzOptions
from harness.fuzzing.herd import fuzz_herd
from harness.fuzzing.mutants import engine as mutant_engine
from reference_engine.clauses.trace import note, recording, recording_now


def test_a_note_outside_a_recording_is_dropped_and_inside_is_kept_in_order() -> None:
    note("rummy.going-out", "phase")
    assert not recording_now()
    with recording() as notes:
        assert recording_now()
        note("gin-rummy.gin-score", "scores")
        note("gin-rummy.undercut")
    assert notes == [("gin-rummy.gin-score", ("scores",)), ("gin-rummy.undercut", ())]
    assert not recording_now()


def test_fuzz_charges_president_mutants_to_their_own_clause() -> None:
    wanted = {"president.points-off-by-one": "president.points",
              "president.order-carries-over": "president.order-resets",
              "president.count-mismatch-ignored": "president.same-count",
              "president.vice-gives-two": "president.exchange"}
    results = fuzz_herd({m: mutant_engine(m) for m in wanted}, FuzzOptions("president", 30, 0))
    assert {m: r.clause if r else None for m, r in results.items()} == wanted
