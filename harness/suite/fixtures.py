"""Fixture files in, normalised scenarios out: every file of the paths given, in order, streamed.

Every problem in every file is collected in one pass and reported as
``file:line:col: $.json.path: message``; nothing here raises on bad input. One file's reading
and lint are ``reading``'s and ``lint``'s; the data they make is ``model``'s.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from harness.suite import load_ahead
from harness.suite.discovery import discover, display_path
from harness.suite.model import LintError, LoadResult, Scenario, from_record
from harness.suite.reading import load_file
from harness.suite.scenario_cache import ScenarioCache


class Loader:
    """Loads and lints fixture files one at a time, so that a run can start on the first.

    Iterating yields the clean scenarios in file order; ``errors`` collects every lint error
    (each also passed to ``on_error`` as it is found). Only the ids seen are kept, for the
    duplicate check, so memory does not grow with the scenarios.
    """

    def __init__(self, paths: Iterable[str | os.PathLike[str]], cache: ScenarioCache | None = None,
                 on_error: Callable[[LintError], object] | None = None) -> None:
        self.files, self.path_errors = discover(paths)
        self.cache, self.on_error = cache, on_error
        self.errors: list[LintError] = []
        self.ids: dict[str, str] = {}
        self.done = 0
        self._folders: dict[Path, str] = {}

    def __iter__(self) -> Iterator[Scenario]:
        try:
            yield from self._load_all()
        finally:
            if self.cache is not None:
                self.cache.flush()

    def _name(self, path: Path) -> str:
        """``display_path(path)``, working out each folder's part once (relpath is slow on 50,000 files)."""
        folder = self._folders.get(path.parent)
        if folder is None:
            folder = self._folders[path.parent] = display_path(path.parent)
        return path.name if folder == "." else os.path.join(folder, path.name)

    def _loaded(self) -> Iterator[tuple[Scenario | None, list[LintError]]]:
        """Each file's scenario (if clean) and errors, in order: from a loader process on a large suite."""
        names = [self._name(path) for path in self.files]
        if not load_ahead.wanted(len(self.files)):
            yield from (load_file(path, self.cache, name) for path, name in zip(self.files, names))
            return
        # not zip(names, ...): it would leave the loader suspended before its last cache writes
        for index, (record, errors) in enumerate(load_ahead.loaded(self.files, names, self.cache)):
            name = names[index]
            scenario = from_record(record, name) if record is not None else None
            if record is not None and scenario is None:  # never dropped in silence
                errors = [LintError(name, 1, 1, "$", "the loader process sent a scenario this one cannot read; "
                                                     "please report this kit bug (CARDVERSE_NO_CACHE=1 may help)")]
            yield scenario, errors

    def _load_all(self) -> Iterator[Scenario]:
        """Each file in turn: its errors recorded, its scenario yielded when it is clean and new."""
        for scenario, errors in self._loaded():
            self.done += 1
            if scenario is not None and scenario.id in self.ids:
                errors = [LintError(scenario.file, scenario.line, scenario.column, "$.id",
                                    f"duplicate fixture id {scenario.id!r}, also in {self.ids[scenario.id]}; "
                                    "give one of them a new id")]
                scenario = None
            for error in errors:
                self.errors.append(error)
                if self.on_error is not None:
                    self.on_error(error)
            if scenario is not None:
                self.ids[scenario.id] = scenario.file
                yield scenario


def load_paths(paths: Iterable[str | os.PathLike[str]], cache: ScenarioCache | None = None) -> LoadResult:
    """Load and lint every fixture under ``paths``; duplicate ids are errors."""
    loader = Loader(paths, cache)
    scenarios = list(loader)
    return LoadResult(scenarios, loader.errors, len(loader.files), loader.path_errors)
