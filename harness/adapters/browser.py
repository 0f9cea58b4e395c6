"""Headless Chromium for ``--engine-page``, through Playwright: the browser and its event loop.

Playwright's async API runs on an event loop of its own, on a daemon thread, so any thread of the
kit can call into it with a deadline (the runner talks to an engine from a worker thread, and the
main thread must still be able to close the browser after Ctrl-C). Playwright is imported only
here and only when a page is opened: the kit runs without it (the ``browser`` extra). A local page's
folder is served by ``page_files``.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import os
import shutil
import tempfile
import threading
import weakref
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from harness import install_line
from harness.adapters.protocol import AdapterError
from harness.host.text import cut

# The machine may have no network: without these Chromium keeps trying to reach Google's services.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SYSTEM_CHROMIUMS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
GET_PLAYWRIGHT = f"{install_line('browser')} (or pip install playwright)"
GET_CHROMIUM = ("install one: apt-get install chromium (Debian, Ubuntu), or python -m playwright install chromium "
                "where the machine may download it")
CLOSE_SECONDS = 5.0  # closing a page or the browser: a hung renderer is killed well within this
LAUNCH_SECONDS = 30.0  # a start: Chromium now and then hangs at start on a loaded machine, so a second try follows
LAUNCHES = 2
SOCKET_PATH = 107  # bytes of a Unix socket's path (sun_path less its NUL): Chromium's singleton socket is in TMPDIR
_LIVE: weakref.WeakSet[Browser] = weakref.WeakSet()


class Late(Exception):
    """A call into the browser did not finish within its deadline."""


class EventLoop:
    """An asyncio event loop running on a daemon thread of its own, for coroutines submitted from any thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="engine-page", daemon=True)
        self.thread.start()

    def submit(self, work: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        """Start ``work`` on the loop; its future."""
        return asyncio.run_coroutine_threadsafe(work, self.loop)

    def run(self, work: Coroutine[Any, Any, Any], seconds: float) -> Any:
        """``work``'s result, or ``Late`` (and ``work`` cancelled) after ``seconds``."""
        return wait(self.submit(work), seconds)

    def is_running(self) -> bool:
        """Whether the loop still takes work (``stop`` has not been called)."""
        return self.thread.is_alive() and not self.loop.is_closed()

    def stop(self) -> None:
        """Stop the loop and its thread (what was still running on it is dropped)."""
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(CLOSE_SECONDS)
        if not self.thread.is_alive():
            self.loop.close()


def wait(future: concurrent.futures.Future[Any], seconds: float) -> Any:
    """The result of a future of ``EventLoop.submit``, or ``Late`` (and the work cancelled) after ``seconds``."""
    try:
        return future.result(max(0.0, seconds))
    except concurrent.futures.TimeoutError:
        future.cancel()
        raise Late from None


class Browser:
    """One headless Chromium with a fresh profile, launched on first use and reused by every page after."""

    def __init__(self) -> None:
        self.events = EventLoop()
        self.playwright: Any = None
        self.context: Any = None
        self.profile: str | None = None  # the fresh user data dir, removed once the browser is closed
        self.closed = False  # Chromium went away (it exited, was killed, or close() ran)
        _LIVE.add(self)

    def is_running(self) -> bool:
        """Whether Chromium is up and can open pages."""
        return self.context is not None and not self.closed

    def start(self) -> None:
        """Launch Chromium (Playwright's own if installed, else the system's); an AdapterError saying what to install."""
        for attempt in range(1, LAUNCHES + 1):
            if self.is_running():
                return
            self.shut()
            if not self.events.is_running():  # closed before: a browser may be started again, as a process may
                self.events = EventLoop()
            self.closed = False
            try:
                self.events.run(self._launch(), LAUNCH_SECONDS + CLOSE_SECONDS)
            except AdapterError:
                self.shut()
                raise
            except Exception as error:  # Late, or Playwright's own: a browser that did not start, or cannot here
                self.shut()
                if attempt == LAUNCHES:
                    shown = cut(error) or f"no answer within {LAUNCH_SECONDS:g} s"
                    raise AdapterError(f"Chromium could not be started {LAUNCHES} times in a row ({shown}); start "
                                       "it by hand (chromium --headless) to see why") from None

    async def _launch(self) -> None:
        """Start Playwright's driver and Chromium with a fresh profile (on the loop)."""
        try:
            from playwright.async_api import async_playwright
        except ImportError:
            raise AdapterError(f"--engine-page needs Playwright, which is not installed: {GET_PLAYWRIGHT}") from None
        self.playwright = await async_playwright().start()
        chromium = self.playwright.chromium
        own = chromium.executable_path  # where `playwright install` puts its build: used when it is there
        executable = None if own and Path(own).exists() else system_chromium() or ""
        if executable == "":
            raise AdapterError(f"--engine-page needs Chromium, and there is none here (neither Playwright's nor "
                               f"one of {', '.join(SYSTEM_CHROMIUMS)} on PATH): {GET_CHROMIUM}")
        temporary = os.environ.get("TMPDIR") or "/tmp"  # Chromium's, whatever Python's tempfile was told
        socket = Path(temporary, ".org.chromium.Chromium.XXXXXX", "SingletonSocket")
        if len(bytes(socket)) > SOCKET_PATH:
            raise AdapterError(f"the temporary folder {temporary} is too long a path for Chromium, whose "
                               f"socket there ({len(bytes(socket))} bytes) may have at most {SOCKET_PATH}: set TMPDIR to "
                               "a shorter folder (e.g. TMPDIR=/tmp)")
        self.profile = tempfile.mkdtemp(prefix="cardverse-page-")
        # Chromium's other folders (its crash reports, its caches) under the profile too, removed with it
        env = {**os.environ, "XDG_CONFIG_HOME": os.path.join(self.profile, "config"),
               "XDG_CACHE_HOME": os.path.join(self.profile, "cache")}
        self.context = await chromium.launch_persistent_context(
            self.profile, executable_path=executable, headless=True, timeout=LAUNCH_SECONDS * 1000, env=env,
            args=[*FLAGS, f"--crash-dumps-dir={os.path.join(self.profile, 'crashes')}"])
        self.context.on("close", lambda _: setattr(self, "closed", True))

    def new_page(self, seconds: float) -> Any:
        """A new tab (Playwright ``Page``); starts Chromium first if it is not running."""
        self.start()
        try:
            return self.events.run(self.context.new_page(), seconds)
        except Exception as error:  # Late, or Playwright's own
            self.shut()  # a browser that cannot open a tab is of no more use: the next one starts afresh
            raise AdapterError(f"Chromium could not open a tab ({cut(error) or 'it did not answer'}); "
                               "the browser is started again for the next try") from None

    def shut(self) -> None:
        """Close Chromium and Playwright's driver (each within a few seconds), and remove the profile."""
        context, playwright, profile = self.context, self.playwright, self.profile
        self.context = self.playwright = self.profile = None
        self.closed = True
        for closing in ([context.close()] if context is not None else []) + \
                ([playwright.stop()] if playwright is not None else []):
            try:
                self.events.run(closing, CLOSE_SECONDS)
            except Exception:  # Late, or Playwright's own
                pass  # stopping the driver kills the browsers it launched, whatever state they are in
        if profile:
            shutil.rmtree(profile, ignore_errors=True)

    def close(self) -> None:
        """``shut``, and stop the event loop's thread too (``start`` makes a new one)."""
        self.shut()
        self.events.stop()


def system_chromium() -> str | None:
    """The first Chromium or Chrome on PATH."""
    for name in SYSTEM_CHROMIUMS:
        found = shutil.which(name)
        if found:
            return found
    return None


@atexit.register
def close_all() -> None:
    """No browser outlives the kit, whatever path the run took to its end."""
    for browser in list(_LIVE):
        browser.close()
