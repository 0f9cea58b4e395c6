"""The clause trace names the rules the reference applied, and fuzz charges a mutant to its own clause."""

from __future__ import annotations

from harness.fuzzing.campaign import FuzzOptions
from harness.mutants.catalogue import engine as mutant_engine
from harness.mutants.herd import fuzz_herd
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
    from harness.findings.clauses import divergence_clause
    from harness.findings.games import facts
    from harness.findings.model import Divergence, Move, Setup
    from harness.fuzzing.blame import charge
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


def knock_charged(mine: list[str], *knocks: dict[str, object]) -> str:
    """The clause a legal-actions difference over ``knocks`` (listed by the reference only) is charged to."""
    from harness.findings.clauses import divergence_clause
    from harness.findings.games import facts
    from harness.findings.model import Divergence, Setup
    from harness.fuzzing.blame import charge
    from reference_engine import create

    gin = facts("gin-rummy")
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in mine]
    layout = {"dealer": 1, "hands": [mine, rest[:10]], "stock": rest[10:30], "discard": rest[30:], "phase": "discard",
              "to_act": 0}
    setup = Setup("gin-rummy", gin.spec.rule_version, dict(gin.spec.option_defaults), layout)
    assert all(knock in create().start(setup.as_dict()).legal_actions() for knock in knocks)
    failure = Divergence("legal", 0, "the legal actions differ", check={"legal": {"includes": list(knocks)}})
    charge(gin, create(), setup, [], failure)
    return divergence_clause(gin, failure)


def test_a_knock_at_the_limit_on_melds_the_discard_leaves_whole_is_charged_to_the_limit() -> None:
    # Every best split of the eleven cards melds A-2-3-4♦ (with 5-6-7♣, 8♥ 8♠ 8♦; T♥ left). Discarding
    # A♦ leaves 2-3-4♦ a run still: T♥, deadwood 10, the limit (G-2.3); nothing is arranged anew.
    mine = ["AD", "2D", "3D", "4D", "5C", "6C", "7C", "8H", "8S", "8D", "TH"]
    knock = {"knock": "AD", "melds": [["2D", "3D", "4D"], ["5C", "6C", "7C"], ["8D", "8H", "8S"]]}
    assert knock_charged(mine, knock) == "gin-rummy.knock"


def test_a_knock_within_the_limit_only_once_the_ten_cards_are_arranged_anew_is_charged_to_the_arrangement() -> None:
    # The eleven cards' one best split is 9♣9♦9♥9♠, J♣J♦J♥, Q♦Q♥Q♠ (T♣ left: 10). Discarding J♥ with
    # those melds kept leaves T♣ J♣ J♦: 30, over the limit; arranged anew, 9-T-J♣, 9♦9♥9♠, Q♦Q♥Q♠
    # leave J♦: 10, within it (G-3.1 decides).
    mine = ["9C", "9D", "9H", "9S", "JC", "JD", "JH", "QD", "QH", "QS", "TC"]
    knock = {"knock": "JH", "melds": [["9C", "TC", "JC"], ["9D", "9H", "9S"], ["QD", "QH", "QS"]]}
    assert knock_charged(mine, knock) == "gin-rummy.knock-arrangement"


def test_a_difference_over_several_knocks_is_charged_to_the_clause_that_decided_the_most_of_them() -> None:
    # The eleven cards meld 5♦5♥5♠ and 6♣6♥6♠ (3♣ 4♥ 4♠ A♦ A♠ left: 13). Discarding 3♣ leaves 10 and
    # 4♥ leaves 9 on those melds: the limit decides. Discarding 6♣ leaves 25 on them, 10 only
    # arranged anew as 4-5-6♥, 4-5-6♠ (3♣ 5♦ A♦ A♠ left): G-3.1 decides that one.
    mine = ["3C", "4H", "4S", "5D", "5H", "5S", "6C", "6H", "6S", "AD", "AS"]
    anew = {"knock": "6C", "melds": [["4H", "5H", "6H"], ["4S", "5S", "6S"]]}
    assert knock_charged(mine, anew) == "gin-rummy.knock-arrangement"
    on_the_melds = [{"knock": c, "melds": [["5D", "5H", "5S"], ["6C", "6H", "6S"]]} for c in ("3C", "4H")]
    assert knock_charged(mine, anew, *on_the_melds) == "gin-rummy.knock"
