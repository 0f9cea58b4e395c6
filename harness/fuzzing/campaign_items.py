"""The campaign's test items (collected with ``-p harness.fuzzing.pytest_campaign``, see there)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def test_fuzz(fuzz_case: tuple[str, int], fuzz_engine: Any, request: pytest.FixtureRequest) -> None:
    """Fuzz one game with one seed; a divergence or a broken invariant fails the item."""
    from harness.findings.model import Divergence
    from harness.findings.writer import write_fixture
    from harness.fuzzing.campaign import FuzzOptions, fuzz

    game, seed = fuzz_case
    result = fuzz(fuzz_engine, FuzzOptions(game, request.config.getoption("fuzz_examples"), seed))
    finding = result.finding
    if finding is None:
        return
    where = ""
    out = request.config.getoption("fuzz_out")
    if out and isinstance(finding.failure, Divergence):
        where = f"\nfixture: {write_fixture(finding, Path(out))}"
    pytest.fail(f"{game}, seed {seed}, after {len(finding.moves)} moves:\n{finding.failure}{where}\n"
                f"replay:\n{finding.replay_text()}", pytrace=False)
