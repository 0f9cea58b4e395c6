"""A local page's folder served on 127.0.0.1 while the page is in use: its regular files, to the page alone.

Served as a web server would serve it (Chromium refuses module scripts from file://, and a bundle's
absolute paths such as ``/assets/app.js`` need a root), but nothing else: no file outside the folder
(a symlink out, ``..``), no dotfile or dot folder (``.env``, ``.git/``), no folder listing (a folder
is its ``index.html``), and nothing to another origin (a Host that is not the server's, a request
another site's page made) or to another program on the machine: the page's first address carries
a token, which the answer sets as a cookie that every later request of the page carries.
"""

from __future__ import annotations

import email.utils
import http.cookies
import os
import secrets
import threading
import urllib.parse
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any

SCRIPT_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
                ".json": "application/json", ".css": "text/css", ".svg": "image/svg+xml"}
TOKEN = "cardverse-page"  # the query parameter of the page's first address, and the cookie's name (with the port)
SAME_SITE = {None, "same-origin", "none"}  # Sec-Fetch-Site values of the page's own requests (none: its navigation)


class _Files(SimpleHTTPRequestHandler):
    """Answers a GET or HEAD with a regular file of the folder, or 403/404; logs nothing."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **SCRIPT_TYPES}
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Nothing: a request log would mix into the kit's output."""

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """Never: a folder is served as its index.html, or not at all."""
        self.send_error(404, "File not found")

    def send_head(self) -> IO[bytes] | None:  # type: ignore[override]
        """The file asked for, opened, after its headers; None after an error (the request is not the page's, or
        names no regular file of the folder)."""
        split = urllib.parse.urlsplit(self.path)
        token = urllib.parse.parse_qs(split.query).get(TOKEN, [""])[0]
        try:
            cookie = http.cookies.SimpleCookie(self.headers.get("Cookie", "")).get(self.server.cookie)
        except http.cookies.CookieError:
            cookie = None
        if self.headers.get("Host") != self.server.host or self.headers.get("Sec-Fetch-Site") not in SAME_SITE or \
                not (secrets.compare_digest(token, self.server.token) or
                     (cookie is not None and secrets.compare_digest(cookie.value, self.server.token))):
            self.send_error(403, "Forbidden")
            return None
        target = self.server.file(urllib.parse.unquote(split.path))
        if target is None:
            self.send_error(404, "File not found")
            return None
        try:
            handle = open(target, "rb")  # noqa: SIM115 (the base class copies it out and closes it)
            size = os.fstat(handle.fileno()).st_size
        except OSError:
            self.send_error(404, "File not found")
            return None
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(target)))
        self.send_header("Content-Length", str(size))
        self.send_header("Last-Modified", email.utils.formatdate(os.path.getmtime(target), usegmt=True))
        self.send_header("Cache-Control", "no-store")
        if token:
            self.send_header("Set-Cookie", f"{self.server.cookie}={self.server.token}; Path=/; HttpOnly; SameSite=Strict")
        self.end_headers()
        return handle


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, folder: Path) -> None:
        super().__init__(("127.0.0.1", 0), _Files)
        self.root = folder.resolve()
        self.token = secrets.token_urlsafe(16)
        self.host = f"127.0.0.1:{self.server_address[1]}"
        self.cookie = f"{TOKEN}-{self.server_address[1]}"  # cookies ignore ports: one a server

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # the browser dropped a connection (the page closed mid-request): a traceback would only alarm

    def file(self, path: str) -> Path | None:
        """The regular file of the folder that ``path`` (an URL's path, unquoted) names, or None."""
        parts = [part for part in path.split("/") if part]
        if any(part.startswith(".") or "\\" in part or "\0" in part for part in parts):
            return None  # dotfiles, dot folders, . and ..; a backslash or NUL is no file name a page asks for
        target = self.root.joinpath(*parts)
        try:
            if target.is_dir():
                target = target / "index.html"
            resolved = target.resolve(strict=True)
        except (OSError, RuntimeError):  # missing, unreadable, a symlink loop
            return None
        if not resolved.is_relative_to(self.root) or not resolved.is_file() or \
                any(part.startswith(".") for part in resolved.relative_to(self.root).parts):
            return None  # a symlink out of the folder or to a dotfile, or no regular file (a device, a pipe)
        return resolved


class PageFiles:
    """A local page's folder served on 127.0.0.1 (an ephemeral port) while the page is in use."""

    def __init__(self, folder: Path) -> None:
        self.server = _Server(folder)
        self.thread = threading.Thread(target=self.server.serve_forever, name="engine-page-files", daemon=True)
        self.thread.start()

    def url(self, name: str) -> str:
        """The page's first address: the file ``name`` of the folder (a query may follow it), with the token."""
        joiner = "&" if "?" in name else "?"
        return f"http://{self.server.host}/{name}{joiner}{TOKEN}={self.server.token}"

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()
