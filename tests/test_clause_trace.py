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
    # A revolution still in force when a round of a series ends is rare: seed 0 reaches one at game 116.
    results = fuzz_herd({m: mutant_engine(m) for m in wanted}, FuzzOptions("president", 200, 0))
    assert {m: r.clause if r else None for m, r in results.items()} == wanted


def test_an_engine_refusing_by_a_check_the_reference_passed_is_charged_to_that_check() -> None:
    from harness.fuzzing.blame import charge, divergence_clause
    from harness.fuzzing.games import facts
    from harness.fuzzing.trace import Divergence, Move, Setup
    from reference_engine import create

    gin = facts("gin-rummy")
    mine = ["AC", "2C", "3C", "4C", "5D", "6D", "7D", "9H", "9S", "9D", "KS"]
    theirs = ["2D", "4D", "8D", "TD", "JD", "QD", "KD", "TH", "JH", "QH"]
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in mine + theirs]
    layout = {"dealer": 1, "hands": [mine, theirs], "stock": rest[:20], "discard": rest[20:], "phase": "discard",
              "to_act": 0}
    setup = Setup("gin-rummy", gin.spec.rule_version, dict(gin.spec.option_defaults), layout)
    # Gin shown without the Ace: deadwood 1, within the limit but not the least (0).
    worse = {"knock": "KS", "melds": [["2C", "3C", "4C"], ["5D", "6D", "7D"], ["9D", "9H", "9S"]]}
    reference = create()
    assert reference.start(setup.as_dict()).apply(0, worse) == "not-optimal-arrangement"

    def charged(engine_says: str | None) -> str:
        failure = Divergence("apply", 0, "differs", move=Move(0, worse, "not-optimal-arrangement"),
                             actual={"apply": engine_says})
        charge(gin, reference, setup, [], failure)
        return divergence_clause(gin, failure)

    assert charged(None) == "gin-rummy.knock-arrangement"  # accepted: the check the engine skipped
    assert charged("knock-too-high") == "gin-rummy.knock"  # refused by the limit, which the reference passed
