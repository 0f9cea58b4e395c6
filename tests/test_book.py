"""The rule book and the report, without a browser: pages, links, drawings, run files, badges."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fake_engines import (
    AcceptsEverything,
    RaisesOnSecondAction,
    RefusesEverything,
    StartRaises,
    make,
)

from harness.book import model
from harness.book.badges import badge_svg
from harness.book.cards_svg import card_name, card_svg, colour
from harness.book.positions import Replayer, position
from harness.book.runs import RunFileError, read_run, record_clauses
from harness.book.site import render_book
from harness.cli import main
from harness.reports.explain import check_sentences, explain
from harness.spec import gamespec as specs
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths
from harness.suite.model import Step

SCENARIOS = Path(__file__).parent / "data" / "scenarios"


def rummy() -> specs.GameSpec:
    return next(s for s in specs.game_specs() if s.game == "rummy")


def test_cards_are_red_or_black_with_a_spoken_name() -> None:
    assert [colour(c) for c in ("QH", "TD", "AS", "2C")] == ["#c0162c", "#c0162c", "#1b1b1f", "#1b1b1f"]
    assert [card_name(c) for c in ("QH", "TD", "10D", "AS", "7C")] == [
        "queen of hearts", "10 of diamonds", "10 of diamonds", "ace of spades", "7 of clubs"]
    face = card_svg("TD")
    assert 'aria-label="10 of diamonds"' in face and ">10</text>" in face and 'fill="#c0162c"' in face


def test_a_position_draws_hands_melds_trick_and_keeps_unknown_keys_as_facts() -> None:
    president = next(s for s in specs.game_specs() if s.game == "president")
    drawn = position(president, {
        "phase": "play", "to_act": 1, "hands": [["3C"], None, ["2S", "AH"]], "order": "reversed",
        "trick": [{"seat": 0, "cards": ["7D", "7H"]}], "hand_sizes": [1, 4, 2],
        "cpu_choice": {"seat": 1, "level": "hard"}})
    assert [z.text for z in drawn.zones] == [
        "Seat 0's hand: 3♣", "Seat 2's hand: 2♠ A♥", "Trick: seat 0 played: 7♦ 7♥"]
    assert drawn.facts == [
        ("phase", "play"), ("to act", "1"), ("Seat 1's hand (to act)", "hidden"),
        ("order", "reversed"), ("cpu choice", "{seat: 1, level: hard}"),
        ("rank order, low to high", "2 A K Q J 10 9 8 7 6 5 4 3 (reversed)")]
    melds = position(rummy(), {"melds": [{"owner": 1, "cards": ["QH", "KH", "AH"]}], "stock": ["2C"] * 12})
    assert [z.text for z in melds.zones] == [
        "Meld 0 (seat 1's): Q♥ K♥ A♥", "Stock (12 cards, top first): " + " ".join(["2♣"] * 10) + " … and 2 more"]


def test_a_step_kind_the_book_does_not_know_is_told_plainly() -> None:
    @dataclasses.dataclass(frozen=True)
    class FutureStep(Step):
        reveal: dict[str, Any] | None = None

    step = FutureStep(index=0, line=3, reveal={"seat": 1, "cards": "all"}, note="a hand is shown")
    assert check_sentences(step) == ["Note: a hand is shown", "Reveal: {seat: 1, cards: all}"]


def test_the_replay_says_where_the_reference_could_not_go_on() -> None:
    scenario = next(s for s in load_paths([SCENARIOS]).scenarios if s.id == "harness.meld-and-refuse")
    replayed = Replayer(make(RaisesOnSecondAction)).replay(scenario, rummy())
    assert replayed.start is not None and list(replayed.after) == [0]
    assert replayed.problem == "the reference engine stopped at step 2 (RuntimeError: boom)"
    assert Replayer(StartRaises()).replay(scenario, rummy()).problem == (
        "the reference engine could not start this fixture (ValueError: cannot deal)")
    refused = Replayer(make(RefusesEverything)).replay(scenario, rummy())
    assert (list(refused.after), refused.problem) == ([], "the reference engine refused it (wrong-phase) at step 1, "
                                                          "unlike the fixture, so the positions from there on are not drawn")
    accepted = Replayer(make(AcceptsEverything)).replay(scenario, rummy())
    assert (list(accepted.after), accepted.problem) == ([0, 1], "the reference engine accepted it at step 3, "
                                                               "unlike the fixture, so the positions from there on are not drawn")


def test_the_replay_stops_at_a_step_kind_it_does_not_know() -> None:
    @dataclasses.dataclass(frozen=True)
    class FutureStep(Step):
        reveal: dict[str, Any] | None = None

    scenario = next(s for s in load_paths([SCENARIOS]).scenarios if s.id == "harness.meld-and-refuse")
    steps = (scenario.steps[0], FutureStep(index=1, line=17, reveal={"seat": 1}), *scenario.steps[2:])
    replayed = Replayer().replay(dataclasses.replace(scenario, steps=steps), rummy())
    assert (list(replayed.after), replayed.problem) == (
        [0], "step 2 (reveal) is not replayed, so the positions from there on are not drawn")
    files = render_book(model.build([dataclasses.replace(scenario, steps=steps)], {}))
    page = files["fixtures/harness.meld-and-refuse.html"]
    assert '<p class="check">Reveal: {seat: 1}</p>' in page
    assert "step 2 (reveal) is not replayed" in page and "   - Reveal: {seat: 1}" in files["fixtures/harness.meld-and-refuse.md"]


@pytest.fixture(scope="module")
def small_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("small") / "book"
    assert main(["docs", str(SCENARIOS), "--out", str(out)]) == 0
    return out


def test_the_book_tells_a_fixture_as_explain_does_with_its_cards_drawn(small_book: Path) -> None:
    page = (small_book / "fixtures" / "harness.meld-and-refuse.html").read_text(encoding="utf-8")
    scenario = next(s for s in load_paths([SCENARIOS]).scenarios if s.id == "harness.meld-and-refuse")
    told = explain(scenario)
    for sentence in ("Seat 0 lays down Q♥ K♥ A♥: accepted.",
                     "Seat 0 lays down 2♣ 3♦ 4♠: must be REFUSED (invalid-meld: The cards of a meld do not form a valid set or run)"):
        assert sentence in told and sentence in page
    assert '<img class="card" src="../cards/QH.svg" alt="queen of hearts"' in page
    assert "Meld 0 (seat 0&#39;s)" in page
    assert 'href="../sources/harness.meld-and-refuse.html#L20"' in page  # the refused step's line
    assert 'href="../clauses/rummy-1.1.0/rummy.ace-after-king.html"' in page
    source = (small_book / "sources" / "harness.meld-and-refuse.html").read_text(encoding="utf-8")
    assert '<li id="L20"><code>  - seat: 0</code></li>' in source
    twin = (small_book / "fixtures" / "harness.meld-and-refuse.md").read_text(encoding="utf-8")
    assert "- Meld 0 (seat 0's): Q♥ K♥ A♥" in twin
    assert "3. (line 20) Seat 0 lays down 2♣ 3♦ 4♠: must be REFUSED" in twin


def test_clause_pages_link_back_to_their_fixtures(small_book: Path) -> None:
    page = (small_book / "clauses" / "rummy-1.1.0" / "rummy.ace-after-king.html").read_text(encoding="utf-8")
    assert 'href="../../fixtures/harness.meld-and-refuse.html">harness.meld-and-refuse</a>' in page
    game = (small_book / "games" / "rummy-1.1.0.html").read_text(encoding="utf-8")
    ids = re.findall(r'<article class="clause" id="([^"]+)"', game)
    assert ids == [c.id for c in sorted(rummy().clauses.values(), key=lambda c: model.source_order(c.source))]
    assert [model.source_order(s) for s in ("R-1.2", "R-3.10", "R-3.9", "none")] == [(0, 1, 2), (0, 3, 10), (0, 3, 9), (1,)]


def test_the_edge_cases_page_lists_every_refusal_and_interpretation(small_book: Path) -> None:
    page = (small_book / "edge-cases.html").read_text(encoding="utf-8")
    interpretations = [c for s in specs.game_specs() for c in s.clauses.values() if c.basis == "interpretation"]
    assert f"Interpretations ({len(interpretations)})" in page
    assert "Refused actions (1)" in page
    assert 'href="fixtures/harness.meld-and-refuse.html#step-3"' in page


def test_the_bundled_book_has_a_page_per_clause_and_fixture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "book"
    assert main(["docs", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith("wrote ")
    index = (out / "index.html").read_text(encoding="utf-8")
    for spec in specs.game_specs():
        assert f'href="games/{spec.game}-{spec.rule_version}.html"' in index
        for clause_id in spec.clauses:
            for ext in ("html", "md"):
                assert (out / f"{model.clause_page(spec, clause_id)}.{ext}").is_file(), clause_id
    for scenario in load_paths([fixtures_dir()]).scenarios:
        for ext in ("html", "md"):
            assert (out / f"fixtures/{scenario.id}.{ext}").is_file(), scenario.id
    # Written twice: the folder is ours, so it is cleared and written again.
    assert main(["docs", "--out", str(out)]) == 0


def test_docs_refuses_a_folder_it_did_not_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["docs", str(SCENARIOS), "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"{tmp_path} is not empty and was not written by cardverse-conformance: give a new or empty folder for --out\n")
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def write_run(path: Path, records: list[dict[str, Any]], engine: str = "fake") -> str:
    header = {"kit": "cardverse-conformance", "spec": {"rummy": "1.1.0"}, "engine": {"name": engine, "version": "1"}}
    path.write_text("\n".join(json.dumps(r) for r in [header, *records]) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("text", "message"), [
    ("", "{path}: empty; give the file `run --json FILE` wrote"),
    ("{not json\n", "{path}:1: not JSON (Expecting property name enclosed in double quotes); each line must be one JSON object, as `run --json FILE` writes"),
    ('{"id": "x"}\n', "{path}:1: the first line must be the run's header (kit, spec, engine); is this a file `run --json` wrote?"),
    ('{"kit": "k", "engine": {}}\n[1]\n', "{path}:2: a JSON list, not an object"),
    ('{"kit": "k", "engine": {}}\n{"id": "x", "game": "rummy"}\n', "{path}:2: a fixture record without outcome"),
    ('{"kit": "k", "engine": {}}\n{"id": "x", "game": "rummy", "outcome": "ok"}\n',
     "{path}:2: unknown outcome 'ok' (one of pass, fail, error, skip, xfail, xpass)"),
])
def test_a_bad_run_file_is_said_with_its_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RunFileError) as raised:
        read_run(path)
    assert str(raised.value) == message.format(path=path)


def test_the_clauses_of_a_record_with_their_basis_when_given() -> None:
    assert record_clauses({"clauses": ["a", "b"]}) == {"a": None, "b": None}
    assert record_clauses({"clauses": [{"id": "a", "basis": "interpretation"}, "b"],
                           "steps": [{"step": 2, "clauses": ["c"]}], "step_clauses": {"3": ["d"]},
                           "clause_basis": {"b": "text"}}) == {"a": "interpretation", "b": "text", "c": None, "d": None}


def test_the_report_puts_a_broken_engine_beside_the_reference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reference, broken = tmp_path / "ref.jsonl", tmp_path / "broken.jsonl"
    assert main(["run", str(SCENARIOS), "--json", str(reference)]) == 0
    assert main(["run", str(SCENARIOS), "--engine", "fake_engines:accepts_everything", "--json", str(broken)]) == 1
    capsys.readouterr()
    out = tmp_path / "report"
    assert main(["report", str(reference), str(broken), "--out", str(out), "--book", str(tmp_path / "book")]) == 0
    assert capsys.readouterr().out == f"wrote the report of 2 run(s) and 2 badge(s) to {out}; open {out / 'index.html'}\n"
    page = (out / "rummy-1.1.0.html").read_text(encoding="utf-8")
    row = re.search(r'<tr id="rummy.valid-meld">(.*?)</tr>', page, re.S)
    assert row is not None
    cells = re.findall(r'<td class="cell (o-\w+)">(.*?)</td>', row.group(1), re.S)
    assert cells == [("o-pass", "pass 1/1"),
                     ("o-fail", 'fail 0/1<br><a href="#cardverse-reference-0.1.0-broken.jsonl--harness.meld-and-refuse">harness.meld-and-refuse</a>')]
    assert "step 3 (line 20): seat 0 {meld: [2♣, 3♦, 4♠]} was accepted, but must be refused (invalid-meld)" in page
    assert 'href="../book/fixtures/harness.meld-and-refuse.html#step-3"' in page
    assert '<tr id="rummy.first-seat"><td><a href="../book/clauses/rummy-1.1.0/rummy.first-seat.html">rummy.first-seat</a> <span class="basis basis-interpretation">interpretation</span>' in page
    twin = (out / "rummy-1.1.0.md").read_text(encoding="utf-8")
    assert "| [rummy.valid-meld](../book/clauses/rummy-1.1.0/rummy.valid-meld.md) | R-3.2 | pass 1/1 | **fail 0/1** |" in twin
    assert "  - missing: " not in twin and "was accepted, but must be refused (invalid-meld)" in twin
    badge = (out / "badges" / "cardverse-reference-0.1.0-broken.jsonl-rummy-1.1.0.svg").read_text(encoding="utf-8")
    assert 'aria-label="rummy 1.1.0: 2/3"' in badge and 'fill="#c0162c"' in badge
    good = (out / "badges" / "cardverse-reference-0.1.0-ref.jsonl-rummy-1.1.0.svg").read_text(encoding="utf-8")
    assert 'aria-label="rummy 1.1.0: 3/3"' in good and 'fill="#2e8540"' in good


def test_the_report_reads_the_basis_a_record_gives(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run.jsonl", [
        {"id": "x", "game": "rummy", "rule_version": "1.1.0", "outcome": "xfail", "actual": "fail",
         "clauses": [{"id": "rummy.run", "basis": "interpretation"}, "rummy.new-clause"],
         "message": "m", "known_failure": "k"}])
    out = tmp_path / "report"
    assert main(["report", run, "--out", str(out)]) == 0
    page = (out / "rummy-1.1.0.html").read_text(encoding="utf-8")
    assert re.search(r'<tr id="rummy.run">.*?basis-interpretation.*?<td class="cell o-xfail">xfail 0/1</td>', page, re.S)
    assert '<tr id="rummy.new-clause">' in page  # a clause the game file lacks is still shown
    assert '<td class="cell o-none">—</td>' in page  # a clause no record covers


def test_a_badge_says_its_label_and_value() -> None:
    assert 'aria-label="rummy 1.1.0: 67/67"' in badge_svg("rummy 1.1.0", "67/67", "pass")
    assert 'fill="#777780"' in badge_svg("president 1.1.0", "not run", "none")


def test_every_link_and_image_of_the_small_book_resolves_in_both_twins(small_book: Path) -> None:
    pages = sorted(small_book.rglob("*.html")) + sorted(small_book.rglob("*.md"))
    pattern = {".html": r'(?:href|src)="([^"#:]+)(?:#[^"]*)?"', ".md": r"\]\(([^)#:]+)(?:#[^)]*)?\)"}
    checked = 0
    for page in pages:
        for link in re.findall(pattern[page.suffix], page.read_text(encoding="utf-8")):
            assert (page.parent / link).is_file(), f"{page.relative_to(small_book)} links to a missing {link}"
            checked += 1
    assert checked > 1000


def test_report_of_an_unreadable_run_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.jsonl"
    assert main(["report", str(missing), "--out", str(tmp_path / "report")]) == 2
    assert capsys.readouterr().err.startswith(f"{missing}: cannot read it ([Errno 2] No such file or directory")
    assert not (tmp_path / "report").exists()


def test_the_report_of_a_mutant_shows_its_clause_red_with_every_failing_fixture(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "mutant.jsonl"
    main(["run", "--clause", "rummy.ace-after-king", "--engine", "harness.mutants:rummy_qka_refused",
          "--json", str(run)])
    records = [json.loads(line) for line in run.read_text(encoding="utf-8").splitlines()[1:]]
    failing = [r["id"] for r in records if r["outcome"] in ("fail", "error")]
    assert failing, "the mutant refusing Q-K-A must fail a fixture covering rummy.ace-after-king"
    assert main(["report", str(run), "--out", str(tmp_path / "report")]) == 0
    capsys.readouterr()
    page = (tmp_path / "report" / "rummy-1.1.0.html").read_text(encoding="utf-8")
    row = re.search(r'<tr id="rummy.ace-after-king">.*?<td class="cell (o-\w+)">(.*?)</td>', page, re.S)
    assert row is not None and row.group(1) in ("o-fail", "o-error")
    passed = sum(r["outcome"] == "pass" for r in records)
    assert row.group(2).startswith(f"{row.group(1)[2:]} {passed}/{len(records)}<br>")
    assert re.findall(r'">([^<]+)</a>', row.group(2)) == failing
    badge = (tmp_path / "report" / "badges" / "mutant-rummy.qka-refused-0.1.0-rummy-1.1.0.svg").read_text(encoding="utf-8")
    assert f'aria-label="rummy 1.1.0: {passed}/{len(records)}"' in badge and 'fill="#c0162c"' in badge


def test_options_show_their_default_and_range_in_words() -> None:
    spec = specs.GameSpec({"clauses": [], "options": {
        "limit": {"type": "integer", "default": 10, "minimum": 0, "maximum": 100, "meaning": " m ", "source": "G-1"},
        "target": {"type": "integer", "default": 100, "minimum": 1},
        "cap": {"type": "integer", "default": 3, "maximum": 9},
        "mode": {"enum": ["a", "b"], "default": "a"},
        "flag": {"type": "boolean", "default": False}}}, Path("x.yaml"))
    assert [(o["name"], o["default"], o["allowed"]) for o in model.GameView(spec, []).options()] == [
        ("limit", "10", "integer 0 to 100"), ("target", "100", "integer ≥ 1"), ("cap", "3", "integer ≤ 9"),
        ("mode", "a", "a, b"), ("flag", "false", "true, false")]


def test_explain_tells_several_acceptable_reasons_a_seeded_layout_and_a_layoff_onto_named_cards() -> None:
    from harness.reports.explain import describe_action, layout_lines, refusal

    step = Step(index=0, line=1, seat=0, action={"discard": "QH"}, expect="refused",
                reason="wrong-phase", reasons=("wrong-phase", "card-not-in-hand"))
    assert refusal(rummy(), step) == "any of wrong-phase, card-not-in-hand"
    assert "Reasons" not in " ".join(check_sentences(step))
    scenario = next(s for s in load_paths([SCENARIOS]).scenarios if s.id == "harness.meld-and-refuse")
    third = scenario.steps[2]
    steps = (*scenario.steps[:2], dataclasses.replace(third, reasons=("invalid-meld",)), *scenario.steps[3:])
    replayed = Replayer().replay(dataclasses.replace(scenario, steps=steps), rummy())
    assert (list(replayed.after), replayed.problem) == ([0, 1, 2], "")
    assert layout_lines({"seed": 7, "players": 3}) == ["the seeded deal of seed 7 for 3 players (spec/seeded-deal.md)"]
    assert describe_action({"layoff": ["8H"], "onto": ["5H", "6H", "7H"]}) == "lays off 8♥ onto meld 5♥ 6♥ 7♥"


def test_a_failure_charged_to_some_clauses_is_red_only_for_them(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run.jsonl", [
        {"id": "x", "game": "rummy", "rule_version": "1.1.0", "outcome": "fail", "message": "step 2: m",
         "clauses": ["rummy.run", "rummy.set"], "charged": ["rummy.set", "rummy.valid-meld"],
         "basis": {"rummy.run": "text", "rummy.set": "interpretation", "rummy.valid-meld": "text"}},
        {"id": "y", "game": "rummy", "rule_version": "1.1.0", "outcome": "pass", "clauses": ["rummy.run"]}])
    assert record_clauses(read_run(run).records[0]) == {
        "rummy.run": "text", "rummy.set": "interpretation", "rummy.valid-meld": "text"}
    out = tmp_path / "report"
    assert main(["report", run, "--out", str(out)]) == 0
    page = (out / "rummy-1.1.0.html").read_text(encoding="utf-8")

    def cell(clause: str) -> str:
        found = re.search(rf'<tr id="{re.escape(clause)}">.*?<td class="cell ([^"]+)">([^<]*)', page, re.S)
        assert found is not None, clause
        return " ".join(found.groups())

    assert [cell(c) for c in ("rummy.run", "rummy.set", "rummy.valid-meld")] == [
        "o-pass pass 1/1", "o-fail fail 0/1", "o-fail fail 0/1"]
    rows = dict(re.findall(r'<tr id="([^"]+)">(.*?)</tr>', page, re.S))
    assert "basis-interpretation" in rows["rummy.set"] and "basis-interpretation" not in rows["rummy.run"]
