"""A run whose engine never started is an error in every report, never a green "0 tests"."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from harness import EXIT_NEVER_STARTED
from harness.adapters.handshake import by_hand, hello_line, reason
from harness.book.runs import read_run
from harness.cli import main

NEVER_STARTS = shlex.join([sys.executable, "-c", "import sys; sys.stderr.write('cannot find engine.js\\n'); sys.exit(1)"])


def ci_verdict(junit: Path) -> tuple[int, int, list[str]]:
    """What a CI widget shows (GitHub's, GitLab's and Jenkins' JUnit readers count the same way): the test
    cases, those failed or in error, and their messages; the suites' counters must agree with the cases."""
    root = ET.parse(junit).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    cases = [case for suite in suites for case in suite.findall("testcase")]
    bad = [case for case in cases if case.find("failure") is not None or case.find("error") is not None]
    assert sum(int(s.get("tests", 0)) for s in suites) == len(cases)
    assert sum(int(s.get("errors", 0)) + int(s.get("failures", 0)) for s in suites) == len(bad)
    found = [c.find("error") if c.find("error") is not None else c.find("failure") for c in bad]
    return len(cases), len(bad), [element.get("message", "") for element in found if element is not None]


def test_the_junit_of_an_engine_that_never_started_fails_in_a_junit_reader(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit, jsonl = tmp_path / "j.xml", tmp_path / "j.jsonl"
    assert main(["run", "--engine-cmd", NEVER_STARTS, "--junit", str(junit), "--json", str(jsonl)]) == EXIT_NEVER_STARTED
    capsys.readouterr()
    tests, bad, messages = ci_verdict(junit)
    assert (tests, bad) == (1, 1)
    assert messages == ["the engine never started: it exited with code 1 instead of sending the answer to hello"]
    error = ET.parse(junit).getroot().find(".//error")
    assert error is not None and "| cannot find engine.js" in (error.text or "")
    assert f"to see it by hand: printf '%s\\n' '{hello_line()}' | {NEVER_STARTS}" in (error.text or "")
    lines = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert lines[1]["error"] == "never-started" and lines[1]["stderr"] == ["| cannot find engine.js"]
    assert read_run(jsonl).notes == [f"{jsonl}:2: {messages[0]}"]  # `report` reads it back as the run's error
    assert main(["report", str(jsonl), "--out", str(tmp_path / "site")]) == 0
    capsys.readouterr()
    index = (tmp_path / "site" / "index.md").read_text(encoding="utf-8")
    assert "**Incomplete**: stopped: the engine never started: it exited with code 1" in index
    assert "incomplete</span> stopped: the engine never started" in (tmp_path / "site" / "index.html").read_text(
        encoding="utf-8")


def test_the_handshake_by_hand_is_a_command_that_shows_the_engines_answer(tmp_path: Path) -> None:
    engine = Path(__file__).parent.parent / "examples" / "node-president" / "engine.js"
    if not engine.exists():
        pytest.skip("the Node example is not in this checkout")
    command = by_hand(type("Args", (), {"engine_cmd": f"node {shlex.quote(str(engine))}"})())
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=30)
    answer = json.loads(done.stdout.splitlines()[0])
    assert answer["protocol"] == 1 and "president" in answer["games"]  # the hello answer, as the kit would read it


@pytest.mark.parametrize(("said", "words"), [
    ("describe() raised AdapterError: protocol error: the engine exited with code 1 instead of sending the answer to "
     "hello; run it by hand with the request to see why", "it exited with code 1 instead of sending the answer to hello"),
    ("describe() raised OSError: no such engine", "describe() raised OSError: no such engine"),
])
def test_the_reason_is_in_the_users_words(said: str, words: str) -> None:
    assert reason(said) == words


def test_the_http_and_in_process_commands_by_hand() -> None:
    url = by_hand(type("Args", (), {"engine_url": "http://127.0.0.1:9/engine"})())
    assert url.startswith("curl -sS -X POST -H 'Content-Type: application/json' --data ")
    assert url.endswith(" http://127.0.0.1:9/engine")
    assert by_hand(type("Args", (), {"engine": "mypkg.engine:create"})()) == (
        "python -c 'from mypkg.engine import create; print(create().describe())'")
