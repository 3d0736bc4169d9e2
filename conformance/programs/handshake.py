"""The handshake: what a program's answer to ``hello`` says about it.

The kit sends ``{"id": 1, "op": "hello", "args": {"protocol": 2, "protocols": [1, 2], ...}}``
(:func:`hello_args`); the answer must fit the published schema's ``answer`` and
``result_hello`` (:func:`~turub.conformance.programs.messages.malformed`: the one statement
of its shape), and :func:`read_hello` turns it into a :class:`Hello` or raises
:class:`BadHandshake` saying what was wrong.  A name or a version the schema requires and
the answer leaves out, an object where a name is, ``true`` for the protocol version: each
is a bad handshake; ``2.0`` is the version 2 (JSON Schema 2020-12 counts it an integer).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from ..adapter import OPERATIONS
from .messages import decode, malformed, plain
from .pipes import snippet
from ..text import safe_text

__all__ = ["PROTOCOL_VERSION", "PROTOCOLS", "Hello", "BadHandshake", "hello_args", "read_hello"]

#: The protocol version the kit speaks, and every version it accepts from a program.
PROTOCOL_VERSION: Final = 2
PROTOCOLS: Final = (1, 2)


class BadHandshake(ValueError):
    """The answer to ``hello`` is not one (the message says why)."""


@dataclass(frozen=True)
class Hello:
    """What a program said of itself (every string made safe)."""

    protocol: int
    name: str
    version: str
    operations: frozenset[str]  # those the kit knows; others are ignored
    rules: dict[str, list[str]]
    variants: list[str] | None
    unknown_operations: tuple[str, ...]
    message: dict  # the whole result, as sent (numbers JSON cannot hold as text)


def hello_args() -> dict[str, Any]:
    """The arguments of the kit's ``hello``."""
    return {"protocol": PROTOCOL_VERSION, "protocols": list(PROTOCOLS), "kit": "turub",
            "operations": list(OPERATIONS)}


def _version_refused(hello: dict) -> str | None:
    """Why the version a program speaks is not one the kit does (None: it is)."""
    version = hello.get("protocol")
    if type(version) is int and version in PROTOCOLS:
        return None
    return (f"it speaks protocol version {safe_text(repr(version), 40)}; the kit speaks "
            f"{' or '.join(map(str, PROTOCOLS))}")


def read_hello(line: bytes, hid: int) -> Hello:
    """The program's answer to the ``hello`` with id ``hid``."""
    try:
        msg = decode(line)
    except (ValueError, RecursionError):
        raise BadHandshake(f"not JSON: {snippet(line)}") from None
    if not isinstance(msg, dict) or msg.get("id") != hid or type(msg.get("id")) is not int:
        raise BadHandshake(f"expected an answer with id {hid}, got {snippet(line)}")
    if "error" in msg and "result" not in msg:
        raise BadHandshake(f"the implementation refused the handshake: "
                           f"{snippet(json.dumps(plain(msg['error']), ensure_ascii=False))}")
    why = malformed("answer", msg, "answer")
    hello: Any = msg.get("result")
    if why is None and not isinstance(hello, dict):
        why = f"expected a result object, got {snippet(line)}"
    if why is None:
        why = malformed("result_hello", hello, "hello")
        if why is not None and "protocol" in hello:  # the version, when it is wrong, says it best
            why = _version_refused(hello) or why
    if why is not None:
        raise BadHandshake(why)
    ops = hello["operations"]
    return Hello(protocol=hello["protocol"], name=safe_text(hello["name"], 100),
                 version=safe_text(hello["version"], 100),
                 operations=frozenset(o for o in ops if o in OPERATIONS),
                 rules={k: list(v) for k, v in hello.get("rules", {}).items()},
                 variants=hello.get("variants"),
                 unknown_operations=tuple(sorted({o for o in ops if o not in OPERATIONS})),
                 message=plain(hello))
