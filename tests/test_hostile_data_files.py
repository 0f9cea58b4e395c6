"""Data files a user names, hostile: YAML aliases that expand past a bound, integers of thousands of digits, an
integer key in a fixture's options, two byte-order marks: each a clear error (exit 2, or a lint error at its
line), in about a second, never a traceback."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from harness.cli import main
from harness.host.files import DATA_NODES
from harness.spec.paths import fixtures_dir

TESTS = Path(__file__).parent
SCENARIOS = str(TESTS / "data" / "scenarios")
LIMIT_OPTION = fixtures_dir() / "gin-rummy" / "gin-rummy.knock.limit-option.yaml"


def laughs() -> str:
    """A "billion laughs": ten aliases of ten aliases, nine levels deep (10^10 values once expanded)."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("argv", [
    ["diff", "{file}", "rummy@1.1.0"],
    ["texts", "--game-file", "{file}", str(TESTS.parent / "README.md")],
    ["run", "--game-file", "{file}", SCENARIOS],
    ["run", "--expect-fail", "{file}", SCENARIOS],
    ["fuzz", "--game", "rummy", "--examples", "1", "--known-file", "{file}"],
])
@pytest.mark.parametrize(("text", "said"), [
    (laughs(), f"more than {DATA_NODES:,} values once aliases are expanded: use fewer aliases (*name), or write the "
               "values out"),
    ("president.play.x: " + "9" * 5000 + "\n", ":1: a number of 5,000 digits: no value here has more than a few; "
                                               "write it out shorter"),
])
def test_a_hostile_data_file_is_a_usage_error_at_once(argv: list[str], text: str, said: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text(text, encoding="utf-8")
    started = time.monotonic()
    code = main([part.format(file=hostile) for part in argv])
    seconds = time.monotonic() - started
    captured = capsys.readouterr()
    assert code == 2, captured.out + captured.err
    assert said in captured.out + captured.err
    assert "Traceback" not in captured.out + captured.err
    assert seconds < 30, "bounded: it was minutes of CPU"  # a bound far from the ~1 s it takes, not a timing


def test_an_integer_key_in_options_is_a_lint_error_at_its_line(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    text = LIMIT_OPTION.read_text(encoding="utf-8")
    assert "options: {knock_limit: 5}\n" in text
    line = text[:text.index("options:")].count("\n") + 1
    broken = tmp_path / "int-key.yaml"
    broken.write_text(text.replace("options: {knock_limit: 5}", "options: {knock_limit: 5, 1: true}"), encoding="utf-8")
    assert main(["lint", str(broken)]) == 1
    out = capsys.readouterr().out
    assert f"int-key.yaml:{line}:30: $.options[1]: unknown option 1 for gin-rummy; known: " in out


def test_two_byte_order_marks_are_a_lint_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "two-boms.yaml"
    broken.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbf" + LIMIT_OPTION.read_bytes())
    one = tmp_path / "one-bom.yaml"
    one.write_bytes(b"\xef\xbb\xbf" + LIMIT_OPTION.read_bytes())
    assert main(["lint", str(one)]) == 0  # one is allowed, as every reader takes it
    capsys.readouterr()
    assert main(["lint", str(broken)]) == 1
    assert ("two-boms.yaml:1:1: $: the file starts with two byte-order marks: save it as UTF-8 with one at most"
            in capsys.readouterr().out)
