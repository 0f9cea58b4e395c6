"""Fingerprints of the rule documents a game file was written from, kept at the end of the game file.

A fingerprint is the first 16 hex digits of the SHA-256 of a paragraph's text in UTF-8, after
Unicode NFC normalisation, with its marker (``1.``, ``•``) removed and every run of whitespace
made one space. It is per language: a translation's words differ, so each language of a
document has its own. The game file's ``sources:`` section holds, for each paragraph
(``title``, ``variant``, then ``R-1.2`` and so on), one fingerprint per language, and the
number of paragraphs of each section (the same in every language). The kit ships these, never
the documents' text.
"""

from __future__ import annotations

import hashlib
from typing import Any

import yaml

from harness.spec import gamespec as specs
from harness.versions.texts.document import Document

FINGERPRINT = "sha256-16 of the NFC text, whitespace collapsed, marker removed; per language"


def fingerprint(text: str) -> str:
    """A paragraph's fingerprint (the text is already normalised by the reader)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def prefix(spec: specs.GameSpec) -> str:
    """The letter of the game's paragraph numbers (``R`` for ``R-1.2``), from its clauses' sources."""
    for clause in spec.clauses.values():
        if "-" in clause.source:
            return clause.source.split("-", 1)[0]
    return spec.game[0].upper()


def paragraph_id(spec: specs.GameSpec, number: str) -> str:
    """``R-1.2`` for paragraph ``1.2`` of a Rummy document; title and variant stay as they are."""
    return number if number in ("title", "variant") else f"{prefix(spec)}-{number}"


def recorded(spec: specs.GameSpec) -> dict[str, Any]:
    """The game file's ``sources:`` section ({} when it has none)."""
    return dict(spec.data.get("sources") or {})


def record_section(spec: specs.GameSpec, documents: list[Document]) -> str:
    """The ``sources:`` YAML for the game file: what it holds now, with these documents' fingerprints."""
    old = recorded(spec)
    paragraphs: dict[str, dict[str, str]] = {k: dict(v) for k, v in (old.get("paragraphs") or {}).items()}
    for document in documents:
        for paragraph in document.paragraphs():
            paragraphs.setdefault(paragraph_id(spec, paragraph.number), {})[document.language] = \
                fingerprint(paragraph.text)
    section = {"sources": {"fingerprint": FINGERPRINT, "sections": documents[0].shape if documents else
                           old.get("sections", []), "paragraphs": paragraphs}}
    return yaml.safe_dump(section, allow_unicode=True, sort_keys=False, default_flow_style=None, width=120)
