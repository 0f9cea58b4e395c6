"""An engine living in a web page, driven in headless Chromium (``--engine-page``): the example client, and pages that misbehave.

The example (examples/browser-president/) must pass every President fixture it declares, ``smoke``,
a short ``fuzz`` and ``perft``; a copy with one rule mistake planted must fail exactly that rule's
fixtures. Pages that hang, throw, log an error, navigate away or crash get an error for their own
scenario, and the run goes on; a page that never loads stops the run (exit 3) with one message.
No browser process outlives a command. Skipped without Playwright and a Chromium, unless
``CARDVERSE_BROWSER_TESTS=required`` (set by .ci/run), which makes that a failure.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.adapters.browser import Browser, system_chromium
from harness.adapters.page import PageChannel, page_engine
from harness.adapters.page_files import PageFiles
from harness.adapters.remote import RemoteEngine
from harness.cli import main
from harness.run.runner import Runner
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "browser-president"
INDEX = str(EXAMPLE / "index.html")
PRESIDENT = fixtures_dir() / "president"
EQUAL_RANK = "president.equal-rank-refused"
# The faulty pages below misbehave at FIRST's first play (7♣), which SECOND never makes: SECOND then shows
# that the page is loaded afresh and the run goes on.
FIRST, SECOND = "president.play.equal-rank-refused", "president.revolution.four-of-a-kind-reverses-order"
RESTARTED = "; the engine was stopped and is restarted for the next scenario"
# A page answering through the example's module, but misbehaving at any message holding FIRST's first play.
FAULTY = """<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module">
import { createEngine } from "./protocol.js";
const engine = createEngine({ name: "faulty-page", version: "0.0.1" });
window.cardverseEngine = { handle: (text) => {
  if (text.includes('"action":{"play":["7C"]}')) {
    console.log("misbehaving on purpose");
    %s
  }
  return engine.handle(text);
} };
</script>
"""
FAULTS = {
    "hangs": "return new Promise(() => {});",
    "blocks": "for (;;) {}",
    "throws": 'throw new TypeError("the hand is undefined");',
    "logs": 'console.error("the hand is undefined");',
    "navigates": 'location.href = "about:blank"; return new Promise(() => {});',
    "crashes": "return new Promise(() => {});",  # the test crashes its renderer from outside, as it waits
}


def missing_browser() -> str | None:
    """Why the page transport cannot run here, or None."""
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install -e '.[browser]')"
    own = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache" / "ms-playwright")
    if system_chromium() is None and not list(own.glob("chromium*")):
        return "no Chromium is installed (apt-get install -y chromium)"
    return None


def require_browser() -> None:
    """Skip the test without a browser; fail it instead when CARDVERSE_BROWSER_TESTS=required."""
    why = missing_browser()
    if why is None:
        return
    if os.environ.get("CARDVERSE_BROWSER_TESTS") == "required":
        pytest.fail(f"{why}, and CARDVERSE_BROWSER_TESTS=required")
    pytest.skip(why)


@pytest.fixture(autouse=True, scope="module")
def _needs_a_browser() -> None:
    require_browser()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for the tests that talk to pages directly."""
    shared = Browser()
    yield shared
    shared.close()


@pytest.fixture(scope="module")
def president() -> dict[str, Scenario]:
    loaded = load_paths([PRESIDENT])
    assert not loaded.errors
    return {scenario.id: scenario for scenario in loaded.scenarios}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example's modules beside one faulty page per fault (``hangs.html``, ...)."""
    folder = tmp_path_factory.mktemp("pages")
    for module in EXAMPLE.glob("*.js"):
        shutil.copy(module, folder)
    shutil.copy(EXAMPLE / "package.json", folder)
    for name, fault in FAULTS.items():
        (folder / f"{name}.html").write_text(FAULTY % fault, encoding="utf-8")
    return folder


@pytest.fixture
def profiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Browser profiles made under ``tmp_path``, so that the processes of this test's Chromium can be told
    apart by their command line; after the test, none of them (and no new Playwright driver) is running."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    drivers = running("run-driver", children=True)
    yield tmp_path
    assert running(str(tmp_path)) == []
    assert set(running("run-driver", children=True)) <= set(drivers)  # the shared browser's may run on


