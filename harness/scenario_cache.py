"""A cache of linted scenarios, so that a large suite is parsed once and then only read.

An entry is keyed by a hash of the fixture file's bytes and of everything that decides what
linting makes of them: the kit version, every spec file and the loading code itself. A changed
file, spec or kit therefore never meets an old entry. Entries are plain data (``marshal``:
no code runs when one is read), one file each, written atomically, so concurrent runs and a
deleted folder are both harmless.

The folder is ``$CARDVERSE_CACHE_DIR``, else ``$XDG_CACHE_HOME/cardverse-conformance``, else
``~/.cache/cardverse-conformance``; ``CARDVERSE_NO_CACHE=1`` (or ``--no-cache``) turns it off.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

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
    return ScenarioCache(cache_dir() / "scenarios")


@cache
def fingerprint() -> bytes:
    """A digest of the kit version, the spec files and the loading code."""
    digest = hashlib.blake2b(_FORMAT + __version__.encode(), digest_size=16)
    files = sorted(p for p in spec_dir().rglob("*") if p.is_file())
    here = Path(__file__).resolve().parent
    for path in [*files, *(here / name for name in _LOADING_CODE)]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


class ScenarioCache:
    """Plain-data entries in a folder, one file per key."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.salt = fingerprint()
        self.writable = True

    def key(self, data: bytes) -> str:
        """The key of a file with these bytes."""
        return hashlib.blake2b(data, digest_size=20, key=self.salt).hexdigest()

    def get(self, key: str) -> Any | None:
        """The entry stored under ``key``, or None (missing, unreadable or damaged: then it is rebuilt)."""
        try:
            with open(self.folder / key[:2] / key, "rb") as handle:
                return marshal.load(handle)
        except (OSError, EOFError, ValueError, TypeError):
            return None

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key``; a cache that cannot be written is skipped, never an error."""
        if not self.writable:
            return
        try:
            data = marshal.dumps(value)
            folder = self.folder / key[:2]
            folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, folder / key)
        except ValueError:  # a value marshal cannot hold: that scenario is simply not cached
            return
        except OSError:  # read-only or full disk: stop trying for this run
            self.writable = False
