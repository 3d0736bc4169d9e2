"""The decisions a house rule may override: their typed signatures and the table of them.

A rule variant (:mod:`turub.variants`) carries clauses; a clause with ``decides=NAME`` and a
``rule`` overrides one decision of the engine.  This module is the one statement of what a
rule receives and returns.  Each decision is a :class:`typing.Protocol` (its ``__call__`` is
the rule's signature), listed in :data:`DECISION_TABLE` with the standard clauses it decides
and what the program under test is asked about it.

The conventions every rule follows:

* **Return ``None`` to defer**: the standard rule (or the base variant's rule) decides.
  Only an answer that is not ``None`` is the house rule's decision.
* The house clause is cited where its rule decided: a trick it decides names it, a play it
  refuses is refused naming it (a refusal's clause ID is the house clause's ID).
* A rule is user code: if it raises, returns something that is not an answer of its kind
  or does not take the arguments of its kind, the engine raises :class:`HouseRuleError`,
  one line naming the variant, the clause, the decision and the situation.

One worked example per kind of decision follows each signature below (the guide
``docs/guides/house-rules.md`` walks through a club's rules).
"""

from __future__ import annotations

import inspect
from collections import namedtuple
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, NoReturn, Protocol, runtime_checkable

from .cards import CARDS, Card, Suit, card_name, sort_hand
from .contest import Contest
from .errors import CommandInterrupted, OutOfTime
from .user_files import described
from .options import Rules
from .rules import DealResult
from .seats import PLAY_ORDER, Seat, Side

__all__ = ["LegalPlaysRule", "TrickWinnerRule", "DealResultRule", "NextDealerRule",
           "ContestStepRule", "SignalRule", "SIGNAL", "FirstDealerRule", "DealStandsRule", "TrumpCallerRule",
           "FIRST_DEALER", "DEAL_STANDS", "TRUMP_CALLER", "Decision", "DECISION_TABLE", "DECISIONS", "HouseRuleError",
           "Game", "sees_game", "LEGAL_PLAYS", "TRICK_WINNER", "DEAL_RESULT", "NEXT_DEALER", "CONTEST_STEP",
           "NOT_AN_ANSWER",
           "DRAW", "PLAYS", "kinds_of_play", "play_kind", "situation", "normalised", "playable", "drawable",
           "raised", "interrupted", "passed_on", "failed", "asker", "play_askers", "game_at"]

#: What a ``deal_result`` rule returns for a drawn deal (``None`` means "defer").
DRAW: Final = "draw"
#: The kinds of play a ``legal_plays`` rule may say it applies to (a clause's
#: ``applies_to``): the player leads the trick, holds a card of the led suit, or holds none.
PLAYS: Final = ("lead", "follow", "void")
_ALL_CARDS: Final = frozenset(CARDS)
_STANDARD: Final = Rules()


@runtime_checkable
class LegalPlaysRule(Protocol):
    """``legal_plays``: which cards may be played.  Standard clauses: ``play.follow-suit``,
    ``play.void-any-card``, ``play.no-forced-trump``.

    A void player holding trump must play one:

    >>> from turub import Seat, Side, Suit, parse_cards
    >>> from turub.variants import Variant, VariantClause
    >>> def must_trump(hand, trick, trump):
    ...     if not trick or trump is None or any(c.suit is trick[0].suit for c in hand):
    ...         return None  # leading, or able to follow: the standard rule
    ...     return [c for c in hand if c.suit is trump] or None
    >>> v = Variant("example-must-trump", clauses=[VariantClause("example.must-trump", "An example",
    ...     decides="legal_plays", rule=must_trump, replaces=["play.no-forced-trump"])])
    >>> legal, clauses = v.legal_plays(parse_cards("AH 6S 7D"), parse_cards("KC"), Suit.SPADES)
    >>> [str(c) for c in legal], clauses
    (['6♠'], ('example.must-trump',))
    """

    def __call__(self, hand: tuple[Card, ...], trick: tuple[Card, ...], trump: Suit | None
                 ) -> Iterable[Card] | None:
        """``hand``: the cards the player to act holds (copies repeated), sorted as
        ``Deal.hand`` gives them (``pack.sort-hand``: the suits
        alternating in colour, each highest rank first), whoever asks; ``trick``: the cards
        played to this trick so far, the lead first (empty: the player leads); ``trump``: the
        trump suit (``None`` before it is named).  Return the cards that may be played (a
        non-empty part of ``hand``), or ``None`` to defer.  A card outside them is refused,
        naming this clause (after ``play.turn`` and ``play.card-in-hand``, in place of
        ``play.follow-suit``).

        A rule that concerns some kinds of play only says so on its clause,
        ``applies_to=("void",)`` (any of :data:`PLAYS`: ``"lead"``, ``"follow"``: holding a
        card of the led suit, ``"void"``: holding none).  It is then asked at those plays
        only; at the others the standard rule decides, as if it had deferred.  Not said: it
        is asked at every play, 144 a deal, and costs its own time at each."""


@runtime_checkable
class TrickWinnerRule(Protocol):
    """``trick_winner``: which card wins a trick.  Standard clauses: ``trick.highest-trump``,
    ``trick.highest-led``, ``trick.earliest-identical``.

    Of identical cards the last played wins:

    >>> from turub import Seat, Side, Suit, parse_cards
    >>> from turub.variants import Variant, VariantClause
    >>> from turub.rules import trick_winner
    >>> def last_identical(cards, trump):
    ...     best = trick_winner(list(cards), trump)
    ...     last = max(i for i, c in enumerate(cards) if c == cards[best])
    ...     return last if last != best else None
    >>> v = Variant("example-last-identical", clauses=[VariantClause("example.last-identical", "An example",
    ...     decides="trick_winner", rule=last_identical, replaces=["trick.earliest-identical"])])
    >>> v.trick_winner(parse_cards("AS KS AS 6H"), Suit.CLUBS)
    (2, ('example.last-identical',))
    >>> v.trick_winner(parse_cards("AS KS 6H 7H"), Suit.CLUBS)  # deferred: the standard rule
    (0, ('trick.highest-led',))
    """

    def __call__(self, cards: tuple[Card, ...], trump: Suit) -> int | None:
        """``cards``: the trick in the order played (the lead first; 1 to 4 cards);
        ``trump``: the trump suit.  Return the position (0 = the lead) of the winning card,
        or ``None`` to defer."""


