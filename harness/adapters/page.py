"""``--engine-page``: the engine as a web page in headless Chromium, answering through ``window.cardverseEngine``.

The page defines ``window.cardverseEngine.handle(messageText)``, resolving to the answer's text:
the same JSON as a stdio line, one message per call, batches included (spec/protocol.md, "Page").
A session is one page (a tab) loaded afresh; after a fault the tab is closed and the next session
loads the page again in the same browser. Every call into the page carries one or more messages,
handed to ``handle`` one after the other, each answered before the next is sent, each with the
``--timeout``. The page's console is its stderr: its last lines go with every error, and a page that
logs an error (``console.error``, an uncaught exception) fails the exchange during which it did.
Responsible for the page only; the session logic is in ``remote.py``, Chromium in ``browser.py``.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import urllib.parse
import urllib.request
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.adapters.browser import CLOSE_SECONDS, Browser, Late, wait
from harness.adapters.page_files import PageFiles
from harness.adapters.page_script import CALL, DOCUMENT, READY, Console
from harness.adapters.protocol import (
    MAX_LINE,
    AdapterError,
    GroupFailure,
    PartialAnswers,
    decode,
    encode,
    quote,
)
from harness.adapters.remote import RemoteEngine
from harness.adapters.subprocess import DEFAULT_TIMEOUT, STARTUP_TIMEOUT
from harness.host.text import cut

PAGE_ADVICE = "resolve window.cardverseEngine.handle(text) to one JSON object's text for each message"
GLOBAL = "window.cardverseEngine.handle"
RESTARTED = "; the engine was stopped and is restarted for the next scenario"  # the stdio words: reports strip them
TAB_CLOSE_SECONDS = 2.0  # a tab closes in milliseconds, unless closed mid-navigation: then Chromium is restarted
LATE_SLACK = 1.0  # past the timeouts of a call's messages: the page's own timer says which one was late, if it can
SENT_WAIT = 1.0  # how long to wait for a call to leave before the work meant to overlap it goes ahead anyway


def page_address(page: str) -> tuple[str | None, Path | None]:
    """``--engine-page`` as an http(s) URL or a local file (a folder means its index.html); a ValueError if neither."""
    if re.match(r"https?://", page, re.IGNORECASE):
        if not urllib.parse.urlsplit(page).hostname:
            raise ValueError(f"--engine-page {page!r}: the URL names no host, e.g. http://127.0.0.1:5173/")
        return page, None
    if page.lower().startswith("file://"):
        return None, Path(urllib.request.url2pathname(urllib.parse.urlsplit(page).path))
    if re.match(r"[a-z][a-z0-9+.-]*://", page, re.IGNORECASE):
        raise ValueError(f"--engine-page {page!r}: give a local .html file or an http:// or https:// URL")
    if not page:
        raise ValueError("--engine-page is empty: give your client's page, e.g. dist/index.html")
    return None, Path(page).absolute()


class PageChannel:
    """One tab at a time in one headless Chromium, carrying messages to the page's handle and back."""

    strays = False  # framed: each call returns exactly its answers, so no output can come that nobody asked for
    pid = None  # no process group to kill on Ctrl-C: the browser is closed with the engine instead

    def __init__(self, page: str, timeout: float = DEFAULT_TIMEOUT, browser: Browser | None = None) -> None:
        self.address, self.path = page_address(page)
        self.shown = page
        self.timeout = timeout
        self.owns_browser = browser is None  # a browser shared by several pages is closed by whoever made it
        self.browser = browser or Browser()
        self.files: PageFiles | None = None
        self.page: Any = None
        self.session: Any = None  # the tab's DevTools session: a call costs a millisecond less than page.evaluate
        self.ahead: deque[tuple[list[dict[str, Any]], Any]] = deque()  # calls sent ahead, their answers unread
        self.console = Console()
        self.document: dict[str, Any] | None = None  # the loaded document: a call finding another one, it navigated
        self.starts = 0

    def is_open(self) -> bool:
        """Whether a page is loaded for this channel."""
        return self.page is not None

    def open(self) -> None:
        """Load the page in a new tab (starting Chromium first if needed) and wait for its global."""
        self.starts += 1
        url = self._url()
        self.console = Console()
        self.page = self.browser.new_page(STARTUP_TIMEOUT)
        wait_s = max(self.timeout, STARTUP_TIMEOUT)
        try:
            self.document = self.browser.events.run(self._load(url, wait_s), wait_s * 2 + CLOSE_SECONDS)
            logged = self.console.take_error()
            if logged:
                raise AdapterError(f"the page {url} logged an error while it loaded: {cut(logged)}; a page answering "
                                   "the kit logs no errors (console.warn is for warnings)")
        except Late:
            self._close_page()
            raise AdapterError(f"the page {url} did not load within {wait_s:g} s (raise --timeout if it is only "
                               f"slow){self.console.tail()}") from None
        except AdapterError as error:
            self._close_page()
            raise AdapterError(error.reason + self.console.tail()) from None
        except BaseException:  # Ctrl-C while it loads: no half-loaded page for close() to say stop to
            self._close_page()
            raise

    def _url(self) -> str:
        """The page's address; a local file is served from its folder first."""
        if self.address is not None:
            return self.address
        assert self.path is not None
        path = self.path / "index.html" if self.path.is_dir() else self.path
        if not path.is_file():
            raise AdapterError(f"the page {self.shown} does not exist: give your client's .html file (e.g. "
                               "dist/index.html) or its http:// URL")
        if self.files is None:
            self.files = PageFiles(path.parent)
        return self.files.url(urllib.parse.quote(path.name))

    async def _load(self, url: str, seconds: float) -> dict[str, Any]:
        """Open ``url`` in the tab and wait for its global; the document loaded (its time origin and URL)."""
        from playwright.async_api import Error
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        self.console.watch(self.page)
        try:
            response = await self.page.goto(url, wait_until="load", timeout=seconds * 1000)
        except PlaywrightTimeout:
            raise AdapterError(f"the page {url} did not load within {seconds:g} s (raise --timeout if it is only "
                               "slow)") from None
        except Error as error:
            raise AdapterError(f"the page {url} did not load ({cut(first_line(error))}): is the server running, "
                               "and is the address right?") from None
        if response is not None and not response.ok:
            raise AdapterError(f"the page {url} answered HTTP {response.status} ({response.status_text}): is the "
                               "address right?")
        try:
            await self.page.wait_for_function(READY, timeout=seconds * 1000)
        except PlaywrightTimeout:
            raise AdapterError(f"the page {url} loaded, but {GLOBAL} is not a function after {seconds:g} s: define "
                               "window.cardverseEngine = {handle: async (text) => answerText} (spec/protocol.md, "
                               "Page)") from None
        except Error as error:
            raise AdapterError(f"the page {url} went away while it loaded ({cut(first_line(error))})") from None
        self.session = await self.page.context.new_cdp_session(self.page)
        # read as every call reads it (the same serializer), so that the same document compares equal
        loaded = await self.session.send("Runtime.evaluate", {"expression": f"({DOCUMENT})()", "returnByValue": True})
        return dict(loaded["result"]["value"])

    def pipelines(self, hello: dict[str, Any]) -> bool:
        """Always: several messages go in one call, handed to ``handle`` one after the other."""
        return True

    def exchange(self, message: dict[str, Any], what: str) -> Any:
        """Send one message; its answer, decoded from JSON but not yet checked."""
        try:
            return self.exchange_many([message], [what])[0]
        except PartialAnswers as partial:
            raise partial.error from None

    def exchange_many(self, messages: list[dict[str, Any]], whats: list[str], fenced: bool = False,
                      meanwhile: Callable[[], None] | None = None) -> list[Any]:
        """Several messages in one call into the page; their decoded answers, in order.

        A fault of one message (it threw, came late, is not JSON) is raised as ``PartialAnswers`` after
        the answers before it. A fault of the call as a whole (the page's main thread blocked, an error
        logged, the page gone) is a ``GroupFailure`` when the call held several messages: no single one
        can be charged with it. ``meanwhile`` runs once the call has left, outside its deadline.
        ``fenced`` changes nothing: an answer cannot carry stray output. Messages sent by ``send_ahead``
        are not sent again: their answers are read.
        """
        if self.ahead and self.ahead[0][0] is messages:
            future = self.ahead.popleft()[1]
        else:
            assert not self.ahead, "a call before the answers to calls sent ahead: please report this kit bug"
            sent = threading.Event()
            future = self.browser.events.submit(self._call(self._texts(messages), sent))
            if meanwhile is not None:
                sent.wait(SENT_WAIT)
        if meanwhile is not None:
            meanwhile()
        group = GroupFailure if len(messages) > 1 else AdapterError
        try:
            result, logged = wait(future, self.timeout * len(messages) + LATE_SLACK)
        except Late:
            raise PartialAnswers([], group(
                f"{whats[0]}{' and the rest' if len(messages) > 1 else ''} did not come within "
                f"{self.timeout * len(messages):g} s: the page's main thread is blocked, or the page is too slow "
                "(raise --timeout if it is only slow)")) from None
        except AdapterError as error:
            raise PartialAnswers([], group(error.reason)) from None
        return self._answers(result, logged, whats, group)

    def send_ahead(self, messages: list[dict[str, Any]]) -> None:
        """Send ``messages`` now, for ``exchange_many(messages)`` to read their answers later: the page takes
        them up as soon as it has answered the calls before (CALL keeps the calls in order)."""
        self.ahead.append((messages, self.browser.events.submit(self._call(self._texts(messages), threading.Event()))))

    def _texts(self, messages: list[dict[str, Any]]) -> list[str]:
        """Each message as the text a stdio line carries, without its newline."""
        return [encode(message).decode("utf-8").rstrip("\n") for message in messages]

    async def _call(self, texts: list[str], sent: threading.Event) -> tuple[Any, str | None]:
        """The page's handle called on each text in turn (within the timeout each), as the page reports it, and
        the first error it logged since the call before (taken here, on the loop, in the order events came)."""
        from playwright.async_api import Error

        ms = min(int(self.timeout * 1000), 2**31 - 1)  # setTimeout fires at once past a signed 32-bit delay
        # The texts as a JSON literal in the expression: V8 parses it at once, and the value comes back
        # serialized by Chromium itself rather than by Playwright's script in the page.
        expression = f"({CALL})({json.dumps([texts, ms])})"
        session, console = self.session, self.console
        assert console.gone is not None
        if console.gone.is_set():
            raise AdapterError(self._gone("the page is gone"))
        call = asyncio.ensure_future(session.send(
            "Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}))
        call.add_done_callback(_retrieved)  # a call abandoned (late, its tab closed) fails later: nobody to print it
        gone = asyncio.ensure_future(console.gone.wait())
        try:
            await asyncio.sleep(0)  # the call runs to its first wait: written to Playwright's driver
            sent.set()
            await asyncio.wait([call, gone], return_when=asyncio.FIRST_COMPLETED)
        finally:  # also when this coroutine is cancelled (the kit stopped waiting): the call goes with it
            gone.cancel()
            answered = call.done()
            if not answered:
                call.cancel()
        if not answered:
            raise AdapterError(self._gone("the page is gone"))
        try:
            answer = call.result()
        except Error as error:
            raise AdapterError(self._gone(first_line(error))) from None
        if "exceptionDetails" in answer:  # the page was torn down under the call
            details = answer["exceptionDetails"]
            raise AdapterError(self._gone(str(details.get("exception", {}).get("description") or details.get("text"))))
        return answer["result"].get("value"), console.take_error()

    def _answers(self, result: dict[str, Any], logged: str | None, whats: list[str],
                 group: type[AdapterError]) -> list[Any]:
        """The decoded answers of one call's result; ``PartialAnswers`` at the first fault."""
        answers: list[Any] = []
        if result.get("document") != self.document:
            url = (result.get("document") or {}).get("url")
            raise PartialAnswers([], group(f"the page navigated away (to {url}) or reloaded since it loaded, before "
                                           f"{whats[0]}: a page answering the kit stays on its document"))
        if logged:
            raise PartialAnswers([], group(self._logged(logged, whats[0])))
        for what, text in zip(whats, result["answers"]):
            try:
                if len(text) > MAX_LINE:
                    raise AdapterError(f"{what} is longer than {MAX_LINE} characters; {PAGE_ADVICE}")
                answers.append(decode(text.encode("utf-8", "surrogatepass"), what, PAGE_ADVICE))
            except AdapterError as error:
                raise PartialAnswers(answers, error) from None
        fault = result.get("fault")
        if fault is None:
            return answers
        what, detail = whats[len(answers)], cut(result.get("detail", ""))
        problem = {
            "missing": f"{GLOBAL} is gone: the page no longer defines it, so there is nothing to send {what} to",
            "late": f"{what} did not come within {self.timeout:g} s: {GLOBAL}'s promise did not settle (raise "
                    "--timeout if it is only slow)",
            "not-text": f"{GLOBAL} resolved to {detail}, not a string, for {what}: {PAGE_ADVICE}",
            "threw": f"{GLOBAL} threw instead of sending {what}: {quote(detail.encode())}; answer a request that "
                     "fails with {\"seq\": n, \"error\": \"...\"} instead",
        }[fault]
        raise PartialAnswers(answers, AdapterError(problem))

    def _logged(self, line: str, what: str) -> str:
        """The error for a page that logged ``line`` while the kit waited for ``what``."""
        return (f"the page logged an error by the time of {what}: {cut(line)}; a page answering the kit logs no "
                "errors (console.warn is for warnings)")

    def _gone(self, reason: str) -> str:
        """Why a call into the page failed, from what the page did (crashed, closed, navigated) if it is known."""
        if self.console.crashed:
            return "the page crashed (Chromium's renderer process for it died) while answering"
        if self.console.closed:
            return "the page closed itself (or Chromium exited) while answering"
        if "navigat" in reason or "context was destroyed" in reason:
            return "the page navigated away (or closed) while answering: a page answering the kit stays on its document"
        return f"the call into the page failed ({cut(reason)})"

    def abandon(self) -> str:
        """Close the tab after a failure; its console tail and what happens next, for the error."""
        tail = self.console.tail()
        self._close_page()
        return RESTARTED + tail

    def close(self, farewell: dict[str, Any] | None) -> str | None:
        """Send ``farewell`` (stop) if a page is loaded, then close the tab, Chromium and the page's files.

        What went wrong with the answer to stop, if anything (the run is over: it is only reported).
        """
        problem = None
        if self.session is not None and farewell is not None:  # a page loaded (not one whose load was cut short)
            timeout, self.timeout = self.timeout, min(self.timeout, 2.0)
            try:
                answer = self.exchange(farewell, "the answer to stop")
                if not isinstance(answer, dict) or answer.get("seq") != farewell["seq"] or "result" not in answer:
                    problem = (f"the answer to stop is {quote(encode(answer))}, not {{\"seq\": {farewell['seq']}, "
                               "\"result\": null}")
            except AdapterError as error:
                problem = error.reason
            finally:
                self.timeout = timeout
        self._close_page()
        if self.owns_browser:
            self.browser.close()
        if self.files is not None:
            self.files.close()
            self.files = None
        return problem

    def _close_page(self) -> None:
        """Close the tab (a hung one too: Chromium kills its renderer), within a few seconds."""
        page, self.page, self.document, self.session = self.page, None, None, None
        for _, future in self.ahead:  # their answers would be the closed page's
            future.cancel()
        self.ahead.clear()
        if page is None or not self.browser.is_running():
            return
        try:
            self.browser.events.run(page.close(), TAB_CLOSE_SECONDS)
        except Exception:  # Late (a tab closed mid-navigation can hang), or Playwright's own: the browser goes too
            self.browser.shut()


def _retrieved(task: asyncio.Future[Any]) -> None:
    """Take a finished call's exception, so that asyncio does not print it as never retrieved."""
    if not task.cancelled():
        task.exception()


def first_line(error: BaseException) -> str:
    """The first line of a Playwright error (the rest is its call log)."""
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def page_engine(page: str, timeout: float = DEFAULT_TIMEOUT, browser: Browser | None = None) -> RemoteEngine:
    """An engine living in the web page ``page`` (a local .html file or an http(s):// URL), in ``browser`` if given."""
    return RemoteEngine(PageChannel(page, timeout, browser))
