"""The computer players' contract in the spec: clauses, bounds, the view schemas."""

from __future__ import annotations

import pytest

from harness.players.schemas import render, schema_path
from harness.spec import gamespec as specs

SPECS = specs.game_specs()
PREFIX = {"rummy": "R", "gin-rummy": "G", "president": "P"}


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.game)
def test_every_computer_player_paragraph_has_clauses(spec: specs.GameSpec) -> None:
    sources = {c.source for c in spec.clauses.values() if c.level}
    assert sources == {f"{PREFIX[spec.game]}-7.{i}" for i in range(4)}


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.game)
def test_every_level_has_position_clauses_and_normal_and_hard_an_aggregate_one(spec: specs.GameSpec) -> None:
    checked = {(c.level, c.checked) for c in spec.clauses.values() if c.level}
    assert {("any", "players"), ("easy", "position"), ("normal", "position"), ("hard", "position"),
            ("normal", "aggregate"), ("hard", "aggregate")} <= checked
    assert spec.data["computer_players"]["levels"] == ["easy", "normal", "hard"]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.game)
def test_the_view_schema_files_are_up_to_date(spec: specs.GameSpec) -> None:
    assert schema_path(spec.game).read_text(encoding="utf-8") == render(spec), \
        "run `python -m harness.players.schemas` after changing a game file"


ALLOWED = {"reference_engine.cards", "reference_engine.gin_rummy.deadwood", "reference_engine.rummy.melds"}


def test_the_reference_players_import_no_game_module() -> None:
    import ast
    from pathlib import Path

    import reference_engine

    root = Path(reference_engine.__file__).parent
    found = {}
    for path in sorted(root.glob("*/easy.py")) + sorted(root.glob("*/normal.py")) + sorted(root.glob("*/hard.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        modules |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        # Another player module of the same game is fine (hard builds on normal): it sees only the view too.
        game = path.parent.name
        players_ = {f"reference_engine.{game}.{level}" for level in ("easy", "normal", "hard")}
        found[f"{game}/{path.name}"] = sorted(m for m in modules
                                  if m.startswith("reference_engine") and m not in ALLOWED | players_)
    assert found and all(not bad for bad in found.values()), found
