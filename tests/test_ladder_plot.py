"""The ladder's course: the LLR and Elo after each deal in its JSON, and drawn as an SVG file."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from harness.cli import main
from harness.ladder.ladder import thinned
from harness.ladder.plot import course_svg

RANDOM = "ladder_players:random_player"
SVG = "{http://www.w3.org/2000/svg}"


def test_the_json_holds_the_course_and_the_plot_draws_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, plot = tmp_path / "ladder.json", tmp_path / "ladder.svg"
    main(["ladder", "--game", "gin-rummy", "easy", RANDOM, "--cap", "30", "--json", str(out), "--plot", str(plot)])
    capsys.readouterr()
    record = json.loads(out.read_text(encoding="utf-8"))
    course = record["course"]
    assert [p["deal"] for p in course] == list(range(1, record["deals"] + 1))
    last = course[-1]  # the course ends where the result stands
    assert last["llr"] == record["sprt"]["llr"]
    assert (last["elo"], last["elo_low"], last["elo_high"]) == tuple(
        record["deal_scores"][k] for k in ("elo", "elo_low", "elo_high"))
    assert course[0]["elo_low"] is None  # one deal: no interval yet
    drawing = ET.fromstring(plot.read_text(encoding="utf-8"))
    lines = drawing.findall(f"{SVG}polyline")
    assert len(lines) == 2 and len(lines[0].get("points", "").split()) == len(course)
    band = drawing.find(f"{SVG}polygon")
    assert band is not None and len(band.get("points", "").split()) == 2 * len(course)
    label = drawing.get("aria-label", "")
    assert label.startswith(f"LLR {last['llr']:+.2f} after {record['deals']} deals")
    texts = [t.text or "" for t in drawing.iter(f"{SVG}text")]
    assert f"accept H1 at {record['sprt']['upper']:+.2f}" in texts and "elo1 20" in texts


def test_a_long_course_is_thinned_keeping_both_ends() -> None:
    course = [{"deal": n} for n in range(1, 1001)]
    kept = thinned(course, 400)
    assert len(kept) == 400 and kept[0]["deal"] == 1 and kept[-1]["deal"] == 1000
    assert [p["deal"] for p in kept] == sorted({p["deal"] for p in kept})
    assert thinned(course[:5], 400) == course[:5]


def test_a_record_without_a_course_is_said() -> None:
    with pytest.raises(ValueError, match="no course of deals"):
        course_svg({"game": "gin-rummy", "sprt": {}})
