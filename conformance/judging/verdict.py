"""The verdict on one answer and the reading of answers as text (the judge's common ground).

:class:`Verdict`, the outcome classes (:data:`OUTCOMES`), and the helpers the judge of each
operation shares: reading a card, a seat or an object out of an untrusted answer (a wrong
shape raises :class:`MalformedAnswer`, a protocol violation), and :func:`trick_blame`, the clause that
decides a trick (``trick.highest-trump``, ``trick.highest-led``, ``trick.earliest-identical``).
Split out of :mod:`~turub.conformance.judging.judge`, which re-exports these names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from turub import CardFormatError, parse_card
from turub.cards import card_name

__all__ = ["OUTCOMES", "Verdict", "PASS", "trick_blame", "WRONG", "ILLEGAL_ACCEPTED", "LEGAL_REFUSED",
           "ERROR", "CRASH", "TIMEOUT", "PROTOCOL", "WRONG_ANSWERS"]

WRONG: Final = "wrong-answer"
ILLEGAL_ACCEPTED: Final = "illegal-action-accepted"
LEGAL_REFUSED: Final = "legal-action-refused"
ERROR: Final = "error-reported"
CRASH: Final = "crash"
TIMEOUT: Final = "timeout"
PROTOCOL: Final = "protocol-violation"

#: The outcome classes of a failure, in the order reports list them.
OUTCOMES: Final = (WRONG, ILLEGAL_ACCEPTED, LEGAL_REFUSED, ERROR, CRASH, TIMEOUT, PROTOCOL)
#: The outcomes that are a wrong answer (the program's rule is wrong); the others are the
#: program misbehaving (an error it reported, a crash, a hang, a broken protocol).
WRONG_ANSWERS: Final = (WRONG, ILLEGAL_ACCEPTED, LEGAL_REFUSED)


@dataclass(frozen=True)
class Verdict:
    """``outcome`` is None when the answer agrees; ``blame`` is the one clause the failure
    points to (None: no single rule, e.g. a crash); ``clauses`` are those the failure is
    about (the blamed one, or the case's clauses when nothing is blamed)."""

    outcome: str | None
    clauses: tuple[str, ...] = ()
    detail: str = ""
    extra: dict = field(default_factory=dict)
    blame: str | None = None

    @property
    def passed(self) -> bool:
        return self.outcome is None


PASS: Final = Verdict(None)


class MalformedAnswer(Exception):
    """The answer does not have the shape the protocol defines."""


def card_text(text: Any) -> str:
    if not isinstance(text, str):
        raise MalformedAnswer(f"{text!r} is not a card")
    try:
        return card_name(parse_card(text), ascii=True)
    except CardFormatError:
        raise MalformedAnswer(f"{text!r} is not a card") from None


def card_texts(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise MalformedAnswer(f"expected a list of cards, got {short_text(value)}")
    return [card_text(c) for c in value]


def seat_text(value: Any) -> str:
    if not isinstance(value, str) or value.strip().upper()[:1] not in ("N", "E", "S", "W") or \
            value.strip().upper() not in ("N", "E", "S", "W", "NORTH", "EAST", "SOUTH", "WEST"):
        raise MalformedAnswer(f"{short_text(value)} is not a seat")
    return value.strip().upper()[0]


def object_with(value: Any, *keys: str) -> dict:
    if not isinstance(value, dict) or any(k not in value for k in keys):
        raise MalformedAnswer(f"expected an object with {', '.join(keys)}, got {short_text(value)}")
    return value


def short_text(value: Any, limit: int = 120) -> str:
    import json
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def refusal_of(value: Any) -> str | None:
    """The clause of a refusal answer, None for any other answer."""
    if isinstance(value, dict) and "refused" in value:
        if not isinstance(value["refused"], str):
            raise MalformedAnswer(f"a refusal names a clause ID, not {short_text(value['refused'])}")
        return value["refused"]
    return None




_RANKS: Final = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")


def suit_of(card: str) -> str:
    """The suit letter of a canonical (ASCII) card name."""
    return card[-1]


def rank_of(card: str) -> int:
    return _RANKS.index(card[:-1])


def direction_of(case: dict) -> str:
    rules = case.get("rules")
    if isinstance(rules, dict):
        return rules.get("direction", "clockwise")
    return case.get("args", {}).get("rules", {}).get("direction", "clockwise")


def fail_verdict(outcome: str, blame: str | None, case: dict, detail: str, **extra: Any) -> Verdict:
    return Verdict(outcome, (blame,) if blame else tuple(case["clauses"]), detail, extra, blame)


def trick_blame(cards: Sequence[str], trump: str, expected: int, got: int) -> str:
    """The clause that decides between the card that wins (``expected``) and the one
    named (``got``), in a trick of canonical card names."""
    right, wrong = cards[expected], cards[got]
    if right == wrong:
        return "trick.earliest-identical"
    if suit_of(right) == trump:
        return "trick.highest-trump"
    return "trick.highest-led"


def _known() -> frozenset[str]:
    from turub.clauses import CLAUSES
    return frozenset(CLAUSES)


KNOWN_CLAUSES: Final = _known()
