"""House rules checked like a program: asked twice, shown values they cannot change.

A house rule is user code.  Before a variant from a file plays (:func:`turub.variants.load_file`),
each of its rules is asked about a fixed sample of situations of its decision (the plays and
tricks of two seeded standard deals, every deal result a table reaches, every next dealer,
the contest after each kind of result, every seat's signals after every leader), twice each, with values of its own: a copy it may
keep, never the deal's.  A rule is refused, in one line naming the file, the variant and the
clause (:class:`~turub.variants.VariantError`), when

* it answers one situation two ways (a rule may not draw at random, count its calls or read
  the clock: the kit would blame the program for the rule's chance);
* it changes a value it was shown (the same situation reads otherwise after the call; a
  frozen value changed with ``object.__setattr__`` included).

* it prints (to standard output or error: its words would mix with the command's);
* it changes the process that runs it (the working directory, the handling of the command's
  signals, a name a module or class of the engine binds: what :func:`check_rules` is told
  after each rule by its caller, which puts it back);
* it raises, or answers something that is not an answer of its kind, on a sample situation
  (the game would stop there with :class:`~turub.decisions.HouseRuleError`: the command is
  told before it starts, whatever it would have asked).  A rule still running when the command's time limit comes is named
(:func:`turub.decisions.interrupted`).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from functools import lru_cache
from operator import attrgetter
from typing import Any, Final

from .cards import CARDS, SUITS
from .contest import Contest, contest_step
from .deal import Deal, Phase
from .decisions import (CONTEST_STEP, DEAL_RESULT, DEAL_STANDS, FIRST_DEALER, LEGAL_PLAYS, NEXT_DEALER, SIGNAL,
                        TRICK_WINNER, TRUMP_CALLER,
                        NOT_AN_ANSWER, DECISION_TABLE, Game, dropped, interrupted, passed_on, play_kind, sees_game, shown,
                        situation)
from .errors import OutOfTime, stops_the_command
from .user_files import described
from .options import Rules
from .rules import deal_result
from .seats import SEATS, Side, seats_from
from .sitting import draw_first_dealer

__all__ = ["captured_output", "check_rules", "RuleCheckError", "SAMPLE_DEALS", "Written"]

#: The seeds of the standard deals whose plays and tricks the rules are asked about.
SAMPLE_DEALS: Final = (1, 2)


class RuleCheckError(Exception):
    """A house rule that answered one situation two ways or changed what it was shown:
    ``str()`` is one line naming the variant, the clause, the decision and the situation."""

    def __init__(self, variant: str, clause: str, decision: str, what: str, where: str) -> None:
        self.variant, self.clause, self.decision = variant, clause, decision
        super().__init__(f"variant {variant}: house rule {clause} ({decision.replace('_', ' ')}) "
                         f"{what}, deciding {where}")


@lru_cache(maxsize=1)
def _plays_and_tricks() -> tuple[tuple[tuple[Any, ...], ...], tuple[tuple[Any, ...], ...]]:
    """The plays ``(hand, trick, trump)`` and the tricks ``(cards, trump)`` of the sample
    deals, each with the game a rule reading it sees (:class:`~turub.decisions.Game`)."""
    plays, tricks = [], []
    for seed in SAMPLE_DEALS:
        rng = random.Random(seed)
        deal = Deal.from_seed(seed)
        trump = SUITS[seed % 4]
        deal.name_trump(deal.caller, trump)
        while deal.phase is Phase.PLAYING:
            seat = deal.to_act
            trick = tuple(c for _, c in deal.current_trick)
            game = Game(seat, deal.trick_count + 1, deal.tricks, deal.rules, deal.dealer)
            plays.append(((deal.hand(seat), trick, trump), game))  # sorted (pack.sort-hand)
            leader = deal.current_trick[0][0] if trick else seat
            deal.play(seat, rng.choice(deal.legal_plays()))  # type: ignore[arg-type]
            if len(trick) == 3:
                tricks.append(((trick + (deal.tricks[-1].cards[3],), trump),
                               Game(leader, game.trick_number, game.tricks, deal.rules, deal.dealer)))
    return tuple(plays), tuple(tricks)


def _results() -> list[tuple[int, int, bool]]:
    whole = [(ns, 36 - ns, False) for ns in range(37)]
    closed = [(ns, ew, True) for ns, ew in ((12, 5), (5, 12), (20, 3), (3, 20), (8, 8), (0, 0), (19, 16))]
    return whole + closed


def situations(decision: str, rules: Rules) -> list[tuple[tuple[Any, ...], Game]]:
    """The sample situations a rule deciding ``decision`` is asked about, each its
    arguments and the game a rule reading it sees (immutable values)."""
    if decision == LEGAL_PLAYS.name:
        return list(_plays_and_tricks()[0])
    if decision == TRICK_WINNER.name:
        return list(_plays_and_tricks()[1])
    if decision == DEAL_RESULT.name:
        return [(tuple(r), Game(rules=rules, dealer=SEATS[i % 4])) for i, r in enumerate(_results())]
    if decision == NEXT_DEALER.name:
        return [((seat, winner, rules), Game(rules=rules, dealer=seat))
                for seat in SEATS for winner in (Side.NORTH_SOUTH, Side.EAST_WEST, None)]
    if decision == CONTEST_STEP.name:
        out, contest = [], Contest()
        for ns, ew in ((20, 16), (18, 18), (24, 12), (16, 20), (18, 18), (30, 6), (10, 26), (19, 17)):
            result = deal_result(ns, ew, rules=rules)
            out.append(((contest, result, rules), Game(rules=rules)))
            contest = contest_step(contest, result, rules)
            if contest.winner is not None:
                contest = Contest()
        return out
    if decision == SIGNAL.name:  # every seat, after every leader, early and late in the deal
        return [((seat, leader, kind), Game(seat, number, (), rules))
                for seat in SEATS for leader in SEATS for kind in ("knock", "click", "wave")
                for number in (1, 18, 30, 31, 36)]
    if decision == FIRST_DEALER.name:  # every round of a few seeded draws, as it is shown
        return [((draw[:k],), Game(rules=rules)) for draw in _draws(rules) for k in range(1, len(draw) + 1)]
    if decision == DEAL_STANDS.name:  # each dealer's deal dealt right, and with the usual slips
        return [((packets, dealer, rules), Game(rules=rules, dealer=dealer))
                for dealer in SEATS for packets in _packet_runs(dealer, rules)]
    if decision == TRUMP_CALLER.name:
        return [((dealer, rules), Game(rules=rules, dealer=dealer)) for dealer in SEATS]
    return []


def _draws(rules: Rules) -> list[tuple[tuple[tuple[Any, Any], ...], ...]]:
    """The rounds of a few seeded draws for the first dealer, ties among them."""
    return [draw_first_dealer(seed, rules).rounds for seed in range(12)]


def _packet_runs(dealer: Any, rules: Rules) -> list[tuple[tuple[Any, int], ...]]:
    """A deal's packets dealt right, then with a short, a long, a skipped and a missing packet."""
    order = seats_from(dealer, rules.direction)[1:] + (dealer,)
    right = [(order[k % 4], 3) for k in range(48)]
    short, long_, skipped = list(right), list(right), right[:5] + right[6:] + [right[5]]
    short[-1] = (dealer, 2)
    long_[7] = (order[3], 4)
    return [tuple(right), tuple(short), tuple(long_), tuple(skipped), tuple(right[:47])]


