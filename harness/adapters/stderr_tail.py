"""The tail of an engine process's stderr, drained on a thread so that a chatty engine never blocks on it."""

from __future__ import annotations

import os
import threading
from typing import IO

STDERR_BYTES, STDERR_LINES = 4096, 20


class StderrTail:
    """Drains a pipe on a thread, keeping only its last bytes, so a chatty engine never blocks."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.tail = bytearray()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._drain, name="engine-stderr", daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        fd = self.stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.tail += chunk
                if len(self.tail) > 2 * STDERR_BYTES:  # trim in batches, not on every chunk
                    del self.tail[:-STDERR_BYTES]

    def text(self) -> str:
        """The last lines written (at most 20 lines, 4 KiB), decoded leniently."""
        with self.lock:
            data = bytes(self.tail[-STDERR_BYTES:])
        return "\n".join(data.decode("utf-8", "replace").splitlines()[-STDERR_LINES:])

    def finish(self) -> str:
        """Wait briefly for the pipe to close (the process is dead), close it, and return the tail."""
        self.thread.join(timeout=2.0)  # a grandchild outside the group could hold the pipe: do not wait forever
        text = self.text()
        if not self.thread.is_alive():  # else the thread still reads it; it dies with the last writer
            self.stream.close()
        return text
