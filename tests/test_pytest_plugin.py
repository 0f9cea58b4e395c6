"""The pytest plugin: fixtures as items named by id, at their YAML line, with -k and engines."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    shutil.copytree(DATA / "scenarios", pytester.path / "scenarios")
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))  # for fake_engines in the subprocess
    return pytester


def test_each_fixture_is_an_item_named_by_its_id(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("--cardverse", "scenarios", "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*scenarios/meld-and-refuse.yaml::harness.meld-and-refuse PASSED*"])


def test_k_selects_by_id(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("--cardverse", "scenarios", "-k", "going-out")
    result.assert_outcomes(passed=1, deselected=2)


def test_a_failure_shows_the_diff_and_the_yaml_line(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("--cardverse", "scenarios", "--cardverse-engine", "fake_engines:accepts_everything")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines([
        "*rummy: harness.meld-and-refuse*",
        "FAIL harness.meld-and-refuse: A Q-K-A run is accepted, three unrelated cards are refused",
        "step 3 (line 20): seat 0 {meld: [2♣, 3♦, 4♠]} was accepted, but must be refused (invalid-meld)",
    ])


def test_junit_xml_names_the_fixture(suite: pytest.Pytester) -> None:
    suite.runpytest_subprocess("--cardverse", "scenarios", "--junitxml", "out.xml")
    assert 'name="harness.going-out-scores"' in (suite.path / "out.xml").read_text(encoding="utf-8")


def test_a_bad_engine_option_is_a_usage_error(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("--cardverse", "scenarios", "--cardverse-engine", "nope")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*expected package.module:factory*"])


def test_yaml_files_are_ignored_without_the_option(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("scenarios")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_a_fixture_that_does_not_lint_fails_with_its_errors(suite: pytest.Pytester) -> None:
    shutil.copy(DATA / "lint" / "duplicate-key.yaml", suite.path / "scenarios")
    result = suite.runpytest_subprocess("--cardverse", "scenarios")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*duplicate-key.yaml:3:1: $.title: duplicate key 'title': give each key once"])


def test_loading_the_plugin_imports_nothing_heavy() -> None:
    code = ("import sys, harness.pytest_plugin; "
            "print(sorted(m for m in ('yaml', 'jsonschema', 'harness.run.runner', 'reference_engine') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_remote_engine_can_be_chosen(suite: pytest.Pytester) -> None:
    command = f"{sys.executable} -m harness serve --engine fake_engines:accepts_everything"
    result = suite.runpytest_subprocess("--cardverse", "scenarios", "--cardverse-engine-cmd", command)
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*was accepted, but must be refused (invalid-meld)*"])


def test_xdist_spreads_the_fixtures(suite: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    result = suite.runpytest_subprocess("--cardverse", "scenarios", "-n", "2")
    result.assert_outcomes(passed=3)