def running(marker: str, children: bool = False) -> list[int]:
    """The live processes (a zombie has ended) whose command line holds ``marker``; only this one's children if asked
    (Playwright's driver is a child of the process that uses it, and another test process may have its own)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            state, parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
        except OSError:  # gone meanwhile
            continue
        if marker.encode() in command and state != "Z" and (not children or int(parent) == os.getpid()):
            found.append(int(entry.name))
    return found


def records(report: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header, *lines = map(json.loads, report.read_text(encoding="utf-8").splitlines())
    return header, lines


def covering(president: dict[str, Scenario], clause: str) -> set[str]:
    return {scenario.id for scenario in president.values() if clause in scenario.clauses}


def test_every_president_fixture_passes_in_chromium(president: dict[str, Scenario], profiles: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    report = profiles / "page.jsonl"
    assert main(["run", "--game", "president", "--engine-page", INDEX, "--json", str(report)]) == 0
    header, lines = records(report)
    assert header["engine"] == {"name": "browser-president-example", "version": "0.1.0"}
    assert {line["id"] for line in lines} == set(president)
    skipped = {line["id"] for line in lines if line["outcome"] == "skip"}
    assert {line["outcome"] for line in lines} == {"pass", "skip"}
    # only the players it does not have are skipped: its easy player answers the easy fixtures
    levels = {s.id: {step.decide.get("level") for step in s.steps if step.decide} for s in president.values()}
    assert skipped == {i for i, used in levels.items() if used - {"easy"}}
    assert any(used == {"easy"} for i, used in levels.items() if i not in skipped)
    assert any("seed" in s.layout for s in president.values() if s.id not in skipped)  # seeded.js, in the page
    assert "Traceback" not in capsys.readouterr().err


def test_smoke_passes(profiles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", "--engine-page", INDEX]) == 0
    out = capsys.readouterr().out
    assert "ok    president: batch: start, state and legal_actions answered in one batch" in out
    assert out.splitlines()[-1] == ("smoke: the engine speaks the protocol; next: cardverse-conformance run "
                                    f"--engine-page {INDEX}")


def test_fuzz_finds_no_difference(profiles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--game", "president", "--examples", "5", "--engine-page", INDEX]) == 0
    assert "president: 5 examples" in capsys.readouterr().out


def test_perft_counts_as_the_reference(profiles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["perft", "--game", "president", "--seed", "1", "--players", "4", "--depth", "3"]
    assert main(argv) == 0
    reference = capsys.readouterr().out
    assert main([*argv, "--engine-page", INDEX]) == 0
    counts = [line for line in capsys.readouterr().out.splitlines() if line.startswith("depth ")]
    assert counts == [line for line in reference.splitlines() if line.startswith("depth ")] and len(counts) == 3


def test_a_rule_mistake_planted_in_the_page_fails_exactly_its_clause(
        president: dict[str, Scenario], profiles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    planted = profiles / "planted"
    shutil.copytree(EXAMPLE, planted)
    rules = planted / "president.js"
    text = rules.read_text(encoding="utf-8")
    refusal = '    if (this.strength(rank) === this.strength(last)) return "equal-rank";\n'
    assert refusal in text
    rules.write_text(text.replace(refusal, ""), encoding="utf-8")  # P-3.3 left out: equal ranks let through
    report = profiles / "planted.jsonl"
    assert main(["run", "--game", "president", "--engine-page", str(planted / "index.html"), "--json",
                 str(report)]) == 1
    failed = {line["id"]: line["outcome"] for line in records(report)[1] if line["outcome"] in ("fail", "error")}
    assert set(failed) == covering(president, EQUAL_RANK) and set(failed.values()) == {"fail"}
    summary = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith(f"  {EQUAL_RANK}")]
    assert summary and summary[0][-4:] == ["0", str(len(failed)), "0", "0"]


def test_the_pytest_plugin_takes_a_page(pytester: pytest.Pytester, profiles: Path) -> None:
    fixtures = [str(PRESIDENT / f"{name}.yaml") for name in (FIRST, SECOND)]
    result = pytester.runpytest_subprocess("--cardverse", *fixtures, "--cardverse-engine-page", INDEX, "-p",
                                           "no:cacheprovider")
    result.assert_outcomes(passed=2)


@pytest.mark.parametrize(("fault", "error"), [
    ("hangs", r"protocol error: the answer to batch \(seq \d+\) did not come within 1 s: "
              r"window\.cardverseEngine\.handle's promise did not settle \(raise --timeout if it is only slow\)"),
    ("throws", r"protocol error: window\.cardverseEngine\.handle threw instead of sending the answer to batch "
               r"\(seq \d+\): 'TypeError: the hand is undefined\\n {4}at "),
])
def test_a_page_that_hangs_or_throws_errors_its_scenario_and_the_run_goes_on(
        fault: str, error: str, pages: Path, profiles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = profiles / "run.jsonl"
    fixtures = [str(PRESIDENT / f"{name}.yaml") for name in (FIRST, SECOND)]
    assert main(["run", *fixtures, "--engine-page", str(pages / f"{fault}.html"), "--timeout", "1",
                 "--json", str(report)]) == 1
    assert [(line["id"], line["outcome"]) for line in records(report)[1]] == [(FIRST, "error"), (SECOND, "pass")]
    captured = capsys.readouterr()
    assert f"ERROR {FIRST}" in captured.out and re.search(error, captured.out)
    assert f"{RESTARTED}\n  the page's console ends with:\n  | log: misbehaving on purpose" in captured.out
    assert "Traceback" not in captured.out + captured.err


class SilentServer:
    """A server that takes connections and never answers: a page that never loads."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(8)
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}/index.html"

    def close(self) -> None:
        self.socket.close()


