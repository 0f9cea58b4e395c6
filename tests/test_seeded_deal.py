"""The seeded deal of spec/seeded-deal.md: the reference engine against the spec's test vectors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from harness.spec.paths import spec_dir
from reference_engine import create
from reference_engine.cards import DECK_SIZE, card_name
from reference_engine.seeded import SplitMix64

VECTORS = json.loads((spec_dir() / "seeded-deal-vectors.json").read_text(encoding="utf-8"))["vectors"]
VERSIONS = {"rummy": "1.1.0", "gin-rummy": "1.0.0", "president": "1.1.0"}
PLAYER_COUNTS = {"rummy": {2, 3, 4}, "gin-rummy": {2}, "president": {3, 4, 5, 6}}


def test_the_vectors_cover_seeds_0_and_2_64_minus_1_and_every_player_count() -> None:
    seeds = {int(v["seed"]) for v in VECTORS}
    assert {0, 2**64 - 1} <= seeds and len(seeds) >= 3
    for vector in VECTORS:
        counts: dict[str, set[int]] = {}
        for deal in vector["deals"]:
            counts.setdefault(deal["game"], set()).add(deal["players"])
        assert counts == PLAYER_COUNTS


def test_seed_0_gives_the_published_splitmix64_outputs() -> None:
    generator = SplitMix64(0)  # the values every SplitMix64 description quotes for seed 0
    assert [generator.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"seed-{v['seed']}")
def test_the_generator_and_the_shuffle_match_the_vectors(vector: dict[str, Any]) -> None:
    generator = SplitMix64(int(vector["seed"]))
    assert [f"{generator.next():016x}" for _ in vector["outputs"]] == vector["outputs"]
    generator = SplitMix64(int(vector["seed"]))
    for key in ("deck", "next_deck"):  # one generator for both: the second shuffle continues the sequence
        deck = list(range(DECK_SIZE))
        generator.shuffle(deck)
        assert [card_name(c) for c in deck] == vector[key]


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"seed-{v['seed']}")
def test_the_reference_engine_deals_the_vectors(vector: dict[str, Any]) -> None:
    for deal in vector["deals"]:
        setup = {"game": deal["game"], "rule_version": VERSIONS[deal["game"]], "options": {},
                 "seed": int(vector["seed"]), "players": deal["players"]}
        view = create().start(setup).state()
        assert {key: view[key] for key in deal if key not in ("game", "players")} == \
            {key: value for key, value in deal.items() if key not in ("game", "players")}, (deal["game"], deal["players"])


class _Scripted(SplitMix64):
    """A generator whose outputs are given."""

    __slots__ = ("outputs",)

    def __init__(self, outputs: list[int]) -> None:
        super().__init__(0)
        self.outputs = iter(outputs)

    def next(self) -> int:
        return next(self.outputs)


def test_below_redraws_the_outputs_past_the_last_whole_multiple() -> None:
    # 2^64 mod 3 = 1, so the limit is 2^64 - 1: the output 2^64 - 1 is redrawn, 2^64 - 2 is kept.
    assert _Scripted([2**64 - 1, 2**64 - 2]).below(3) == (2**64 - 2) % 3 == 2
    assert _Scripted([2**64 - 1]).below(2) == 1  # 2^64 mod 2 = 0: nothing is ever redrawn


def test_a_seed_outside_64_bits_is_refused() -> None:
    with pytest.raises(ValueError, match="from 0 to 2\\^64-1"):
        SplitMix64(2**64)
