"""The computer player's view (spec/players.md): built from an observation, a history and the legal list.

The history keeps every action with what each seat saw of it: a draw from the stock shows no
card, a draw from the discard pile shows the card taken, a President give is seen only by the
two seats of that exchange.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

_GIVE_TO = {"president": "scum", "vice-president": "vice-scum"}


@dataclass
class History:
    """The actions of a round as each seat saw them."""

    game: str
    # (round, seat, the action as seen, the seats that saw it or None for all)
    entries: list[tuple[int, int, dict[str, Any], frozenset[int] | None]] = field(default_factory=list)

    def record(self, seat: int, action: dict[str, Any], before: dict[str, Any]) -> None:
        """Note an accepted ``action`` of ``seat``; ``before`` is the state view just before it."""
        seen, audience = copy.deepcopy(action), None
        if action.get("draw") == "discard" and before.get("discard"):
            seen["card"] = before["discard"][0]
        if "give" in action:
            audience = frozenset({seat, *_receivers(before, seat)})
        self.entries.append((int(before.get("round", 1)), seat, seen, audience))

    def seen_by(self, seat: int, round_: int) -> list[dict[str, Any]]:
        """The history of round ``round_`` as ``seat`` saw it."""
        return [{"seat": s, "action": _copied(a)} for r, s, a, audience in self.entries
                if r == round_ and (audience is None or seat in audience)]


_FLAT = (str, int, bool)


def _copied(action: dict[str, Any]) -> dict[str, Any]:
    """A copy a player may change freely: actions are flat (values, lists of cards), copied without deepcopy's cost."""
    seen = {key: value[:] if type(value) is list else value for key, value in action.items()}
    for value in seen.values():
        if type(value) not in _FLAT and not (type(value) is list and all(type(x) in _FLAT for x in value)):
            return copy.deepcopy(action)
    return seen


def _receivers(before: dict[str, Any], seat: int) -> list[int]:
    """The seat a President give goes to: the Scum (from the President) or the Vice-Scum."""
    results = before.get("round_results") or []
    if not results:
        return []
    titles = results[-1]["titles"]
    wanted = _GIVE_TO.get(titles[seat])
    return [i for i, title in enumerate(titles) if title == wanted]


def build_view(spec: Any, options: dict[str, Any], seat: int, level: str, seed: int,
               observation: dict[str, Any], history: History, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The view sent to a computer player (spec/players.md)."""
    return {"game": spec.game, "rule_version": spec.rule_version, "options": dict(options), "seat": seat,
            "level": level, "seed": seed, "observation": observation, "history": history.seen_by(seat, int(observation.get("round", 1))),
            "legal": legal}
