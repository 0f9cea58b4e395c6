"""``clone()`` on the reference games: an independent copy, whatever is played on either side."""

from __future__ import annotations

import random

import pytest

from reference_engine import create

SEEDED = {"rummy": 3, "gin-rummy": 2, "president": 5}


def _play_out(game: object, rng: random.Random, moves: int = 400) -> None:
    """Random legal moves until the game stops."""
    for _ in range(moves):
        legal = game.legal_actions()  # type: ignore[attr-defined]
        if not legal:
            return
        assert game.apply(game.state()["to_act"], rng.choice(legal)) is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("game_name", sorted(SEEDED))
def test_a_clone_plays_on_alone_and_leaves_the_original_as_it_was(game_name: str) -> None:
    options = {"rounds": 3} if game_name == "president" else {}
    engine = create()
    assert engine.describe()["games"][game_name]["features"]["clone"] is True
    for seed in range(2):
        rng = random.Random(seed)
        game = engine.start({"game": game_name, "rule_version": engine.describe()["games"][game_name]["rule_versions"][-1],
                             "options": options, "seed": seed, "players": SEEDED[game_name]})
        for _ in range(120):
            legal = game.legal_actions()
            if not legal:
                break
            before = (game.state(), legal, [game.observation(s) for s in range(SEEDED[game_name])])
            twin = game.clone()
            assert twin.state() == before[0] and twin.legal_actions() == legal
            _play_out(twin, random.Random(rng.random()), 60)  # later rounds dealt by the twin's own Random
            assert (game.state(), game.legal_actions(),
                    [game.observation(s) for s in range(SEEDED[game_name])]) == before
            assert game.apply(game.state()["to_act"], rng.choice(legal)) is None
        twin = game.clone()
        _play_out(game, random.Random(seed))
        _play_out(twin, random.Random(seed))
        assert twin.state() == game.state()  # the same moves on a copy reach the same end, later deals included
