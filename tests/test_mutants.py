"""The mutant catalogue: every mutant builds, changes only itself, and the fixture suite kills it."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from harness.adapters.engine import EngineLoadError, load_engine
from harness.audit.steps import charge
from harness.mutants.catalogue import BY_ID, CATALOGUE, GAME_MODULES, Mutant, engine
from harness.mutants.commands import COMMANDS, add_commands
from harness.mutants.scoring import kills, score, sound_fixtures
from harness.mutants.variants import (
    Edit,
    VariantEngine,
    VariantError,
    apply_edit,
    build,
)
from harness.run.runner import Runner
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths
from reference_engine import create


@pytest.fixture(scope="module")
def suite() -> list:  # type: ignore[type-arg]
    loaded = load_paths([fixtures_dir()])
    assert loaded.errors == []
    sound, unsound = sound_fixtures(loaded.scenarios)
    assert unsound == []
    return sound


def test_the_catalogue_holds_at_least_twenty_mistakes_across_the_three_games() -> None:
    assert len(CATALOGUE) >= 20
    assert len({m.id for m in CATALOGUE}) == len(CATALOGUE)
    per_game = Counter(m.game for m in CATALOGUE)
    assert set(per_game) == {"rummy", "gin-rummy", "president"} and min(per_game.values()) >= 6


@pytest.mark.parametrize("mutant", CATALOGUE, ids=lambda m: m.id)
def test_every_mutant_builds_and_is_killed_by_the_fixture_suite(mutant: Mutant, suite: list) -> None:  # type: ignore[type-arg]
    killers = kills(mutant, suite)
    assert killers, f"{mutant.id} survives: no fixture catches '{mutant.mistake}'; add one"


class WithoutChoose:
    """A wrapper that copies the reference's describe() (players declared) but cannot answer choose."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

    def start(self, setup: dict[str, Any]) -> Any:
        return self.inner.start(setup)


def test_a_mutant_that_only_errors_survives_and_its_errors_are_kit_errors(suite: list) -> None:  # type: ignore[type-arg]
    # an edit that changes nothing of the rules: only the wrapper's missing choose makes fixtures error
    planted = Mutant("rummy.only-errors", "rummy", "a wrapper without choose", "rummy.draw-first",
                     (Edit("reference_engine.rummy.game", "RummyGame._draw", 'return "empty-discard"', 'return "empty-discard"'),))
    module = build(GAME_MODULES["rummy"], planted.edits, "mutant rummy.only-errors")
    found = kills(planted, suite, WithoutChoose(VariantEngine("rummy", module, "mutant rummy.only-errors")))
    assert not found and found.by == []
    decision_fixtures = [s.id for s in suite if s.game == "rummy" and any(step.decide for step in s.steps)]
    assert len(found.kit_errors) == len(decision_fixtures) > 0
    assert all("declares players for rummy (interface: view) but has no choose(view)" in e for e in found.kit_errors)


def test_a_crash_inside_the_mutated_code_kills(suite: list) -> None:  # type: ignore[type-arg]
    found = kills(BY_ID["rummy.no-such-meld-off-by-one"], suite)
    assert found.by == ["rummy.layoff.no-such-meld-refused"] and found.own == 1 and found.kit_errors == []


def test_every_mutant_is_killed_by_its_own_clause_and_those_killers_come_first(suite: list) -> None:  # type: ignore[type-arg]
    scenarios = {s.id: s for s in suite}

    def of_clause(fixture_id: str, clause: str) -> bool:
        scenario = scenarios[fixture_id]
        return clause in scenario.clauses or any(clause in step.clauses for step in scenario.steps)

    for mutant in CATALOGUE:
        found = kills(mutant, suite)
        assert found.kit_errors == [], mutant.id
        assert found.own >= 1, f"{mutant.id}: no fixture of {mutant.clause} kills it"
        assert all(of_clause(f, mutant.clause) for f in found.by[:found.own]), mutant.id
        # a later killer of the mutant's clause is one whose failure the clause trace charges elsewhere at its step
        later = [scenarios[f] for f in found.by[found.own:] if mutant.clause in scenarios[f].clauses]
        runner = Runner(engine(mutant.id))
        assert not any(mutant.clause in charge(runner.run(s), s).charged for s in later), mutant.id


def test_a_mutant_whose_function_is_gone_fails_loudly() -> None:
    gone = Mutant("rummy.gone", "rummy", "test", "rummy.draw-first",
                  (Edit("reference_engine.rummy.game", "RummyGame._no_such_method", "x", "y"),))
    with pytest.raises(VariantError, match=r"^mutant rummy.gone: reference_engine.rummy.game.RummyGame._no_such_method "
                                           r"no longer exists; update the mutant in harness/mutants/catalogue.py"):
        build(GAME_MODULES["rummy"], gone.edits, "mutant rummy.gone")


