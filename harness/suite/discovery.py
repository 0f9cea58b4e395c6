"""Which files a list of paths names: fixture files found, and paths that hold none, in words."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class PathError:
    """A path given to load that holds no fixture file: missing, a broken link, a pipe, an empty folder."""

    file: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.message}"


def discover(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[Path], list[PathError]]:
    """The fixture files under ``paths`` (sorted per path, each once) and the paths that are no fixture."""
    found: list[Path] = []
    problems: list[PathError] = []
    seen: set[Path] = set()
    for root in map(Path, paths):
        files, errors = _files_under(root)
        problems.extend(errors)
        for path in files:
            if path not in seen:
                seen.add(path)
                found.append(path)
    return found, problems


def _files_under(root: Path) -> tuple[list[Path], list[PathError]]:
    """One given path: itself if it is a file, else the ``.yaml``/``.yml`` files below it."""
    problem = _not_a_file(root)
    if problem is None:
        return [root], []
    if not root.is_dir():
        return [], [PathError(display_path(root), problem)]
    files: list[Path] = []
    errors: list[PathError] = []
    visited: set[str] = set()
    for folder, subfolders, names in os.walk(root, followlinks=True):
        real = os.path.realpath(folder)
        if real in visited:  # a link back up the tree: walk each real folder once
            subfolders[:] = []
            continue
        visited.add(real)
        subfolders.sort()
        for name in names:
            if name.endswith((".yaml", ".yml")):
                path = Path(folder, name)
                problem = _not_a_file(path)
                if problem is None:
                    files.append(path)
                else:
                    errors.append(PathError(display_path(path), problem))
    if not files and not errors:
        errors.append(PathError(display_path(root), "no .yaml or .yml fixture file in this folder; check the path"))
    return sorted(files), errors


def _not_a_file(path: Path) -> str | None:
    """Why ``path`` is not a fixture file to read, or None when it is a regular file."""
    try:
        mode = path.stat().st_mode
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "a symbolic link that loops back on itself; point it at a fixture file"
        if path.is_symlink():
            return f"a symbolic link to {os.readlink(path)!r}, which does not exist; fix or remove the link"
        if error.errno == errno.ENOENT:
            return "does not exist; check the spelling of the path"
        return f"cannot be read ({error.strerror}); check its permissions"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file (a pipe, socket or device): give a fixture file or a folder of them"


def fixture_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path]:
    """The ``.yaml``/``.yml`` files under ``paths``, sorted, each once."""
    yield from discover(paths)[0]


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it is inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
