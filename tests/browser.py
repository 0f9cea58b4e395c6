"""Headless Chromium driven over the DevTools protocol on a pipe: no driver, no extra package.

``--remote-debugging-pipe`` makes Chromium read commands on fd 3 and answer on fd 4, one JSON
object per message, each ended by a NUL byte. That is all the book's browser tests need.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from typing import Any

# The machine has no network: without these Chromium keeps trying to reach Google's services.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars"]


def chromium_path() -> str | None:
    """The Chromium binary, if installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class BrowserError(Exception):
    """Chromium went away or did not answer in time."""


def start_browser(attempts: int = 3) -> Browser:
    """A started Browser; a Chromium that hangs at start (seen now and then on a loaded machine) is
    killed and started afresh, and the last failure says what Chromium printed."""
    for attempt in range(1, attempts + 1):
        try:
            return Browser(timeout=20.0 if attempt < attempts else 60.0)
        except BrowserError:
            if attempt == attempts:
                raise
    raise AssertionError("unreachable")


class Browser:
    """One headless Chromium with one page; its console errors are collected."""

    def __init__(self, timeout: float = 20.0) -> None:
        binary = chromium_path()
        if binary is None:
            raise BrowserError("chromium is not installed")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="cardverse-chromium-")
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()

        def pipes_as_fd_3_and_4() -> None:
            # Out of the way first (a pipe may already be fd 3 or 4), then inheritable copies at 3 and 4.
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (commands_read, answers_write)]
            for target, fd in zip((3, 4), high):
                os.dup2(fd, target, inheritable=True)

        self.log = os.path.join(self.profile, "chromium.log")
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [binary, *FLAGS, "--remote-debugging-pipe", f"--user-data-dir={self.profile}", "about:blank"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                preexec_fn=pipes_as_fd_3_and_4, close_fds=False)
        os.close(commands_read)
        os.close(answers_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        try:
            target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                self.call(f"{domain}.enable", session=True)
        except BrowserError as error:
            printed = open(self.log, "rb").read()[-600:].decode(errors="replace").strip()
            self.process.kill()
            self.process.wait()
            os.close(self._commands)
            os.close(self._answers)
            shutil.rmtree(self.profile, ignore_errors=True)
            raise BrowserError(f"{error} while starting; chromium printed: {printed or 'nothing'}") from None

    def _send(self, message: dict[str, Any]) -> None:
        os.write(self._commands, json.dumps(message).encode() + b"\0")

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                raise BrowserError("chromium did not answer in time")
            chunk = os.read(self._answers, 1 << 20)
            if not chunk:
                raise BrowserError("chromium closed the pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return dict(json.loads(message))

    def call(self, method: str, params: dict[str, Any] | None = None, session: bool = False) -> dict[str, Any]:
        """Send one command and wait for its answer; events meanwhile are kept."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        self._send(message)
        deadline = time.monotonic() + self.timeout
        while True:
            answer = self._receive(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                return dict(answer.get("result", {}))
            self.events.append(answer)

    def open(self, url: str) -> None:
        """Load ``url`` and wait for its load event (images included)."""
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        self.call("Page.navigate", {"url": url}, session=True)
        deadline = time.monotonic() + self.timeout
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._receive(deadline))

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:60]}...: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def console_errors(self) -> list[str]:
        """Every error the pages logged so far (console, uncaught exceptions, failed loads); then forgets them."""
        errors = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                errors.append(str(params.get("exceptionDetails", {}).get("text")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                entry = params["entry"]
                errors.append(f"{entry.get('text')} {entry.get('url', '')}".strip())
        self.events = []
        return errors

    def screenshot(self, path: str, width: int = 1100, height: int = 1300) -> None:
        """A PNG of the page's top."""
        import base64

        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))

    def close(self) -> None:
        """Close Chromium and remove its profile."""
        try:
            self.call("Browser.close")
        except BrowserError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        os.close(self._answers)
        shutil.rmtree(self.profile, ignore_errors=True)
