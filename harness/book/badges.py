"""A small SVG badge, ``rummy 1.1.0 | 67/67``, for a README."""

from __future__ import annotations

from xml.sax.saxutils import escape

COLOURS = {"pass": "#2e8540", "fail": "#c0162c", "none": "#777780"}


def _width(text: str) -> int:
    """Roughly how wide ``text`` is at 11px in a sans-serif font (no font metrics at hand)."""
    return int(sum(4.2 if c in " .,:;|!il1" else 7.2 if c.isupper() else 6.4 for c in text)) + 14


def badge_svg(label: str, value: str, status: str) -> str:
    """A flat two-part badge: ``label`` on grey, ``value`` coloured by ``status`` (pass, fail, none)."""
    left, right = _width(label), _width(value)
    total = left + right
    colour = COLOURS.get(status, COLOURS["none"])
    label_x, value_x = left / 2, left + right / 2
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" '
        f'aria-label="{escape(label)}: {escape(value)}"><title>{escape(label)}: {escape(value)}</title>'
        f'<rect width="{total}" height="20" rx="3" fill="#555"/>'
        f'<rect x="{left}" width="{right}" height="20" rx="3" fill="{colour}"/>'
        f'<rect x="{left}" width="4" height="20" fill="{colour}"/>'
        '<g fill="#fff" text-anchor="middle" font-family="DejaVu Sans, Verdana, sans-serif" font-size="11">'
        f'<text x="{label_x}" y="14">{escape(label)}</text><text x="{value_x}" y="14">{escape(value)}</text>'
        "</g></svg>\n")