@runtime_checkable
class DealResultRule(Protocol):
    """``deal_result``: who wins a deal.  Standard clauses: ``result.more-tricks-wins``,
    ``result.draw-18``, ``result.closed-early``.

    A deal closed early goes to the side ahead:

    >>> from turub import Seat, Side, Suit, parse_cards
    >>> from turub.variants import Variant, VariantClause
    >>> def ahead_wins(ns, ew, closed_early):
    ...     if closed_early and ns != ew:
    ...         return "NS" if ns > ew else "EW"
    ...     return None
    >>> v = Variant("example-ahead-wins", clauses=[VariantClause("example.ahead-wins", "An example",
    ...     decides="deal_result", rule=ahead_wins, replaces=["result.closed-early"])])
    >>> v.deal_result(12, 5, closed_early=True).winner
    Side.NORTH_SOUTH
    """

    def __call__(self, ns: int, ew: int, closed_early: bool) -> Side | str | None:
        """``ns``, ``ew``: the tricks each side took (counts that cannot happen are refused
        before the rule is asked, by ``result.tricks-add-up``); ``closed_early``: the deal
        was closed before its 36th trick.  Return the winning side (a
        :class:`~turub.seats.Side`, ``"NS"`` or ``"EW"``), ``"draw"``, or ``None`` to defer."""


@runtime_checkable
class NextDealerRule(Protocol):
    """``next_dealer``: who deals next.  Standard clauses: ``dealer.after-win``,
    ``dealer.after-loss``, ``dealer.after-draw``.

    The deal always passes to the next player:

    >>> from turub import Seat, Side, Suit, parse_cards
    >>> from turub.variants import Variant, VariantClause
    >>> from turub.seats import next_seat
    >>> def rotate(dealer, winner, rules):
    ...     return next_seat(dealer, rules.direction)
    >>> v = Variant("example-rotate", clauses=[VariantClause("example.rotate", "An example",
    ...     decides="next_dealer", rule=rotate,
    ...     replaces=["dealer.after-win", "dealer.after-loss", "dealer.after-draw"])])
    >>> v.next_dealer(Seat.NORTH, Side.EAST_WEST).seat
    Seat.EAST
    """

    def __call__(self, dealer: Seat, winner: Side | None, rules: Rules) -> Seat | None:
        """``dealer``: who dealt the deal just ended; ``winner``: the side that won it
        (``None``: a draw); ``rules``: the options in force (``rules.direction``...).
        Return the :class:`~turub.seats.Seat` that deals next, or ``None`` to defer."""


@runtime_checkable
class ContestStepRule(Protocol):
    """``contest_step``: the contest after one more deal.  Standard clauses:
    ``contest.*`` and ``stake.per-deal``.

    A drawn deal ends the running sequence:

    >>> from turub import Seat, Side, Suit, parse_cards
    >>> from turub.variants import Variant, VariantClause
    >>> from turub import Contest
    >>> from turub.rules import deal_result
    >>> def draw_ends_sequence(contest, result, rules):
    ...     return Contest() if result.winner is None and contest.holder is not None else None
    >>> v = Variant("example-draw-ends-sequence", clauses=[VariantClause("example.draw-ends-sequence", "An example",
    ...     decides="contest_step", rule=draw_ends_sequence, replaces=["contest.draw-keeps-sequence"])])
    >>> held = v.contest_step(Contest(), deal_result(20, 16))
    >>> held.holder, v.contest_step(held, deal_result(18, 18)).holder
    (Side.NORTH_SOUTH, None)
    """

    def __call__(self, contest: Contest, result: DealResult, rules: Rules) -> Contest | None:
        """``contest``: the contest so far (:class:`~turub.contest.Contest`: ``holder``,
        ``mark``, ``winner``; never a decided one: the next deal opens a new contest);
        ``result``: the deal's :class:`~turub.rules.DealResult` (``winner``, ``tricks``) as
        the variant decided it; ``rules``: the options.  Return the new
        :class:`~turub.contest.Contest`, or ``None`` to defer."""


@runtime_checkable
class SignalRule(Protocol):
    """``may_signal``: may this seat give this kind of signal now.  Standard clause:
    ``signal.leader-only`` (``signal.kinds``' word check, ``signal.timing`` and
    ``signal.once-per-trick`` stay the standard engine's).

    The leader's partner may signal too:

    >>> from turub import Seat
    >>> from turub.variants import Variant, VariantClause
    >>> def partner_too(seat, leader, kind):
    ...     return True if seat is leader.partner else None
    >>> v = Variant("example-partner-signals", clauses=[VariantClause("example.partner-signals",
    ...     "An example", decides="may_signal", rule=partner_too, replaces=["signal.leader-only"])])
    >>> v.may_signal(Seat.SOUTH, Seat.NORTH, "knock"), v.may_signal(Seat.EAST, Seat.NORTH, "knock")
    (None, 'signal.leader-only')
    """

    def __call__(self, seat: Seat, leader: Seat, kind: str) -> bool | None:
        """``seat``: who signals; ``leader``: who led the trick; ``kind``: the signal's word
        (already a non-empty word, documented if ``signal-kinds=documented``).  Return
        ``True`` (it may) or ``False`` (it may not: refused naming this
        clause), or ``None`` to defer.  A rule that reads the game (``game=``) sees the trick's number
        (``game.trick_number``, 1 to 36)."""


