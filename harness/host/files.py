"""Files the kit writes and reads: names from safe parts kept inside their folder; reads of regular files only.

A name may come from a run file, an engine or a fixture (a game, a rule version, an engine's name):
none of them may choose where a file goes. So every file name part is a slug (letters, digits,
``.``, ``-``, ``_``; no leading dot; no reserved device name), cut to ``NAME_LIMIT`` with a short
hash of the whole text when cut, and every path is resolved and refused unless it lies in its folder.
A file named by the user (a game file, the known failures, a run, a document) is read only if it is
a regular file (a FIFO would hang the read, a device never end), within a size limit, as UTF-8, and
parsed data is refused past ``DATA_DEPTH`` levels: each refusal names the file (and line).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any

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


class FileRefused(OSError):
    """A file the kit will not read: not a regular file, too big, not UTF-8, too deep; the message names it."""


class FileTooBig(FileRefused):
    """A file past the size limit of its kind."""


DATA_DEPTH = 64  # levels of nesting a data file (a game file, the known failures) may have
DATA_NODES = 100_000  # values a data file may hold, aliases expanded (a game file has ~1,000): walked in ~0.1 s


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """A regular file's bytes; a folder, pipe or device is refused before it is opened, a file past ``limit`` too."""
    if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block the open, a device never end
        raise FileRefused(f"{os.fspath(path)}: not a regular file (a folder, a pipe or a device): give a file")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # it may have been swapped since the stat
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"{os.fspath(path)}: not a regular file (a folder, a pipe or a device): give a file")
        if info.st_size > limit:
            raise FileTooBig(f"{os.fspath(path)}: larger than {limit:,} bytes")
        chunks = [os.read(fd, info.st_size + 1)]
        while chunks[-1] and sum(map(len, chunks)) <= limit:  # the file may have grown since the stat
            chunks.append(os.read(fd, limit + 1))
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileTooBig(f"{os.fspath(path)}: larger than {limit:,} bytes")
    return data


def read_utf8(path: str | os.PathLike[str], limit: int) -> str:
    """A regular file's text, which must be UTF-8 (a BOM is dropped; UTF-16 is named as such)."""
    data = read_regular(path, limit)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FileRefused(f"{os.fspath(path)}:1: UTF-16 text: save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise FileRefused(f"{os.fspath(path)}:{line}: byte(s) {data[error.start:error.end].hex(' ')} are not UTF-8: "
                          "save it as UTF-8") from None


def parse_data(path: str | os.PathLike[str], text: str, kind: str) -> Any:
    """``text`` parsed as ``json`` or ``yaml`` (safe), nested at most ``DATA_DEPTH`` levels; FileRefused at its line."""
    import json

    import yaml

    where = os.fspath(path)
    try:
        data = json.loads(text) if kind == "json" else yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except RecursionError:
        raise FileRefused(f"{where}: nested deeper than {DATA_DEPTH} levels") from None
    except ValueError as error:  # an integer of thousands of digits (Python's int limit), a JSONDecodeError
        long = re.search(r"\d{%d,}" % (sys.get_int_max_str_digits() + 1), text) if sys.get_int_max_str_digits() else None
        if long is None:
            if isinstance(error, json.JSONDecodeError):
                raise FileRefused(f"{where}:{error.lineno}:{error.colno}: not valid JSON ({error.msg})") from None
            raise FileRefused(f"{where}: not valid {kind.upper()} ({error})") from None
        line = text.count("\n", 0, long.start()) + 1
        raise FileRefused(f"{where}:{line}: a number of {len(long.group()):,} digits: no value here has more "
                          "than a few; write it out shorter") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        at = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise FileRefused(f"{where}{at}: not valid YAML ({problem})") from None
    depth, nodes = _extent(data)
    if nodes > DATA_NODES:  # YAML aliases ("billion laughs"): every reader after this would walk them all
        raise FileRefused(f"{where}: more than {DATA_NODES:,} values once aliases are expanded: use fewer aliases "
                          "(*name), or write the values out")
    if depth > DATA_DEPTH:
        raise FileRefused(f"{where}: nested deeper than {DATA_DEPTH} levels")
    return data


def _extent(value: Any) -> tuple[int, int]:
    """How deeply ``value`` nests and how many values it holds, a value shared by aliases counted each time it is
    reached; counting stops past ``DATA_NODES`` values or ``DATA_DEPTH`` levels, without recursion."""
    deepest, nodes, stack = 0, 0, [(value, 1)]
    while stack and nodes <= DATA_NODES:
        item, level = stack.pop()
        nodes += 1
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            if level <= DATA_DEPTH:
                stack.extend((child, level + 1) for child in children)
    return deepest, nodes


def nesting_depth(value: Any) -> int:
    """How deeply lists and mappings nest in ``value`` (0 for a scalar), counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            if level <= DATA_DEPTH:
                stack.extend((child, level + 1) for child in children)
    return deepest
