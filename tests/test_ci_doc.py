"""docs/ci.md's jobs, their shell steps run in order, with each job's variables set to this repository's examples.

The kit itself: `pip install` resolves the doc's requirement (its git URL turned into this checkout's, or
the wheel built from a clone of it) without touching the test environment (`--dry-run`), and
`cardverse-conformance` is this checkout's (`python -m harness`). Everything else runs as written.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ci.md"
KIT_URL = re.compile(r"git\+https://github\.com/cardverse/cardverse-conformance@v[0-9.]+")
PY = sys.executable
# The job's commands, as a test may stand them in: the kit resolved but not installed, this checkout's CLI.
PRELUDE = f"""set -eo pipefail
export PYTHONPATH={ROOT}
cardverse-conformance() {{ {PY} -m harness "$@"; }}
pip() {{
  if [ "$1" = install ]; then shift; {PY} -m pip install -q --dry-run --no-deps --no-build-isolation --no-index "$@"
  else {PY} -m pip "$@" -q --no-build-isolation --no-index; fi
}}
"""


def blocks(language: str) -> list[str]:
    """The fenced blocks of ``language`` in docs/ci.md, in order."""
    text = DOC.read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def jobs() -> dict[str, tuple[dict[str, str], list[str]]]:
    """Every job of every workflow: its variables (the workflow's, then its own) and its shell steps."""
    found = {}
    for text in blocks("yaml"):
        workflow = yaml.safe_load(text)
        for name, job in workflow["jobs"].items():
            env = {**workflow.get("env", {}), **job.get("env", {})}
            found[name] = ({k: str(v) for k, v in env.items()}, [s["run"] for s in job["steps"] if "run" in s])
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def local_kit(requirement: str) -> str:
    """The doc's requirement with its git URL turned into this checkout's (the same tree, committed)."""
    assert KIT_URL.search(requirement), requirement
    return KIT_URL.sub(f"git+file://{ROOT}", requirement)


def run_job(name: str, work: Path, ours: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the job's steps in ``work`` with its variables, ``ours`` standing in for the user's; the result."""
    env, steps = jobs()[name]
    values = {**env, **ours}
    if "KIT" in values:
        values["KIT"] = local_kit(values["KIT"])
    script = PRELUDE + "".join(f"export {k}={shquote(v)}\n" for k, v in values.items()) + "\n".join(steps)
    process = subprocess.Popen(["bash", "-c", script], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True, env={**os.environ, "GITHUB_RUN_NUMBER": "7"})
    try:
        out, _ = process.communicate(timeout=600)
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)  # a server the job started in the background
        except ProcessLookupError:
            pass
    return subprocess.CompletedProcess(process.args, process.returncode, out, "")


def shquote(value: str) -> str:
    return "'" + value.replace("'", "'\\''") + "'"


def passed(done: subprocess.CompletedProcess[str], work: Path, report: str) -> None:
    """The job ended 0 and its JUnit report names no failure."""
    assert done.returncode == 0, done.stdout[-3000:]
    text = (work / report).read_text(encoding="utf-8")
    assert 'failures="0"' in text and 'errors="0"' in text and "<testcase " in text


def test_the_doc_has_the_four_jobs_and_installs_from_git_or_a_wheel() -> None:
    assert set(jobs()) == {"stdio", "http", "web-client", "fuzz", "audit"}
    install = blocks("sh")[0]
    assert "pip install \"cardverse-conformance @ git+https://" in install and ".whl" in install
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'pip install "cardverse-conformance[browser]"' not in readme  # no distribution of that name on PyPI


def test_the_install_lines_find_the_kit(tmp_path: Path) -> None:
    subprocess.run(["git", "clone", "-q", str(ROOT), str(tmp_path / "cardverse-conformance")], check=True)
    script = PRELUDE + KIT_URL.sub(f"git+file://{ROOT}", blocks("sh")[0])
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert list((tmp_path / "dist").glob("cardverse_conformance-*.whl"))


def test_the_stdio_server_job(tmp_path: Path) -> None:
    done = run_job("stdio", tmp_path, {"ENGINE_CMD": f"{PY} -m harness serve"})
    passed(done, tmp_path, "conformance.xml")
    assert "smoke: the engine speaks the protocol" in done.stdout


def test_the_http_server_job(tmp_path: Path) -> None:
    port = free_port()
    done = run_job("http", tmp_path, {"SERVER_START": f"{PY} -m harness serve --http {port}",
                                      "ENGINE_URL": f"http://127.0.0.1:{port}/cardverse"})
    passed(done, tmp_path, "conformance.xml")


def browser_missing() -> str:
    if importlib.util.find_spec("playwright") is None:
        return "Playwright is not installed (the browser extra)"
    if not any(shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")):
        return "no Chromium on PATH"
    return ""


def test_the_web_client_job(tmp_path: Path) -> None:
    why = browser_missing()
    if why and os.environ.get("CARDVERSE_BROWSER_TESTS") == "required":
        pytest.fail(f"{why}, and CARDVERSE_BROWSER_TESTS=required")
    if why:
        pytest.skip(why)
    example = ROOT / "examples" / "browser-president"
    done = run_job("web-client", tmp_path, {"BUILD": f"mkdir -p dist && cp -r {example}/. dist/",
                                            "GET_CHROMIUM": "command -v chromium || command -v chromium-browser"})
    passed(done, tmp_path, "conformance.xml")


def test_the_nightly_fuzz_job(tmp_path: Path) -> None:
    subprocess.run(["git", "clone", "-q", str(ROOT), str(tmp_path / "cardverse-conformance")], check=True)
    done = run_job("fuzz", tmp_path, {"ENGINE_CMD": f"{PY} -m harness serve", "EXAMPLES": "3"})
    assert done.returncode == 0, done.stdout[-3000:]
    assert not (tmp_path / "findings").exists()  # the reference served agrees with itself: nothing written


def test_the_nightly_audit_job(tmp_path: Path) -> None:
    records: dict[str, Any] = {"FETCH_RECORDS": "cardverse-conformance play --game rummy --seed 3 --json records/games.jsonl"
                               " > /dev/null"}
    done = run_job("audit", tmp_path, records)
    passed(done, tmp_path, "audit.xml")
