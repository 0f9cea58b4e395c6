"""A progress line on the terminal: drawn on stderr only on a terminal outside CI, so CI output stays parseable."""

from __future__ import annotations

import os
import sys


class Progress:
    """A progress line on stderr, drawn only on a terminal outside CI."""

    def __init__(self, choice: str = "auto") -> None:
        self.on = (sys.stderr.isatty() and not os.environ.get("CI")) if choice == "auto" else choice == "on"
        self.drawn = False

    def show(self, text: str) -> None:
        """Replace the line with ``text``."""
        if self.on:
            sys.stderr.write(f"\r\033[K{text}")
            sys.stderr.flush()
            self.drawn = True

    def done(self) -> None:
        """End the line."""
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.drawn = False
