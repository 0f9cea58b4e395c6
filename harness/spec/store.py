"""The kit's cache file: plain-data entries in one SQLite file, and the spec's files parsed once per content.

Entries are plain data (``marshal``: no code runs when one is read), so concurrent runs are safe,
and a deleted or damaged file only costs one slower run. The folder is ``$CARDVERSE_CACHE_DIR``,
else ``$XDG_CACHE_HOME/cardverse-conformance``, else ``~/.cache/cardverse-conformance``;
``CARDVERSE_NO_CACHE=1`` (or ``--no-cache``) turns it off. The linted scenarios kept there are
``harness.suite.scenario_cache``'s.
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

NO_CACHE_ENV = "CARDVERSE_NO_CACHE"
DIR_ENV = "CARDVERSE_CACHE_DIR"
FORMAT = b"scenario-cache-2"  # 2: each value carries a checksum bound to its key


def cache_dir() -> Path:
    """The user's cache folder for this kit."""
    explicit = os.environ.get(DIR_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardverse-conformance"


def default_store(enabled: bool = True) -> Store | None:
    """The user's cache file, unless turned off by the caller or by ``CARDVERSE_NO_CACHE``."""
    if not enabled or os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    return open_store(cache_dir() / "scenarios.sqlite")


@cache
def open_store(path: Path) -> Store:
    """One store per file and process, so that one connection does every write."""
    return Store(path)


def parsed_yaml(data: bytes, parse: Callable[[bytes], Any]) -> Any:
    """``parse(data)``, remembered in the cache folder by the bytes (the spec's files, parsed at every start)."""
    import yaml  # for its version only; serve, which reads no spec file, starts without it

    store = default_store()
    if store is None:
        return parse(data)
    key = hashlib.blake2b(data, digest_size=20, key=FORMAT + b"yaml" + yaml.__version__.encode()).hexdigest()
    value = store.get(key)
    if value is None:
        value = parse(data)
        store.put(key, value)
        store.flush()
    return value


def _checksum(key: str, payload: bytes) -> bytes:
    """A digest of an entry's bytes bound to its key: another key's value, or damaged bytes, do not match it."""
    return hashlib.blake2b(payload, digest_size=16, key=key.encode()[:64]).digest()


def _checked(key: str, data: Any) -> bytes | None:
    """An entry's payload once its checksum matches (before marshal reads any header of it), else None."""
    if not isinstance(data, bytes) or len(data) < 16:
        return None
    payload = data[16:]
    return payload if data[:16] == _checksum(key, payload) else None


PLAIN = (dict, list, tuple, str, int, float, bool, bytes, type(None))


def plain(value: Any) -> bool:
    """Whether ``value`` is plain data all through (no code object, no set a reader does not expect)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if not isinstance(item, PLAIN):
            return False
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return True


class Store:
    """Plain-data entries in one SQLite file; any fault of the file turns the cache off, never the run."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: Any = None
        self._pending = 0
        self.working = True

    def get(self, key: str) -> Any | None:
        """The entry stored under ``key``, or None (missing or damaged: then it is rebuilt)."""
        db = self._connect()
        if db is None:
            return None
        try:
            row = db.execute("SELECT value FROM entries WHERE key = ?", (key,)).fetchone()
            payload = _checked(key, row[0]) if row else None
            value = marshal.loads(payload) if payload is not None else None
            return value if plain(value) else None
        except (EOFError, ValueError, TypeError, MemoryError):
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
            payload = marshal.dumps(value)
        except ValueError:  # a value marshal cannot hold: that scenario is simply not cached
            return
        data = _checksum(key, payload) + payload
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