@pytest.mark.parametrize(("where", "error"), [
    ("missing", "the page {page} does not exist: give your client's .html file (e.g. dist/index.html) or its "
                "http:// URL"),
    ("not found", "the page {page} answered HTTP 404 (File not found): is the address right?"),
    ("silent", "the page {page} did not load within 10 s (raise --timeout if it is only slow)"),
])
def test_a_page_that_never_loads_stops_the_run_with_one_message(
        where: str, error: str, pages: Path, profiles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server, files = SilentServer(), PageFiles(pages)
    page = {"missing": str(profiles / "nowhere.html"), "silent": server.url, "not found": files.url("nowhere.html")}[where]
    try:
        code = main(["run", "--game", "president", "--engine-page", page, "--timeout", "1"])
    finally:
        server.close()
        files.close()
    captured = capsys.readouterr()
    assert code == 3
    first = next(line for line in captured.err.splitlines() if line.startswith("error: "))
    assert first.startswith("error: the engine never started: " + error.format(page=page).removeprefix("the engine "))
    assert "Traceback" not in captured.out + captured.err


def faulty(pages: Path, fault: str, browser: Browser, timeout: float = 2.0) -> RemoteEngine:
    return page_engine(str(pages / f"{fault}.html"), timeout, browser)


@pytest.mark.parametrize(("fault", "error"), [
    ("blocks", "did not come within 2 s: the page's main thread is blocked, or the page is too slow"),
    ("logs", "error: the hand is undefined; a page answering the kit logs no errors (console.warn is for warnings)"),
    ("navigates", "the page navigated away (or closed) while answering: a page answering the kit stays on its "
                  "document"),
])
def test_a_page_that_blocks_logs_an_error_or_navigates_errors_its_scenario(
        fault: str, error: str, pages: Path, browser: Browser, president: dict[str, Scenario]) -> None:
    engine = faulty(pages, fault, browser)
    runner = Runner(engine)
    try:
        result = runner.run(president[FIRST])
        assert result.outcome == "error" and error in result.message and RESTARTED in result.message
        assert runner.run(president[SECOND]).outcome == "pass"  # on a fresh page
    finally:
        engine.close()
    assert browser.is_running()  # a shared browser is left to its owner


def test_a_page_whose_renderer_crashes_errors_its_scenario(
        pages: Path, browser: Browser, president: dict[str, Scenario]) -> None:
    engine = faulty(pages, "crashes", browser, timeout=10.0)
    channel = engine.channel
    assert isinstance(channel, PageChannel)
    runner = Runner(engine)
    crashed = threading.Event()

    async def crash() -> None:
        session = await channel.page.context.new_cdp_session(channel.page)
        asyncio.ensure_future(session.send("Page.crash")).add_done_callback(lambda done: done.exception())
        crashed.set()

    def crash_once_it_waits() -> None:  # the page logs before it waits forever: then its renderer is killed
        while not crashed.is_set():
            if "log: misbehaving on purpose" in channel.console.lines:
                browser.events.run(crash(), 5.0)
            else:
                threading.Event().wait(0.01)

    watcher = threading.Thread(target=crash_once_it_waits, daemon=True)
    watcher.start()
    try:
        result = runner.run(president[FIRST])
        watcher.join()
        assert result.outcome == "error"
        assert "the page crashed (Chromium's renderer process for it died) while answering" in result.message
        assert runner.run(president[SECOND]).outcome == "pass"
    finally:
        crashed.set()
        engine.close()


PLAY_TO_THE_END = """async () => {
  const $ = (id) => document.getElementById(id);
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  for (let turns = 0; turns < 20000 && !$("status").textContent.startsWith("Game over"); turns++) {
    const status = $("status").textContent;
    if (status.startsWith("Beat")) $("pass").click();
    if (status.startsWith("Lead") || status.startsWith("Give")) {  // the lowest card, or the N lowest
      const count = status.startsWith("Give") ? Number(status.split(" ")[1]) : 1;
      [...$("hand").querySelectorAll("button")].slice(0, count).forEach((card) => card.click());
      $("act").click();
    }
    await tick();
  }
  return { status: $("status").textContent, log: [...$("log").children].map((item) => item.textContent) };
}"""


def test_a_person_can_play_a_whole_game_at_the_table(browser: Browser) -> None:
    """index.html against three easy players, played to its end by clicks, with no console error."""
    files = PageFiles(EXAMPLE)
    page = browser.new_page(10.0)
    logged: list[str] = []
    page.on("console", lambda message: logged.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: logged.append(f"error: {error}"))
    try:
        browser.events.run(page.goto(files.url("index.html?pause=0")), 10.0)
        outcome = browser.events.run(page.evaluate(PLAY_TO_THE_END), 60.0)
    finally:
        browser.events.run(page.close(), 5.0)
        files.close()
    assert outcome["status"].startswith("Game over: ")
    assert sum(line.startswith("Round over: ") for line in outcome["log"]) == 3
    assert any(line.startswith("You: play ") for line in outcome["log"])
    assert not [line for line in logged if line.startswith("error")]
