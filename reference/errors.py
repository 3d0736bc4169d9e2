"""Typed refusals.  Each names the clause it enforces in its ``clause`` field.

Every refusal leaves the state it was raised from exactly as it was: the engine checks
an action completely before it changes anything.

>>> try:
...     raise MustFollowSuitError("East holds a club and played 6♥")
... except RuleError as e:
...     print(e.clause, "|", e)
play.follow-suit | [play.follow-suit] East holds a club and played 6♥
"""

from __future__ import annotations

__all__ = [
    "RuleError", "CardFormatError", "RulesOptionError", "IllegalActionError", "PhaseError",
    "OutOfTurnError", "CardNotHeldError", "MustFollowSuitError", "TrumpCallError",
    "SignalError", "ResultError", "ContestDecidedError", "FirstDealerError", "RecordError",
    "OutOfTime", "CommandInterrupted", "stops_the_command",
]


class RuleError(ValueError):
    """Base of every refusal: the input breaks the clause named in :attr:`clause`.

    Every refusal is raised before anything changes (``play.refusal-changes-nothing``)."""

    default_clause = "play.order-of-actions"

    def __init__(self, message: str, *, clause: str | None = None) -> None:
        from .clauses import clause as _lookup  # the registry validates every citation

        self.clause: str = clause or self.default_clause
        _lookup(self.clause)
        self.detail = message
        super().__init__(f"[{self.clause}] {message}")

    def __reduce__(self):  # keep the clause through pickling (e.g. multiprocessing)
        return (_rebuild, (type(self), self.detail, self.clause))


def _rebuild(cls: type[RuleError], message: str, clause: str) -> RuleError:
    return cls(message, clause=clause)


class CardFormatError(RuleError):
    """Text that is not a card or a suit."""

    default_clause = "pack.card-notation"


class RulesOptionError(RuleError):
    """An unknown rule option or value.  Its message names the option, not a clause: a bad
    argument breaks no rule of the game."""

    default_clause = "table.rule-options"

    def __init__(self, message: str, *, clause: str | None = None) -> None:
        super().__init__(message, clause=clause)
        self.args = (message,)


class IllegalActionError(RuleError):
    """An action the deal refuses."""


class PhaseError(IllegalActionError):
    """An action at a moment the deal does not allow it (before trump, after the end...)."""

    default_clause = "play.order-of-actions"


class OutOfTurnError(IllegalActionError):
    """A card played by a seat whose turn it is not."""

    default_clause = "play.turn"


class CardNotHeldError(IllegalActionError):
    """A card the seat does not hold."""

    default_clause = "play.card-in-hand"


class MustFollowSuitError(IllegalActionError):
    """A card off the led suit from a seat that holds the led suit."""

    default_clause = "play.follow-suit"


class TrumpCallError(IllegalActionError):
    """A trump call by the wrong seat, or a second call."""

    default_clause = "trump.caller"


class SignalError(IllegalActionError):
    """A signal by a non-leader, at the wrong moment, a second one, or of an unknown kind."""

    default_clause = "signal.leader-only"


class ResultError(RuleError):
    """A deal result whose trick counts do not add up."""

    default_clause = "result.tricks-add-up"


class ContestDecidedError(RuleError):
    """A result recorded on a contest that is already decided."""

    default_clause = "contest.decided-is-final"


class FirstDealerError(RuleError):
    """A first-dealer draw that does not follow the procedure."""

    default_clause = "dealer.first-draw-ties"


class RecordError(RuleError):
    """A deal record that is not well formed (``play.malformed-action``: an unknown act or
    a missing field is refused as ``play.order-of-actions``)."""

    default_clause = "play.order-of-actions"


#: ``play.refusal-order``: when one action breaks several rules, the refusal names the first
#: of them in this order: the action's form (``play.malformed-action``, before any of these),
#: the moment (nothing before trump, nothing after the end), the kind
#: of signal, the seat (whose turn, who calls, who led), the text of the card, then the card
#: itself (held, then following suit); a second trump call is ``trump.once`` whoever makes it.
REFUSAL_ORDER = ("play.order-of-actions", "trump.once", "signal.kinds", "play.turn", "trump.caller",
                 "signal.leader-only", "signal.timing", "signal.once-per-trick",
                 "pack.card-notation", "play.card-in-hand", "play.follow-suit")


def refuse_pickle_unless_named(cls: type, what: str, instead: str) -> None:
    """Refuse to pickle a value whose class cannot be found again by its name (a class made
    for one rule variant): a ``TypeError`` saying what to pickle ``instead``."""
    import sys

    found: object = sys.modules.get(cls.__module__)
    for part in cls.__qualname__.split("."):
        found = getattr(found, part, None)
    if found is not cls:
        raise TypeError(f"a {cls.__qualname__} ({what}) cannot be pickled, as its class cannot "
                        f"be found again by name: {instead}")


class OutOfTime(BaseException):
    """A command ran past its ``--time-limit`` (raised in the main thread by its timer).

    Not a refusal and not an ``Exception``: user code that catches ``Exception`` lets it
    through, and a house rule's asker passes it on, naming the rule it interrupted (its
    message: what was running)."""


class CommandInterrupted(BaseException):
    """The command's own stop, raised by its signal handler or its timer while user code may
    be running (the conformance kit's interruption is one): every user-code boundary (a house
    rule's asker, the checks of its rules, loading its file) lets it through as it came,
    never as something the user's code raised."""


def stops_the_command(error: BaseException) -> bool:
    """Whether ``error``, raised while user code ran, is the command's own stop rather than
    something the user's code did: Ctrl-C (``KeyboardInterrupt``, a command's own handler's
    subclass included), the command's time limit (:class:`OutOfTime`) or the kit's
    interruption (:class:`CommandInterrupted`).  Every user-code boundary asks this one
    question; anything else a rule or a file raises (``SystemExit``, a bare or a file's own
    ``BaseException``) is the user's, named in one line."""
    return isinstance(error, (KeyboardInterrupt, OutOfTime, CommandInterrupted))
