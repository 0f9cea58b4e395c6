"""One fixture file in: read within bounds, parsed, linted (or taken from the cache); never raises."""

from __future__ import annotations

from pathlib import Path

from harness.suite.discovery import display_path
from harness.suite.lint import Linter
from harness.suite.model import LintError, Scenario, from_record, json_path, to_record
from harness.suite.scenario_cache import ScenarioCache
from harness.suite.yamlsafe import YamlError, load, quote, read_bounded


def load_file(path: Path, cache: ScenarioCache | None = None,
              name: str | None = None) -> tuple[Scenario | None, list[LintError]]:
    """One fixture file, shown as ``name`` (its path from here): the scenario if it is clean, its errors; never raises."""
    name = name or display_path(path)
    try:
        data = read_bounded(path)
    except YamlError as error:
        return None, [LintError(name, error.line, error.column, "$", error.message)]
    except OSError as error:
        return None, [LintError(name, 1, 1, "$", f"cannot read the file ({error.strerror}); check the path and its permissions")]
    key = cache.key(data) if cache is not None else ""
    if cache is not None:
        record = cache.get(key)
        if record is not None:
            scenario = from_record(record, name)
            if scenario is not None:
                return scenario, []
    scenario, errors = lint_bytes(name, data)
    if cache is not None and scenario is not None:
        cache.put(key, to_record(scenario))
    return scenario, errors


def lint_bytes(name: str, data: bytes) -> tuple[Scenario | None, list[LintError]]:
    """Parse and lint a file's bytes; positions of every value are worked out only when there is an error."""
    scenario, errors = _lint(name, data, "top")
    if errors:
        scenario, errors = _lint(name, data, "all")
    return scenario, sorted(errors, key=lambda e: (e.line, e.column))


def _lint(name: str, data: bytes, marks: str) -> tuple[Scenario | None, list[LintError]]:
    """One pass: parse with ``marks``, then lint."""
    try:
        document = load(data, marks)
    except YamlError as error:
        return None, [LintError(name, error.line, error.column, json_path(error.path), error.message)]
    try:
        return Linter(name, document).run()
    except Exception as error:  # a linter bug must cost one file, not the batch
        return None, [LintError(name, 1, 1, "$", f"the linter failed on this file ({type(error).__name__}: "
                                                 f"{quote(str(error))}); please report it with the file")]
