"""Every layout the harness sends has exactly the keys its kind lists in conventions.layout_keys."""

from __future__ import annotations

import fake_engines as fakes
import pytest

from harness.fuzzing.campaign import FuzzOptions, fuzz
from harness.run.runner import Runner
from harness.serve.smoke import setup_for
from harness.spec import gamespec as specs
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths
from reference_engine import create


def test_every_fixture_layout_has_exactly_the_keys_of_its_kind() -> None:
    results = list(Runner(fakes.ChecksLayoutKeys()).run_all(load_paths([fixtures_dir()]).scenarios))
    assert [(r.scenario.id, r.message) for r in results if r.outcome != "pass"] == []


@pytest.mark.parametrize("spec", specs.game_specs(), ids=lambda s: s.game)
def test_the_smoke_layout_has_exactly_the_position_keys(spec: specs.GameSpec) -> None:
    fakes.ChecksLayoutKeys().start(setup_for(spec))


@pytest.mark.parametrize("game", specs.games())
def test_fuzz_layouts_have_exactly_the_keys_of_their_kind(game: str) -> None:
    result = fuzz(fakes.ChecksLayoutKeys(), FuzzOptions(game, examples=6), reference=create())
    assert result.finding is None
