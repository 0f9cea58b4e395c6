"""A rule document's structure: title, variant line with the version, sections of numbered rules and bullets.

Blocks are separated by blank lines. The first block is the title, the second the variant line
(the last ``MAJOR.MINOR.PATCH`` on it is the version). Then each section is a heading block
followed by its content: a block whose lines start with ``1.`` or a bullet holds one rule per
line (a line without a marker continues the rule above); any other block is a prose paragraph
if its section has no content yet, else the next section's heading. Paragraphs are numbered the
way the English renderings of shared/rules/ number them, by position, whatever the language:
section s (from 0) rule n is ``s.n``; a prose paragraph is ``s.1`` when it is the whole section
and ``s.0`` when rules follow it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from harness.host.files import FileRefused, read_utf8

MAX_BYTES = 1 << 20
_NUMBERED = re.compile(r"^\s*(\d+)[.)]\s+(.*)$")
_BULLET = re.compile(r"^\s*[•·\-*]\s+(.*)$")
_VERSION = re.compile(r"(?<![\d.])(\d+\.\d+\.\d+)(?![\d.])")
# Letters only one language among CardVerse's uses; a document is told by the first that appears.
_SCRIPTS = (
    ("th", re.compile("[\u0e00-\u0e7f]")),
    ("vi", re.compile("[đơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]", re.IGNORECASE)),
    ("ro", re.compile("[șțşţîâă]", re.IGNORECASE)),
)


class DocumentError(Exception):
    """A file that is not a rule document in the expected structure."""


@dataclass
class Paragraph:
    """One rule or prose paragraph, numbered by position."""

    number: str  # "1.2": section 1, rule 2
    text: str
    line: int
    prose: bool = False


@dataclass
class Section:
    """A heading and its paragraphs."""

    heading: str
    line: int
    paragraphs: list[Paragraph] = field(default_factory=list)


@dataclass
class Document:
    """A rule document as read."""

    path: Path
    language: str
    title: str
    variant: str
    version: str
    sections: list[Section]
    variant_line: int = 2
    title_line: int = 1

    @property
    def shape(self) -> list[int]:
        """The number of paragraphs in each section (the same in every translation)."""
        return [len(s.paragraphs) for s in self.sections]

    def paragraphs(self) -> list[Paragraph]:
        """Every paragraph, title and variant line first (numbered ``title`` and ``variant``)."""
        head = [Paragraph("title", self.title, self.title_line), Paragraph("variant", self.variant, self.variant_line)]
        return head + [p for s in self.sections for p in s.paragraphs]


def language(text: str) -> str:
    """The language of a document: th, vi or ro by their letters, en when every letter is ASCII, else und."""
    for name, letters in _SCRIPTS:
        if letters.search(text):
            return name
    return "en" if all(ch.isascii() for ch in text if ch.isalpha()) else "und"


def normalise(text: str) -> str:
    """Text as compared and fingerprinted: Unicode NFC, whitespace runs as one space, trimmed."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def read_document(path: str | Path) -> Document:
    """Read and parse one document; a DocumentError says what is wrong and where."""
    path = Path(path)
    try:
        text = read_utf8(path, MAX_BYTES)
    except FileRefused as error:
        raise DocumentError(f"{error}; give a rule document") from None
    except OSError as error:
        raise DocumentError(f"{path}: cannot read it ({error.strerror or error})") from None
    return parse(path, text)


def _blocks(text: str) -> list[tuple[int, list[str]]]:
    """Blocks of non-blank lines, each with its first line number."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            if not current:
                start = number
            current.append(line.strip())
        elif current:
            blocks.append((start, current))
            current = []
    if current:
        blocks.append((start, current))
    return blocks


def parse(path: Path, text: str) -> Document:
    """A document from its text."""
    blocks = _blocks(text)
    if len(blocks) < 3:
        raise DocumentError(f"{path}: expected a title, a variant line with the version, then sections; "
                            f"found {len(blocks)} block(s) of text")
    (title_line, title), (variant_line, variant) = blocks[0], blocks[1]
    versions = _VERSION.findall(" ".join(variant))
    if not versions:
        raise DocumentError(f"{path}:{variant_line}: the variant line (the second paragraph) names no version "
                            "MAJOR.MINOR.PATCH")
    if not any(_NUMBERED.match(line) for _, lines in blocks[2:] for line in lines):
        raise DocumentError(f"{path}: no numbered rule (a line starting 1. or 1)) in any section: give a CardVerse rule "
                            "document, a title, a variant line with the version, then numbered rules")
    sections: list[Section] = []
    for start, lines in blocks[2:]:
        if _NUMBERED.match(lines[0]) or _BULLET.match(lines[0]):
            if not sections:
                raise DocumentError(f"{path}:{start}: a rule before any section heading")
            _add_rules(sections[-1], start, lines)
        elif sections and not sections[-1].paragraphs:  # right after a heading: that section's prose
            sections[-1].paragraphs.append(Paragraph("", normalise(" ".join(lines)), start, prose=True))
        else:
            sections.append(Section(normalise(" ".join(lines)), start))
    for index, section in enumerate(sections):
        _number(section, index)
    return Document(path, language(text), normalise(" ".join(title)), normalise(" ".join(variant)), versions[-1],
                    sections, variant_line, title_line)


def _add_rules(section: Section, start: int, lines: list[str]) -> None:
    """One paragraph per marked line; unmarked lines continue the one above."""
    for offset, line in enumerate(lines):
        numbered, bullet = _NUMBERED.match(line), _BULLET.match(line)
        if numbered:
            section.paragraphs.append(Paragraph("", normalise(numbered.group(2)), start + offset))
        elif bullet:
            section.paragraphs.append(Paragraph("", normalise(bullet.group(1)), start + offset))
        else:
            last = section.paragraphs[-1]
            last.text = normalise(f"{last.text} {line}")


def _number(section: Section, index: int) -> None:
    """Number the section's paragraphs ``index.n`` by position (prose: .1 alone, .0 before rules)."""
    rules = 0
    for paragraph in section.paragraphs:
        if paragraph.prose:
            paragraph.number = f"{index}.{1 if len(section.paragraphs) == 1 else 0}"
        else:
            rules += 1
            paragraph.number = f"{index}.{rules}"
