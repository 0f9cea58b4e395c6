"""Fields that reach a file name or a link, planted with hostile values: nothing is written outside --out."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from harness.cli import main
from harness.host.files import NAME_LIMIT, UnsafePath, file_part, inside
from harness.reports.safetext import (
    markdown_code,
    markdown_fence,
    markdown_text,
    safe_link,
)
from harness.spec.paths import spec_dir

SCENARIOS = Path(__file__).parent / "data" / "scenarios"
HOSTILE = ["../../../escaped", "/../../../escaped-version", "/etc/passwd", "a\0b", "x" * 400, "CON", "nul.txt",
           "..", ".", "", "javascript:alert(1)", "a/b\\c", "\ud800", "é" * 300]


def files_under(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("text", HOSTILE)
def test_a_file_name_part_is_one_safe_part(text: str) -> None:
    part = file_part(text)
    assert re.fullmatch(r"[A-Za-z0-9._-]+", part)
    assert not part.startswith(".") and len(part) <= NAME_LIMIT
    assert not re.match(r"(?i)(con|prn|aux|nul|com\d|lpt\d)(\.|$)", part)


def test_a_cut_name_keeps_a_hash_of_the_whole() -> None:
    assert file_part("a" * 200) != file_part("a" * 201)
    assert file_part("rummy-1.1.0") == "rummy-1.1.0"


@pytest.mark.parametrize("relative", ["../x", "/tmp/x", "a/../../x", "a\0b", ""])
def test_a_path_leaving_its_folder_is_refused(tmp_path: Path, relative: str) -> None:
    with pytest.raises(UnsafePath):
        inside(tmp_path / "out", relative)


def hostile_run(path: Path) -> str:
    """A run file with a hostile value in every field that reaches a file name or a link."""
    header = {"kit": "cardverse-conformance", "spec": {}, "engine": {"name": "../../evil/" + "n" * 400, "version": "1"}}
    records = [{"id": f"id-{i}", "game": game, "rule_version": version, "outcome": "fail", "clauses": [game],
                "file": "`x` <img src=x onerror=alert(1)>", "line": 1, "message": "[x](javascript:alert(1))"}
               for i, (game, version) in enumerate([(g, "1.0.0") for g in HOSTILE] + [("rummy", v) for v in HOSTILE])]
    records.append({"id": "javascript:alert(1)", "game": "javascript:alert(1)", "outcome": "fail",
                    "clauses": ["javascript:alert(1)"]})
    path.write_text("\n".join(json.dumps(r) for r in [header, *records]) + "\n", encoding="utf-8")
    return str(path)


def test_report_writes_only_inside_out_whatever_the_run_file_says(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    run = hostile_run(deep / "run.jsonl")
    out = deep / "report"
    assert main(["report", run, "--out", str(out), "--book", str(deep / "book")]) == 0
    assert files_under(tmp_path) - files_under(out) == {Path(run)}
    for page in out.glob("*.html"):
        for link in re.findall(r'(?:href|src)="([^"]*)"', page.read_text(encoding="utf-8")):
            assert link == "data:," or safe_link(link) is not None, (page.name, link)  # data:, is the kit's empty icon
    for page in out.glob("*.md"):
        text = re.sub(r"(`+).*?\1", "", page.read_text(encoding="utf-8"))  # a code span shows its text as is
        assert not re.search(r"(?<!\\)\]\(javascript:", text) and "<img" not in text, page.name


def test_report_refuses_a_book_link_that_is_not_http(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = hostile_run(tmp_path / "run.jsonl")
    assert main(["report", run, "--out", str(tmp_path / "r"), "--book", "javascript://alert(1)"]) == 2
    assert "http(s)" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_links_are_relative_or_http() -> None:
    assert safe_link("https://example.org/x") and safe_link("../book/x.html") == "../book/x.html"
    for bad in ("javascript:alert(1)", "JavaScript:x", "data:text/html,x", "//evil.example/x", "java\tscript:x"):
        assert safe_link(bad) is None


def test_markdown_text_makes_no_link_tag_or_code_span() -> None:
    assert "](" not in markdown_text("[x](javascript:alert(1))").replace("\\](", "")
    assert "<" not in markdown_text("<img src=x onerror=alert(1)>")
    assert markdown_code("a `b` c") == "``a `b` c``"
    assert markdown_fence(["```", "````x"]) == "`````"


def test_a_fixture_cannot_close_the_fence_of_its_source_page_or_make_a_link(tmp_path: Path) -> None:
    text = (SCENARIOS / "meld-and-refuse.yaml").read_text(encoding="utf-8")
    text = text.replace("title: A Q-K-A run is accepted, three unrelated cards are refused",
                        "title: \"[x](javascript:alert(1))\"\ndescription: |\n  ```\n  <img src=x onerror=alert(1)>")
    fixture = tmp_path / "hostile.yaml"
    fixture.write_text(text, encoding="utf-8")
    out = tmp_path / "book"
    assert main(["docs", str(fixture), "--out", str(out)]) == 0
    source = (out / "sources" / "harness.meld-and-refuse.md").read_text(encoding="utf-8")
    opening = re.search(r"^(`{3,})yaml$", source, re.MULTILINE)
    assert opening and len(opening.group(1)) > 3
    closing = [m.start() for m in re.finditer(rf"^{opening.group(1)}$", source, re.MULTILINE)]
    assert len(closing) == 1 and source.index("<img") < closing[0]
    for page in out.rglob("*.md"):
        text = re.sub(r"^(`{3,})yaml$.*?^\1$", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)  # fenced: shown as is
        assert not re.search(r"(?<!\\)\]\(javascript:", text), page


@pytest.mark.parametrize("version", ["9.9.9\n", "9.9.9 ", " 9.9.9", "9" * 300 + ".0.0", "1.2", "01.2.0", "1.2.3-x"])
def test_new_version_refuses_what_is_not_a_version_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], version: str) -> None:
    before = set(os.listdir(spec_dir() / "games"))
    assert main(["new-version", "rummy", "1.1.0", version]) == 2
    assert main(["new-version", "rummy", "1.1.0", version, "--out", str(tmp_path / "x.yaml")]) == 2
    assert "is not a version" in capsys.readouterr().err
    assert set(os.listdir(spec_dir() / "games")) == before and not list(tmp_path.iterdir())


def test_an_out_through_a_dangling_link_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "elsewhere" / "target"
    (tmp_path / "elsewhere").mkdir()
    link = tmp_path / "link"
    link.symlink_to(target)
    assert main(["new-version", "rummy", "1.1.0", "9.9.9", "--out", str(link)]) == 2
    assert main(["fuzz", "--game", "rummy", "--examples", "1", "--out", str(link)]) == 2
    assert main(["docs", str(SCENARIOS), "--out", str(link)]) == 2
    assert main(["run", str(SCENARIOS), "--write-expect-fail", str(link)]) == 2
    assert not target.exists()
    assert "does not exist" in capsys.readouterr().err


def test_report_writes_its_pages_for_surrogates_long_names_and_deep_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header = '{"kit": "cardverse-conformance", "spec": {}, "engine": {"name": "' + "n" * 400 + '\\ud800", "version": "1"}}'
    surrogate = '{"id": "x\\udc00", "game": "rummy", "rule_version": "1.1.0", "outcome": "fail", "message": "bad \\ud800 text"}'
    deep = '{"id": "deep", "game": "rummy", "outcome": "fail", "details": ' + "[" * 5000 + "]" * 5000 + "}"
    run = tmp_path / "run.jsonl"
    run.write_text("\n".join([header, surrogate, deep]) + "\n", encoding="utf-8")
    out = tmp_path / "report"
    assert main(["report", str(run), "--out", str(out)]) == 0
    assert f"{run}:3: a record nested deeper than" in capsys.readouterr().err
    assert "\ufffd" in (out / "rummy-1.1.0.md").read_text(encoding="utf-8")
    assert all(len(p.name) < 200 for p in (out / "badges").iterdir())
