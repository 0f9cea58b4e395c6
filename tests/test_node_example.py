"""The Node.js example engine, which leaves out President's equal-rank rule, fails exactly that rule's fixtures.

The expected failures are computed from the suite, not listed: the fixtures that cover the clause
``president.equal-rank-refused``. Everything else passes.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from harness.cli import main
from harness.fixtures import Scenario, load_paths
from harness.paths import fixtures_dir

ENGINE = Path(__file__).parent.parent / "examples" / "node-president" / "engine.js"
LEFT_OUT = "president.equal-rank-refused"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def checks_the_left_out_rule(scenario: Scenario) -> bool:
    return LEFT_OUT in scenario.clauses


def test_every_fixture_requiring_an_equal_rank_refusal_names_the_clause(president: list[Scenario]) -> None:
    requiring = [s.id for s in president if any(step.reason == "equal-rank" for step in s.steps)]
    assert requiring and all(checks_the_left_out_rule(s) for s in president if s.id in requiring)


@pytest.fixture(scope="module")
def president() -> list[Scenario]:
    loaded = load_paths([fixtures_dir() / "president"])
    assert not loaded.errors
    return loaded.scenarios


def test_the_example_fails_exactly_the_equal_rank_fixtures(
        president: list[Scenario], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "node.jsonl"
    command = shlex.join(["node", str(ENGINE)])
    assert main(["run", "--game", "president", "--engine-cmd", command, "--json", str(report)]) == 1
    header, *records = map(json.loads, report.read_text(encoding="utf-8").splitlines())
    assert header["engine"] == {"name": "node-president-example", "version": "0.1.0"}
    failed = {r["id"] for r in records if r["outcome"] not in ("pass", "skip")}  # skip: its computer players
    expected = {s.id for s in president if checks_the_left_out_rule(s)}
    assert expected, "the suite has no fixture for the rule the example leaves out"
    assert failed == expected
    assert {r["outcome"] for r in records if r["id"] in failed} == {"fail"}  # failures, never engine errors
    assert f"  {LEFT_OUT}" in capsys.readouterr().out  # the summary names the clause


def test_the_example_speaks_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", "--engine-cmd", shlex.join(["node", str(ENGINE)])]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("smoke: the engine speaks the protocol")
