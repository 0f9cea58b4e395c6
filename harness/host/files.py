"""Files the kit writes: names made from safe parts, each resolved and checked inside its folder first.

A name may come from a run file, an engine or a fixture (a game, a rule version, an engine's name):
none of them may choose where a file goes. So every file name part is a slug (letters, digits,
``.``, ``-``, ``_``; no leading dot; no reserved device name), cut to ``NAME_LIMIT`` with a short
hash of the whole text when cut, and every path is resolved and refused unless it lies in its folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path

NAME_LIMIT = 80  # characters of one file name part; far under the 255 bytes of common file systems
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
# Names Windows keeps for devices, with or without an extension: a file so named cannot be opened.
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$", re.IGNORECASE)


class UnsafePath(ValueError):
    """A file the kit must not write: outside its folder, through a dangling link, or not a regular file."""


def file_part(text: object, limit: int = NAME_LIMIT, default: str = "unnamed") -> str:
    """``text`` as one safe file name part: ``../../x y`` as ``x-y``; cut with a short hash when longer than ``limit``."""
    raw = str(text)
    slug = _UNSAFE.sub("-", raw).strip("-.") or default
    if _RESERVED.match(slug):
        slug = f"_{slug}"
    if len(slug) > limit:
        digest = hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        slug = f"{slug[:limit - 9].rstrip('-.')}-{digest}"
    return slug


def inside(folder: str | os.PathLike[str], relative: str) -> Path:
    """``folder / relative`` resolved; :class:`UnsafePath` unless it lies inside ``folder``."""
    base = Path(folder).resolve()
    if "\0" in relative or Path(relative).is_absolute():
        raise UnsafePath(f"{relative!r} is not a file name inside {folder}")
    target = (base / relative).resolve()
    if target == base or not target.is_relative_to(base):
        raise UnsafePath(f"{relative!r} would be written outside {folder}")
    return target


def check_target(path: str | os.PathLike[str]) -> Path:
    """``path`` if a file may be written there: not through a dangling link, not over a folder, pipe or device."""
    path = Path(path)
    if "\0" in str(path):
        raise UnsafePath(f"{str(path)!r} holds a NUL character: give another file name")
    if path.is_symlink() and not path.exists():
        raise UnsafePath(f"{path} is a link to {os.readlink(path)}, which does not exist: give a real path")
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return path
    except OSError as error:
        raise UnsafePath(f"cannot write {path} ({error.strerror or error}): give another path") from None
    if not stat.S_ISREG(mode):
        raise UnsafePath(f"{path} is not a regular file (a folder, a pipe or a device): give a file path")
    return path


def check_folder(folder: str | os.PathLike[str]) -> Path:
    """``folder`` if files may be written in it: not a dangling link, not a file."""
    folder = Path(folder)
    if folder.is_symlink() and not folder.exists():
        raise UnsafePath(f"{folder} is a link to {os.readlink(folder)}, which does not exist: give a real folder")
    if folder.exists() and not folder.is_dir():
        raise UnsafePath(f"{folder} is not a folder: give a folder")
    return folder


def write_file(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` as UTF-8 at ``path`` once :func:`check_target` allows it."""
    target = check_target(path)
    target.write_text(text, encoding="utf-8")
    return target


def write_inside(folder: str | os.PathLike[str], relative: str, text: str) -> Path:
    """Write ``text`` at ``folder / relative`` (folders made as needed), refused unless it stays inside ``folder``."""
    target = inside(check_folder(folder), relative)
    target.parent.mkdir(parents=True, exist_ok=True)
    return write_file(target, text)
