"""The bundled suite: lints clean, passes on the reference engine, covers every clause, reads well."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.reports.coverage import coverage
from harness.reports.explain import explain
from harness.run.runner import Runner
from harness.spec.gamespec import games
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from reference_engine import ReferenceEngine, players

LOADED = load_paths([fixtures_dir()])


def test_the_suite_lints_clean() -> None:
    assert [str(e) for e in LOADED.errors] == []
    assert LOADED.files == len(LOADED.scenarios)


@pytest.mark.parametrize("game", games())
def test_every_game_has_fixtures_in_its_own_folder(game: str) -> None:
    scenarios = [s for s in LOADED.scenarios if s.game == game]
    assert len(scenarios) >= 10
    for scenario in scenarios:
        path = Path(scenario.file)
        assert path.parent.name == game and path.stem == scenario.id


def test_every_fixture_passes_on_the_reference_engine() -> None:
    runner = Runner(ReferenceEngine())
    failures = [f"{r.scenario.id}: {r.report()}" for r in map(runner.run, LOADED.scenarios)
                if r.outcome != "pass" and not _awaits_a_player(r.scenario, r.message)]
    assert failures == []


def _awaits_a_player(scenario: Scenario, skipped: str) -> bool:
    """A decision fixture for a level the reference has no player of yet (it then passes or fails)."""
    return any(skipped == f"the engine has no {level} computer player for {scenario.game} (it declares "
                          f"{', '.join(players.levels(scenario.game))})"
               for level in ("normal", "hard") if level not in players.levels(scenario.game))


@pytest.mark.parametrize("game", games())
def test_every_clause_is_covered_accepting_and_refusing(game: str) -> None:
    # A decision fixture can pass on the reference only once it has a player of that level, so a
    # level it lacks is not demanded yet; adding the player makes its clauses required here.
    pending = {level for level in ("easy", "normal", "hard") if level not in players.levels(game)}
    gaps = [f"{entry.clause.id}: {entry.gap}" for entry in coverage(LOADED.scenarios, game)
            if entry.gap and entry.clause.level not in pending]
    assert gaps == []


@pytest.mark.parametrize("scenario", LOADED.scenarios, ids=lambda s: s.id)
def test_explain_tells_every_fixture(scenario: Scenario) -> None:
    text = explain(scenario)
    assert text.startswith(f"{scenario.id}: {scenario.title}")
    assert text.count("\n") > len(scenario.steps)