@runtime_checkable
class FirstDealerRule(Protocol):
    """``first_dealer``: who deals first, from the cards shown.  Standard clauses:
    ``dealer.first-draw``, ``dealer.first-draw-ties``, ``pack.suits-equal``.

    Of players tied for the highest rank, the higher suit deals (♠, then ♥, ♦, ♣):

    >>> from turub import Seat, parse_card
    >>> from turub.variants import Variant, VariantClause
    >>> def suit_breaks_ties(rounds):
    ...     shown = dict(rounds[-1])
    ...     top = max(card.rank for card in shown.values())
    ...     tied = [seat for seat, card in shown.items() if card.rank is top]
    ...     best = min(shown[seat].suit for seat in tied)
    ...     first = [seat for seat in tied if shown[seat].suit is best]
    ...     return first[0] if len(tied) > 1 and len(first) == 1 else None
    >>> v = Variant("example-suit-ties", clauses=[VariantClause("example.suit-ties", "An example",
    ...     decides="first_dealer", rule=suit_breaks_ties, replaces=["pack.suits-equal"])])
    >>> drawn = v.first_dealer([{Seat.NORTH: parse_card("KH"), Seat.EAST: parse_card("KS"),
    ...                          Seat.SOUTH: parse_card("6C"), Seat.WEST: parse_card("9D")}])
    >>> drawn.seat, drawn.clauses
    (Seat.EAST, ('example.suit-ties',))
    """

    def __call__(self, rounds: tuple[tuple[tuple[Seat, Card], ...], ...]) -> Seat | None:
        """``rounds``: the draw so far, one round after another, each the ``(seat, card)``
        pairs shown in it (North first); the rule is asked after each round, the last one
        just shown.  Return the :class:`~turub.seats.Seat` that deals first (the draw is
        decided: a round shown after it is refused naming this clause), or ``None`` to defer
        (the standard rule reads the round: the highest rank deals, and players tied for it
        are shown another card each, only they)."""


@runtime_checkable
class DealStandsRule(Protocol):
    """``deal_stands``: whether a deal as dealt stands, or is dealt again.  Standard clauses:
    ``deal.dealer-check``, ``deal.redeal``.

    At the table only the dealer's own last packet is checked:

    >>> from turub import Seat
    >>> from turub.variants import Variant, VariantClause
    >>> def last_packet_only(packets, dealer, rules):
    ...     mine = [n for seat, n in packets if seat is dealer]
    ...     return bool(mine) and mine[-1] == 3
    >>> v = Variant("example-last-packet", clauses=[VariantClause("example.last-packet", "An example",
    ...     decides="deal_stands", rule=last_packet_only, amends=["deal.dealer-check"])])
    >>> slips = [(Seat((k + 1) % 4), 3) for k in range(48)]
    >>> slips[0], slips[1] = (Seat.EAST, 4), (Seat.SOUTH, 2)  # two slips that cancel out
    >>> v.check_packets(slips, Seat.NORTH).stands, v.check_packets(slips, Seat.NORTH).clauses
    (True, ('example.last-packet',))
    """

    def __call__(self, packets: tuple[tuple[Seat, int], ...], dealer: Seat, rules: Rules) -> bool | None:
        """``packets``: the deal as a person dealt it, packet by packet, each ``(seat, number
        of cards)``; ``dealer``: who dealt; ``rules``: the options (``rules.direction``).
        Return ``True`` (the deal stands), ``False`` (it is void and dealt again,
        ``deal.redeal``: by the same dealer), or ``None`` to defer (``deal.dealer-check``:
        48 packets of three, in turn from the seat after the dealer)."""


@runtime_checkable
class TrumpCallerRule(Protocol):
    """``trump_caller``: who names trump.  Standard clause: ``trump.caller`` (the seat after
    the dealer, ``table.left-of-dealer``).

    The dealer's partner names trump:

    >>> from turub import Seat
    >>> from turub.variants import Variant, VariantClause
    >>> def partner_calls(dealer, rules):
    ...     return dealer.partner
    >>> v = Variant("example-partner-calls", clauses=[VariantClause("example.partner-calls",
    ...     "An example", decides="trump_caller", rule=partner_calls, replaces=["trump.caller"])])
    >>> deal = v.deal_from_seed(7, Seat.NORTH)
    >>> deal.caller, deal.cutter, len(deal.hand(Seat.SOUTH)), deal.caller_clause
    (Seat.SOUTH, Seat.EAST, 3, 'example.partner-calls')
    """

    def __call__(self, dealer: Seat, rules: Rules) -> Seat | None:
        """``dealer``: who deals; ``rules``: the options.  Return the
        :class:`~turub.seats.Seat` that names trump, or ``None`` to defer.  The caller
        receives the first packet (``deal.packets`` go round from it, in the direction of
        play), names trump from those three cards (``trump.three-cards``, dealing paused)
        and leads the first trick (``play.first-lead``); a call by anyone else is refused
        naming this clause.  The cut stays the seat after the dealer's (``deal.cut``)."""


#: The view's fields as a tuple reads them (each field's getter, as fast as a slot's).
_FIELDS: Final = namedtuple("_FIELDS", ("seat", "trick_number", "known_tricks", "rules", "dealer",
                                         "tricks_of"))


