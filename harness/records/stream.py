"""The lines of record files, one at a time or a read at a time: plain, gzip or zstd (told by their first bytes),
or standard input.

Nothing is held but the lines of one group (some 32), so memory stays flat on any size of file: a line
longer than ``MAX_LINE`` (16 MiB) is a ``Broken`` at its line, skipped without being held, and
compressed data is decompressed a little at a time (a bomb of newlines or zeros never comes out whole).
A file that cannot be opened, stops in the middle of its compressed data, or has a line still not ended
after ``MAX_SKIP`` (1 GiB: /dev/zero) is a ``Broken`` at the line where reading stopped; the next file is
read all the same.
"""

from __future__ import annotations

import gzip
import io
import re
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
MAX_LINE = 16 << 20  # a record line longer than this is reported and skipped (records are a few KB to a few MB)
MAX_SKIP = 1 << 30  # a line longer than this ends its file's reading: it may never end (/dev/zero)
ZSTD_STEP = 1 << 10  # compressed bytes decompressed at a time: at most ~32 MB out (a 128 KB block per 4 bytes)
LONG = None  # what ``_reads`` gives for a line longer than MAX_LINE
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
    """A file, or a line, that cannot be read; ``number`` 0 is the whole file. ``stops``: nothing after it in
    the file was read (the audit is incomplete)."""

    source: str
    number: int
    message: str
    kind: str = "unreadable"
    stops: bool = False


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
            yield [Broken(source, 0, message, "unreadable-file", True)]
            continue
        number, group = 0, list[Line | Broken]()
        try:
            with handle:
                for read, full in _reads(handle):
                    for raw in read:
                        number += 1
                        if not raw or (raw[0] in SPACES and bytes(raw).isspace()):  # blank, too long, or blanks
                            if raw is LONG:
                                group.append(Broken(source, number, f"the line is longer than {MAX_LINE >> 20} MiB "
                                                    "(a record is a few KB): skipped unread", "too-long"))
                            elif type(raw) is _Blanks:
                                number += raw.more
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
        except _Endless:
            yield [*group, Broken(source, number + 1, f"the line runs on past {MAX_SKIP >> 30} GiB without ending: "
                                                      "the rest of the file is not read", "too-long", True)]
        except (EOFError, OSError, zlib.error, ValueError) as error:  # zstandard raises its own ZstdError, a ValueError-like
            yield [*group, Broken(source, number + 1, f"the file stops in the middle of its compressed data after line "
                                                      f"{number} ({error}): the lines before were read", "cut-short", True)]
        except Exception as error:  # zstandard.ZstdError is none of the above
            if type(error).__name__ != "ZstdError":
                raise
            yield [*group, Broken(source, number + 1, f"the zstd data is broken after line {number} ({error})",
                                  "cut-short", True)]


_NEWLINES = re.compile(rb"\n+")


class _Blanks:
    """A run of blank lines in one read (false, as a blank line's empty view is): the first, and ``more`` after it."""

    __slots__ = ("more",)

    def __init__(self, more: int) -> None:
        self.more = more

    def __bool__(self) -> bool:
        return False


class _Endless(Exception):
    """A line ran on past MAX_SKIP."""


def _reads(handle: Any) -> Iterator[tuple[list[Any], bool]]:
    """The lines each read of ``handle`` ends, without their newline (a last line with none comes last), each
    valid until the next read (``LONG`` for one longer than MAX_LINE); and whether the read was full (a short
    one: the end, or a pipe with nothing more written yet)."""
    start: list[bytes] = []  # the start of a line no read so far has ended
    held = 0  # its length; past MAX_LINE the line is skipped, its bytes counted but not kept
    for data, low, high in _filled(handle):
        view, ended, at = memoryview(data), list[Any](), low
        while (cut := data.find(b"\n", at, high)) >= 0:  # memchr: bytes.split looks at each byte in turn
            ended.append(view[at:cut])
            at = cut + 1
            if at < high and data[at] == 10:  # a run of blank lines: one item, not a view each (a bomb has billions)
                run = _NEWLINES.match(data, at, high).end()  # type: ignore[union-attr]
                ended.append(_Blanks(run - at - 1))
                at = run
        if ended and held:
            ended[0] = LONG if held + len(ended[0]) > MAX_LINE else b"".join(start) + ended[0]
            start, held = [], 0
        if at < high:
            if held + high - at <= MAX_LINE:
                start.append(bytes(view[at:high]))
            elif held > MAX_SKIP:
                raise _Endless
            else:
                start = [b""]  # too long: only its length is kept
            held += high - at
        yield ended, high - low >= BUFFER
    if held:
        yield [LONG if held > MAX_LINE else b"".join(start)], False


def _filled(handle: Any) -> Iterator[tuple[bytes | bytearray, int, int]]:
    """Each read of ``handle``: what it filled, and where (from, to), at most BUFFER bytes at a time."""
    # first what is buffered already (the bytes that told the compression), as it is: reading into a buffer
    # while some are buffered would read once more, and wait on a pipe for bytes nobody has written yet
    first = handle.read1(BUFFER)
    for low in range(0, len(first), BUFFER):  # one window but from a zstd frame's start
        yield first, low, min(low + BUFFER, len(first))
    if not first:
        return
    # then one buffer read into again and again: a fresh 64 KB a read made the allocator hand memory back to
    # the system and fault it in again (2.5 us of system time a President record), and lines are decoded from it
    into = getattr(handle, "readinto1", None)
    if into is None:  # the zstd reader: its reads are what some compressed bytes hold, cut into BUFFERs here
        while data := handle.read1(BUFFER):
            for low in range(0, len(data), BUFFER):
                yield data, low, min(low + BUFFER, len(data))
        return
    buffer = bytearray(BUFFER)
    while size := into(buffer):
        yield buffer, 0, size


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
        self.pending, self.at = memoryview(b""), 0  # compressed bytes read and not yet decompressed

    def __enter__(self) -> _ZstdReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.raw.close()

    def read1(self, size: int) -> bytes:
        """About ``size`` decompressed bytes (at most ~32 MB more: see ZSTD_STEP); b"" at the end."""
        out: list[bytes] = []
        got = 0
        while got < size:
            if self.at >= len(self.pending):
                self.pending, self.at = memoryview(self.raw.read1(size)), 0
                if not self.pending:
                    break
            chunk: memoryview | bytes = self.pending[self.at:self.at + ZSTD_STEP]
            self.at += len(chunk)
            while chunk:
                self.started = True
                data = self.decompressor.decompress(chunk)
                out.append(data)
                got += len(data)
                chunk = self.decompressor.unused_data if self.decompressor.eof else b""
                if self.decompressor.eof:
                    self.decompressor, self.started = self.zstandard.ZstdDecompressor().decompressobj(), bool(chunk)
        if got:
            return b"".join(out)
        if self.started:
            raise EOFError("the last zstd frame is not complete")
        return b""
