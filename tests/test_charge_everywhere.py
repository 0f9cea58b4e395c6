"""The pytest plugin and the mutation score charge a failure as `run` does: at the failing step, by the clause trace."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from harness.mutants.catalogue import BY_ID
from harness.mutants.catalogue import engine as mutant_engine
from harness.mutants.scoring import kills
from harness.spec.paths import fixtures_dir
from harness.suite.reading import load_file

# rules/rummy-1.1.0.md: the Ace follows the King in a run. The Q-K-A mutant refuses 10-J-Q-K-A at step 11 of
# this whole round; the round's other clauses (the deal's size, the first seat, going out, the scores) are kept.
WHOLE_ROUND = fixtures_dir() / "rummy" / "rummy.round.three-players-played-out.yaml"


def test_the_plugin_charges_the_whole_round_to_the_aces_place(pytester: pytest.Pytester) -> None:
    shutil.copy(WHOLE_ROUND, pytester.path)
    result = pytester.runpytest_subprocess("--cardverse", WHOLE_ROUND.name, "--junitxml", "out.xml",
                                           "--cardverse-engine", "harness.mutants:rummy_qka_refused")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["charged to: rummy.ace-after-king (of the fixture's 6 clauses)"])
    case = ET.parse(pytester.path / "out.xml").getroot().find(".//testcase")
    assert case is not None
    charged = [p.get("value") for p in case.iter("property") if p.get("name") == "charged"]
    assert charged == ["rummy.ace-after-king"]


def test_a_kill_counts_for_the_mutants_clause_only_when_charged_to_it() -> None:
    scenario, errors = load_file(WHOLE_ROUND)
    assert scenario is not None and not errors and "rummy.deal-size" in scenario.clauses
    engine = mutant_engine("rummy.qka-refused")
    mutant = BY_ID["rummy.qka-refused"]
    assert kills(mutant, [scenario], engine).own == 1  # its clause, rummy.ace-after-king, is the one charged
    # the same kill, said to break the deal's size (a clause of the fixture the failure is not charged to), is another's
    elsewhere = kills(replace(mutant, clause="rummy.deal-size"), [scenario], engine)
    assert elsewhere.by == [scenario.id] and elsewhere.own == 0
