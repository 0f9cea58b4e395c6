"""What the kit runs inside an engine's page, and what it hears from it: the call script, and the console as stderr.

``CALL`` is the one script every exchange runs in the page (through the DevTools protocol): it
hands each message's text to ``window.cardverseEngine.handle`` in turn, each within the timeout,
and reports the answers, or the first fault, and the document it ran in. The kit's calls run one
after another even when sent ahead: each waits for the one before under a property of the kit's own
on ``window`` (``Symbol.for("cardverse.kit.turn")``), so a page never sees two messages at once.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from harness.adapters.stderr_tail import STDERR_LINES
from harness.host.text import cut

ERROR_TYPES = ("error", "assert")  # console messages that are the page's faults; the rest is its log
# Run by Runtime.evaluate with ([texts, ms]): the texts to hand over in order, the timeout of each in ms.
CALL = """async ([texts, ms]) => {
  const turn = Symbol.for("cardverse.kit.turn");
  const run = async () => {
    const document = { origin: performance.timeOrigin, url: location.href };
    const engine = window.cardverseEngine;
    if (!engine || typeof engine.handle !== "function") return { document, answers: [], fault: "missing" };
    const answers = [], late = {};
    for (const text of texts) {
      let timer;
      try {
        const answer = await Promise.race([
          new Promise((resolve) => resolve(engine.handle(text))),
          new Promise((resolve) => { timer = setTimeout(resolve, ms, late); }),
        ]);
        if (answer === late) return { document, answers, fault: "late" };
        if (typeof answer !== "string") {
          return { document, answers, fault: "not-text", detail: answer === null ? "null" : typeof answer };
        }
        answers.push(answer);
      } catch (error) {
        return { document, answers, fault: "threw", detail: String((error && error.stack) || error) };
      } finally {
        clearTimeout(timer);
      }
    }
    return { document, answers };
  };
  const mine = (window[turn] || Promise.resolve()).then(run);
  window[turn] = mine;
  return mine;
}"""
READY = "() => typeof window.cardverseEngine?.handle === 'function'"
DOCUMENT = "() => ({ origin: performance.timeOrigin, url: location.href })"


class Console:
    """The page's console as an engine's stderr: its last lines, and the errors not yet charged to an exchange."""

    def __init__(self) -> None:
        self.lines: deque[str] = deque(maxlen=STDERR_LINES)
        self.errors: list[str] = []
        self.crashed = False
        self.closed = False
        self.gone: asyncio.Event | None = None  # set when the page crashes or closes: a call into it cannot end

    def watch(self, page: Any) -> None:
        """Note what ``page`` logs, throws, and whether it crashes or closes (called on the browser's loop)."""
        self.gone = asyncio.Event()
        page.on("console", self.logged)
        page.on("pageerror", lambda error: self.fault(f"uncaught: {error}"))
        page.on("crash", lambda _: self.ended("crashed"))
        page.on("close", lambda _: self.ended("closed"))

    def ended(self, how: str) -> None:
        """The page crashed or closed: every call waiting on it fails now (a crashed tab never answers)."""
        setattr(self, how, True)
        assert self.gone is not None
        self.gone.set()

    def logged(self, message: Any) -> None:
        """One console message: an error is a fault, any other kind a line of the log."""
        line = f"{message.type}: {message.text}"
        if message.type in ERROR_TYPES:
            self.fault(line)
        else:
            self.lines.append(cut(line))

    def fault(self, line: str) -> None:
        """An error of the page's: a line of the log, and a fault for the exchange in progress."""
        self.lines.append(cut(line))
        self.errors.append(line)

    def take_error(self) -> str | None:
        """The first error logged since the last call, once."""
        errors, self.errors = self.errors, []
        return errors[0] if errors else None

    def tail(self) -> str:
        """The last lines, as an error quotes an engine's stderr."""
        if not self.lines:
            return "\n(the page wrote nothing on its console)"
        return "\nthe page's console ends with:\n" + "\n".join(f"| {line}" for line in self.lines)
