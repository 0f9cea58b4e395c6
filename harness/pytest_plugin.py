"""pytest plugin: every fixture a test item, named by its id, reported at its YAML line.

Loaded through the ``pytest11`` entry point, so it must cost nothing when unused: it imports
only pytest at the top, and collects YAML files only when ``--cardverse`` asks it to.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

_RUNNER = pytest.StashKey[Any]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options, in one group."""
    group = parser.getgroup("cardverse", "CardVerse conformance fixtures")
    group.addoption("--cardverse", action="store_true",
                    help="collect CardVerse fixture files (*.yaml) under the paths given")
    group.addoption("--cardverse-suite", action="store_true",
                    help="also collect the kit's bundled fixture suite (implies --cardverse)")
    group.addoption("--cardverse-engine", metavar="MODULE:FACTORY", default=None,
                    help="the engine to check (default: the reference engine, reference_engine:create)")
    group.addoption("--cardverse-engine-cmd", metavar="COMMAND", default=None,
                    help="an engine speaking the protocol on stdio, e.g. \"node engine.js\" (spec/protocol.md)")
    group.addoption("--cardverse-engine-url", metavar="URL", default=None,
                    help="an engine speaking the protocol over HTTP POST")
    group.addoption("--cardverse-engine-page", metavar="PAGE", default=None,
                    help="an engine living in a web page (a local .html file or an http(s):// URL), run in headless "
                         "Chromium (the browser extra)")


def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    """With ``--cardverse-suite``, add the bundled fixture folder to the paths to collect."""
    if "--cardverse-suite" in args:
        from harness.spec.paths import fixtures_dir

        args.append(str(fixtures_dir()))


def _enabled(config: pytest.Config) -> bool:
    """Whether fixture files are collected in this run."""
    return bool(config.getoption("cardverse") or config.getoption("cardverse_suite"))


def pytest_configure(config: pytest.Config) -> None:
    """Load the engine up front, so that a wrong ``--cardverse-engine`` stops the run at once."""
    if _enabled(config) and not hasattr(config, "workerinput"):
        _runner(config)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A YAML fixture file becomes a collector of its scenario."""
    if file_path.suffix in (".yaml", ".yml") and _enabled(parent.config):
        return FixtureFile.from_parent(parent, path=file_path)
    return None


def _runner(config: pytest.Config) -> Any:
    """The runner for this session, made on first use."""
    if _RUNNER not in config.stash:
        from harness.adapters.engine import DEFAULT_ENGINE, EngineLoadError, load_engine
        from harness.run.runner import Runner

        command, url = config.getoption("cardverse_engine_cmd"), config.getoption("cardverse_engine_url")
        page = config.getoption("cardverse_engine_page")
        try:
            if command or url or page:
                from harness.adapters import connect

                if config.getoption("cardverse_engine") or [command, url, page].count(None) != 2:
                    raise EngineLoadError("give one of --cardverse-engine, --cardverse-engine-cmd, "
                                          "--cardverse-engine-url, --cardverse-engine-page")
                engine: Any = connect(command, url, page=page)
            else:
                engine = load_engine(config.getoption("cardverse_engine") or DEFAULT_ENGINE)
        except (EngineLoadError, ValueError) as error:
            raise pytest.UsageError(str(error)) from None
        config.stash[_RUNNER] = Runner(engine)
    return config.stash[_RUNNER]


class FixtureFile(pytest.File):
    """One fixture file: one scenario item, or one item carrying its lint errors."""

    def collect(self) -> Any:
        from harness.suite.reading import load_file

        scenario, errors = load_file(self.path)
        if errors:
            yield LintItem.from_parent(self, name=self.path.stem, errors=[str(e) for e in errors])
        elif scenario is not None:
            yield ScenarioItem.from_parent(self, name=scenario.id, scenario=scenario)


class ScenarioFailed(Exception):
    """A scenario that failed or hit an engine error; carries the runner's result."""


class ScenarioItem(pytest.Item):
    """One scenario run against the chosen engine."""

    def __init__(self, *, scenario: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        for clause in scenario.clauses:
            self.user_properties.append(("clause", clause))

    def runtest(self) -> None:
        from harness.audit.steps import charge

        result = _runner(self.config).run(self.scenario)
        if result.outcome == "skip":
            pytest.skip(result.message)
        if result.outcome != "pass":
            charge(result, self.scenario)  # as `run` charges it: the clauses the trace names at the failing step
            if result.charged != self.scenario.clauses:
                self.user_properties.append(("charged", ", ".join(result.charged)))
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        if isinstance(excinfo.value, ScenarioFailed):
            from harness.reports.console import charged_words

            result = excinfo.value.args[0]
            return (f"{result.outcome.upper()} {self.scenario.id}: {self.scenario.title}\n"
                    f"{charged_words(result)}\n{result.report()}")
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.scenario.line - 1, f"{self.scenario.game}: {self.scenario.id}"


class LintError(Exception):
    """A fixture file that does not lint."""


class LintItem(pytest.Item):
    """A fixture file with lint errors: fails with all of them."""

    def __init__(self, *, errors: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.errors = errors

    def runtest(self) -> None:
        raise LintError("\n".join(self.errors))

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        if isinstance(excinfo.value, LintError):
            return f"the fixture does not lint:\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"lint: {self.path.name}"
