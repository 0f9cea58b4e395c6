"""What every translation of a paragraph must say alike: its numbers, option names and card notations.

Card notations are rank sequences joined by ``-`` or ``,`` (``D-R-A``, ``A-2-3``,
``3,4,5,...,V,D,R,A,2``) or a rank with a suit glyph (``3♣``), in the French letters the
documents use (V, D, R = J, Q, K) or the English ones; they are taken out before numbers are
read, so A-2-3 holds no number. Numbers are digits, or number words of the document's language
(one to ten) where it has a lexicon here. Option names are snake_case words and ``name=``; a
bare word like "target" is not taken as an option name, since it is also a word of English.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_RANK = r"(?:10|[2-9]|[AVDRJQKT])"
_NOTATION = re.compile(rf"(?<![0-9A-Za-z]){_RANK}(?:\s*[-,]\s*{_RANK})+(?![0-9A-Za-z])|"
                       rf"(?<![0-9A-Za-z]){_RANK}[♣♦♥♠]")
_NUMBER = re.compile(r"(?<![\d.,])\d+(?![\d]|[.,]\d)")
_SNAKE = re.compile(r"(?<![A-Za-z0-9_])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![A-Za-z0-9_])")
_ASSIGNED = re.compile(r"(?<![A-Za-z0-9_])([a-z][a-z0-9_]*)=")
# Number words as they appear in rule texts; only words that mean nothing else there (so not
# Vietnamese "một" or Romanian "o", which are also the article "a").
NUMBER_WORDS = {
    "vi": {"hai": 2, "ba": 3, "bốn": 4, "năm": 5, "sáu": 6, "bảy": 7, "tám": 8, "chín": 9, "mười": 10},
    "ro": {"unu": 1, "doi": 2, "două": 2, "trei": 3, "patru": 4, "cinci": 5, "șase": 6, "șapte": 7, "opt": 8,
           "zece": 10},
    "en": {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10},
}
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Facts:
    """A paragraph's numbers (a multiset), option names and card notations (sets)."""

    numbers: Counter[int]
    options: frozenset[str]
    notations: frozenset[str]


def facts(text: str, language: str) -> Facts:
    """The facts stated by one paragraph."""
    notations = frozenset(re.sub(r"\s+", "", m) for m in _NOTATION.findall(text))
    rest = _NOTATION.sub(" ", text)
    options = set(_SNAKE.findall(rest)) | set(_ASSIGNED.findall(rest))
    numbers = Counter(int(n) for n in _NUMBER.findall(rest))
    words = NUMBER_WORDS.get(language, {})
    numbers.update(words[w] for w in _WORD.findall(rest.lower()) if w in words)
    return Facts(numbers, frozenset(options), notations)
