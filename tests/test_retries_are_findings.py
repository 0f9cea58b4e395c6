"""An engine that fails exactly once is a finding in every transport: ``run`` exits 1 with one error naming the fault.

The kit may ask again after a fault (a call of several scenarios that failed as a whole is asked
again one scenario at a time, an engine is restarted, a page loaded afresh), but an answer it gets
only by asking again never hides the fault: the scenario the fault struck is an error that says so.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from http_fakes import fake_http

from harness import EXIT_FAILED
from harness.cli import main
from harness.spec.paths import fixtures_dir

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "data" / "scenarios"
EXAMPLE = TESTS.parent / "examples" / "browser-president"
ONCE = "asked again, each of the {count} scenarios alone, the engine answered every one: it failed once and not again"
# A page answering through the example's module that misbehaves once: at its first batch of several
# requests, remembered in the origin's localStorage, which every tab of the browser shares.
FLAKY_PAGE = """<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module">
import { createEngine } from "./protocol.js";
const engine = createEngine({ name: "flaky-page", version: "0.0.1" });
window.cardverseEngine = { handle: (text) => {
  if (text.includes('"cmd":"batch"') && !localStorage.getItem("struck")) {
    localStorage.setItem("struck", "once");
    %s
  }
  return engine.handle(text);
} };
</script>
"""


def outcomes(report: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()[1:]]


def errors(report: Path) -> list[dict[str, Any]]:
    return [line for line in outcomes(report) if line["outcome"] == "error"]


def test_an_http_engine_failing_one_post_once_is_one_error(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "run.jsonl"
    # hello is the first POST; the second carries every scenario's batch, and fails as a whole, once
    with fake_http("status_500", at=2, jsonl=True) as url:
        code = main(["run", str(SCENARIOS), "--engine-url", url, "--json", str(report)])
    captured = capsys.readouterr()
    assert code == EXIT_FAILED
    found = errors(report)
    assert len(found) == 1 and len(outcomes(report)) == 3
    assert "answered HTTP 500" in found[0]["message"] and ONCE.format(count=3) in found[0]["message"]
    assert "Traceback" not in captured.out + captured.err


def test_a_stdio_engine_crashing_once_is_one_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS.parent), os.environ.get("PYTHONPATH")])))
    report, struck = tmp_path / "run.jsonl", tmp_path / "struck"
    command = f"{sys.executable} {TESTS / 'flaky_stdio_engine.py'} {struck} 2"  # its second line: the first batch
    code = main(["run", str(SCENARIOS), "--engine-cmd", command, "--json", str(report)])
    captured = capsys.readouterr()
    assert struck.exists() and code == EXIT_FAILED
    found = errors(report)
    assert len(found) == 1 and len(outcomes(report)) == 3
    assert "the engine exited with code 3" in found[0]["message"]
    assert "the engine was stopped and is restarted for the next scenario" in found[0]["message"]
    assert "failing once on purpose" in found[0]["message"]
    assert "Traceback" not in captured.out + captured.err


@pytest.mark.parametrize(("fault", "why"), [
    ("for (;;) {}", "the page's main thread is blocked"),
    ('console.error("flaky");', "the page logged an error"),
])
def test_a_page_failing_once_is_one_error(fault: str, why: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from test_engine_page import require_browser

    require_browser()
    pages = tmp_path / "page"
    pages.mkdir()
    for module in EXAMPLE.glob("*.js"):
        shutil.copy(module, pages)
    shutil.copy(EXAMPLE / "package.json", pages)
    (pages / "index.html").write_text(FLAKY_PAGE % fault, encoding="utf-8")
    report = tmp_path / "run.jsonl"
    president = sorted(fixtures_dir().joinpath("president").glob("president.play.*.yaml"))[:6]
    code = main(["run", *map(str, president), "--engine-page", str(pages / "index.html"), "--timeout", "1",
                 "--json", str(report)])
    captured = capsys.readouterr()
    assert code == EXIT_FAILED
    found = errors(report)
    assert len(found) == 1, found
    assert why in found[0]["message"] and "it failed once and not again" in found[0]["message"]
    assert "Traceback" not in captured.out + captured.err
