"""A seed draws the same games whatever local source is loaded: Hypothesis' local constants are off in campaigns."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from harness.fuzzing.campaign import FuzzOptions, run_examples
from harness.fuzzing.constants import HOOK, hooked, without_local_constants


def _draws(seed_value: int) -> list[int]:
    seen: list[int] = []

    def one_game(data: Any) -> None:
        seen.extend(data.draw(st.integers(0, 10**6)) for _ in range(20))

    run_examples(one_game, 60, FuzzOptions("rummy", shrink=False), seed_value)
    return seen


def _load_local_module(folder: Path) -> None:
    """A module outside site-packages, full of constants Hypothesis could draw (and not named like a test)."""
    path = folder / "kit_constants_probe.py"
    path.write_text("VALUES = (" + ", ".join(str(7919 * i + 13) for i in range(1, 120)) + ")\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("kit_constants_probe", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["kit_constants_probe"] = module
    spec.loader.exec_module(module)


@pytest.mark.skipif(not hooked(), reason="this Hypothesis has no local-constants hook")
def test_loading_local_source_does_not_change_a_seeds_draws(tmp_path: Path) -> None:
    before = _draws(3)
    try:
        _load_local_module(tmp_path)
        after = _draws(3)
    finally:
        sys.modules.pop("kit_constants_probe", None)
    assert after == before
    probe = {7919 * i + 13 for i in range(1, 120)}
    assert not probe & set(after)


@pytest.mark.skipif(not hooked(), reason="this Hypothesis has no local-constants hook")
def test_the_hook_is_restored_after_a_campaign() -> None:
    from hypothesis.internal.conjecture import providers

    original = getattr(providers, HOOK)
    with without_local_constants():
        assert getattr(providers, HOOK) is not original
        assert len(getattr(providers, HOOK)()) == 0
    assert getattr(providers, HOOK) is original
