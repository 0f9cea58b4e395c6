"""Every file the user names is read safely: not UTF-8, UTF-16, too deep, too big, a FIFO, a folder: a clear error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main

HERE = Path(__file__).parent
DOCUMENT = HERE / "data" / "versions" / "texts" / "rummy-1.2.0-en.txt"


def hostile(tmp_path: Path, kind: str, suffix: str) -> Path:
    """A file of one hostile kind."""
    path = tmp_path / f"{kind}{suffix}"
    if kind == "latin1":
        path.write_bytes("r\xe9sum\xe9: x\n".encode("latin-1"))
    elif kind == "utf16":
        path.write_bytes("a: b\n".encode("utf-16"))
    elif kind == "deep":
        path.write_text("[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    elif kind == "deep-mapping":
        path.write_text("".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "x: 1\n", encoding="utf-8")
    elif kind == "huge":
        with path.open("wb") as handle:
            handle.truncate(600 << 20)  # sparse: past every limit, costs no disk
    elif kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    return path


def commands(path: Path) -> list[list[str]]:
    return [["run", str(HERE / "data" / "scenarios"), "--expect-fail", str(path)],
             ["diff", str(path), "rummy@1.1.0"], ["texts", str(path)], ["report", str(path), "--out", str(path) + ".out"],
            ["texts", str(DOCUMENT), "--game-file", str(path)]]


KINDS = ["latin1", "utf16", "deep", "deep-mapping", "huge", "folder", "fifo"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_hostile_file_is_a_clear_error_naming_it(tmp_path: Path, kind: str) -> None:
    path = hostile(tmp_path, kind, ".json" if kind == "deep" else ".yaml")
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), "CI": "1"}
    for args in commands(path):
        if kind == "deep-mapping" and args[0] in ("report", "texts") and "--game-file" not in args:
            continue  # a deep YAML mapping is a well-formed run line or document text for all they know
        done = subprocess.run([sys.executable, "-m", "harness", *args], env=env, capture_output=True, text=True,
                              timeout=120, cwd=HERE.parent)  # a FIFO would hang it: the timeout says so
        assert done.returncode == 2, (args, done.stdout[-500:], done.stderr[-500:])
        assert "Traceback" not in done.stderr and str(path) in done.stderr, (args, done.stderr[-500:])
        assert len(done.stderr) < 2000, (args, done.stderr[:500])


def test_the_known_failures_file_names_its_line_when_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "known.yaml"
    path.write_bytes(b"a: fine\nb: caf\xe9\n")
    assert main(["run", str(HERE / "data" / "scenarios"), "--expect-fail", str(path)]) == 2
    assert f"{path}:2: byte(s) e9 are not UTF-8" in capsys.readouterr().err
