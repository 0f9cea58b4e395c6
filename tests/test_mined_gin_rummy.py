"""The Gin Rummy fixtures mined from generated mutants: each kills its mutants and passes on the reference."""

from __future__ import annotations

import pytest

pytest.importorskip("mutmut", reason="generated mutants need the [mutate] extra")

from harness.mutants.generated import mutated_source, places  # noqa: E402
from harness.mutants.mining import KILLED, kill  # noqa: E402
from harness.mutants.variants import source_of  # noqa: E402
from harness.run.runner import Runner  # noqa: E402
from harness.spec.paths import fixtures_dir  # noqa: E402
from harness.suite.fixtures import load_paths  # noqa: E402
from reference_engine import create  # noqa: E402

# Each mined fixture (its expectations read against gin-rummy-1.0.0.md and the spec's clauses, the
# reasoning in its notes) with the mutants it kills, each named by its function and a piece of code
# the mutant has more often than the reference: the names follow the code as it moves.
KILLS = {
    "gin-rummy.mined.upcard-refused-layout-forces-stock-draw": [
        ("load_layout", "game.upcard_refused = bool(None)"),
        ("load_layout", "bool(layout.get(None))"),
        ("load_layout", '"XXupcard_refusedXX"'),
        ("load_layout", '"UPCARD_REFUSED"'),
        ("check_position", '(phase == "draw" or game.to_act != 1 - game.dealer)'),
        ("check_position", 'phase != "XXdrawXX"'),
        ("check_position", 'phase != "DRAW"'),
        ("check_position", "game.to_act == 1 - game.dealer"),
        ("check_position", "game.to_act != 1 + game.dealer"),
        ("check_position", "game.to_act != 2 - game.dealer"),
    ],
    "gin-rummy.mined.both-pass-when-seat-1-deals": [("Game._pass", '"draw", 1 + seat, True')],
    "gin-rummy.mined.dealer-takes-upcard-and-knocks-with-a-club": [
        ("least_after_discard", "left >> 14 & SUIT_BITS"),
        ("least_after_discard", "left >> 27 & SUIT_BITS"),
        ("least_after_discard", "min(gain[b], gain[c], gain[d])"),
    ],
    "gin-rummy.mined.every-split-of-a-long-run-is-a-knock": [("least_after_discard", "left << 13 & SUIT_BITS")],
    "gin-rummy.mined.no-run-from-king-to-the-next-suits-ace": [("_all_melds", "range(low + 2, 15)")],
    "gin-rummy.mined.knock-limit-eleven-lists-each-knock-once": [("_all_melds", "for rank in range(1, 15)")],
    "gin-rummy.mined.knock-with-the-taken-card-refused": [("Game._knock", "reason = None")],
    "gin-rummy.mined.lay-off-extends-a-run-of-spades": [("extensions", "while card % 14 < 12")],
    "gin-rummy.mined.lay-off-many-cards-onto-a-run-at-once": [
        ("extensions", "card -= 1\n        run = 1 << card"),
        ("score_knock", "opponent = 1 + knocker"),
    ],
    # Written by hand where the mined fixture did not fail on its mutant (the kit's canonical order put the two
    # melds naming the card side by side) or fuzz mines none (a seeded deal).
    "gin-rummy.action.knock-names-a-card-in-two-melds": [("parse_action", "seen = mask")],
    "gin-rummy.deal.seeded-match-starts-at-zero": [
        ("Game.__init__", "self.scores = [1, 0]"),
        ("Game.__init__", "self.scores = [0, 1]"),
        ("Game.__init__", "self.hands_won = [1, 0]"),
        ("Game.__init__", "self.hands_won = [0, 1]"),
    ],
    "gin-rummy.mined.seat-1-gin-with-two-stock-cards-left": [
        ("score_knock", "opponent = 1 + knocker"),
        ("check_position", "if len(game.stock) <= game.drawn_at:"),
    ],
}


def mutant_writing(function: str, code: str) -> str:
    """The one Gin Rummy mutant of ``function`` whose module holds ``code`` more often than the reference's."""
    found = [p.id for p in places("gin-rummy") if p.function == function
             and mutated_source(p).count(code) > source_of(p.module)[0].count(code)]
    assert len(found) == 1, f"{function}: {code!r} names {found or 'no mutant'}"
    return found[0]


@pytest.fixture(scope="module")
def mined() -> dict:  # type: ignore[type-arg]
    scenarios = load_paths([fixtures_dir() / "gin-rummy"]).scenarios
    return {s.id: s for s in scenarios if s.id in KILLS}


@pytest.mark.parametrize("fixture_id", sorted(KILLS))
def test_passes_on_the_reference(fixture_id: str, mined: dict) -> None:  # type: ignore[type-arg]
    result = Runner(create()).run(mined[fixture_id])
    assert result.outcome == "pass", result.message


@pytest.mark.parametrize(("fixture_id", "function", "code"),
                         [(f, function, code) for f, kills in sorted(KILLS.items()) for function, code in kills])
def test_alone_kills_its_mutant(fixture_id: str, function: str, code: str,
                                mined: dict) -> None:  # type: ignore[type-arg]
    assert kill(mutant_writing(function, code), [mined[fixture_id]]) == (KILLED, fixture_id)

