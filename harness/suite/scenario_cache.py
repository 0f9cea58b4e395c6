"""The linted scenarios in the kit's cache file, so that a large suite is parsed once and then only read.

An entry is keyed by a hash of the fixture file's bytes and of everything that decides what
linting makes of them: the kit version, every spec file and the loading code itself (every
module of ``harness/spec`` and ``harness/suite``). A changed file, spec or kit therefore never
meets an old entry. The file itself (where it is, how it is turned off) is ``harness.spec.store``'s.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any

from harness import __version__
from harness.spec import gamespec as specs
from harness.spec.paths import spec_dir
from harness.spec.store import FORMAT, Store, cache_dir, default_store

__all__ = ["ScenarioCache", "cache_dir", "default_cache", "fingerprint"]
# The folders whose code turns a file's bytes into a scenario.
LOADING_CODE = ("spec", "suite")


def default_cache(enabled: bool = True) -> ScenarioCache | None:
    """The user's cache, unless turned off by the caller or by ``CARDVERSE_NO_CACHE``."""
    store = default_store(enabled)
    return None if store is None else _over(store)


@cache
def _over(store: Store) -> ScenarioCache:
    """One cache object per file and process, over the one store of that file."""
    return ScenarioCache(store)


@cache
def fingerprint() -> bytes:
    """A digest of the kit version, the spec files and the loading code."""
    digest = hashlib.blake2b(FORMAT + __version__.encode(), digest_size=16)
    files = sorted(p for p in spec_dir().rglob("*") if p.is_file())
    harness = Path(__file__).resolve().parent.parent
    code = sorted(p for folder in LOADING_CODE for p in (harness / folder).glob("*.py"))
    for path in [*files, *code]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


@cache
def _salt(game_files: tuple[tuple[str, int, int], ...]) -> bytes:
    """The key salt for this set of game files (each named with its size and time, read once)."""
    digest = hashlib.blake2b(fingerprint(), digest_size=32)
    for path, _, _ in game_files:
        digest.update(path.encode() + b"\0" + Path(path).read_bytes() + b"\0")
    return digest.digest()[:32]


class ScenarioCache:
    """Linted scenarios as plain data, keyed by the file's bytes and what linted them."""

    def __init__(self, where: Path | Store) -> None:
        self.store = where if isinstance(where, Store) else Store(where)
        self.path = self.store.path
        self._salted: tuple[Any, bytes] | None = None  # the game files in use, and their salt

    @property
    def working(self) -> bool:
        """Whether the file is still in use (a fault turns it off for the run)."""
        return self.store.working

    @property
    def salt(self) -> bytes:
        """What every key of a scenario mixes in: the kit, spec and loading code it was linted by,
        and the game files in use (``--game-file`` adds some for one run)."""
        in_use = specs.game_specs()
        if self._salted is None or self._salted[0] is not in_use:  # once a run, not three stats a file
            files = []
            for game_spec in in_use:
                info = os.stat(game_spec.path)
                files.append((str(game_spec.path), info.st_size, info.st_mtime_ns))
            self._salted = (in_use, _salt(tuple(files)))
        return self._salted[1]

    def key(self, data: bytes) -> str:
        """The key of a file with these bytes."""
        return hashlib.blake2b(data, digest_size=20, key=self.salt).hexdigest()

    def get(self, key: str) -> Any | None:
        """The entry stored under ``key``, or None (missing or damaged: then it is rebuilt)."""
        return self.store.get(key)

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key``."""
        self.store.put(key, value)

    def flush(self) -> None:
        """Write the entries stored so far."""
        self.store.flush()