class Game(tuple):
    """What a rule may see of the game beyond its decision's arguments: one read-only view,
    given to a rule that takes a parameter named ``game`` (a rule without one is asked as
    before).  Every field is an immutable value; ``None`` where the question does not say
    (a question asked outside a deal, as a program under test is asked it).

    ``seat``: the seat to act (``legal_plays``) or the trick's leader (``trick_winner``);
    ``trick_number``: the trick being played or decided, 1 to 36; ``tricks``: the tricks
    completed before it (as ``Deal.tricks`` gives them: ``leader``, ``cards``, ``seats``,
    ``winner``; built only when read); ``rules``: the options in force; ``dealer``: who
    dealt this deal.

    >>> Game(dealer=Seat.NORTH).dealer.side
    Side.NORTH_SOUTH
    """

    # A tuple, built in one step (the engine builds one at each play or trick a rule reading
    # the game is asked about: :func:`game_at`), whose fields cannot be set; two views are
    # equal only if they are the same view, as for any object.
    __slots__ = ()
    seat: Seat | None = _FIELDS.seat  # type: ignore[assignment]
    trick_number: int | None = _FIELDS.trick_number  # type: ignore[assignment]
    rules: Rules | None = _FIELDS.rules  # type: ignore[assignment]
    dealer: Seat | None = _FIELDS.dealer  # type: ignore[assignment]
    _known: Any = _FIELDS.known_tricks
    _tricks_of: Any = _FIELDS.tricks_of
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    def __new__(cls, seat: Seat | None = None, trick_number: int | None = None,
                tricks: tuple[Any, ...] | Callable[[], tuple[Any, ...]] | None = None,
                rules: Rules | None = None, dealer: Seat | None = None) -> Game:
        later = (lambda _count: tricks()) if callable(tricks) else None  # built when first read
        return _TUPLE(cls, (seat, trick_number, None if later else tricks, rules, dealer, later))

    @property
    def tricks(self) -> tuple[Any, ...] | None:
        """The tricks completed before this one (``None``: not known)."""
        later = self._tricks_of
        if later is None:
            return self._known  # type: ignore[no-any-return]
        number = self.trick_number
        return later(None if number is None else number - 1)  # type: ignore[no-any-return]

    @property
    def seats(self) -> tuple[Seat, ...] | None:
        """The seats in the order they play to the trick, from ``seat`` (``None``: not known)."""
        seat = self.seat
        if seat is None:
            return None
        rules = self.rules
        # the clockwise order without hashing the direction (an Enum's hash is a Python call)
        return (_CLOCKWISE if rules is None or rules.direction is _CLOCKWISE_DIRECTION
                else PLAY_ORDER[rules.direction])[seat]

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied or pickled as the view it is (a tuple's own way would pass its fields as the seat)."""
        return _TUPLE, (type(self), tuple(self))

    def __repr__(self) -> str:
        return (f"Game(seat={self.seat!r}, trick_number={self.trick_number!r}, tricks={self.tricks!r}, "
                f"rules={self.rules!r}, dealer={self.dealer!r})")


_TUPLE: Final = tuple.__new__
_CLOCKWISE_DIRECTION: Final = _STANDARD.direction
_CLOCKWISE: Final = PLAY_ORDER[_CLOCKWISE_DIRECTION]


def game_at(seat: Seat | None, trick_number: int | None,
            tricks_of: Callable[[int | None], tuple[Any, ...]] | None, rules: Rules | None,
            dealer: Seat | None) -> Game:
    """``Game(seat, trick_number, tricks, rules, dealer)``, built as fast as it can be: the
    engine's random playout builds one at each play or trick a rule reading the game is
    asked about.  ``tricks_of(count)`` gives the deal's first ``count`` tricks, when a rule
    first reads them (``count``: ``trick_number - 1``)."""
    return _TUPLE(Game, (seat, trick_number, None, rules, dealer, tricks_of))


def sees_game(rule: Callable[..., Any] | None) -> bool:
    """Whether ``rule`` takes the :class:`Game` view (a parameter named ``game``)."""
    if rule is None:
        return False
    try:
        return "game" in inspect.signature(rule).parameters
    except (TypeError, ValueError):
        return False


class HouseRuleError(Exception):
    """A house rule that raised, returned something that is not an answer of its kind, or
    does not take its decision's arguments.  Not a refusal of the game (not a
    :class:`~turub.errors.RuleError`): the variant is broken.  ``str()`` is one line naming
    the variant, the clause, the decision and the situation."""

    def __init__(self, variant: str, clause: str, decision: str, what: str, where: str) -> None:
        self.variant, self.clause, self.decision, self.what, self.where = \
            variant, clause, decision, what, where
        super().__init__(f"variant {variant}: house rule {clause} ({decision.replace('_', ' ')}) "
                         f"{what}, deciding {where}")

    def __reduce__(self):
        return (type(self), (self.variant, self.clause, self.decision, self.what, self.where))


@dataclass(frozen=True)
class Decision:
    """One overridable decision, declared once: its name, typed signature, the standard
    clauses it decides, the parameters a rule takes and what the program under test is asked
    about it; how the situation a rule was asked about reads (``describe``), how a rule's
    answer is checked and normalised (``normalise``: the answer, or :data:`NOT_AN_ANSWER`;
    ``wants`` says what it should have been), whether a rule is asked by kind of play
    (``by_kind_of_play``: a ``legal_plays`` rule's ``applies_to``), and the hook of the
    engine it replaces (``hook``: a method of :class:`~turub.deal.Deal` or
    :class:`~turub.sitting.Sitting`, which :class:`turub.house_rule_deal.HouseRuleDeal` and the
    variant's sheet override)."""

    name: str
    protocol: type
    standard: tuple[str, ...]
    parameters: tuple[str, ...]
    returns: str
    asked: str
    title: str  # what one decision is, in words ("tricks": "12 tricks decided")
    describe: Callable[[Sequence[Any]], str]
    normalise: Callable[[Any, Sequence[Any]], Any]
    wants: str
    hooks: tuple[str, ...]
    by_kind_of_play: bool = False

    def check_signature(self, rule: Callable[..., Any]) -> str | None:
        """Why ``rule`` cannot be called with this decision's arguments (None: it can)."""
        try:
            if sees_game(rule):
                inspect.signature(rule).bind(*self.parameters, game=None)
            else:
                inspect.signature(rule).bind(*self.parameters)
        except TypeError:
            try:
                shown = str(inspect.signature(rule))
            except (TypeError, ValueError):
                shown = "(?)"
            return (f"takes {shown}, but a {self.name} rule takes ({', '.join(self.parameters)}), "
                    "and game= if it reads the game")
        except ValueError:  # a builtin without a signature: it will be tried
            return None
        return None


#: What a decision's ``normalise`` returns for an answer that is not one of its kind.
NOT_AN_ANSWER: Final = object()


# --- the situation, in the game's words ------------------------------------------------------

def _cards(cards: Sequence[Any]) -> str:
    return " ".join(card_name(c) if isinstance(c, Card) else str(c) for c in cards) or "none"


def _suit(suit: Any) -> str:
    return suit.symbol if isinstance(suit, Suit) else "not named" if suit is None else str(suit)


def _side(side: Any) -> str:
    return "a draw" if side is None else f"a win for {side.short}" if isinstance(side, Side) else str(side)


def _a_play(args: Sequence[Any]) -> str:
    hand, trick, trump = args
    return f"a play: hand {_cards(hand)}, trick so far {_cards(trick)}, trump {_suit(trump)}"


def _a_trick(args: Sequence[Any]) -> str:
    cards, trump = args
    return f"a trick: {_cards(cards)}, trump {_suit(trump)}"


def _a_result(args: Sequence[Any]) -> str:
    ns, ew, closed = args
    return f"a deal's result: NS {ns}, EW {ew}{', closed early' if closed else ''}"


def _a_next_dealer(args: Sequence[Any]) -> str:
    dealer, winner, _rules = args
    return f"the next dealer: {dealer} dealt, {_side(winner)}"


def _a_signal(args: Sequence[Any]) -> str:
    seat, leader, kind = args
    return f"a signal: {seat} gives “{str(kind)[:40]}”, {leader} led"


def _a_contest(args: Sequence[Any]) -> str:
    contest, result, _rules = args
    holder = contest.holder.short if contest.holder is not None else "nobody"
    return (f"the contest: held by {holder}, mark {contest.mark if contest.mark is not None else 'none'}, "
            f"then {_side(result.winner)} {result.tricks[0]}-{result.tricks[1]}")


def _a_draw(args: Sequence[Any]) -> str:
    (rounds,) = args
    try:
        shown = " / ".join(" ".join(f"{Seat(s).letter}:{card_name(c)}" for s, c in r) for r in rounds)
    except Exception:  # noqa: BLE001 - describing must never fail
        shown = str(rounds)[:80]
    return f"the first dealer's draw: {shown or 'no round'}"


def _a_deal_check(args: Sequence[Any]) -> str:
    packets, dealer, _rules = args
    sizes = " ".join(str(n) for _, n in packets[:12]) + (" …" if len(packets) > 12 else "")
    return f"the dealer's check: {len(packets)} packets ({sizes}) dealt by {dealer}"


def _a_caller(args: Sequence[Any]) -> str:
    dealer, _rules = args
    return f"who names trump: {dealer} deals"


# --- an answer, checked against its kind -----------------------------------------------------

def _plays(out: Any, args: Sequence[Any]) -> Any:
    found = playable(out, args[0])
    return NOT_AN_ANSWER if found is None else found[0]


def _position(out: Any, args: Sequence[Any]) -> Any:
    return out if type(out) is int and 0 <= out < len(args[0]) else NOT_AN_ANSWER


def _winner(out: Any, args: Sequence[Any]) -> Any:
    winner = {"NS": Side.NORTH_SOUTH, "EW": Side.EAST_WEST, DRAW: None}.get(out, out) \
        if isinstance(out, str) else out
    return winner if winner is None or isinstance(winner, Side) else NOT_AN_ANSWER


def _dealer(out: Any, args: Sequence[Any]) -> Any:
    seat = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}.get(out, out) \
        if isinstance(out, str) else out
    return seat if isinstance(seat, Seat) else NOT_AN_ANSWER


