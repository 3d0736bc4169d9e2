"""The implementation interface: what any implementation of Arba'a Turub answers.

One interface serves the property suites (``turub.properties``), the Python adapter way in
and the JSON-lines protocol of the conformance kit: every operation takes and returns plain
JSON data, so a request over the protocol is just ``{"op": NAME, "args": {...}}`` and its
answer is the method's return value.

Plain data throughout:

* a card is text, rank then suit, ``"AC"``, ``"10H"`` (implementations must also accept
  ``"A♣"``); answers are compared as cards, not as text;
* a seat is ``"N" "E" "S" "W"``; a side ``"NS" "EW"``; a suit ``"S" "H" "D" "C"``;
* a deal outcome is ``"NS"``, ``"EW"`` or ``"draw"``;
* rules are ``{"direction": "clockwise"|"counterclockwise", "stake": "contest"|"per-deal",
  "opponent-dealer": "next"|"previous", "signal-kinds": "any"|"documented",
  "early-close": "draw"|"known-result"}`` (missing keys take the defaults);
* a refusal is an answer ``{"refused": CLAUSE_ID}`` naming the broken clause.

An implementation may support a subset of :data:`OPERATIONS`; the kit reports the others
as unsupported.  :class:`ReferenceImplementation` answers every operation from the
reference engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol, runtime_checkable

import turub
from turub import (Contest, Deal, RuleError, Seat, Side, TrickDecision, check_packets, deal_result,
                   first_dealer, legal_plays, next_dealer, parse_card, parse_seat, parse_suit,
                   trick_winner)
from turub.cards import card_name
from turub.contest import contests_after
from turub.options import rules_from_dict

from .operations import REGISTRY

__all__ = ["OPERATIONS", "Implementation", "ImplementationError", "ReferenceImplementation", "Json"]

Json = Any

#: Every operation, with the clauses it exercises (each one's record: :mod:`.operations`).
OPERATIONS: Final[dict[str, tuple[str, ...]]] = {name: op.clauses for name, op in REGISTRY.items()}


class ImplementationError(Exception):
    """Raised by an implementation to report that it could not answer (the kit's outcome
    class "error reported by the implementation").  ``NotImplementedError`` means the
    operation is not supported; any other exception is a crash."""


@runtime_checkable
class Implementation(Protocol):
    """What an implementation under test provides.  Each method may raise
    ``NotImplementedError`` for an operation it does not support."""

    name: str
    version: str
    # Optional: ``rules_supported = {"direction": ["clockwise"], ...}``, the values of each
    # rule option it supports (an option not listed: only its default); absent: all.

    def supports(self) -> Sequence[str]:
        """The operations (keys of :data:`OPERATIONS`) it answers."""

    def trick_winner(self, cards: list[str], trump: str) -> int:
        """The position (0 = the lead) of the winning card of a trick of 1 to 4 cards."""

    def legal_plays(self, hand: list[str], trick: list[str], trump: str | None = None) -> list[str]:
        """The distinct cards of ``hand`` that may be played to ``trick`` (cards so far);
        ``trump`` (protocol version 2): the trump suit, or None before it is named."""

    def deal(self, pack: list[str], dealer: str, cut: int, rules: dict[str, str]) -> dict[str, Json]:
        """Deal ``pack`` (top first) after cutting ``cut`` cards from the top to the bottom.

        Returns ``{"caller": SEAT, "caller_saw": [3 cards], "hands": {SEAT: [36 cards]}}``.
        """

    def check_packets(self, packets: list[list[Json]], dealer: str) -> dict[str, Json]:
        """The dealer's check on ``[[SEAT, n_cards], ...]``: ``{"stands": bool}``."""

    def referee(self, pack: list[str], dealer: str, cut: int, rules: dict[str, str],
                actions: list[dict[str, str]]) -> dict[str, Json]:
        """Referee a deal from a stream of actions (as in a deal record: ``{"act": "trump"|
        "play"|"signal"|"close", "seat": SEAT, "suit"|"card"|"signal": ...}``).

        A refused action changes nothing and the stream goes on.  Returns
        ``{"responses": [{"ok": true} | {"refused": CLAUSE}, ...], "winners": [SEAT per
        completed trick], "tricks": [ns, ew], "outcome": "NS"|"EW"|"draw"|null}``
        (``outcome`` is null while the deal is unfinished).
        """

    def deal_result(self, ns: int, ew: int, closed_early: bool, dealer: str | None = None) -> dict[str, Json]:
        """``{"outcome": "NS"|"EW"|"draw"}`` or ``{"refused": CLAUSE}``; ``dealer`` (protocol
        version 2): who dealt the deal.  The question carries no rules: it is answered with
        the options at their defaults (a deal closed early is a draw, ``early-close=draw``);
        ``referee`` and ``contest`` carry the rules and judge a closed deal by them."""

    def next_dealer(self, dealer: str, outcome: str, rules: dict[str, str]) -> str:
        """The seat that deals after ``dealer``'s deal ended with ``outcome``."""

    def first_dealer(self, rounds: list[dict[str, str]]) -> dict[str, Json]:
        """``{"dealer": SEAT}`` from rounds of cards shown, or ``{"refused": CLAUSE}``."""

    def contest(self, results: list[list[Json]], rules: dict[str, str],
                dealer: str | None = None) -> list[dict[str, Json]]:
        """The contest after each of ``[[ns, ew, closed_early], ...]`` (``dealer``, protocol
        version 2: who dealt the first of them; the next dealers follow the rules): a list of
        ``{"holder": SIDE|null, "mark": int|null, "winner": SIDE|null}`` (an impossible
        result: ``{"refused": CLAUSE}``, and nothing changes).  The result after a decided
        contest opens a new one; under ``stake=per-deal`` each won deal settles a stake
        (``{"holder": null, "mark": null, "winner": SIDE}``)."""


