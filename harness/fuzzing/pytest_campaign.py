"""pytest plugin: a fuzz campaign as test items, one per game and seed, to spread with pytest-xdist.

Load it with ``-p harness.fuzzing.pytest_campaign`` and collect ``harness.fuzzing.campaign_items``:

    pytest -p harness.fuzzing.pytest_campaign --pyargs harness.fuzzing.campaign_items \\
        --fuzz-seeds 0:64 --fuzz-examples 50 --fuzz-out found/ -n auto

Each item fuzzes one game with one Hypothesis seed, so items are independent and xdist can hand
them to any worker on any machine; a divergence fails the item and writes its fixture.
"""

from __future__ import annotations

from typing import Any

import pytest

from harness.fuzzing.seeds import parse_seeds

_ENGINE = pytest.StashKey[Any]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The campaign's options, in one group."""
    group = parser.getgroup("cardverse-fuzz", "CardVerse differential fuzzing campaign")
    group.addoption("--fuzz-engine", default=None, metavar="MODULE:FACTORY",
                    help="the engine under test, in process (default: the reference engine)")
    group.addoption("--fuzz-engine-cmd", default=None, metavar="COMMAND",
                    help="the engine under test as a protocol subprocess (one per xdist worker)")
    group.addoption("--fuzz-engine-page", default=None, metavar="PAGE",
                    help="the engine under test as a web page in headless Chromium (one browser per xdist worker)")
    group.addoption("--fuzz-game", action="append", default=None, help="only this game (repeatable)")
    group.addoption("--fuzz-seeds", default="0:8", metavar="START:STOP",
                    help="the Hypothesis seeds, one item per game and seed (default 0:8)")
    group.addoption("--fuzz-examples", type=int, default=25, metavar="N", help="games per item (default 25)")
    group.addoption("--fuzz-out", default=None, metavar="DIR", help="write a fixture per divergence here")


def seed_range(text: str) -> range:
    """``"0:64"`` as ``range(0, 64)``; UsageError otherwise."""
    try:
        seeds = parse_seeds(text)
    except ValueError:
        raise pytest.UsageError(f"--fuzz-seeds {text!r}: expected START:STOP, e.g. 0:64") from None
    if not seeds:
        raise pytest.UsageError(f"--fuzz-seeds {text!r} is empty: STOP must be above START")
    return seeds


def pytest_configure(config: pytest.Config) -> None:
    """Check ``--fuzz-seeds`` before collecting, so a typo stops the run with one clear line."""
    seed_range(config.getoption("fuzz_seeds"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One item per (game, seed) for tests asking for ``fuzz_case``."""
    if "fuzz_case" not in metafunc.fixturenames:
        return
    from harness.spec import gamespec as specs

    games = metafunc.config.getoption("fuzz_game") or specs.games()
    unknown = [g for g in games if g not in specs.games()]
    if unknown:
        raise pytest.UsageError(f"--fuzz-game {unknown[0]!r}: the spec has {', '.join(specs.games())}")
    cases = [(game, seed) for game in games for seed in seed_range(metafunc.config.getoption("fuzz_seeds"))]
    metafunc.parametrize("fuzz_case", cases, ids=[f"{game}-seed{seed}" for game, seed in cases])


@pytest.fixture(scope="session")
def fuzz_engine(request: pytest.FixtureRequest) -> Any:
    """The engine under test, one per worker, closed at the end."""
    from harness.adapters.engine import DEFAULT_ENGINE, EngineLoadError, load_engine

    config = request.config
    engine: Any
    if config.getoption("fuzz_engine_cmd") or config.getoption("fuzz_engine_page"):
        from harness.adapters import connect

        try:
            engine = connect(config.getoption("fuzz_engine_cmd"), page=config.getoption("fuzz_engine_page"))
        except ValueError as error:  # both given, or a page that is no address
            raise pytest.UsageError(str(error)) from None
    else:
        try:
            engine = load_engine(config.getoption("fuzz_engine") or DEFAULT_ENGINE)
        except EngineLoadError as error:
            raise pytest.UsageError(str(error)) from None
    yield engine
    close = getattr(engine, "close", None)
    if callable(close):
        close()