def _allowed(out: Any, args: Sequence[Any]) -> Any:
    return out if type(out) is bool else NOT_AN_ANSWER


def _contest(out: Any, args: Sequence[Any]) -> Any:
    """A contest step's answer: a :class:`Contest` in a state a contest can be in (each side
    a :class:`Side` or None, a running sequence with its mark and none without, a mark of
    0 to 36 tricks, a count of deals), else not an answer.  Which side a house rule decides
    the contest for is its own: a winner need not be the holder (a rule that ends a contest
    outright may end it for the side without the running sequence)."""
    if not isinstance(out, Contest):
        return NOT_AN_ANSWER
    sides_ok = all(x is None or isinstance(x, Side) for x in (out.holder, out.winner))
    mark_ok = out.mark is None or (type(out.mark) is int and 0 <= out.mark <= 36)
    deals_ok = type(out.deals) is int and out.deals >= 0
    clauses_ok = isinstance(out.clauses, tuple) and all(isinstance(c, str) for c in out.clauses)
    sequence_ok = (out.holder is None) == (out.mark is None)
    return out if sides_ok and mark_ok and deals_ok and clauses_ok and sequence_ok else NOT_AN_ANSWER


LEGAL_PLAYS: Final = Decision(
    "legal_plays", LegalPlaysRule,
    ("play.follow-suit", "play.void-any-card", "play.no-forced-trump"),
    ("hand", "trick", "trump"), "the cards that may be played",
    "legal_plays (with the trump), and every play the referee judges", "plays",
    _a_play, _plays, "a non-empty part of the hand", ("Deal.legal_plays", "Deal.play"),
    by_kind_of_play=True)
