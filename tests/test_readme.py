"""The README is run: its fixture examples lint and pass, its command examples run (against the reference engine,
behind the protocol where they name an adapter, and the Node example) in a scratch folder, with the exit codes
they state."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from test_engine_page import missing_browser

from harness.cli import main
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from reference_engine import create

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "spec" / "README.md"]
SERVE = shlex.join([sys.executable, "-m", "harness", "serve"])  # the reference engine behind the protocol
# Commands that need what a scratch folder cannot have: a server to reach, a user's own package or
# rule documents, a process that never ends (serve).
NOT_RUN = ("mypackage.onehand", "--engine-url", "serve", "texts ", "--http", "new/", "[PATHS]")
# What a user's names stand for here.
STANDS_FOR = {'"node my-adapter.js"': shlex.quote(SERVE), '"./my-engine"': shlex.quote(SERVE),
              "mypackage.engine:create": "reference_engine:create", "my.engine:create": "reference_engine:create",
              "dist/index.html": "examples/browser-president/index.html"}  # a team's built client: the example's
# The exit codes the README states, by the start of the command; any other command must pass (0) or find (1).
STATED = {"run --game president --engine-cmd": 1,
          "diff rummy@1.1.0 rummy@1.2.0": 0, "new-version": 0}


def blocks(kind: str) -> list[tuple[Path, int, str]]:
    """Every fenced block of ``kind`` (sh, console, yaml) of the documents, with its file and line."""
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in re.finditer(rf"```{kind}\n(.*?)```", text, re.S):
            found.append((doc, text[:match.start()].count("\n") + 2, match.group(1)))
    return found


def fixture_examples() -> list[tuple[str, str]]:
    """The YAML blocks that are whole fixtures (they start with an id)."""
    return [(f"{doc.name}:{line}", body) for doc, line, body in blocks("yaml") if body.startswith("id: ")]


def commands() -> list[tuple[str, str]]:
    """The ``cardverse-conformance`` lines of the sh and console blocks, in order, as a scratch folder runs them."""
    found = []
    for kind in ("sh", "console"):
        for doc, line, body in blocks(kind):
            for offset, text in enumerate(body.replace("\\\n", " ").splitlines()):  # a command continued on the next line
                text = text.removeprefix("$ ").split("  #")[0].strip()
                if not text.startswith("cardverse-conformance ") or any(word in text for word in NOT_RUN):
                    continue
                for name, meant in STANDS_FOR.items():
                    text = text.replace(name, meant)
                found.append((f"{doc.relative_to(ROOT)}:{line + offset}", text.removeprefix("cardverse-conformance ")))
    return found


def smaller(argv: list[str]) -> list[str]:
    """The command on a small budget (the suite stays fast; full budgets are for people and benchmarks)."""
    budgets = {"ladder": ("--cap", "10"), "fuzz": ("--examples", "3"), "properties": ("--examples", "3"),
               "mutants": ("--examples", "3"), "players": ("--games", "1")}
    if argv[0] not in budgets:
        return argv
    flag, value = budgets[argv[0]]
    if flag in argv:
        argv = [*argv]
        argv[argv.index(flag) + 1] = value
        return argv
    return [*argv, flag, value]


def test_the_documents_have_examples_to_run() -> None:
    assert len(fixture_examples()) >= 2 and len(commands()) >= 30


@pytest.mark.parametrize(("where", "text"), fixture_examples(), ids=[w for w, _ in fixture_examples()])
def test_every_fixture_example_lints_and_passes_on_the_reference(where: str, text: str, tmp_path: Path) -> None:
    (tmp_path / "example.yaml").write_text(text, encoding="utf-8")
    loaded = load_paths([tmp_path])
    assert [str(e) for e in loaded.errors] == [], where
    (scenario,) = loaded.scenarios
    result = Runner(create()).run(scenario)
    assert result.outcome == "pass", f"{where}: {result.report()}"


def test_every_command_example_runs_with_the_exit_code_it_states(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CI", "1")  # fuzz, properties and mutants on their CI budgets
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # the Node example, as from the checkout
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")  # commands that name a bundled fixture by its path
    assert main(["run", "--json", "run.jsonl"]) == 0  # the reports the overview's report command reads
    shutil.copy("run.jsonl", "other.jsonl")
    # the new rule version first: the command overview names it before its section writes it
    node = shutil.which("node") is not None  # without it the Node example alone is left out
    openspiel = importlib.util.find_spec("pyspiel") is not None
    browser = missing_browser() is None  # without Playwright and a Chromium the web client is left out
    for where, text in sorted(commands(), key=lambda c: not c[1].startswith("new-version")):
        if not node and "node examples/" in text:
            continue
        if not openspiel and "openspiel" in text:  # the bench extra's player
            continue
        if not browser and "--engine-page" in text:  # test_engine_page.py fails then, where they are required
            continue
        argv = smaller(shlex.split(text))
        try:
            code = main(argv)
        except SystemExit as stopped:  # refused while parsing
            code = stopped.code  # type: ignore[assignment]
        out = capsys.readouterr()
        wanted = next((c for start, c in STATED.items() if text.startswith(start)), None)
        assert code == wanted if wanted is not None else code in (0, 1), f"{where}: {text}: exit {code}\n{out.err[-2000:]}"
        assert "Traceback" not in out.err, f"{where}: {text}"
        if text.startswith("run --game president --engine-cmd"):  # the Node example: the counts it states
            stated_total = re.search(r"^total +\d+ +\d+ +\d+ +\d+$", DOCS[0].read_text(encoding="utf-8"), re.M)
            assert stated_total is not None and stated_total.group(0).split() in [line.split() for line in out.out.splitlines()]
        if text == "run -v":
            assert out.out.splitlines()[-1].startswith("total ")
    # the badge the report section names, with the count it states
    stated = re.search(r"\(`badges/([^`]+)`, reading `([^`]+) \| (\d+/\d+)`\)", DOCS[0].read_text(encoding="utf-8"))
    assert stated is not None
    badge = (tmp_path / "report" / "badges" / stated.group(1)).read_text(encoding="utf-8")
    assert f">{stated.group(3)}<" in badge and stated.group(2) in badge
