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

__all__ = ["safe_text", "safe_value", "bounded", "shorten", "needs_cleaning", "TRUNCATED", "show", "readable",
           "options_text", "UNSAFE_RANGES"]

#: What a shortened text ends with (followed by how much was left out).
TRUNCATED: Final = "…[truncated"

#: Code points never shown raw, as inclusive ranges: C0 controls, DEL, C1 controls,
#: surrogates, line and paragraph separators, interlinear annotation marks, non-characters at
#: the BMP's end, and every default-ignorable code point of Unicode (DerivedCoreProperties'
#: ``Default_Ignorable_Code_Point``: the soft hyphen, zero-width spaces and joiners, word
#: joiners and invisible operators, bidi marks, embeddings, overrides and isolates, Hangul
#: fillers, variation selectors, the BOM, tag characters...): a text made only of them, or
#: holding them, can read as another on a terminal or a page (a name that shows as
#: "reference").
UNSAFE_RANGES: Final = (
    (0x00, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x206F),
    (0x3164, 0x3164), (0xD800, 0xDFFF), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFFB), (0xFFFE, 0xFFFF), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def _character_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(chr(lo) if lo == hi else f"{chr(lo)}-{chr(hi)}" for lo, hi in ranges)


def _raw_forms(ranges: tuple[tuple[int, int], ...]) -> bytes:
    """An alternation matching the UTF-8 bytes of every code point in ``ranges`` that may
    come raw in a JSON line (C0 controls and surrogates cannot: they come as escapes)."""
    tails: dict[bytes, list[int]] = {}
    for lo, hi in ranges:
        for code in range(max(lo, 0x20), hi + 1):
            if 0xD800 <= code <= 0xDFFF:
                continue
            raw = chr(code).encode("utf-8")
            tails.setdefault(raw[:-1], []).append(raw[-1])
    parts = []
    for head, last in tails.items():
        spans, start = [], last[0]
        for a, b in zip(last, last[1:] + [-1]):
            if b != a + 1:
                spans.append(re.escape(bytes([start])) if start == a
                             else re.escape(bytes([start])) + b"-" + re.escape(bytes([a])))
                start = b
        parts.append(re.escape(head) + b"[" + b"".join(spans) + b"]")
    return b"|".join(parts)


_UNSAFE: Final = re.compile(f"[{_character_class(UNSAFE_RANGES)}]")
# The same, with newline and tab allowed (multi-line text such as a stderr tail).
_UNSAFE_KEEP_LINES: Final = re.compile(
    f"[{_character_class(((0x00, 0x08), (0x0B, 0x1F)) + UNSAFE_RANGES[1:])}]")

# In a raw JSON line (bytes): anything that can decode to an unsafe character.  JSON forbids
# raw C0 controls inside strings, so those arrive as escapes (\u001b, and the short \b \f \n
# \r \t); the others may come raw.
_RAW_SUSPECT: Final = re.compile(rb"\\[bfnrtu]|" + _raw_forms(UNSAFE_RANGES))


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


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
    # the usual line, ASCII with no escape and no DEL (the only unsafe character above the C0
    # controls in ASCII), cannot: three scans of the bytes answer what the pattern would
    if raw.isascii() and b"\\" not in raw and b"\x7f" not in raw:
        return False
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


def show(value: Any) -> str:
    """A value in a message, as a person reads it (never a Python repr): text as itself, a
    list of words (cards, seats) as the words, anything else as compact JSON.

    >>> show(["AC", "6H"]), show({"holder": "EW", "winner": None}), show(None)
    ('AC 6H', '{"holder": "EW", "winner": null}', 'null')
    """
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(v, str) and v and not any(c.isspace() for c in v) for v in value):
        return " ".join(value)
    if isinstance(value, (set, frozenset)):
        value = sorted(value, key=str)
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


_QUOTED_AFTER_EQUALS: Final = re.compile(r"(?<==)'([^'\\\n]*)'")
_CALL_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


def _closing(text: str, start: int) -> int:
    """The index of the bracket closing the one at ``start`` (-1: none), skipping quotes."""
    pairs = {"[": "]", "{": "}", "(": ")"}
    stack, quote, i = [pairs[text[start]]], None, start + 1
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in pairs:
            stack.append(pairs[ch])
        elif ch == stack[-1]:
            stack.pop()
            if not stack:
                return i
        elif ch in ")]}":
            return -1
        i += 1
    return -1


def _literal(segment: str) -> str | None:
    """``segment`` rewritten if it is a Python literal or a call of literals, else None."""
    import ast
    try:
        node = ast.parse(segment, mode="eval").body
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [show(ast.literal_eval(a)) for a in node.args]
            args += [f"{k.arg}={show(ast.literal_eval(k.value))}" for k in node.keywords]
            return f"{node.func.id}({', '.join(args)})"
        if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            return show(ast.literal_eval(node))
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return None
    return None


def readable(text: str) -> str:
    """A message with the Python literals in it (``['AC', '6H']``, ``{'holder': 'EW'}``,
    ``DealCase(dealer='E')``, ``dealer='E'``) rewritten by :func:`show`, for messages
    written by Python code (assertions, Hypothesis's falsifying examples) that reach a report.

    >>> readable("hand ['AC', '6H'], got {'winner': None} after Case(cut=3, dealer='E')")
    'hand AC 6H, got {"winner": null} after Case(cut=3, dealer=E)'
    """
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "[{(":
            name = _CALL_NAME.search(text, 0, i) if ch == "(" else None
            start = name.start() if name else i
            end = _closing(text, i)
            if end != -1 and (ch != "(" or name):
                new = _literal(text[start:end + 1])
                if new is not None:
                    del out[len(out) - (i - start):]
                    out.append(new)
                    i = end + 1
                    continue
        out.append(ch)
        i += 1
    return _QUOTED_AFTER_EQUALS.sub(r"\1", "".join(out))


def options_text(options: Any) -> str:
    """Rule options as the command line writes them: ``direction=clockwise, stake=contest``."""
    return ", ".join(f"{k}={show(v)}" for k, v in dict(options or {}).items())
