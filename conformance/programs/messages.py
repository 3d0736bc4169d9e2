"""The protocol's messages: reading a line, writing a request, and the one judge of shape.

The shape of every message is stated once, in the published JSON Schema
(``spec/protocol.schema.json``, read through :func:`turub.conformance.resources.schema`).
The kit does not state it again: :func:`malformed` checks a value against one of the
schema's definitions with a validator compiled from it (fastjsonschema, each definition
compiled once, on first use), and the kit's targets call it on every answer and on the
handshake.  What the schema allows, the kit reads; what it forbids is a protocol violation.

The points where JSON and Python part ways are decided here, once (the implementers' guide,
"The protocol", states them for implementers):

* **integers written with a point** (``2.0``, ``1e2``): JSON Schema 2020-12 counts a number
  with no fractional part as an integer, so :func:`decode` reads it as the ``int`` it is
  (a position, a count, an id, the protocol version ``2.0``);
* **booleans are not numbers**: ``true`` where a count or a position is expected does not
  fit the schema (Python's ``bool`` is an ``int``; the validator keeps them apart);
* **numbers JSON cannot hold** (``1e999`` reads as infinity): no definition of an answer
  admits one where a number is asked; anywhere else (a key the schema leaves open) it is
  kept as its text (:func:`plain`), so no report ever writes ``Infinity``;
* **strings** are made safe (:mod:`~turub.conformance.text`: lone surrogates, controls) as
  they are read, before anything else sees them.

Requests keep the protocol's promise (:func:`promised`): an option a program may not know
(one added after version 1: ``signal-kinds``, ``early-close``) is left out of a request's
``rules`` when it is at its default, as the schema says a left-out option means.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Mapping
from functools import cache
from typing import Any, Callable, Final

from ..text import needs_cleaning, safe_text, safe_value

__all__ = ["decode", "loads", "plain", "malformed", "request_line", "promised", "NotFinite"]


class NotFinite(float):
    """A number JSON cannot hold (``1e999``), read as the infinity Python makes of it and
    keeping the text it was written as (:func:`plain` puts the text back)."""

    text: str

    def __new__(cls, text: str) -> NotFinite:
        number = super().__new__(cls, float(text))
        number.text = text
        return number


_SEEN = threading.local()  # whether the line being read held a number JSON cannot hold


def _number(text: str) -> int | float:
    """A JSON number with a fraction or an exponent: an ``int`` when it is integral (2020-12),
    a :class:`NotFinite` when it overflows, else the float."""
    value = float(text)
    if value.is_integer():
        return int(value)
    if math.isfinite(value):
        return value
    _SEEN.value = True
    return NotFinite(text)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_number)
# one value from an index: what ``_DECODER.decode`` runs (set by JSONDecoder, not in its stubs)
_SCAN: Final = _DECODER.scan_once  # type: ignore[attr-defined]
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _c_encoder() -> Callable[[Any, int], Any] | None:
    """The C encoder ``_ENCODER.encode`` builds on every call, built once, or None where it is
    missing or takes other arguments (the same text or nothing: it is checked on a sample)."""
    try:
        from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
        encoder = c_make_encoder({}, _ENCODER.default, encode_basestring, None, _ENCODER.key_separator,
                                 _ENCODER.item_separator, False, False, True)
    except (ImportError, TypeError):
        return None
    sample = {"a": [1, "é\u2028", 2.5, None, True], "b": {}}
    return encoder if encoder is not None and "".join(encoder(sample, 0)) == _ENCODER.encode(sample) else None


_ENCODERS = threading.local()  # one C encoder a thread: its cycle check keeps a table as it goes


def _encode(value: Any) -> str:
    """``value`` as the JSON text ``_ENCODER.encode`` writes (a table of what is being written
    is kept for its cycle check: one encoder a thread, the table emptied after a failure)."""
    try:
        encoder = _ENCODERS.encoder
    except AttributeError:
        encoder = _ENCODERS.encoder = _c_encoder()
    if encoder is None:
        return _ENCODER.encode(value)
    try:
        return "".join(encoder(value, 0))
    except BaseException:
        encoder.markers.clear()
        raise


def plain(value: Any) -> Any:
    """``value`` with every :class:`NotFinite` number replaced by its text."""
    if isinstance(value, NotFinite):
        return value.text
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def loads(text: str, raw: bytes | None = None) -> Any:
    """JSON text as data: no NaN or Infinity literal, integral numbers as ``int``, every
    string made safe (``raw``: the bytes it came from, to skip the cleaning when it cannot
    matter).  A number JSON cannot hold is kept as a :class:`NotFinite`; the caller decides
    (:func:`plain`).  ``ValueError`` (or ``RecursionError``) if it is not JSON."""
    value = _DECODER.decode(text)
    return safe_value(value) if needs_cleaning(raw if raw is not None else text.encode("utf-8", "surrogatepass")) \
        else value


def decode(line: bytes) -> Any:
    """A line from a program as JSON (strict UTF-8; see :func:`loads`)."""
    _SEEN.value = False
    text = line.decode("utf-8")
    # the usual line, an object and nothing around it, is one scan (what ``loads`` runs
    # first); anything else (white space around it, more after it, not JSON) is read by
    # ``loads``, which accepts or refuses it exactly as before
    if text[:1] == "{":
        try:
            value, end = _SCAN(text, 0)
        except StopIteration:
            end = -1
        if end == len(text):
            return safe_value(value) if needs_cleaning(line) else value
    return loads(text, line)


def overflowed() -> bool:
    """Whether the last line :func:`decode` read in this thread held a number JSON cannot hold."""
    return getattr(_SEEN, "value", False)


# --- the shape: the published schema, compiled once per definition --------------------------

_ANNOTATIONS: Final = frozenset({"description", "title", "$comment"})


def _inline(node: Any, defs: Mapping[str, Any]) -> Any:
    """``node`` with every ``{"$ref": "#/$defs/NAME"}`` replaced by the definition it names
    (the protocol's schema has no recursive definition).  The same schema: a reference with
    other keywords beside it becomes ``allOf`` of both, as 2020-12 reads it.  fastjsonschema
    calls a function per reference and formats its path for each item of an array, even
    when nothing is wrong; inlined, a dealt hand of 36 cards is checked in a loop."""
    if isinstance(node, list):
        return [_inline(x, defs) for x in node]
    if not isinstance(node, dict):
        return node
    if "$ref" not in node:
        return {k: _inline(v, defs) for k, v in node.items()}
    target = _inline(defs[node["$ref"].removeprefix("#/$defs/")], defs)
    rest = {k: _inline(v, defs) for k, v in node.items() if k != "$ref"}
    return target if set(rest) <= _ANNOTATIONS else {**rest, "allOf": [target]}


@cache
def _validator(definition: str) -> Callable[[Any], Any]:
    """The compiled check of ``#/$defs/<definition>`` of the published schema."""
    import fastjsonschema

    from ..resources import schema
    published = schema()
    if definition not in published["$defs"]:
        raise KeyError(f"the protocol's schema has no definition {definition!r}")
    return fastjsonschema.compile({"$schema": published["$schema"],
                                   **_inline(published["$defs"][definition], published["$defs"])})


def _quoted(value: Any, limit: int = 80) -> str:
    """The start of ``value`` as JSON text, made safe."""
    try:
        text = json.dumps(plain(value), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return safe_text(text, limit)


_CHECKS: dict[str, Callable[[Any], Any]] = {}  # each definition's compiled check, once asked for


def malformed(definition: str, value: Any, name: str = "result") -> str | None:
    """Why ``value`` does not fit ``#/$defs/<definition>`` of the published schema (one line,
    naming the place by ``name``), or None when it fits."""
    check = _CHECKS.get(definition)
    if check is None:
        check = _CHECKS[definition] = _validator(definition)
    try:
        check(value)
    except Exception as e:
        import fastjsonschema
        if not isinstance(e, fastjsonschema.JsonSchemaValueException):
            raise
        where = e.name.replace("data", name, 1) if e.name else name
        rule = e.message.split(" must ", 1)[-1] if " must " in e.message else e.message
        return safe_text(f"{where} must {rule}, not {_quoted(e.value)}", 300)
    return None


# --- requests: what the kit writes ------------------------------------------------------------

_ABSENT: Final = object()


@cache
def _defaults_a_program_may_not_know() -> dict[str, str]:
    """The options added after protocol version 1, each at its default (from the engine's
    own options: :meth:`turub.Rules.to_dict` lists those only away from their default)."""
    from turub.options import Rules
    listed = Rules().to_dict()
    return {k: v for k, v in Rules().to_dict(complete=True).items() if k not in listed}


def promised(args: Mapping[str, Any]) -> Mapping[str, Any]:
    """``args`` as the protocol promises to send them: in ``rules``, an option a program may
    not know is left out when it is at its default (a left-out option means its default)."""
    rules = args.get("rules")
    if not isinstance(rules, dict):
        return args
    quiet = _defaults_a_program_may_not_know()
    for k, v in rules.items():
        if quiet.get(k, _ABSENT) == v:
            return {**args, "rules": {k: v for k, v in rules.items() if quiet.get(k, _ABSENT) != v}}
    return args


@cache
def _after_id(op: str) -> str:
    """What follows the id in a request for ``op``, up to its arguments."""
    return ',"op":' + _ENCODER.encode(op) + ',"args":'


def request_line(rid: int, op: str, args: Mapping[str, Any]) -> bytes:
    """One request as the line the kit writes: ``{"id":RID,"op":OP,"args":ARGS}``, compact,
    UTF-8 (the text of ``_ENCODER.encode`` of that object, its parts made once where they can be)."""
    if rid.__class__ is not int or op.__class__ is not str:
        return (_ENCODER.encode({"id": rid, "op": op, "args": promised(args)}) + "\n").encode()
    return ('{"id":' + str(rid) + _after_id(op) + _encode(promised(args)) + "}\n").encode()
