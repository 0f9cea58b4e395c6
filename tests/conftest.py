"""Shared test set-up: the fake engines importable, pytester for the plugin's tests."""

import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands run by the tests cache linted fixtures in a folder of their own, never the user's."""
    monkeypatch.setenv("CARDVERSE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "scenario-cache"))
