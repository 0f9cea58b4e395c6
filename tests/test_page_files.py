"""The file server of a local ``--engine-page``: the page's folder's regular files, to the page alone; each way out tried.

Requests are made with http.client, which sends a path exactly as written (a browser would tidy
``..`` away first), and with the headers Chromium sends: the page's own requests carry the cookie
its first address set; another origin's, or another program's, do not.
"""

from __future__ import annotations

import http.client
import os
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.adapters.page_files import PageFiles


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[PageFiles, Path]]:
    """A page's folder with every kind of thing that must not leave it, served."""
    folder = tmp_path / "page"
    (folder / "assets").mkdir(parents=True)
    (folder / "index.html").write_text("<!doctype html><title>page</title>", encoding="utf-8")
    (folder / "assets" / "app.js").write_text("export const x = 1;", encoding="utf-8")
    (folder / "assets" / "inner.js").symlink_to(folder / "assets" / "app.js")  # a link inside: served
    (folder / "empty").mkdir()
    (folder / ".env").write_text("SECRET=1", encoding="utf-8")
    (folder / ".git").mkdir()
    (folder / ".git" / "config").write_text("[core]", encoding="utf-8")
    (folder / "assets" / ".hidden.js").write_text("secret", encoding="utf-8")
    (folder / "env.js").symlink_to(folder / ".env")  # a link to a dotfile
    (tmp_path / "outside.txt").write_text("outside", encoding="utf-8")
    (folder / "out.txt").symlink_to(tmp_path / "outside.txt")
    (folder / "root").symlink_to("/")
    (folder / "zero").symlink_to("/dev/zero")
    os.mkfifo(folder / "pipe")
    files = PageFiles(folder)
    yield files, folder
    files.close()


def get(files: PageFiles, path: str, cookie: bool = True, headers: dict[str, str] | None = None,
        token: bool = False) -> tuple[int, bytes, str | None]:
    """GET ``path`` as written: the status, body and Set-Cookie (with the page's cookie unless not ``cookie``)."""
    first = urllib.parse.urlsplit(files.url("index.html"))
    connection = http.client.HTTPConnection(first.hostname or "", first.port, timeout=5)
    sent = {"Host": first.netloc, **(headers or {})}
    if cookie:
        sent["Cookie"] = f"{files.server.cookie}={files.server.token}"
    connection.request("GET", path + (f"?{first.query}" if token else ""), headers=sent)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body, response.getheader("Set-Cookie")


def test_the_page_and_its_files_are_served_to_the_page(served: tuple[PageFiles, Path]) -> None:
    files, _ = served
    status, body, cookie = get(files, "/index.html", cookie=False, token=True)  # the first address: the token
    assert status == 200 and b"<title>page</title>" in body
    assert cookie is not None and cookie.startswith(f"{files.server.cookie}={files.server.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert get(files, "/assets/app.js")[:2] == (200, b"export const x = 1;")  # then the cookie
    assert get(files, "/assets/inner.js")[:2] == (200, b"export const x = 1;")
    assert get(files, "/", headers={"Sec-Fetch-Site": "same-origin"})[0] == 200  # a folder is its index.html
    assert get(files, "/assets/app.js", headers={"Sec-Fetch-Site": "none"})[0] == 200


@pytest.mark.parametrize("path", [
    "/../outside.txt", "/%2e%2e/outside.txt", "/..%2foutside.txt", "/assets/../../outside.txt",  # up and out
    "/out.txt", "/root/etc/passwd", "/root/", "/zero",  # symlinks out of the folder
    "/.env", "/%2eenv", "/.git/config", "/assets/.hidden.js", "/env.js",  # dotfiles, a link to one
    "/empty/", "/empty", "/assets/",  # folders without an index.html: no listing
    "/pipe", "/nowhere.js", "/assets%5capp.js", "/index.html%00.js",  # no regular file
])
def test_nothing_else_is_served(path: str, served: tuple[PageFiles, Path]) -> None:
    files, _ = served
    status, body, _ = get(files, path)
    assert status == 404, (path, body[:80])
    assert b"SECRET" not in body and b"root:" not in body and b"outside" not in body


@pytest.mark.parametrize(("why", "cookie", "headers"), [
    ("another program on the machine: no token, no cookie", False, {}),
    ("a wrong cookie", False, {"Cookie": "cardverse-page-1=guess"}),
    ("another site's page", True, {"Sec-Fetch-Site": "cross-site"}),
    ("a page of another port of 127.0.0.1", True, {"Sec-Fetch-Site": "same-site"}),
    ("a DNS rebinding: another Host", True, {"Host": "evil.example:80"}),
])
def test_nobody_but_the_page_is_served(why: str, cookie: bool, headers: dict[str, str],
                                       served: tuple[PageFiles, Path]) -> None:
    files, _ = served
    status, body, _ = get(files, "/index.html", cookie=cookie, headers=headers)
    assert status == 403 and b"<title>page</title>" not in body, why
