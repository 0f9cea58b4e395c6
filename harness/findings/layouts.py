"""Layouts from state views: the explicit deal a fixture starts from, and hidden-card twins.

A layout written from a view places every card where the view shows it, so a generated fixture
never depends on a seed. Only positions a layout can express are converted (a game's layout
schema decides; e.g. a President exchange cannot be); ``None`` means "not expressible".
"""

from __future__ import annotations

import random
from typing import Any

from harness.findings.games import GameFacts, cards_at
from harness.suite.checkpoints import set_at

# View keys copied as they are into a layout, per game (the layout schema names them the same).
_COPIED = {
    "rummy": ("first", "hands", "stock", "discard", "melds", "phase", "to_act", "scores", "round", "taken_discard"),
    "gin-rummy": ("dealer", "hands", "stock", "discard", "phase", "to_act", "scores", "hands_won", "round", "taken",
                  "upcard_refused", "knocker", "melds"),
    "president": ("hands", "played", "trick", "passed", "finished", "order", "scores", "round", "to_act", "phase"),
}
# Phases a layout may start in.
_LAYOUT_PHASES = {"rummy": {"draw", "play"}, "gin-rummy": {"offer", "draw", "discard", "layoff"},
                  "president": {"play"}}
# The keys of a later layout (a fresh deal) per game.
_LATER_KEYS = {"rummy": ("hands", "stock", "discard"), "gin-rummy": ("hands", "stock", "discard"),
               "president": ("hands", "played")}


def position_layout(facts: GameFacts, view: dict[str, Any]) -> dict[str, Any] | None:
    """The complete layout of the position ``view`` shows, or None when no layout can express it."""
    game = facts.game
    if view.get("phase") not in _LAYOUT_PHASES[game] or any(h is None for h in view.get("hands", [None])):
        return None
    layout = {key: _copy(view[key]) for key in _COPIED[game] if key in view}
    if game == "gin-rummy" and not layout.get("melds"):
        layout["melds"] = None  # a layout's "no melds" is null outside phase layoff
    if game == "president":
        layout["first"] = view.get("leader")
    for key in ("taken", "taken_discard"):
        # A taken card already melded or laid off changes nothing any more, and a layout may only
        # name a taken card that is still in the hand of the seat to act.
        if layout.get(key) is not None and layout[key] not in layout["hands"][view["to_act"]]:
            layout[key] = None
    return layout


def deal_layout(facts: GameFacts, view: dict[str, Any]) -> dict[str, Any]:
    """The layout of a fresh deal: only what a deal sets, every card placed explicitly."""
    layout = position_layout(facts, view)
    if layout is None:
        raise ValueError(f"the {facts.game} view in phase {view.get('phase')!r} is not a fresh deal")
    keep = {"rummy": ("first", "hands", "stock", "discard"), "gin-rummy": ("dealer", "hands", "stock", "discard"),
            "president": ("first", "hands", "played")}[facts.game]
    return {key: layout[key] for key in keep}


def restacked(layout: dict[str, Any], deck: list[str]) -> dict[str, Any]:
    """``layout`` dealt again from ``deck``: the same places and sizes, filled in order.

    A deck in nearly sorted order deals hands full of runs and sets: gin, melds that empty a
    hand, four of a kind, Q-K-A. Random deals almost never reach those rules.
    """
    cards = iter(deck)
    stacked = _copy(layout)
    stacked["hands"] = [[next(cards) for _ in hand] for hand in layout["hands"]]
    for key in ("discard", "stock", "played"):
        if isinstance(layout.get(key), list):
            stacked[key] = [next(cards) for _ in layout[key]]
    return stacked


def later_layout(facts: GameFacts, view: dict[str, Any]) -> dict[str, Any]:
    """A later round's layout (a fresh deal) from the view of a fresh deal."""
    return {key: _copy(view[key]) for key in _LATER_KEYS[facts.game]}


def hidden_from(facts: GameFacts, view: dict[str, Any], seat: int) -> list[tuple[tuple[Any, ...], list[str]]]:
    """The card lists of ``view`` that ``seat`` may not see, with their paths."""
    places: list[tuple[tuple[Any, ...], list[str]]] = []
    for pattern in facts.hidden:
        if pattern == "hands.others":
            if facts.hands_public(view):
                continue
            places += [(("hands", i), list(hand)) for i, hand in enumerate(view["hands"]) if i != seat]
        else:
            places += [(path, list(cards)) for path, cards in cards_at(view, pattern) if isinstance(cards, list)]
    return places


def twin_layout(facts: GameFacts, layout: dict[str, Any], view: dict[str, Any], seat: int,
                rng: random.Random) -> dict[str, Any] | None:
    """``layout`` with the cards hidden from ``seat`` shuffled among their places, sizes kept."""
    places = hidden_from(facts, view, seat)
    taken = facts.taken_card(view)  # seen by all when it was taken: it stays where it is
    pool = [c for _, cards in places for c in cards if c != taken]
    if len(places) < 2 or len(set(pool)) < 2:
        return None
    shuffled = list(pool)
    for _ in range(8):  # a shuffle that moves nothing would make the twin the same game
        rng.shuffle(shuffled)
        if shuffled != pool:
            break
    twin = _copy(layout)
    cards = iter(shuffled)
    for path, old in places:
        set_at(twin, path, [c if c == taken else next(cards) for c in old])
    return twin


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
