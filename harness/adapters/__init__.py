"""Engines outside the harness's process, reached through the JSON engine protocol (spec/protocol.md).

``subprocess`` runs a command speaking JSON lines on stdio; ``http`` POSTs the same messages to a
URL; ``page`` hands them to a web page's ``window.cardverseEngine.handle`` in headless Chromium
(the last two imported only when used). Each gives a ``RemoteEngine``: the Engine/Game interface
of ``harness.adapters.engine``, so the runner treats them like any in-process engine.
"""

from __future__ import annotations

from harness.adapters.protocol import PROTOCOL_VERSION, AdapterError, EngineError
from harness.adapters.remote import RemoteEngine
from harness.adapters.subprocess import DEFAULT_TIMEOUT, subprocess_engine

__all__ = ["DEFAULT_TIMEOUT", "PROTOCOL_VERSION", "AdapterError", "EngineError", "RemoteEngine",
           "connect", "subprocess_engine"]


def connect(command: str | None = None, url: str | None = None, timeout: float = DEFAULT_TIMEOUT,
            page: str | None = None) -> RemoteEngine:
    """The remote engine given by ``--engine-cmd``, ``--engine-url`` or ``--engine-page`` (exactly one)."""
    if [command, url, page].count(None) != 2:
        raise ValueError("give exactly one of --engine-cmd, --engine-url and --engine-page")
    if command is not None:
        return subprocess_engine(command, timeout)
    if page is not None:
        from harness.adapters.page import (
            page_engine,  # Playwright and Chromium: only for a page
        )

        return page_engine(page, timeout)
    from harness.adapters.http import (
        http_engine,  # urllib costs 10 ms to import: only when used
    )

    return http_engine(str(url), timeout)
