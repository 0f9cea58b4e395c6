"""Where the spec and the bundled fixtures are, from a checkout or from an installed wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # harness/


@cache
def _root() -> Path:
    """The folder holding ``spec/`` and ``fixtures/``."""
    checkout = _PACKAGE.parent
    # A checkout (or an editable install) has spec/ beside harness/; a wheel bundles it inside.
    if (checkout / "spec" / "cards.yaml").is_file():
        return checkout
    return _PACKAGE / "_bundled"


def spec_dir() -> Path:
    """The spec folder."""
    return _root() / "spec"


def fixtures_dir() -> Path:
    """The bundled fixture suite."""
    return _root() / "fixtures"


def shown_path(path: str | Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def local_games_dir() -> Path:
    """Where ``new-version`` writes game files and ``run``, ``diff`` and ``texts`` look for them: ./spec/games."""
    return Path("spec") / "games"