def side_text(side: Side | None) -> str | None:
    return None if side is None else side.short


def outcome_text(winner: Side | None) -> str:
    return "draw" if winner is None else winner.short


def winner_of(outcome: str) -> Side | None:
    if outcome == "draw":
        return None
    return {"NS": Side.NORTH_SOUTH, "EW": Side.EAST_WEST}[outcome]


def _cards(texts: Sequence[str]) -> list[turub.Card]:
    return [parse_card(t) for t in texts]


def _names(cards) -> list[str]:
    return [card_name(c, ascii=True) for c in cards]


class ReferenceImplementation:
    """The reference engine behind the implementation interface."""

    name = "turub-reference"
    version = turub.__version__

    def supports(self) -> list[str]:
        return list(OPERATIONS)

    def trick_winner(self, cards: list[str], trump: str) -> int:
        return trick_winner(_cards(cards), parse_suit(trump))

    def legal_plays(self, hand: list[str], trick: list[str], trump: str | None = None) -> list[str]:
        led = parse_card(trick[0]).suit if trick else None
        return _names(sorted(legal_plays(_cards(hand), led), key=lambda c: c.index))

    def deal(self, pack: list[str], dealer: str, cut: int, rules: dict[str, str]) -> dict[str, Json]:
        d = self._deal(pack, dealer, rules, cut)  # a variant's reference deals by its rules
        saw = _names(d.hand(d.caller))
        d.name_trump(d.caller, "S")
        return {"caller": d.caller.letter, "caller_saw": saw,
                "hands": {s.letter: _names(d.hand(s)) for s in Seat}}

    def check_packets(self, packets: list[list[Json]], dealer: str) -> dict[str, Json]:
        check = check_packets([(parse_seat(s), n) for s, n in packets], parse_seat(dealer))
        return {"stands": check.stands}

    def referee(self, pack: list[str], dealer: str, cut: int, rules: dict[str, str],
                actions: list[dict[str, str]]) -> dict[str, Json]:
        d = self._deal(pack, dealer, rules, cut)
        responses: list[dict[str, Json]] = []
        winners: list[str] = []
        for action in actions:
            answer = self.answer_first(d, action)
            if answer is not None:
                responses.append(answer)
                continue
            try:
                done = d.apply(action)
                responses.append({"ok": True})
            except RuleError as e:
                responses.append({"refused": e.clause})
                continue
            if isinstance(done, TrickDecision):  # the play completed a trick
                winners.append(done.seat.letter)
        return {"responses": responses, "winners": winners,
                "tricks": list(d.tricks_won),
                "outcome": None if d.result is None else outcome_text(d.result.winner)}

    def _deal(self, pack: list[str], dealer: str, rules: dict[str, str], cut: int) -> Deal:
        """The deal the referee and the ``deal`` question play (a variant's reference, and a
        program built on the reference, play their own: a house rule choosing the caller deals
        from it)."""
        return Deal(_cards(pack), parse_seat(dealer), rules_from_dict(rules), cut)

    def answer_first(self, deal: Deal, action: dict[str, str]) -> dict[str, Json] | None:
        """A hook for variants built on the reference: answer ``action`` before the engine
        does (``None``: let the engine decide).  The reference itself never does."""
        return None

    def deal_result(self, ns: int, ew: int, closed_early: bool, dealer: str | None = None) -> dict[str, Json]:
        try:
            return {"outcome": outcome_text(deal_result(ns, ew, closed_early=closed_early).winner)}
        except RuleError as e:
            return {"refused": e.clause}

    def next_dealer(self, dealer: str, outcome: str, rules: dict[str, str]) -> str:
        return next_dealer(parse_seat(dealer), winner_of(outcome), rules_from_dict(rules)).seat.letter

    def first_dealer(self, rounds: list[dict[str, str]]) -> dict[str, Json]:
        try:
            fd = first_dealer({parse_seat(s): parse_card(c) for s, c in r.items()} for r in rounds)
        except RuleError as e:
            return {"refused": e.clause}
        return {"dealer": fd.seat.letter}

    def contest(self, results: list[list[Json]], rules: dict[str, str],
                dealer: str | None = None) -> list[dict[str, Json]]:
        r = rules_from_dict(rules)
        c = Contest()
        states: list[dict[str, Json]] = []
        for ns, ew, closed in results:
            try:
                result = deal_result(ns, ew, closed_early=bool(closed), rules=r)
            except RuleError as e:
                states.append({"refused": e.clause})
                continue
            c = next(iter(contests_after([result], r))) if c.is_decided else c.record(result, r)
            states.append({"holder": side_text(c.holder), "mark": c.mark, "winner": side_text(c.winner)})
        return states


def as_mapping(rules: Mapping[str, str] | None) -> dict[str, str]:
    """Rules as the interface passes them, defaults filled in."""
    return rules_from_dict(dict(rules or {})).to_dict()
