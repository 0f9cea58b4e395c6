"""The lines of record files, one at a time: plain, gzip or zstd (told by their first bytes), or standard input.

Nothing is held but the line being read, so memory stays flat on any size of file. A file that
cannot be opened, or stops in the middle of its compressed data, is a ``Broken`` at the line where
reading stopped; the next file is read all the same.
"""

from __future__ import annotations

import gzip
import io
import sys
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

BUFFER = 1 << 16  # bytes read from a file at a time
GZIP, ZSTD = b"\x1f\x8b", b"\x28\xb5\x2f\xfd"
ZSTD_MISSING = ("{source} is zstd-compressed, and reading it needs the zstandard package: "
                "pip install 'cardverse-conformance[zstd]' (or zstd -dc {source} | cardverse-conformance audit -)")


@dataclass(frozen=True)
class Line:
    """One non-empty line of a file, decoded."""

    source: str
    number: int
    text: str


@dataclass(frozen=True)
class Broken:
    """A file, or a line, that cannot be read; ``number`` 0 is the whole file."""

    source: str
    number: int
    message: str
    kind: str = "unreadable"


def lines(sources: Iterable[str], stdin: IO[bytes] | None = None) -> Iterator[Line | Broken]:
    """Each line of each source in order (``-`` is standard input), or what stopped the reading."""
    for source in sources:
        try:
            handle = _open(source, stdin)
        except (OSError, ImportError) as error:
            message = str(error) if isinstance(error, ImportError) else f"cannot open it: {error.strerror or error}"
            yield Broken(source, 0, message, "unreadable-file")
            continue
        number = 0
        try:
            with handle:
                for number, raw in enumerate(handle, start=1):
                    if not raw or raw.isspace():  # a blank line (strip() would copy every line)
                        continue
                    try:
                        yield Line(source, number, raw.decode("utf-8"))
                    except UnicodeDecodeError as error:
                        yield Broken(source, number, f"not UTF-8 text ({error.reason} at byte {error.start})", "not-json")
        except (EOFError, OSError, zlib.error, ValueError) as error:  # zstandard raises its own ZstdError, a ValueError-like
            yield Broken(source, number + 1, f"the file stops in the middle of its compressed data after line "
                                             f"{number} ({error}): the lines before were read", "cut-short")
        except Exception as error:  # zstandard.ZstdError is none of the above
            if type(error).__name__ != "ZstdError":
                raise
            yield Broken(source, number + 1, f"the zstd data is broken after line {number} ({error})", "cut-short")


def _open(source: str, stdin: IO[bytes] | None) -> IO[bytes]:
    """A binary stream of the source's decompressed bytes."""
    # a buffer of several lines: a record line is a few KB, and the default 8 KB buffer reads about one a call
    raw: Any = (stdin or sys.stdin.buffer) if source == "-" else open(source, "rb", buffering=BUFFER)  # noqa: SIM115
    buffered = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)
    head = buffered.peek(4)[:4]
    if head.startswith(GZIP):
        return gzip.GzipFile(fileobj=buffered, mode="rb")  # type: ignore[return-value]
    if head.startswith(ZSTD):
        try:
            import zstandard
        except ImportError:
            buffered.close()
            raise ImportError(ZSTD_MISSING.format(source=source)) from None
        return _ZstdLines(buffered, zstandard)  # type: ignore[return-value]
    return buffered  # type: ignore[no-any-return]


class _ZstdLines:
    """The lines of zstd frames one after another; data that stops inside a frame raises EOFError
    (zstandard's stream reader would end there quietly)."""

    def __init__(self, raw: Any, zstandard: Any) -> None:
        self.raw, self.zstandard = raw, zstandard

    def __enter__(self) -> _ZstdLines:
        return self

    def __exit__(self, *exc: object) -> None:
        self.raw.close()

    def __iter__(self) -> Iterator[bytes]:
        rest, decompressor, started = b"", self.zstandard.ZstdDecompressor().decompressobj(), False
        while True:
            chunk = self.raw.read(1 << 20)
            if not chunk:
                break
            while chunk:
                started = True
                rest += decompressor.decompress(chunk)
                chunk = decompressor.unused_data if decompressor.eof else b""
                if decompressor.eof:
                    decompressor, started = self.zstandard.ZstdDecompressor().decompressobj(), bool(chunk)
            *whole, rest = rest.split(b"\n")
            yield from (line + b"\n" for line in whole)
        if started:
            raise EOFError("the last zstd frame is not complete")
        if rest:
            yield rest
