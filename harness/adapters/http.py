"""``--engine-url``: the same messages, each the body of one HTTP POST (stdlib urllib only).

Responsible for the transport only; the session logic is in ``remote.py``. There is no process
to restart: after a failure the next request starts a new session with a new handshake.
"""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from typing import Any

from harness.adapters.protocol import MAX_LINE, AdapterError, decode, encode
from harness.adapters.remote import RemoteEngine
from harness.adapters.subprocess import DEFAULT_TIMEOUT


class HttpChannel:
    """POSTs one message per request to one URL."""

    def __init__(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"--engine-url {url!r}: give an http:// or https:// URL, e.g. http://127.0.0.1:8080/")
        self.url, self.timeout = url, timeout
        self.live = False

    def open(self) -> None:
        """A new session: nothing to connect until the handshake is posted."""
        self.live = True

    def is_open(self) -> bool:
        """Whether a session is live."""
        return self.live

    def exchange(self, message: dict[str, Any], what: str) -> Any:
        """POST ``message``; the decoded body of the answer."""
        posted = urllib.request.Request(self.url, data=encode(message), method="POST",
                                        headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(posted, timeout=self.timeout) as response:
                body = response.read(MAX_LINE + 1)
        except urllib.error.HTTPError as error:
            text = error.read(300).decode("utf-8", "replace")
            raise AdapterError(f"{self.url} answered HTTP {error.code} ({error.reason}) instead of sending {what}: "
                               f"{text!r}; answer every POST with 200 and a JSON body") from None
        except (TimeoutError, socket.timeout):
            raise self._late(what) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, (TimeoutError, socket.timeout)):
                raise self._late(what) from None
            raise AdapterError(f"cannot reach {self.url} ({reason}) for {what}: is the server running, and is "
                               "the URL right?") from None
        if len(body) > MAX_LINE:
            raise AdapterError(f"{what} is longer than {MAX_LINE} bytes: send one JSON object per response")
        return decode(body, what)

    def _late(self, what: str) -> AdapterError:
        """The error for an answer that did not come in time."""
        return AdapterError(f"{what} did not come from {self.url} within {self.timeout:g} s: the server hangs or "
                            "is too slow (raise --timeout if it is only slow)")

    def abandon(self) -> str:
        """End the session; the next request shakes hands again."""
        self.live = False
        return "; the next scenario starts a new session with a new handshake"

    def close(self, farewell: dict[str, Any] | None) -> None:
        """Post ``farewell`` (stop) if a session is live; the server keeps running."""
        if self.live and farewell is not None:
            try:
                self.exchange(farewell, "the answer to stop")
            except AdapterError:
                pass  # the run is over; whatever it says now changes nothing
        self.live = False


def http_engine(url: str, timeout: float = DEFAULT_TIMEOUT) -> RemoteEngine:
    """An engine reached by POSTing protocol messages to ``url``."""
    return RemoteEngine(HttpChannel(url, timeout))
