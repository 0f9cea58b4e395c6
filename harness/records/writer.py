"""Record files written one line at a time: plain, gzip or zstd by the name's suffix (``.gz``, ``.zst``).

The lines go to ``FILE.part`` beside the file and the name becomes ``FILE`` when the writer is
closed (an interrupted run included): a reader never sees half a file under the final name, and a
process killed outright leaves its lines so far in ``FILE.part``. Plain files are flushed after
each record; a compressed stream is flushed when it is closed.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from harness import install_line
from harness.host.files import UnsafePath, check_target

ZSTD_NEEDED = ("{path}: writing zstd needs the zstandard package: "
               + install_line("zstd") + " (or write .jsonl.gz)")


class RecordWriter:
    """A file of records being written; use it as a context manager, then it holds the final name."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = check_target(path)  # UnsafePath: a folder, a pipe, a dangling link
        self.part = check_target(self.path.with_name(self.path.name + ".part"))
        self.count = 0
        self.raw: IO[bytes] | None = None
        self.out: Any = None

    def __enter__(self) -> RecordWriter:
        suffix = self.path.suffix.lower()
        if suffix == ".zst":
            try:
                import zstandard
            except ImportError:
                raise UnsafePath(ZSTD_NEEDED.format(path=self.path)) from None
        try:
            self.raw = open(self.part, "wb")  # noqa: SIM115 (closed by __exit__)
        except OSError as error:
            raise UnsafePath(f"cannot write {self.path} ({error.strerror or error}): give another path") from None
        if suffix == ".gz":
            self.out = gzip.GzipFile(fileobj=self.raw, mode="wb", compresslevel=6)
        elif suffix == ".zst":
            self.out = zstandard.ZstdCompressor(level=3).stream_writer(self.raw, closefd=False)
        else:
            self.out = self.raw
        return self

    def write(self, line: str) -> None:
        """One record (a JSON line without its newline)."""
        self.out.write(line.encode("utf-8") + b"\n")
        if self.out is self.raw:
            self.raw.flush()  # type: ignore[union-attr]
        self.count += 1

    def write_all(self, lines: Iterable[str]) -> None:
        """Several records, in order."""
        for line in lines:
            self.write(line)

    def __exit__(self, *exc: object) -> None:
        assert self.raw is not None, "enter the writer first"
        if self.out is not self.raw:
            self.out.close()
        self.raw.close()
        os.replace(self.part, self.path)


def write_records(path: str | os.PathLike[str], lines: Iterable[str]) -> Path:
    """Write ``lines`` (records) to ``path``; its name says how it is compressed."""
    with RecordWriter(path) as writer:
        writer.write_all(lines)
    return writer.path
