"""Card images for the book: one small SVG per card, red and black suits drawn as shapes."""

from __future__ import annotations

from harness.spec.cards import FILL_ORDER, display, normalise

RED, BLACK = "#c0162c", "#1b1b1f"
RANK_NAMES = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}

# Each suit as a path in a 20x20 box; shapes, not font glyphs, so every machine draws them alike.
_SUIT_PATHS = {
    "H": "M10 18 C4 13 1 10 1 6 C1 3 3.5 1 6 1 C7.8 1 9.2 2 10 3.6 C10.8 2 12.2 1 14 1 "
         "C16.5 1 19 3 19 6 C19 10 16 13 10 18 Z",
    "D": "M10 1 L17.5 10 L10 19 L2.5 10 Z",
    "S": "M10 1 C4 6.5 1 9 1 12.2 C1 14.8 3.2 16.5 5.6 16.5 C7.2 16.5 8.4 15.8 9.2 14.6 "
         "L8 19 L12 19 L10.8 14.6 C11.6 15.8 12.8 16.5 14.4 16.5 C16.8 16.5 19 14.8 19 12.2 C19 9 16 6.5 10 1 Z",
    "C": "M10 1.2 A4.2 4.2 0 0 1 13.6 7.6 A4.2 4.2 0 1 1 11 14.4 L12.2 19 L7.8 19 L9 14.4 "
         "A4.2 4.2 0 1 1 6.4 7.6 A4.2 4.2 0 0 1 10 1.2 Z",
}


def card_name(card: str) -> str:
    """``QH`` as ``queen of hearts``: the text alternative a screen reader speaks."""
    card = normalise(card)
    return f"{RANK_NAMES.get(card[0], card[0])} of {SUIT_NAMES[card[1]]}"


def colour(card: str) -> str:
    """The ink of a card: red for hearts and diamonds, black for clubs and spades."""
    return RED if normalise(card)[1] in "HD" else BLACK


def card_svg(card: str) -> str:
    """One card face, 60x84, its rank in both corners and its suit large in the middle."""
    card = normalise(card)
    rank, suit, ink = display(card)[:-1], card[1], colour(card)
    path = _SUIT_PATHS[suit]
    size = 13 if rank == "10" else 15
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84" width="60" height="84" '
        f'role="img" aria-label="{card_name(card)}">'
        f"<title>{card_name(card)}</title>"
        '<rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" fill="#fffdf8" stroke="#6b6b73" stroke-width="1.5"/>'
        f'<g fill="{ink}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-weight="700">'
        f'<text x="5" y="17" font-size="{size}">{rank}</text>'
        f'<path transform="translate(5.5 20) scale(0.5)" d="{path}"/>'
        f'<path transform="translate(17 29) scale(1.3)" d="{path}"/>'
        f'<g transform="rotate(180 30 42)"><text x="5" y="17" font-size="{size}">{rank}</text>'
        f'<path transform="translate(5.5 20) scale(0.5)" d="{path}"/></g>'
        "</g></svg>\n")


def back_svg() -> str:
    """The back of a card, for cards nobody may see."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84" width="60" height="84" role="img" '
        'aria-label="a face-down card"><title>a face-down card</title>'
        '<defs><pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="8" height="8" fill="#2d4f8e"/><rect width="4" height="8" fill="#3b64ad"/></pattern></defs>'
        '<rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" fill="url(#p)" stroke="#1d2f55" stroke-width="1.5"/>'
        '<rect x="6" y="6" width="48" height="72" rx="3" fill="none" stroke="#e9eefb" stroke-width="1.2"/></svg>\n')


def all_card_files() -> dict[str, str]:
    """Every file of the card folder: ``QH.svg`` for each card, and ``back.svg``."""
    files = {f"{card}.svg": card_svg(card) for card in FILL_ORDER}
    files["back.svg"] = back_svg()
    return files
