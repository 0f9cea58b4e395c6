"""A cache of linted scenarios, so that a large suite is parsed once and then only read.

An entry is keyed by a hash of the fixture file's bytes and of everything that decides what
linting makes of them: the kit version, every spec file and the loading code itself. A changed
file, spec or kit therefore never meets an old entry. Entries are plain data (``marshal``:
no code runs when one is read) in one SQLite file, so concurrent runs are safe, and a deleted
or damaged file only costs one slower run.

The folder is ``$CARDVERSE_CACHE_DIR``, else ``$XDG_CACHE_HOME/cardverse-conformance``, else
``~/.cache/cardverse-conformance``; ``CARDVERSE_NO_CACHE=1`` (or ``--no-cache``) turns it off.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sqlite3
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from harness import __version__
from harness.paths import spec_dir

NO_CACHE_ENV = "CARDVERSE_NO_CACHE"
DIR_ENV = "CARDVERSE_CACHE_DIR"
_FORMAT = b"scenario-cache-1"
# The modules whose code turns a file's bytes into a scenario.
_LOADING_CODE = ("fixtures.py", "yamlsafe.py", "cards.py", "spec.py", "semver.py")


def cache_dir() -> Path:
    """The user's cache folder for this kit."""
    explicit = os.environ.get(DIR_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardverse-conformance"


def default_cache(enabled: bool = True) -> ScenarioCache | None:
    """The user's cache, unless turned off by the caller or by ``CARDVERSE_NO_CACHE``."""
    if not enabled or os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    return _open(cache_dir() / "scenarios.sqlite")


@cache
def _open(path: Path) -> ScenarioCache:
    """One cache object per file and process, so that one connection does every write."""
    return ScenarioCache(path)


@cache
def fingerprint() -> bytes:
    """A digest of the kit version, the spec files and the loading code."""
    digest = hashlib.blake2b(_FORMAT + __version__.encode(), digest_size=16)
    files = sorted(p for p in spec_dir().rglob("*") if p.is_file())
    here = Path(__file__).resolve().parent
    for path in [*files, *(here / name for name in _LOADING_CODE)]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


def parsed_yaml(data: bytes, parse: Callable[[bytes], Any]) -> Any:
    """``parse(data)``, remembered in the cache folder by the bytes (the spec's files, parsed at every start)."""
    store = default_cache()
    if store is None:
        return parse(data)
    key = hashlib.blake2b(data, digest_size=20, key=_FORMAT + b"yaml" + yaml.__version__.encode()).hexdigest()
    value = store.get(key)
    if value is None:
        value = parse(data)
        store.put(key, value)
        store.flush()
    return value


@cache
def _salt(game_files: tuple[tuple[str, int, int], ...]) -> bytes:
    """The key salt for this set of game files (each named with its size and time, read once)."""
    digest = hashlib.blake2b(fingerprint(), digest_size=32)
    for path, _, _ in game_files:
        digest.update(path.encode() + b"\0" + Path(path).read_bytes() + b"\0")
    return digest.digest()[:32]


class ScenarioCache:
    """Plain-data entries in one SQLite file; any fault of the file turns the cache off, never the run."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: Any = None
        self._pending = 0
        self.working = True
        self._salted: tuple[Any, bytes] | None = None  # the game files in use, and their salt

    @property
    def salt(self) -> bytes:
        """What every key of a scenario mixes in: the kit, spec and loading code it was linted by,
        and the game files in use (``--game-file`` adds some for one run)."""
        from harness import spec as specs

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
        db = self._connect()
        if db is None:
            return None
        try:
            row = db.execute("SELECT value FROM entries WHERE key = ?", (key,)).fetchone()
            return marshal.loads(row[0]) if row else None
        except (EOFError, ValueError, TypeError):
            return None
        except sqlite3.Error:
            self._off()
            return None

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key`` (written for good by :meth:`flush`, or every few hundred entries)."""
        db = self._connect()
        if db is None:
            return
        try:
            data = marshal.dumps(value)
        except ValueError:  # a value marshal cannot hold: that scenario is simply not cached
            return
        try:
            if not db.in_transaction:
                db.execute("BEGIN")
            db.execute("INSERT OR REPLACE INTO entries (key, value) VALUES (?, ?)", (key, data))
            self._pending += 1
            if self._pending >= 500:
                self.flush()
        except sqlite3.Error:
            self._off()

    def flush(self) -> None:
        """Write the entries stored so far."""
        if self._db is not None and self._db.in_transaction:
            try:
                self._db.commit()
            except sqlite3.Error:
                self._off()
        self._pending = 0

    def _connect(self) -> Any:
        """The open database, creating it on first use; None once the cache is off."""
        if self._db is None and self.working:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=2, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")  # readers and a writer at once (parallel runs)
                db.execute("PRAGMA synchronous=OFF")  # a cache: losing the last writes on a crash is harmless
                db.execute("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
                self._db = db
            except (OSError, sqlite3.Error):
                self._off()
        return self._db

    def _off(self) -> None:
        """Stop using the cache for this run (unwritable, locked, or not a database)."""
        self.working = False
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:  # pragma: no cover - closing a broken handle
                pass
        self._db = None
