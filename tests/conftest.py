"""Shared test set-up: the fake engines importable, pytester for the plugin's tests."""

import sys
from pathlib import Path

pytest_plugins = ["pytester"]

sys.path.insert(0, str(Path(__file__).parent))
