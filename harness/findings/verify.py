"""Does a written fixture do its job: lint clean, fail on the engine, pass on the reference?"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.adapters.engine import Engine
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths


@dataclass(frozen=True)
class FixtureCheck:
    """The verdicts on one generated fixture."""

    lint_errors: tuple[str, ...]
    on_engine: str
    on_reference: str
    engine_message: str = ""

    @property
    def ok(self) -> bool:
        """Lint clean, not a pass on the engine, a pass on the reference."""
        return not self.lint_errors and self.on_engine in ("fail", "error") and self.on_reference == "pass"

    def summary(self) -> str:
        """One line for the report."""
        if self.lint_errors:
            return f"does not lint: {self.lint_errors[0]}"
        return f"{self.on_engine} on the engine ({self.engine_message}), {self.on_reference} on the reference"


def verify_fixture(path: Path, engine: Engine, reference: Engine) -> FixtureCheck:
    """Lint ``path`` and run it on both engines."""
    loaded = load_paths([path])
    if loaded.errors or not loaded.scenarios:
        return FixtureCheck(tuple(str(e) for e in loaded.errors) or ("no scenario",), "", "")
    scenario = loaded.scenarios[0]
    mine, theirs = Runner(engine).run(scenario), Runner(reference).run(scenario)
    return FixtureCheck((), mine.outcome, theirs.outcome, mine.message)
