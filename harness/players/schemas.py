"""The JSON Schema of each game's computer-player view, composed from its game file.

``spec/schemas/players/<game>.view.json`` is this module's output, kept in the repository for
engines in other languages; ``python -m harness.players.schemas`` rewrites it after a game file
changes (a test fails while it is stale).
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

from harness.spec import gamespec as specs
from harness.spec.paths import spec_dir

_CARD = {"type": "string", "pattern": "^[A2-9TJQK][CDHS]$"}


def _embedded(schema: dict[str, Any], game: str, name: str) -> dict[str, Any]:
    """A game file's schema placed inside the view's: its own ``$id``, so its ``#/$defs/...`` still resolve."""
    schema = copy.deepcopy(schema)
    if "$defs" in schema:
        schema["$id"] = f"https://cardverse.invalid/schemas/players/{game}/{name}.json"
    return schema


def _action(spec: specs.GameSpec, history: bool) -> dict[str, Any]:
    """Any action of the game's vocabulary; in a history a draw may carry the card taken."""
    forms = []
    for kind, entry in spec.data["actions"].items():
        schema = _embedded(entry["schema"], spec.game, f"{'history-' if history else ''}{kind}")
        if history and kind == "draw":
            schema["properties"]["card"] = _CARD
            schema["description"] = "A draw as the other seats saw it: from the discard pile with its card, from the stock without."
        forms.append(schema)
    return {"oneOf": forms}


def view_schema(spec: specs.GameSpec) -> dict[str, Any]:
    """The schema of one game's view (spec/players.md)."""
    levels = spec.data.get("computer_players", {}).get("levels", ["easy", "normal", "hard"])
    seats = spec.data["players"]["max"] - 1
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://cardverse.invalid/schemas/players/{spec.game}.view.json",
        "title": f"What a {spec.data['title']} computer player sees (rule version {spec.rule_version})",
        "description": "Generated from spec/games/ by `python -m harness.players.schemas`; see spec/players.md.",
        "type": "object",
        "additionalProperties": False,
        "required": ["game", "rule_version", "options", "seat", "level", "seed", "observation", "history", "legal"],
        "properties": {
            "game": {"const": spec.game},
            "rule_version": {"const": spec.rule_version},
            "options": {"type": "object", "description": "Every option of the game, explicit.",
                        "additionalProperties": {"type": ["boolean", "integer"]}},
            "seat": {"type": "integer", "minimum": 0, "maximum": seats},
            "level": {"enum": levels},
            "seed": {"type": "integer", "minimum": 0, "description": "The only source of randomness a player may use."},
            "observation": _embedded(spec.data["state_view"]["schema"], spec.game, "observation"),
            "history": {
                "type": "array",
                "description": "The round's actions so far, oldest first, as this seat saw them.",
                "items": {"type": "object", "additionalProperties": False, "required": ["seat", "action"],
                          "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": seats},
                                         "action": _action(spec, history=True)}},
            },
            "legal": {"type": "array", "minItems": 1, "items": _action(spec, history=False),
                      "description": "The legal actions of the seat, canonical; the choice is one of them."},
        },
    }


def schema_path(game: str) -> Path:
    """Where a game's view schema is kept."""
    return spec_dir() / "schemas" / "players" / f"{game}.view.json"


def render(spec: specs.GameSpec) -> str:
    """The schema file's text."""
    return json.dumps(view_schema(spec), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    """Write every game's view schema."""
    for spec in specs.game_specs():
        path = schema_path(spec.game)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(spec), encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
