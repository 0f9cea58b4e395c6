"""The lines of record files, one at a time or a read at a time: plain, gzip or zstd (told by their first bytes),
or standard input.

Nothing is held but the lines of one group (some 32), so memory stays flat on any size of file. A file that
cannot be opened, or stops in the middle of its compressed data, is a ``Broken`` at the line where
reading stopped; the next file is read all the same.
"""

from __future__ import annotations

import gzip
import io
import sys
import zlib
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import IO, Any, NamedTuple

from harness import install_line

BUFFER = 1 << 16  # bytes read from a file at a time (more is slower: a read no longer fits the processor's caches)
# lines given together where a file has them at once: parsed in a row, then judged in a row, each step keeps its
# code hot in the processor's caches
GROUP = 32
SPACES = frozenset(b" \t\n\r\x0b\x0c")  # what bytes.isspace counts as space
GZIP, ZSTD = b"\x1f\x8b", b"\x28\xb5\x2f\xfd"
ZSTD_MISSING = ("{source} is zstd-compressed, and reading it needs the zstandard package: "
                + install_line("zstd")
                + " (or zstd -dc {source} | cardverse-conformance audit -)")


class Line(NamedTuple):
    """One non-empty line of a file, decoded (a named tuple: each line makes one, and a frozen dataclass is slower)."""

    source: str
    number: int
    text: str


class Broken(NamedTuple):
    """A file, or a line, that cannot be read; ``number`` 0 is the whole file."""

    source: str
    number: int
    message: str
    kind: str = "unreadable"


def lines(sources: Iterable[str], stdin: IO[bytes] | None = None) -> Iterator[Line | Broken]:
    """Each line of each source in order (``-`` is standard input), or what stopped the reading."""
    return chain.from_iterable(groups(sources, stdin))


def groups(sources: Iterable[str], stdin: IO[bytes] | None = None, most: int = GROUP) -> Iterator[list[Line | Broken]]:
    """``lines``, in groups of about ``most``: whole reads (of ``BUFFER`` bytes; a line longer than that waits
    for the reads that end it), a group ending early where a read comes short, as a pipe's does when nothing
    more has been written yet: so a pipe's lines come as soon as they are written."""
    for source in sources:
        try:
            handle = _open(source, stdin)
        except (OSError, ImportError) as error:
            message = str(error) if isinstance(error, ImportError) else f"cannot open it: {error.strerror or error}"
            yield [Broken(source, 0, message, "unreadable-file")]
            continue
        number, group = 0, list[Line | Broken]()
        try:
            with handle:
                for read, full in _reads(handle):
                    for number, raw in enumerate(read, start=number + 1):
                        if not raw or (raw[0] in SPACES and bytes(raw).isspace()):  # a blank line
                            continue
                        try:
                            group.append(Line(source, number, str(raw, "utf-8")))
                        except UnicodeDecodeError as error:
                            group.append(Broken(source, number, f"not UTF-8 text ({error.reason} at byte {error.start})",
                                                "not-json"))
                    if group and (len(group) >= most or not full):
                        yield group
                        group = []
            if group:
                yield group
        except (EOFError, OSError, zlib.error, ValueError) as error:  # zstandard raises its own ZstdError, a ValueError-like
            yield [*group, Broken(source, number + 1, f"the file stops in the middle of its compressed data after line "
                                                      f"{number} ({error}): the lines before were read", "cut-short")]
        except Exception as error:  # zstandard.ZstdError is none of the above
            if type(error).__name__ != "ZstdError":
                raise
            yield [*group, Broken(source, number + 1, f"the zstd data is broken after line {number} ({error})",
                                  "cut-short")]


def _reads(handle: Any) -> Iterator[tuple[list[Any], bool]]:
    """The lines each read of ``handle`` ends, without their newline (a last line with none comes last), each
    valid until the next read; and whether the read was full (a short one: the end, or a pipe with nothing more
    written yet)."""
    start: list[bytes] = []  # the start of a line no read so far has ended
    for data, size in _filled(handle):
        view, ended, at = memoryview(data), list[Any](), 0
        while (cut := data.find(b"\n", at, size)) >= 0:  # memchr: bytes.split looks at each byte in turn
            ended.append(view[at:cut])
            at = cut + 1
        if ended and start:
            ended[0] = b"".join(start) + ended[0]
            start = []
        if at < size:
            start.append(bytes(view[at:size]))
        yield ended, size >= BUFFER
    if start:
        yield [b"".join(start)], False


def _filled(handle: Any) -> Iterator[tuple[bytes | bytearray, int]]:
    """Each read of ``handle``: what it filled, and how much of it."""
    # first what is buffered already (the bytes that told the compression), as it is: reading into a buffer
    # while some are buffered would read once more, and wait on a pipe for bytes nobody has written yet
    first = handle.read1(BUFFER)
    if not first:
        return
    yield first, len(first)
    # then one buffer read into again and again: a fresh 64 KB a read made the allocator hand memory back to
    # the system and fault it in again (2.5 us of system time a President record), and lines are decoded from it
    into = getattr(handle, "readinto1", None)
    if into is None:  # the zstd reader: its reads are what a frame holds
        while data := handle.read1(BUFFER):
            yield data, len(data)
        return
    buffer = bytearray(BUFFER)
    while size := into(buffer):
        yield buffer, size


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
        return _ZstdReader(buffered, zstandard)  # type: ignore[return-value]
    return buffered  # type: ignore[no-any-return]


class _ZstdReader:
    """The bytes of zstd frames one after another, a read at a time; data that stops inside a frame raises EOFError
    (zstandard's stream reader would end there quietly)."""

    def __init__(self, raw: Any, zstandard: Any) -> None:
        self.raw, self.zstandard = raw, zstandard
        self.decompressor, self.started = zstandard.ZstdDecompressor().decompressobj(), False

    def __enter__(self) -> _ZstdReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.raw.close()

    def read1(self, size: int) -> bytes:
        """The bytes the next compressed read holds (about ``size`` compressed bytes at a time); b"" at the end."""
        while chunk := self.raw.read1(size):
            out = []
            while chunk:
                self.started = True
                out.append(self.decompressor.decompress(chunk))
                chunk = self.decompressor.unused_data if self.decompressor.eof else b""
                if self.decompressor.eof:
                    self.decompressor, self.started = self.zstandard.ZstdDecompressor().decompressobj(), bool(chunk)
            if any(out):
                return b"".join(out)
        if self.started:
            raise EOFError("the last zstd frame is not complete")
        return b""
