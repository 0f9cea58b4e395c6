"""Chromium under ``--engine-page`` writes only in the kit's temporary folder, removes what it wrote, and a TMPDIR
too long for its socket gets a message saying what to do.

Each run is a process of its own with HOME and TMPDIR of the test's: afterwards HOME holds only the
kit's own cache (no ``.config/chromium``, no ``Crash Reports``) and TMPDIR is empty.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from harness.spec.paths import fixtures_dir

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "examples" / "browser-president" / "index.html"
FIXTURE = fixtures_dir() / "president" / "president.deal.four-players-fresh-deal.yaml"


@pytest.fixture(autouse=True)
def _needs_a_browser() -> None:
    from test_engine_page import require_browser

    require_browser()


def run_page(home: Path, temporary: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "TMPDIR": str(temporary),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("XDG_CONFIG_HOME", None)
    env.pop("XDG_CACHE_HOME", None)
    return subprocess.run([sys.executable, "-m", "harness", "run", str(FIXTURE), "--engine-page", str(PAGE)],
                          capture_output=True, text=True, env=env, timeout=180)


def test_chromium_writes_only_in_the_temporary_folder_and_removes_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    temporary = Path(tempfile.mkdtemp(prefix="cv-", dir="/tmp"))  # short: pytest's own folders are long for Chromium
    try:
        done = run_page(home, temporary)
        left_in_temporary = list(temporary.iterdir())
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    left = sorted(str(path.relative_to(home)) for path in home.rglob("*"))
    assert all(path.startswith(".cache/cardverse-conformance") for path in left), left  # the kit's own cache only
    assert left_in_temporary == []


def test_a_temporary_folder_too_long_for_chromium_says_what_to_do(tmp_path: Path) -> None:
    home, temporary = tmp_path / "home", tmp_path / ("t" * 80)
    home.mkdir()
    temporary.mkdir()
    done = run_page(home, temporary)
    assert done.returncode == 3
    assert (f"the temporary folder {temporary} is too long a path for Chromium, whose socket there "
            in done.stderr) and "set TMPDIR to a shorter folder (e.g. TMPDIR=/tmp)" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
