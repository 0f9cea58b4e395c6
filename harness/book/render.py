"""The Jinja2 environment shared by the book and the report: templates, filters, file writing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from harness import KIT_NAME, __version__
from harness.book.cards_svg import card_name
from harness.host.files import UnsafePath, check_folder, write_inside
from harness.reports.safetext import (
    markdown_code,
    markdown_fence,
    markdown_text,
    url_part,
)
from harness.spec.cards import display

TEMPLATES = Path(__file__).resolve().parent / "templates"
MARKER = ".cardverse-site"  # marks a folder we wrote, so writing it again may clear it


def game_name(game: str) -> str:
    """``gin-rummy`` as ``Gin Rummy``."""
    return game.replace("-", " ").title()


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def prose(value: object) -> Markup:
    """Text from the spec or a fixture as HTML: escaped, its `code spans` as <code>, no backtick left raw."""
    parts = _CODE_SPAN.split(str(value))
    # split() alternates: text, code, text, ...; a lone backtick left in the text is shown as a quote.
    return Markup("").join(Markup("<code>{}</code>").format(part) if i % 2 else escape(part.replace("`", "‘"))
                           for i, part in enumerate(parts))


def markdown_prose(value: object) -> str:
    """Text from the spec or a fixture as Markdown: its `code spans` kept as code, the rest escaped."""
    parts = _CODE_SPAN.split(" ".join(str(value).split()))
    return "".join(markdown_code(part) if i % 2 else _spaced(part, markdown_text(part)) for i, part in enumerate(parts))


def _spaced(part: str, text: str) -> str:
    """``text`` with the space ``part`` had at either end (markdown_text trims it, and it parts words from code)."""
    if not text:
        return " " if part else ""
    return (" " if part[:1] == " " else "") + text + (" " if part[-1:] == " " else "")


def environment() -> jinja2.Environment:
    """Templates from the package; HTML escaped, Markdown not; a missing variable is an error."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "svg"), default_for_string=False),
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(card_name=card_name, glyph=display, game_name=game_name, md=markdown_text, code=markdown_code,
                       url=url_part, fence=markdown_fence, prose=prose, md_prose=markdown_prose)
    env.globals.update(kit=KIT_NAME, version=__version__)
    return env


class SiteError(Exception):
    """An output folder we must not write into."""


def prepare(out: Path) -> None:
    """An empty output folder: made, or cleared when we wrote it before; anything else is refused."""
    try:
        check_folder(out)
    except UnsafePath as error:
        raise SiteError(f"{error} for --out") from None
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out} is a file: give a folder for --out")
    if out.is_dir() and any(out.iterdir()):
        if not (out / MARKER).is_file():
            raise SiteError(f"{out} is not empty and was not written by {KIT_NAME}: give a new or empty folder for --out")
        shutil.rmtree(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a parent that is a file, a folder the user cannot write
        raise SiteError(f"{out}: cannot make the folder ({error.strerror}); give a folder you can write for --out") from None
    (out / MARKER).write_text(f"written by {KIT_NAME} {__version__}; the next run clears this folder\n", encoding="utf-8")


def write(out: Path, files: dict[str, str]) -> None:
    """Write each ``relative path: text`` under ``out``; a path that would leave ``out`` is a SiteError."""
    for relative, text in files.items():
        try:
            write_inside(out, relative, text)
        except UnsafePath as error:
            raise SiteError(f"{error}: nothing more was written") from None


def static_files() -> dict[str, str]:
    """The scripts the book's pages load (templates/static: the search library with its licence, and ours), by path."""
    return {f"static/{p.name}": p.read_text(encoding="utf-8") for p in sorted((TEMPLATES / "static").iterdir()) if p.is_file()}


def stylesheet() -> str:
    """The one stylesheet of the book and the report."""
    return (TEMPLATES / "style.css").read_text(encoding="utf-8")