def test_a_mutant_whose_text_is_gone_or_repeated_fails_loudly() -> None:
    text = "def f():\n    return 1 + 1\n"
    assert apply_edit(text, Edit("m", "f", "return 1 + 1", "return 3"), "t") == "def f():\n    return 3\n"
    with pytest.raises(VariantError, match=r"^t: m.f holds 'return 2' 0 times, not once"):
        apply_edit(text, Edit("m", "f", "return 2", "return 3"), "t")
    with pytest.raises(VariantError, match=r"^t: m.f holds '1' 2 times, not once"):
        apply_edit(text, Edit("m", "f", "1", "2"), "t")


def test_mutants_leave_the_reference_engine_untouched(suite: list) -> None:  # type: ignore[type-arg]
    for mutant in CATALOGUE:
        engine(mutant.id)
    runner = Runner(create())
    assert {runner.run(s).outcome for s in suite} == {"pass"}


def test_a_mutant_is_an_engine_factory_by_name() -> None:
    mutant = load_engine("harness.mutants:gin_rummy_knock_below_limit")
    assert mutant.describe()["name"] == "mutant gin-rummy.knock-below-limit"
    # the name before harness/mutants/ still makes it, for command lines written then
    assert load_engine("harness.fuzzing.mutants:gin_rummy_knock_below_limit").describe() == mutant.describe()
    with pytest.raises(EngineLoadError, match="harness.mutants has no callable 'no_such_mutant'"):
        load_engine("harness.mutants:no_such_mutant")


def test_the_score_names_the_killing_fixtures(suite: list) -> None:  # type: ignore[type-arg]
    (outcome,) = score([next(m for m in CATALOGUE if m.id == "rummy.qka-refused")], suite, None)
    assert outcome.killed and outcome.fuzz is None
    assert "rummy.meld.q-k-a-run" in outcome.killed_by


def test_the_mutants_command_prints_one_line_per_mutant_and_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["mutants", "--mutant", "president.equal-rank-allowed", "--mutant", "rummy.qka-refused",
                              "--examples", "20"])
    assert COMMANDS["mutants"](args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("killed   rummy.qka-refused ")
    assert lines[1].startswith("killed   president.equal-rank-allowed ")
    assert all(" | fuzz: found in " in line for line in lines[:2])
    assert lines[2:] == ["mutation score: 2/2 mutants killed by " + lines[2].split(" by ")[1],
                         "fuzz: 2/2 mutants found within the budget"]


def test_the_mutants_command_writes_a_json_line_per_mutant_and_a_summary(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command"))
    out = tmp_path / "mutants.jsonl"
    args = parser.parse_args(["mutants", "--mutant", "president.equal-rank-allowed", "--examples", "20",
                              "--json", str(out)])
    assert COMMANDS["mutants"](args) == 0
    first, summary = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert (first["mutant"], first["game"], first["clause"]) == ("president.equal-rank-allowed", "president",
                                                                 "president.equal-rank-refused")
    assert "president.play.equal-rank-refused" in first["killed_by"]
    assert first["fuzz"]["found"] is True and first["fuzz"]["examples"] >= 1 and first["fuzz"]["moves"] >= 0
    assert summary == {"summary": {"mutants": 1, "killed": 1, "fixtures": summary["summary"]["fixtures"],
                                   "kit_errors": 0, "found_by_fuzz": 1}}


def test_the_mutants_command_refuses_a_json_file_it_cannot_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["mutants", "--no-fuzz", "--json", str(tmp_path / "no" / "such" / "m.jsonl")])
    assert COMMANDS["mutants"](args) == 2
    assert "cannot write --json " in capsys.readouterr().err


def test_the_mutants_command_lists_the_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command"))
    assert COMMANDS["mutants"](parser.parse_args(["mutants", "--list", "--game", "gin-rummy"])) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == sum(m.game == "gin-rummy" for m in CATALOGUE)
    assert lines[0].split("\t")[0] == "gin-rummy.knock-below-limit"


def test_python_m_harness_mutants_runs_the_command_alone() -> None:
    done = subprocess.run([sys.executable, "-m", "harness.mutants", "mutants", "--list", "--game", "president"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert [line.split("\t")[0] for line in done.stdout.splitlines()] == \
        [m.id for m in CATALOGUE if m.game == "president"]