TRICK_WINNER: Final = Decision(
    "trick_winner", TrickWinnerRule,
    ("trick.highest-trump", "trick.highest-led", "trick.earliest-identical"),
    ("cards", "trump"), "the position of the winning card",
    "trick_winner, and every trick the referee completes", "tricks",
    _a_trick, _position, "a position in the trick (0 = the lead)", ("Deal.decide_trick",))
DEAL_RESULT: Final = Decision(
    "deal_result", DealResultRule,
    ("result.more-tricks-wins", "result.draw-18", "result.closed-early"),
    ("ns", "ew", "closed_early"), "the winning side or draw",
    "deal_result, the outcome of every refereed deal, and each result of a contest",
    "deal results", _a_result, _winner, "a side (NS, EW) or draw", ("Deal.decide_result",))
NEXT_DEALER: Final = Decision(
    "next_dealer", NextDealerRule,
    ("dealer.after-win", "dealer.after-loss", "dealer.after-draw"),
    ("dealer", "winner", "rules"), "the seat that deals next",
    "next_dealer, and the dealers of a sitting", "next dealers",
    _a_next_dealer, _dealer, "a seat", ("Sitting.decide_next_dealer",))
CONTEST_STEP: Final = Decision(
    "contest_step", ContestStepRule,
    ("contest.first-win-sets-mark", "contest.second-win-beats-mark",
     "contest.insufficient-win", "contest.draw-keeps-sequence",
     "contest.other-side-resets", "contest.unbeatable-mark",
     "contest.decided-is-final", "stake.per-deal"),
    ("contest", "result", "rules"), "the contest after the deal",
    "contest (every state after each result)", "contest steps",
    _a_contest, _contest, "a contest", ("Sitting.decide_contest",))

SIGNAL: Final = Decision(
    "may_signal", SignalRule, ("signal.leader-only",),
    ("seat", "leader", "kind"), "whether the seat may give the signal",
    "every signal the referee judges", "signals",
    _a_signal, _allowed, "true or false", ("Deal.may_signal",))

FIRST_DEALER: Final = Decision(
    "first_dealer", FirstDealerRule, ("dealer.first-draw", "dealer.first-draw-ties", "pack.suits-equal"),
    ("rounds",), "the seat that deals first",
    "first_dealer, and the draw before a sitting", "first dealers",
    _a_draw, _dealer, "a seat", ("Sitting.decide_first_dealer",))
DEAL_STANDS: Final = Decision(
    "deal_stands", DealStandsRule, ("deal.dealer-check", "deal.redeal"),
    ("packets", "dealer", "rules"), "whether the deal stands",
    "check_packets", "dealer's checks",
    _a_deal_check, _allowed, "true or false", ("Sitting.check_deal",))
TRUMP_CALLER: Final = Decision(
    "trump_caller", TrumpCallerRule, ("trump.caller", "table.left-of-dealer"),
    ("dealer", "rules"), "the seat that names trump",
    "deal (who calls, what the caller saw, the hands), and every refereed deal's call",
    "trump callers", _a_caller, _dealer, "a seat", ("Deal.decide_caller",))

DECISION_TABLE: Final[dict[str, Decision]] = {d.name: d for d in (
    LEGAL_PLAYS, TRICK_WINNER, DEAL_RESULT, NEXT_DEALER, CONTEST_STEP, SIGNAL,
    FIRST_DEALER, DEAL_STANDS, TRUMP_CALLER)}

#: ``{decision: the standard clauses that decide it}`` (the table, as clause lists).
DECISIONS: Final[dict[str, tuple[str, ...]]] = {k: d.standard for k, d in DECISION_TABLE.items()}


def situation(decision: str, args: Sequence[Any]) -> str:
    """The situation a rule was asked about, in the game's words (no Python notation)."""
    try:
        return DECISION_TABLE[decision].describe(args)
    except Exception:  # noqa: BLE001 - describing must never fail
        return decision


def is_async(rule: Any) -> bool:
    """Whether ``rule`` is written with ``async def`` (a coroutine or an asynchronous
    generator function, or an object whose ``__call__`` is one): asked, it gives a value to
    await, never its answer, and nothing in a game awaits it."""
    call = rule if inspect.isfunction(rule) or inspect.ismethod(rule) else getattr(type(rule), "__call__", None)
    return inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call)


def dropped(out: Any) -> None:
    """Close an answer that is a coroutine (an ``async`` rule's, :func:`is_async`) before it
    is refused, so that Python does not warn, on the command's standard error, that it was
    never awaited."""
    if inspect.iscoroutine(out):
        out.close()


def shown(value: Any) -> str:
    """A value a rule returned, in words (cards, seats and sides by name; no reprs)."""
    if inspect.isawaitable(value) or inspect.isasyncgen(value):
        return "a coroutine (an async rule's: nothing awaits it)"
    if value is None or isinstance(value, (bool, int, float)):
        return str(value).lower() if isinstance(value, bool) else str(value)
    if isinstance(value, Card):
        return card_name(value)
    if isinstance(value, (Seat, Side, Suit)):
        return str(value)
    if isinstance(value, str):
        return f"the text “{value[:40]}”"
    if isinstance(value, (list, tuple, set, frozenset)) and not isinstance(value, Game):  # (a view: by its name)
        items = list(value)[:12]
        inner = ", ".join(shown(v) for v in items)
        return f"a {type(value).__name__} of {len(value)}: {inner}" if items else f"an empty {type(value).__name__}"
    return f"a {type(value).__name__}"


