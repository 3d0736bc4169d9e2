"""The protocol's operations, each declared once as a record that its roles attach to.

An :class:`Operation` holds what every room of the kit shares about one operation: its name,
the clauses it exercises, its protocol-2 context (the argument a version-2 question carries)
and whether its inputs are drawn under the rules of the check (the referee's streams).  Each
role module attaches its own part with :func:`operation_part` (as Hypothesis's ``@rule``
builds a ``Rule`` record), and reads it back from the record:

========== ================================== ==========================================
role       attached by                        what it is
========== ================================== ==========================================
inputs     ``questions/generators``           ``(rng, n) -> (slug, args)...``: seeded inputs
judge      ``judging/judge``                  ``(case, expected, got) -> Verdict``
misread    ``diagnosis/misreadings``          ``(misreading id, **args) -> answer``
situation  ``diagnosis/situation``            ``(args, expected, got) -> lines``
========== ================================== ==========================================

and, where an operation has one (:data:`OPTIONAL_ROLES`, read with :meth:`Operation.part_or`):

========== ================================== ==========================================
decisions  ``judging/decided``                ``(variant, args) -> {point: Decided}``
decided_at ``judging/decided``                ``(got) -> answer``: its one decision's answer
why        ``questions/cases``                ``(args, rules, expected) -> (why, clauses)``
trace      ``reports/variants``               ``(args, variant) -> steps``: its decisions
in_sitting ``questions/differential``         ``(plan, rules) -> cases``: asked in a drawn sitting
cards      ``diagnosis/probes``               ``(args) -> card texts``: the cards it writes
by_ranks   ``diagnosis/probes``               ``(case, heights) -> bool``: a rank order explains it
probe      ``diagnosis/probes``               ``(case, rules) -> (clause, why)``: its own probe
evidence   ``diagnosis/probes``               ``(case) -> (clause, why)``: what its answer shows
========== ================================== ==========================================

Adding an operation is one :func:`declare` here and one function per role (the developers'
guide shows it step by step).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final, TypeVar

__all__ = ["Operation", "Search", "DEALS", "SITTINGS", "SEARCHES", "ROLES", "OPTIONAL_ROLES", "REGISTRY",
           "declare", "withdraw", "operation_part", "context_of", "asked_with_rules"]

#: The parts every operation has, one per role (see the module's table).
ROLES: Final = ("inputs", "judge", "misread", "situation")
#: The parts only some operations have (see the module's second table).
OPTIONAL_ROLES: Final = ("decisions", "decided_at", "why", "trace", "in_sitting", "cards", "by_ranks", "probe",
                         "evidence")

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Search:
    """One of ``turub check``'s two differential searches (``questions/differential`` runs
    them), as a check of the report: the operations it asks are those whose record's
    :attr:`Operation.searched_in` is it."""

    name: str  # its name in progress lines and ``differential_<name>`` (``deals``, ``sittings``)
    check_id: str  # its row's ID in the report
    asks: str  # its row's ``op``: the one operation it asks, or what it draws if it asks several

    def clauses(self) -> tuple[str, ...]:
        """The clauses of the operations it asks, sorted."""
        return tuple(sorted({c for r in REGISTRY.values() if r.searched_in is self for c in r.clauses}))

    def operations(self) -> tuple[str, ...]:
        """The operations it asks, in the order they are declared."""
        return tuple(n for n, r in REGISTRY.items() if r.searched_in is self)


#: A drawn deal, refereed; a drawn sitting (its row's ``op`` is what it draws, not an
#: operation: it asks each deal's next dealer and the contest over the results).
DEALS: Final = Search("deals", "differential/deal", "referee")
SITTINGS: Final = Search("sittings", "differential/sitting", "sitting")
#: The searches in the order a run makes them.
SEARCHES: Final = (DEALS, SITTINGS)


@dataclass(frozen=True)
class Operation:
    """One operation of the protocol."""

    name: str
    clauses: tuple[str, ...]
    context: str | None = None  # protocol 2's context argument (``trump``, ``dealer``), if any
    drawn_under_rules: bool = False  # its inputs are played under the check's rules (streams)
    generated: int = 0  # how many cases ``turub check --seed`` generates (0: all are in the vectors)
    vectors: int = 0  # how many seeded cases the committed vectors hold (besides worked ones)
    dealt_by: str | None = None  # the operation dealing its case's pack: a wrong deal fails it too
    searched_in: Search | None = None  # the differential search asking it (DEALS, SITTINGS), if any
    results_by: str | None = None  # the operation deciding each deal result its case carries
    goes_round: bool = False  # the direction of play decides its answer outside play (packets, next dealer)
    asked_with_rules: bool = False  # its questions carry the check's rule options (the schema's ``rules``)
    decisive: bool = False  # its answer is so large (four hands of 36 cards) that a misreading
    # giving exactly a program's wrong answer is never a coincidence: it alone settles the blame
    parts: Mapping[str, Callable[..., Any]] = field(default_factory=dict, compare=False, repr=False)

    def part(self, role: str) -> Callable[..., Any]:
        """Its part for ``role``; a :class:`LookupError` naming what is missing if none."""
        try:
            return self.parts[role]
        except KeyError:
            raise LookupError(f"operation {self.name!r} has no {role!r} part: attach one with "
                              f"@operation_part({self.name!r}, {role!r})") from None

    def part_or(self, role: str, default: Callable[..., Any]) -> Callable[..., Any]:
        """Its part for the optional ``role``, or ``default`` if it has none."""
        return self.parts.get(role, default)

    def needs(self) -> tuple[str, ...]:
        """The roles it must have a part for (drawn under rules: its inputs come from streams)."""
        return tuple(r for r in ROLES if not (r == "inputs" and self.drawn_under_rules))


class _Registry(Mapping[str, Operation]):
    """The operations, in the order they are declared (the order cases are drawn in)."""

    def __init__(self) -> None:
        self._records: dict[str, Operation] = {}

    def __getitem__(self, name: str) -> Operation:
        return self._records[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)

    def declare(self, operation: Operation) -> Operation:
        if operation.name in self._records:
            raise ValueError(f"operation {operation.name!r} is already declared")
        self._records[operation.name] = operation
        return operation

    def withdraw(self, name: str) -> None:
        del self._records[name]

    def attach(self, name: str, role: str, fn: Callable[..., Any]) -> None:
        if role not in ROLES + OPTIONAL_ROLES:
            raise ValueError(f"unknown role {role!r}: one of {', '.join(ROLES + OPTIONAL_ROLES)}")
        record = self._records[name]
        if role in record.parts:
            raise ValueError(f"operation {name!r} already has a {role!r} part")
        self._records[name] = replace(record, parts=MappingProxyType({**record.parts, role: fn}))


#: Every operation of the protocol, by name.
REGISTRY: Final = _Registry()


def declare(operation: Operation) -> Operation:
    """Add ``operation`` to :data:`REGISTRY` (a name declared twice is a ``ValueError``)."""
    return REGISTRY.declare(operation)


def withdraw(name: str) -> None:
    """Remove the operation ``name`` (a test's toy operation, declared for the test only)."""
    REGISTRY.withdraw(name)


def operation_part(name: str, role: str) -> Callable[[F], F]:
    """Decorator: the function is operation ``name``'s part for ``role``."""
    def attach(fn: F) -> F:
        REGISTRY.attach(name, role, fn)
        return fn
    return attach


def context_of(op: str) -> str | None:
    """The argument that makes a question of ``op`` a protocol-2 question, if any."""
    record = REGISTRY.get(op)
    return record.context if record is not None else None


def asked_with_rules(op: str) -> bool:
    """Whether a question of ``op`` carries the check's rule options (:attr:`Operation.asked_with_rules`)."""
    record = REGISTRY.get(op)
    return record is not None and record.asked_with_rules


declare(Operation("trick_winner", ("trick.highest-trump", "trick.highest-led", "trick.earliest-identical"),
                  generated=300, vectors=60))
declare(Operation("legal_plays", ("play.follow-suit", "play.void-any-card", "play.no-forced-trump"),
                  context="trump", generated=200, vectors=40))
declare(Operation("deal", ("deal.cut", "deal.packets", "deal.pause-for-trump", "deal.full-hands",
                           "trump.caller", "trump.three-cards", "table.left-of-dealer",
                           "table.direction"), generated=8, vectors=4, goes_round=True,
                  asked_with_rules=True, decisive=True))
declare(Operation("check_packets", ("deal.dealer-check", "deal.redeal"), generated=30, vectors=10))
declare(Operation("referee", ("play.first-lead", "play.turn", "play.card-in-hand", "play.follow-suit",
                              "play.void-any-card", "play.winner-leads", "play.all-tricks", "trump.caller",
                              "trump.once", "trump.any-suit", "signal.leader-only", "signal.timing",
                              "signal.once-per-trick", "signal.kinds", "result.more-tricks-wins",
                              "result.draw-18", "result.closed-early", "sheet.any-player-closes",
                              "play.order-of-actions"), drawn_under_rules=True, generated=40, vectors=8,
                  dealt_by="deal", searched_in=DEALS, asked_with_rules=True))
declare(Operation("deal_result", ("result.more-tricks-wins", "result.draw-18", "result.closed-early",
                                  "result.tricks-add-up"), context="dealer"))
declare(Operation("next_dealer", ("dealer.after-win", "dealer.after-loss", "dealer.after-draw"),
                  searched_in=SITTINGS, goes_round=True, asked_with_rules=True))
declare(Operation("first_dealer", ("dealer.first-draw", "dealer.first-draw-ties", "pack.suits-equal"),
                  generated=60, vectors=16))
declare(Operation("contest", ("contest.first-win-sets-mark", "contest.second-win-beats-mark",
                              "contest.insufficient-win", "contest.draw-keeps-sequence",
                              "contest.other-side-resets", "contest.unbeatable-mark",
                              "contest.decided-is-final", "stake.per-deal"), context="dealer",
                  generated=150, vectors=30, searched_in=SITTINGS, results_by="deal_result",
                  asked_with_rules=True))