def _reading(args: Sequence[Any], game: Game | None, signals: list[Any]) -> tuple[Any, ...]:
    """How the situation reads, every field of every value (a change shows here): the
    arguments and the game as they print, but for the tuples of cards among them (a hand, a
    trick) and the game's earlier tricks.  Those are tuples (a rule cannot change what they
    hold) of the interned cards and seats, clause IDs, numbers and signals: they read as
    every field of every card and seat, and the tricks' signals as they print, the same
    change showing at a fraction of the cost of printing every card at every play
    (``signals``: the tricks' signals, :func:`_signals`)."""
    tricks = game.tricks if game is not None else None
    shown = tuple(args) if game is None else (*args, game) if not tricks else \
        (*args, game.seat, game.trick_number, game.rules, game.dealer, signals)
    return (repr([value for value in shown if not _cards_only(value)]),
            tuple(map(_CARD_FIELDS, CARDS)), tuple(map(_SEAT_NAME, SEATS)))


def _signals(game: Game | None) -> list[Any]:
    """The signals given to the game's earlier tricks (the same objects at every reading of
    one situation: only what they hold may change, and that shows as they print)."""
    tricks = game.tricks if game is not None else None
    return [trick.signal for trick in tricks if trick.signal is not None] if tricks else []


def _cards_only(value: Any) -> bool:
    """Whether ``value`` is a tuple of interned cards (it reads as their fields)."""
    if type(value) is not tuple:
        return False
    try:
        return _CARD_SET.issuperset(value)
    except TypeError:  # something unhashable in it: not only cards
        return False


#: Every field of a card, and what a seat prints (its name): how the interned values read.
_CARD_FIELDS: Final = attrgetter("suit", "rank", "index")
_SEAT_NAME: Final = attrgetter("name")
_CARD_SET: Final = frozenset(CARDS)


