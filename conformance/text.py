"""Untrusted text: what a program under test sends, made safe for every output.

A program's answers, error messages, handshake and stderr are data.  Whatever they hold
(lone surrogates, NUL and other C0/C1 control characters, ANSI escape sequences, bidi
overrides), :func:`safe_text` turns it into printable text that is valid UTF-8, valid in
JSON and in XML 1.0, and inert on a terminal: each unsafe character becomes a visible
escape (``\\x1b``, ``\\u202e``, ``\\udfff``).  :func:`safe_value` does the same to every
string in a JSON value, and :func:`bounded` caps what a report keeps of one.

Sanitising happens once, where the data enters the kit (the protocol client and the
Python target), never in each writer; the writers apply it again only to their own
untrusted-looking inputs as a last line of defence.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

__all__ = ["safe_text", "safe_value", "bounded", "shorten", "needs_cleaning", "TRUNCATED"]

#: What a shortened text ends with (followed by how much was left out).
TRUNCATED: Final = "…[truncated"

# C0 controls, DEL, C1 controls, surrogates, bidi embeddings/overrides/isolates and marks,
# line/paragraph separators, BOM-like zero-width no-break space, non-characters at plane ends.
_UNSAFE: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
    "\u2066-\u2069\ufeff\ufff9-\ufffb\ufffe\uffff]")
# The same, with newline and tab allowed (multi-line text such as a stderr tail).
_UNSAFE_KEEP_LINES: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
    "\u2066-\u2069\ufeff\ufff9-\ufffb\ufffe\uffff]")

# In a raw JSON line (bytes): anything that can decode to an unsafe character.  JSON forbids
# raw C0 controls inside strings, so those arrive as escapes (\u001b, and the short \b \f \n
# \r \t); the others may come raw.
_RAW_SUSPECT: Final = re.compile(
    rb"\\[bfnrtu]|\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]"
    rb"|\xef\xbb\xbf|\xef\xbf[\xb9-\xbb\xbe\xbf]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shorten(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters, with a marker saying how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}{TRUNCATED}: {len(text) - limit} more characters]"


def safe_text(text: Any, limit: int | None = None, *, keep_lines: bool = False) -> str:
    """``text`` (any value; bytes are decoded as UTF-8 with replacement) as safe printable text.

    >>> safe_text("ok\\x1b[31m CONFORMS\\u202e\\udfff")
    'ok\\\\x1b[31m CONFORMS\\\\u202e\\\\udfff'
    >>> safe_text("x" * 30, 10)
    'xxxxxxxxxx…[truncated: 20 more characters]'
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "replace")
    elif not isinstance(text, str):
        text = str(text)
    if limit is not None:
        text = shorten(text, limit)
    pattern = _UNSAFE_KEEP_LINES if keep_lines else _UNSAFE
    return pattern.sub(_escape, text) if pattern.search(text) else text


def needs_cleaning(raw: bytes) -> bool:
    """Whether a raw JSON line may decode to a string holding an unsafe character."""
    return _RAW_SUSPECT.search(raw) is not None


def safe_value(value: Any) -> Any:
    """A JSON value with every string (keys included) made safe by :func:`safe_text`."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, list):
        return [safe_value(v) for v in value]
    if isinstance(value, dict):
        return {safe_text(k): safe_value(v) for k, v in value.items()}
    return value


def bounded(value: Any, limit: int = 4096) -> Any:
    """``value`` itself if its JSON text is at most ``limit`` characters, else that text
    shortened to ``limit`` with the truncation marker (a string)."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str) and len(value) <= limit:
        return value
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) <= limit:
        return value
    return safe_text(shorten(text, limit))
