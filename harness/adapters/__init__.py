"""Engines outside the harness's process, reached through the JSON engine protocol (spec/protocol.md).

``subprocess`` runs a command speaking JSON lines on stdio; ``http`` POSTs the same messages to a
URL (imported only when used). Both give a ``RemoteEngine``: the Engine/Game interface of
``harness.adapters.engine``, so the runner treats them like any in-process engine.
"""

from __future__ import annotations

from harness.adapters.protocol import PROTOCOL_VERSION, AdapterError, EngineError
from harness.adapters.remote import RemoteEngine
from harness.adapters.subprocess import DEFAULT_TIMEOUT, subprocess_engine

__all__ = ["DEFAULT_TIMEOUT", "PROTOCOL_VERSION", "AdapterError", "EngineError", "RemoteEngine",
           "connect", "subprocess_engine"]


def connect(command: str | None = None, url: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> RemoteEngine:
    """The remote engine given by ``--engine-cmd`` or ``--engine-url`` (exactly one)."""
    if (command is None) == (url is None):
        raise ValueError("give exactly one of --engine-cmd and --engine-url")
    if command is not None:
        return subprocess_engine(command, timeout)
    from harness.adapters.http import (
        http_engine,  # urllib costs 10 ms to import: only when used
    )

    return http_engine(str(url), timeout)