def _answer(rule: Callable[..., Any], decision: str, args: tuple[Any, ...], game: Game | None
            ) -> tuple[str, Any]:
    """``("answer", the answer normalised)`` (a draw is ``None``), ``("deferred", None)``,
    ``("nonsense", it in words)`` or ``("raised", the exception's type)``; ``game``: given
    to a rule that reads it."""
    try:
        out = rule(*args) if game is None else rule(*args, game=game)
    except BaseException as e:  # user code: refused, naming what it raised (a bare BaseException
        # or its file's own too), but never the command's stop: Ctrl-C, a time limit, a signal
        if stops_the_command(e):
            raise
        return "raised", described(e, 160)
    if out is None:
        return "deferred", None
    normal = DECISION_TABLE[decision].normalise(out, args)
    if normal is not NOT_AN_ANSWER:
        return "answer", normal
    dropped(out)
    return "nonsense", shown(out)


def _said(answer: tuple[str, Any]) -> str:
    kind, value = answer
    if kind == "raised":
        return f"raised {value}"
    if kind == "deferred":
        return "deferred"
    if value is None:
        return "a draw"
    if isinstance(value, frozenset):
        return shown(sorted(value, key=lambda c: c.index))
    return shown(value)


class Written(io.StringIO):
    """What user code wrote to a standard stream it was given in place of the command's
    (:func:`captured_output`); closing it (``sys.stdout.close()``) closes nothing."""

    def close(self) -> None:
        pass

    def said(self) -> str | None:
        """The first line written, escaped and cut short (None: nothing was written)."""
        text = self.getvalue()
        if not text:
            return None
        first = (text.strip().splitlines() or [""])[0][:60]
        return first.encode("unicode_escape", "backslashreplace").decode("ascii")


@contextmanager
def captured_output() -> Iterator[Written]:
    """Run user code with ``sys.stdout`` and ``sys.stderr`` both a :class:`Written`: a variant
    file or a rule that prints is told (its words would mix with the command's own output,
    a report on standard output or the one line of an error), never let through."""
    written = Written()
    with redirect_stdout(written), redirect_stderr(written):
        yield written


def check_rule(variant: str, clause: Any, rules: Rules) -> None:
    """Ask the rule of ``clause`` (a clause of ``variant``, its name and version) about each
    sample situation twice; :class:`RuleCheckError` if it answers two ways or changes what it
    was shown."""
    decision = clause.decides
    sees = sees_game(clause.rule)
    with captured_output() as written:  # (read after each situation: the first that printed is named)
        for args, game in situations(decision, rules):
            if decision == LEGAL_PLAYS.name and play_kind(args[0], args[1]) not in clause.plays:
                continue  # not asked there (its applies_to)
            _check_situation(variant, clause, decision, args, game if sees else None, written)


def _check_situation(variant: str, clause: Any, decision: str, args: tuple[Any, ...], shown_game: Game | None,
                     written: Written) -> None:
    """:func:`check_rule` at one situation: ``args``, and the game if the rule reads it;
    ``written``, what it printed (nothing before this situation)."""
    signals = _signals(shown_game)
    before = _reading(args, shown_game, signals)
    try:
        first = _answer(clause.rule, decision, args, shown_game)
        after = _reading(args, shown_game, signals)
        second = _answer(clause.rule, decision, args, shown_game) if after == before else first
    except OutOfTime:
        raise interrupted(variant, clause.id, decision, args) from None
    except KeyboardInterrupt as e:  # Ctrl-C, or the rule raised it: say which rule was running
        passed_on(e, variant, clause.id, decision, args)
    if (said := written.said()) is not None:
        raise RuleCheckError(variant, clause.id, decision,
                             f"printed {said!r} (a rule may not write: it would mix with the "
                             "command's output)", situation(decision, args))
    if after != before:
        raise RuleCheckError(variant, clause.id, decision,
                             "changed a value it was shown", situation(decision, args))
    if first != second:
        raise RuleCheckError(variant, clause.id, decision,
                             f"answered one situation two ways, {_said(first)} then {_said(second)} "
                             "(a rule may not draw at random or keep count)", situation(decision, args))
    if first[0] == "raised":
        raise RuleCheckError(variant, clause.id, decision, f"raised {first[1]}", situation(decision, args))
    if first[0] == "nonsense":
        raise RuleCheckError(variant, clause.id, decision,
                             f"returned {first[1]}, not {DECISION_TABLE[decision].wants}",
                             situation(decision, args))


def check_rules(variant: Any, changed: Callable[[], Sequence[str]] = tuple) -> None:
    """Check every house rule of ``variant`` (its own clauses and its base's) as
    :func:`check_rule` does; after each, ``changed()`` says what the rule changed of the
    process that runs it (put back by then), if anything: refused, naming the rule."""
    for vc in variant.all_clauses:
        if vc.rule is not None and vc.decides is not None:
            check_rule(variant.label, vc, variant.rules)
            if what := changed():
                more = f" and {len(what) - 3} more" if len(what) > 3 else ""
                raise RuleCheckError(variant.label, vc.id, vc.decides,
                                     f"changed {', '.join(what[:3])}{more} of the command that runs it "
                                     "(a rule may change nothing of it, and no name of the engine)",
                                     "its sample situations")
