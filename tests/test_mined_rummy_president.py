"""The Rummy and President fixtures mined from generated mutants (or written by hand for them): each kills its mutants."""

from __future__ import annotations

import pytest

pytest.importorskip("mutmut", reason="generated mutants need the [mutate] extra")

from harness.mutants.catalogue import label  # noqa: E402
from harness.mutants.generated import by_id, engine, mutated_source  # noqa: E402
from harness.mutants.variants import raised_in_variant, source_of  # noqa: E402
from harness.run.runner import Runner  # noqa: E402
from harness.spec.paths import fixtures_dir  # noqa: E402
from harness.suite.fixtures import load_paths  # noqa: E402
from reference_engine import create  # noqa: E402

# Each mutant with the line its change makes: an id names a place by its count in the function, so
# a test that checks the line fails clearly if the code moves under it instead of testing another place.
MUTANTS = {
    "rummy:melds:layoffs_onto:swap_op:6": "missing and meld.bit_count() == 3 or hand & missing",
    "rummy:melds:layoffs_onto:swap_op:7": "missing or meld.bit_count() == 3 and hand & missing",
    "rummy:melds:layoffs_onto:swap_op:9": "meld.bit_count() == 3 and hand | missing",
    "rummy:melds:layoffs_onto:swap_op:20": "range(bottom - 1, +1, -1)",
    "rummy:melds:layoffs_onto:number:11": "range(bottom - 1, -1, -2)",
    "rummy:game:start:number:3": "[1] * players, rules), [], rng, rules)",
    "president:game:Game.legal_actions:number:5": "range(13 - self.trick_strength)",
    "president:rounds:end_round:number:5": "game.passed, game.last_player, game.to_act = 1, -1, None",
    "president:game:Game.__init__:number:4": "self.reset_round([0] * players, 1)",
    "president:game:Game.load_layout:number:5": "(self.out | self.passed) >> to_act & 2",
}

# Each fixture (its expectation read against the rule text: see its description and notes) and the
# mutants it kills, none of which any other fixture killed when it was added.
KILLS = {
    "rummy.mined.no-layoff-of-a-card-not-held": ["rummy:melds:layoffs_onto:swap_op:6",
                                                 "rummy:melds:layoffs_onto:swap_op:7",
                                                 "rummy:melds:layoffs_onto:swap_op:9"],
    "rummy.mined.two-cards-below-a-run": ["rummy:melds:layoffs_onto:swap_op:20", "rummy:melds:layoffs_onto:number:11"],
    "rummy.mined.run-laid-off-down-to-the-two": ["rummy:melds:layoffs_onto:number:11",
                                                 "rummy:melds:layoffs_onto:swap_op:20"],
    "rummy.deal.seeded-game-starts-at-zero": ["rummy:game:start:number:3"],
    "president.mined.equal-rank-refused-in-a-revolution": ["president:game:Game.legal_actions:number:5"],
    "president.mined.no-pass-left-after-the-round": ["president:rounds:end_round:number:5"],
    "president.deal.seeded-nothing-played-at-start": ["president:game:Game.__init__:number:4"],
    "president.trick.layout-to-act-before-an-out-seat": ["president:game:Game.load_layout:number:5"],
}


@pytest.fixture(scope="module")
def scenarios() -> dict:  # type: ignore[type-arg]
    return {s.id: s for s in load_paths([fixtures_dir()]).scenarios if s.id in KILLS}


@pytest.mark.parametrize("mutant_id", sorted(MUTANTS))
def test_each_mutant_still_makes_its_change(mutant_id: str) -> None:
    place = by_id(mutant_id)
    line = mutated_source(place).splitlines()[place.line - 1]
    assert MUTANTS[mutant_id] in line
    assert MUTANTS[mutant_id] not in source_of(place.module)[0].splitlines()[place.line - 1]


@pytest.mark.parametrize("fixture_id", sorted(KILLS))
def test_each_fixture_passes_on_the_reference(fixture_id: str, scenarios: dict) -> None:  # type: ignore[type-arg]
    result = Runner(create()).run(scenarios[fixture_id])
    assert result.outcome == "pass", result.message


@pytest.mark.parametrize(("fixture_id", "mutant_id"), [(f, m) for f, ms in sorted(KILLS.items()) for m in ms])
def test_each_fixture_kills_its_mutants(fixture_id: str, mutant_id: str, scenarios: dict) -> None:  # type: ignore[type-arg]
    result = Runner(engine(mutant_id)).run(scenarios[fixture_id])
    own = label(by_id(mutant_id).as_mutant())
    # the catalogue's rule for a kill: a failure, an error on an answer, or a crash in the mutant's own code
    assert (result.outcome == "fail" or result.kind == "answer"
            or (result.kind == "crash" and raised_in_variant(result.raised_in, own))), (result.outcome, result.message)