def raised(variant: str, clause: str, decision: str, error: BaseException,
           args: Sequence[Any]) -> HouseRuleError:
    """The one-line error for house rule ``clause`` of ``variant`` that raised ``error``
    deciding ``decision`` on ``args``."""
    return HouseRuleError(variant, clause, decision, f"raised {described(error, 160)}",
                          situation(decision, args))


def interrupted(variant: str, clause: str, decision: str, args: Sequence[Any]) -> OutOfTime:
    """The time limit, reached while house rule ``clause`` of ``variant`` decided
    ``decision`` on ``args``: an :class:`~turub.errors.OutOfTime` naming the rule."""
    return OutOfTime(f"variant {variant}: house rule {clause} ({decision.replace('_', ' ')}) "
                     f"was still deciding {situation(decision, args)}")


def _nonsense(variant: str, clause: str, decision: str, out: Any, args: Sequence[Any],
              want: str) -> HouseRuleError:
    dropped(out)
    return HouseRuleError(variant, clause, decision, f"returned {shown(out)}, not {want}",
                          situation(decision, args))


def playable(out: Any, hand: Sequence[Card]) -> tuple[frozenset[Card], list[Card]] | None:
    """A ``legal_plays`` answer ``out`` checked against ``hand``: the distinct cards it
    allows and their copies in ``hand``, in its order (what a random play draws from), or
    ``None`` when ``out`` is not a non-empty part of the hand."""
    try:
        cards = frozenset(out)
    except Exception:  # noqa: BLE001 - the user's answer: one that cannot be iterated is no answer
        return None
    # every Card is one of the 36 interned ones, so ``<= _ALL_CARDS`` says "only cards"
    if isinstance(out, (str, Card)) or not cards <= _ALL_CARDS or (hand and not cards):
        return None
    copies = list(filter(cards.__contains__, hand))
    return (cards, copies) if len(frozenset(copies)) == len(cards) else None  # each one held


def drawable(variant: str, clause: str, decision: str, out: Any, args: Sequence[Any]
             ) -> tuple[frozenset[Card], list[Card]]:
    """:func:`normalised` for a ``legal_plays`` answer, with the copies of the cards it
    allows in the hand (:func:`playable`): the variant's random playout draws from them."""
    found = playable(out, args[0])
    if found is None:
        raise _nonsense(variant, clause, decision, out, args, LEGAL_PLAYS.wants)
    return found


def normalised(variant: str, clause: str, decision: str, out: Any, args: Sequence[Any]) -> Any:
    """The answer ``out`` of house rule ``clause`` of ``variant`` (its name and version) to
    ``decision`` on ``args``, checked against its kind and normalised (cards as a frozenset,
    a side or ``None`` for a draw, a Seat, a Contest), or :class:`HouseRuleError`."""
    kind = DECISION_TABLE[decision]
    answer = kind.normalise(out, args)
    if answer is NOT_AN_ANSWER:
        raise _nonsense(variant, clause, decision, out, args, kind.wants)
    return answer


def kinds_of_play(given: Any) -> tuple[str, ...] | None:
    """A clause's ``applies_to`` read: one kind of play or several, in the order of
    :data:`PLAYS` (``None``: not some of them)."""
    kinds = (given,) if isinstance(given, str) else tuple(given) if isinstance(given, Iterable) else ()
    if not kinds or any(k not in PLAYS for k in kinds):
        return None
    return tuple(k for k in PLAYS if k in kinds)


def play_kind(hand: Sequence[Card], trick: Sequence[Card]) -> str:
    """The kind of play (one of :data:`PLAYS`) of a player holding ``hand`` to ``trick``."""
    if not trick:
        return "lead"
    led = trick[0].suit
    for card in hand:
        if card.suit is led:
            return "follow"
    return "void"


def play_askers(variant: str, clauses: Sequence[Any],
                answer: Callable[[str, str, str, Any, Sequence[Any]], Any] | None = None
                ) -> dict[str, Callable[..., tuple[Any, Any] | None] | None]:
    """``{kind of play: the asker of the legal_plays rules of clauses applying to it (in
    their order), or None when none does}``: the rules not asked at a kind of play leave
    it to the standard rule (a clause's ``applies_to``, :data:`PLAYS`)."""
    out: dict[str, Callable[..., tuple[Any, Any] | None] | None] = {}
    for kind in PLAYS:
        applying = [vc for vc in clauses if kind in vc.plays]
        out[kind] = _asker(variant, LEGAL_PLAYS.name, applying, answer) if applying else None
    return out


def asker(variant: str, decision: str, clauses: Sequence[Any],
          answer: Callable[[str, str, str, Any, Sequence[Any]], Any] | None = None
          ) -> Callable[..., tuple[Any, Any] | None]:
    """The house rules of ``clauses`` (each a clause with a ``rule``, in the order they are
    asked) deciding ``decision`` for ``variant`` (its name and version), as one function of
    the decision's arguments: ``(answer, clause)`` from the first rule that does not defer,
    the answer checked and normalised (:func:`normalised`), or ``None`` when every rule
    defers (``answer``, if given, checks in place of :func:`normalised`: the variant's playout
    takes :func:`drawable`'s pair).  A rule that raises is :func:`raised`.  Built once per
    variant and decision, it is what :meth:`turub.variants.Variant.house` and the variant's
    playout call (at each play: one rule, the usual case, is called without an argument tuple).
    A ``legal_plays`` rule is given the hand sorted (``pack.sort-hand``), and is asked only at
    the kinds of play it applies to (:func:`play_askers`)."""
    if DECISION_TABLE[decision].by_kind_of_play:
        by_kind = play_askers(variant, clauses, answer)

        def ask_by_kind(hand: Any, trick: Any, trump: Any, game: Game | None = None) -> tuple[Any, Any] | None:
            hand = sort_hand(hand)  # as Deal.hand gives it, whoever asks (pack.sort-hand)
            ask = by_kind[play_kind(hand, trick)]
            return None if ask is None else ask(hand, trick, trump, game=game)
        return ask_by_kind
    return _asker(variant, decision, clauses, answer)


