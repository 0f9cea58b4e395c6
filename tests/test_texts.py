"""``texts``: rule documents read in any language, checked against each other and the game file's fingerprints.

The documents are written for these tests (data/versions/texts/, English and Romanian, for the
synthetic Rummy 1.2.0 whose game file records their fingerprints); never the user's seed texts.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from harness.cli import main
from harness.versions.texts.document import read_document
from harness.versions.texts.facts import facts

DATA = Path(__file__).parent / "data" / "versions"
NEXT = str(DATA / "rummy-1.2.0.yaml")
EN, RO = DATA / "texts" / "rummy-1.2.0-en.txt", DATA / "texts" / "rummy-1.2.0-ro.txt"


def texts(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["texts", "--game-file", NEXT, *args])
    return code, capsys.readouterr().out.splitlines()


def edited(tmp_path: Path, source: Path, old: str, new: str) -> str:
    """A copy of ``source`` with ``old`` replaced by ``new`` once."""
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1
    copy = tmp_path / source.name
    copy.write_text(text.replace(old, new), encoding="utf-8")
    return str(copy)


def test_the_structure_is_read_by_position_in_any_language() -> None:
    en, ro = read_document(EN), read_document(RO)
    assert (en.language, ro.language, en.version, ro.version) == ("en", "ro", "1.2.0", "1.2.0")
    assert en.shape == ro.shape == [1, 4, 3, 4, 3, 2, 3, 4]
    numbers = [p.number for p in en.paragraphs()]
    assert numbers[:4] == ["title", "variant", "0.1", "1.1"] and numbers[-4:] == ["7.0", "7.1", "7.2", "7.3"]
    assert en.sections[5].paragraphs[1].line == 38


def test_the_facts_of_a_paragraph() -> None:
    found = facts("Runs: D-R-A yes, A-2-3 no; 3,4,5,V,D,R,A,2 and 3♣; deal 7 cards to two players; "
                  "discard_to_win and revolution=false", "en")
    assert sorted(found.notations) == ["3,4,5,V,D,R,A,2", "3♣", "A-2-3", "D-R-A"]
    assert sorted(found.numbers.elements()) == [2, 7]
    assert found.options == {"discard_to_win", "revolution"}
    assert sorted(facts("Câte 7 cărți la doi jucători, o carte", "ro").numbers.elements()) == [2, 7]


def test_documents_that_agree_and_match_the_spec(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = texts(capsys, str(EN), str(RO))
    assert code == 0
    assert lines == [
        "rummy-1.2.0-en.txt: rummy 1.2.0 (en), 8 sections, 24 paragraphs; told by its title",
        "rummy-1.2.0-ro.txt: rummy 1.2.0 (ro), 8 sections, 24 paragraphs; told by its title",
        "1 game(s), 1 version(s): rummy 1.2.0",
        "rummy 1.2.0: the 2 documents (en, ro) agree on every number, option name, card notation and section size",
        "rummy-1.2.0-en.txt: no paragraph changed since rummy-1.2.0.yaml was written from it",
        "rummy-1.2.0-ro.txt: no paragraph changed since rummy-1.2.0.yaml was written from it",
    ]


def test_one_number_changed_in_one_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = edited(tmp_path, RO, "până la țintă, 150 de puncte", "până la țintă, 200 de puncte")
    code, lines = texts(capsys, str(EN), copy)
    assert code == 1
    assert lines[3:] == [
        "R-4.3: the documents disagree on numbers: rummy-1.2.0-en.txt (en) line 33 says 150; rummy-1.2.0-ro.txt (ro) "
        "line 33 says 200",
        "rummy-1.2.0-en.txt: no paragraph changed since rummy-1.2.0.yaml was written from it",
        "R-4.3 (rummy-1.2.0-ro.txt (ro) line 33) changed since rummy-1.2.0.yaml was written from it; revisit "
        "rummy.play-to-target, rummy.game-end, option target; fixtures rummy.game.below-target-round-over, "
        "rummy.game.target-reached-exactly, rummy.game.three-rounds-to-target, rummy.game.tie-at-target, "
        "rummy.mutant.tie-at-target-round-winner-not-lowest, rummy.option.target-custom",
    ]


def test_an_option_name_a_notation_and_a_missing_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = RO.read_text(encoding="utf-8").replace("dacă discard_to_win nu", "dacă discard_on_win nu") \
        .replace("D-R-A este un șir", "D-R-A-2 este un șir").replace("• Un șir nu trece de As.\n", "")
    copy = tmp_path / RO.name
    copy.write_text(text, encoding="utf-8")
    code, lines = texts(capsys, str(EN), str(copy))
    assert code == 1
    assert "R-6: the documents disagree on rules in the section: rummy-1.2.0-en.txt (en) line 40 says 3; " \
           "rummy-1.2.0-ro.txt (ro) line 40 says 2" in lines
    assert "R-2.3: the documents disagree on option names: rummy-1.2.0-en.txt (en) line 20 says discard_to_win; " \
           "rummy-1.2.0-ro.txt (ro) line 20 says discard_on_win" in lines
    assert "R-3.1: the documents disagree on card notations: rummy-1.2.0-en.txt (en) line 24 says D-R-A; " \
           "rummy-1.2.0-ro.txt (ro) line 24 says D-R-A-2" in lines
    assert "R-6.3 (rummy-1.2.0-ro.txt (ro)) is in rummy-1.2.0.yaml but not in the document; revisit " \
           "rummy.no-jokers-no-51; fixtures rummy.action.malformed-refused, rummy.meld.low-first-meld" in lines


def test_a_language_without_fingerprints_is_compared_with_the_others_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    french = tmp_path / "rummy-fr.txt"
    french.write_text(EN.read_text(encoding="utf-8").replace("Rummy\n", "Rami à la française\n", 1), encoding="utf-8")
    code, lines = texts(capsys, str(french), str(EN))
    assert code == 0
    assert lines[0] == "rummy-fr.txt: rummy 1.2.0 (und), 8 sections, 24 paragraphs; told by the sizes of its sections"
    assert ("rummy-fr.txt: rummy-1.2.0.yaml has no fingerprint in und: compared with the other documents only "
            "(`texts DOC --record` prints them)") in lines


def test_a_version_without_a_game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = edited(tmp_path, EN, "Version 1.2.0", "Version 1.3.0")
    code, lines = texts(capsys, copy)
    assert code == 1
    assert lines[-1] == ("rummy-1.2.0-en.txt: no game file for rummy 1.3.0: write one (`new-version rummy FROM "
                         "1.3.0`) or pass it with --game-file")


def test_not_a_rule_document_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flat = tmp_path / "flat.txt"
    flat.write_text("Rummy\n\nno version here\n\nGoal\n", encoding="utf-8")
    assert main(["texts", str(flat), str(tmp_path / "missing.txt")]) == 2
    assert capsys.readouterr().err == f"{flat}:3: the variant line (the second paragraph) names no version " \
                                      "MAJOR.MINOR.PATCH\n"


def test_record_prints_the_sources_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = texts(capsys, "--record", str(EN), str(RO))
    assert code == 0
    assert lines[0] == "# end rummy-1.2.0.yaml with this section (it replaces any sources: there)"
    assert lines[1:5] == ["sources:", "  fingerprint: sha256-16 of the NFC text, whitespace collapsed, marker removed; "
                          "per language", "  sections: [1, 4, 3, 4, 3, 2, 3, 4]", "  paragraphs:"]
    recorded = (DATA / "rummy-1.2.0.yaml").read_text(encoding="utf-8")
    assert all(line in recorded for line in lines[1:])


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = edited(tmp_path, EN, "Deal 7 cards", "Deal 8 cards")  # "one card up" is a 1 the Romanian "o carte" is not
    shutil.copy(RO, tmp_path)
    code = main(["texts", "--game-file", NEXT, "--json", copy, str(tmp_path / RO.name)])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report["disagreements"] == [{"paragraph": "R-1.2", "kind": "numbers", "values": {
        "rummy-1.2.0-en.txt (en)": [1, 8], "rummy-1.2.0-ro.txt (ro)": [7]}, "lines": {
        "rummy-1.2.0-en.txt (en)": 12, "rummy-1.2.0-ro.txt (ro)": 12}}]
    assert [(c["paragraph"], c["how"], c["clauses"]) for c in report["changed"]] == [
        ("R-1.2", "changed", ["rummy.deal-size", "rummy.first-seat", "rummy.deal-order"])]


def test_a_file_that_is_not_a_rule_document_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    readme = Path(__file__).resolve().parent.parent / "README.md"
    assert main(["texts", str(readme)]) == 2
    assert "no numbered rule (a line starting 1. or 1)) in any section" in capsys.readouterr().err
