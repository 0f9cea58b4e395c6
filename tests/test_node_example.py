"""The Node.js example engine, which leaves out President's equal-rank rule, fails exactly that rule's fixtures.

The expected failures are computed from the suite, not listed: the fixtures that cover the clause
``president.equal-rank-refused``. Everything else passes.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.adapters import subprocess_engine
from harness.cli import main
from harness.spec.paths import fixtures_dir, spec_dir
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from reference_engine import ReferenceEngine

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
    failed = {r["id"] for r in records if r["outcome"] in ("fail", "error")}
    assert any("seed" in s.layout for s in president)  # its seeded deal (seeded.js) is judged too
    skipped = [r for r in records if r["outcome"] == "skip"]
    assert all("players" in r["message"] or "level" in r["message"] for r in skipped)  # only its computer players
    expected = {s.id for s in president if checks_the_left_out_rule(s)}
    assert expected, "the suite has no fixture for the rule the example leaves out"
    assert failed == expected
    assert {r["outcome"] for r in records if r["id"] in failed} == {"fail"}  # failures, never engine errors
    assert f"  {LEFT_OUT}" in capsys.readouterr().out  # the summary names the clause


def test_the_example_speaks_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", "--engine-cmd", shlex.join(["node", str(ENGINE)])]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("smoke: the engine speaks the protocol")


SEEDED = ENGINE.parent.parent / "browser-president" / "seeded.js"


def test_an_independent_node_implementation_reproduces_the_seeded_deal_vectors() -> None:
    done = subprocess.run(["node", str(SEEDED), str(spec_dir() / "seeded-deal-vectors.json")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "4 seeds, 32 deals: every vector matches\n"


def test_the_node_check_reports_a_vector_it_does_not_reproduce(tmp_path: Path) -> None:
    data = json.loads((spec_dir() / "seeded-deal-vectors.json").read_text(encoding="utf-8"))
    data["vectors"][0]["deals"][3]["hands"][0][0] = "XX"  # gin-rummy, seed 0
    tampered = tmp_path / "vectors.json"
    tampered.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run(["node", str(SEEDED), str(tampered)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert done.stdout == "seed 0: gin-rummy with 2 players: hands differs\n1 difference(s)\n"


@pytest.mark.parametrize("seed", [0, 2**53 - 1])
def test_the_example_deals_a_seeded_game_as_the_reference_does(seed: int) -> None:
    node = subprocess_engine(["node", str(ENGINE)])
    try:
        for players in (3, 4, 5, 6):
            setup = {"game": "president", "rule_version": "1.1.0", "options": {"revolution": True, "rounds": 1},
                     "seed": seed, "players": players}
            assert node.start(setup).state() == ReferenceEngine().start(setup).state()
    finally:
        node.close()


def test_the_examples_own_counts_lead_perft_to_the_rule_it_leaves_out(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """It declares perft (protocol 1.1): its divide is followed down to a lead followed by the same rank."""
    command = shlex.join(["node", str(ENGINE)])
    assert main(["smoke", "--engine-cmd", command]) == 0
    assert "ok    president: perft: counts [6, 22, 86]" in capsys.readouterr().out
    argv = ["perft", "--game", "president", "--seed", "2", "--players", "4", "--depth", "3", "--engine-cmd", command,
            "--out", str(tmp_path)]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "divide: the legal actions differ after seat 0 {play: [3♦]} (seat 1 to act)" in out
    assert "not legal, but listed: {play: [3♠]}" in out
    [written] = tmp_path.glob("*.yaml")
    assert "action: {play: [3S]}\n    expect: refused\n    reason: equal-rank" in written.read_text(encoding="utf-8")