def _asker(variant: str, decision: str, clauses: Sequence[Any],
           answer: Callable[[str, str, str, Any, Sequence[Any]], Any] | None = None
           ) -> Callable[..., tuple[Any, Any] | None]:
    rules = tuple((vc, vc.rule, sees_game(vc.rule)) for vc in clauses)
    checked = normalised if answer is None else answer
    count = len(DECISION_TABLE[decision].parameters)
    if len(rules) == 1 and count > 1:
        return _asker_of_one(variant, decision, *rules[0], checked)

    def ask(*given: Any, game: Game | None = None) -> tuple[Any, Any] | None:
        args = given
        if len(given) == count + 3:  # asked in a deal's playout: where it is asked follows
            args, (seat, number, seen) = given[:count], given[count:]
            if seen is not None:
                game = _TUPLE(Game, (seat, number, None) + seen)
        for vc, rule, sees in rules:
            try:
                out = rule(*args, game=game if game is not None else Game()) if sees else rule(*args)
            except BaseException as e:  # noqa: BLE001 - user code: say which rule, where
                failed(variant, vc.id, decision, e, args)
            if out is not None:
                return checked(variant, vc.id, decision, out, args), vc
        return None
    return ask


def _asker_of_one(variant: str, decision: str, vc: Any, rule: Callable[..., Any], sees: bool,
                  checked: Callable[..., Any]) -> Callable[..., tuple[Any, Any] | None]:
    """:func:`asker` for one rule of a decision of two or three arguments (a ``trick_winner``
    or ``trump_caller`` rule takes two, the others three; a ``first_dealer`` rule's one is
    asked by :func:`asker`'s general path): the arguments passed as they come, no tuple of
    them, each way of calling it its own function (it is called at every play); the game to
    a rule that ``sees`` it (an empty view if none is given).

    A deal's random playout passes a rule that reads the game, after the decision's
    arguments, where it asks: the seat (to act, or the trick's leader), the trick's number
    and ``seen``, the rest of the game's fields (:func:`game_at`'s ``rules, dealer,
    tricks_of``): the view is built here, in one step.  A rule that does not read it is
    asked with the decision's arguments alone."""
    clause = vc.id
    if len(DECISION_TABLE[decision].parameters) == 2:
        def ask_two(a: Any, b: Any, seat: Any = None, number: Any = None, seen: Any = None,
                    game: Game | None = None) -> tuple[Any, Any] | None:
            try:
                out = rule(a, b, game=(game if game is not None else Game()) if seen is None
                           else _TUPLE(Game, (seat, number, None) + seen)) if sees else rule(a, b)
            except BaseException as e:  # noqa: BLE001 - user code: say which rule, where
                failed(variant, clause, decision, e, (a, b))
            return None if out is None else (checked(variant, clause, decision, out, (a, b)), vc)
        return ask_two
    if not sees:
        def ask_three(a: Any, b: Any, c: Any, game: Game | None = None) -> tuple[Any, Any] | None:
            try:
                out = rule(a, b, c)
            except BaseException as e:  # noqa: BLE001 - user code: say which rule, where
                failed(variant, clause, decision, e, (a, b, c))
            return None if out is None else (checked(variant, clause, decision, out, (a, b, c)), vc)
        return ask_three

    def ask_seeing(a: Any, b: Any, c: Any, seat: Any = None, number: Any = None, seen: Any = None,
                   game: Game | None = None) -> tuple[Any, Any] | None:
        try:
            out = rule(a, b, c, game=(game if game is not None else Game()) if seen is None
                       else _TUPLE(Game, (seat, number, None) + seen))
        except BaseException as e:  # noqa: BLE001 - user code: say which rule, where
            failed(variant, clause, decision, e, (a, b, c))
        return None if out is None else (checked(variant, clause, decision, out, (a, b, c)), vc)
    return ask_seeing


def passed_on(error: KeyboardInterrupt, variant: str, clause: str, decision: str, args: Sequence[Any]) -> NoReturn:
    """Raise again the :class:`KeyboardInterrupt` that stopped house rule ``clause`` of
    ``variant`` deciding ``decision`` on ``args``: Ctrl-C, or the rule raised it, as one that
    names the rule that was running (:func:`interrupted`); a command's own (a subclass,
    ``turub.tools.cli.Interruption``) as it came."""
    if type(error) is not KeyboardInterrupt:
        raise error
    raise KeyboardInterrupt(str(interrupted(variant, clause, decision, args))) from None


def failed(variant: str, clause: str, decision: str, error: BaseException, args: Sequence[Any]) -> NoReturn:
    """Raise what a command sees of house rule ``clause`` of ``variant`` that raised ``error``
    deciding ``decision`` on ``args``: a :class:`KeyboardInterrupt` passed on
    (:func:`passed_on`), the time limit naming the rule (:func:`interrupted`), anything else
    a :class:`HouseRuleError` (:func:`raised`); the command's own interruption
    (:class:`~turub.errors.CommandInterrupted`) as it came."""
    if isinstance(error, CommandInterrupted):
        raise error
    if isinstance(error, KeyboardInterrupt):
        passed_on(error, variant, clause, decision, args)
    if isinstance(error, OutOfTime):
        raise interrupted(variant, clause, decision, args) from None
    raise raised(variant, clause, decision, error, args) from None
