"""An SVG badge for one implementation's report: ``turub | 412/412 clauses``.

Flat, two-part, as the badges of public comparison sites (Bowtie's for JSON Schema
implementations, shields.io) look: the label on grey, the result on the verdict's colour
(green: conforms; red: does not conform or could not start; grey: nothing checked,
incomplete or interrupted).  Text widths are estimated from the characters (no font file).
"""

from __future__ import annotations

from html import escape
from typing import Final

__all__ = ["badge_svg", "report_badge", "COLOURS"]

COLOURS: Final = {"CONFORMS": "#2e7d32", "DOES NOT CONFORM": "#c62828", "COULD NOT START": "#c62828"}
_OTHER: Final = "#757575"
_NARROW: Final = frozenset("iIl1.,:;|!' ()/-")


def _width(text: str) -> int:
    """About how wide ``text`` is at 11 px in a sans-serif face."""
    return int(sum(4 if ch in _NARROW else 7 for ch in text)) + 10


def badge_svg(label: str, message: str, colour: str) -> str:
    """A badge reading ``label | message``, the message on ``colour``."""
    left, right = _width(label), _width(message)
    total = left + right
    label_x, message_x = left / 2, left + right / 2
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" '
            f'aria-label="{escape(label)}: {escape(message)}">\n'
            f'<title>{escape(label)}: {escape(message)}</title>\n'
            f'<rect width="{left}" height="20" fill="#555"/>\n'
            f'<rect x="{left}" width="{right}" height="20" fill="{escape(colour)}"/>\n'
            f'<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">\n'
            f'<text x="{label_x:.1f}" y="14">{escape(label)}</text>\n'
            f'<text x="{message_x:.1f}" y="14">{escape(message)}</text>\n'
            '</g>\n</svg>\n')


def report_badge(report: dict, label: str = "turub") -> str:
    """The badge of a finished report: clauses passed of the clauses it checked, labelled
    with the release whose cases judged it (``turub 1.1.0 | 60/60 clauses``)."""
    from .baseline import judged_by
    release = judged_by(report)
    label = f"{label} {release}" if release else label
    rows = report.get("clauses") or {}
    passed = sum(1 for r in rows.values() if r.get("status") == "passed")
    verdict = report.get("verdict", "")
    message = f"{passed}/{len(rows)} clauses" if verdict != "COULD NOT START" else "could not start"
    return badge_svg(label, message, COLOURS.get(verdict, _OTHER))
