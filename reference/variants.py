"""Rule variants: named, versioned house rules, each with its own clauses.

A :class:`Variant` is a base (the standard game, or another variant), option values
(:mod:`turub.options`) and its own clauses (:class:`VariantClause`), with namespaced IDs
(``club.must-trump``).  Each clause says whether it *replaces*, *amends* or *adds to*
standard clauses, and gives the house rule in the maintainer's words.  A clause may carry
a ``rule``: a function that overrides one of the engine's decisions (:data:`DECISIONS`),
and the decision it makes then cites that clause (a refusal names it).

The variant is the oracle: :meth:`Variant.legal_plays`, :meth:`Variant.decide_trick`,
:meth:`Variant.deal_result`, :meth:`Variant.next_dealer`, :meth:`Variant.contest_step`
answer as the variant plays, and :meth:`Variant.deal` gives a :class:`~turub.deal.Deal`
that plays by it.  A variant without rules (the built-in presets are such) is served by
the standard engine unchanged, at no extra cost.

The built-in presets are variants (:data:`BUILTIN`); every command reads names from one
table (:func:`variant_names`, :func:`resolve`): the built-ins, the variants of installed
packages (entry-point group ``turub.variants``), a Python file (``path.py:NAME``) or a
declarative file of option values (``path.toml`` or ``path.json``).

A house rule in one file (``club.py``)::

    from turub.variants import Variant, VariantClause

    def must_trump(hand, trick, trump):
        \"\"\"Void in the led suit, holding trump: only trumps.\"\"\"
        if not trick or trump is None or any(c.suit is trick[0].suit for c in hand):
            return None                      # the standard rule decides
        trumps = [c for c in hand if c.suit is trump]
        return trumps or None

    CLUB = Variant("club", version="1", clauses=[
        VariantClause("club.must-trump", "A void player must trump when able",
                      text="If you cannot follow suit and you hold a trump, you must play one.",
                      replaces=["play.no-forced-trump"], decides="legal_plays", rule=must_trump)])

>>> BUILTIN["counterclockwise"].rules.to_dict()["direction"]
'counterclockwise'
>>> resolve("stake-per-deal").name
'stake-per-deal'
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Final

from . import clauses as _clauses
from .cards import CARDS, SUITS, Card, Suit, parse_card
from .contest import Contest
from .contest import contest_step as _contest_step
from .errors import IllegalActionError, MustFollowSuitError, RuleError, RulesOptionError
from .options import OPTIONS, Rules, rules_from_dict
from .rules import (DealResult, NextDealer, TrickDecision, decide_trick, deal_result,
                    is_legal_play, next_dealer)
from .rules import legal_plays as _legal_plays
from .seats import PLAY_ORDER, Seat, Side

__all__ = ["Variant", "VariantClause", "VariantError", "DECISIONS", "RELATIONS", "BUILTIN",
           "ENTRY_POINT_GROUP", "resolve", "select", "variant_names", "load_file", "register"]

#: How a variant's clause stands to the standard clauses.
RELATIONS: Final = ("replaces", "amends", "adds")

#: The decisions a clause's ``rule`` may override, with the standard clauses that decide
#: them and the rule's signature (return ``None`` to let the standard rule decide):
#:
#: * ``legal_plays(hand, trick, trump)``: the cards that may be played (``hand`` and
#:   ``trick`` are tuples of :class:`~turub.cards.Card`, ``trump`` a Suit or ``None``);
#: * ``trick_winner(cards, trump)``: the position (0 = the lead) of the winning card;
#: * ``deal_result(ns, ew, closed_early)``: the winning side (a Side, ``"NS"``, ``"EW"``)
#:   or ``"draw"``;
#: * ``next_dealer(dealer, winner, rules)``: the Seat that deals next (``winner`` is a
#:   Side or ``None`` for a draw);
#: * ``contest_step(contest, result, rules)``: the :class:`~turub.contest.Contest` after
#:   one more :class:`~turub.rules.DealResult`.
DECISIONS: Final[dict[str, tuple[str, ...]]] = {
    "legal_plays": ("play.follow-suit", "play.void-any-card", "play.no-forced-trump"),
    "trick_winner": ("trick.highest-trump", "trick.highest-led", "trick.earliest-identical"),
    "deal_result": ("result.more-tricks-wins", "result.draw-18", "result.closed-early"),
    "next_dealer": ("dealer.after-win", "dealer.after-loss", "dealer.after-draw"),
    "contest_step": ("contest.first-win-sets-mark", "contest.second-win-beats-mark",
                     "contest.insufficient-win", "contest.draw-keeps-sequence",
                     "contest.other-side-resets", "contest.unbeatable-mark",
                     "contest.decided-is-final", "stake.per-deal"),
}

#: The entry-point group under which installed packages offer variants (each entry point
#: loads a :class:`Variant`).
ENTRY_POINT_GROUP: Final = "turub.variants"

_ID: Final = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")
_NAME: Final = re.compile(r"^[a-z0-9][a-z0-9._+=,-]*$")


class VariantError(RuleError):
    """A variant that is not well formed, or a name no table knows.  It names the variant
    (or the argument), not a rule clause."""

    def __init__(self, message: str) -> None:
        super().__init__(message, clause="table.direction")
        self.args = (message,)


@dataclass(frozen=True, slots=True)
class VariantClause:
    """One clause of a variant: its namespaced ``id`` (``club.must-trump``), a short title,
    the house rule in the maintainer's words (``text``), the standard clauses it
    ``replaces`` or ``amends`` (neither: it ``adds`` a rule), and optionally the decision it
    overrides (``decides``, a key of :data:`DECISIONS`) with the ``rule`` that decides it."""

    id: str
    title: str
    text: str = ""
    replaces: tuple[str, ...] = ()
    amends: tuple[str, ...] = ()
    decides: str | None = None
    rule: Callable[..., Any] | None = field(default=None, compare=False)
    variant: str = ""

    kind: ClassVar[str] = "variant"
    cites: ClassVar[tuple[str, ...]] = ()
    is_normative: ClassVar[bool] = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "replaces", tuple(self.replaces))
        object.__setattr__(self, "amends", tuple(self.amends))
        if not isinstance(self.id, str) or not _ID.match(self.id):
            raise VariantError(f"clause id {self.id!r} must be namespaced, lower case: 'club.must-trump'")
        if self.id.split(".")[0] in _standard_parts():
            raise VariantError(f"clause id {self.id!r} uses the standard part "
                               f"{self.id.split('.')[0]!r}: name it after the variant ('club.…')")
        if self.replaces and self.amends:
            raise VariantError(f"{self.id}: a clause replaces or amends standard clauses, not both")
        for cid in self.replaces + self.amends:
            if cid not in _clauses.CLAUSES:
                raise VariantError(f"{self.id}: {cid!r} is not a standard clause")
        if self.decides is not None and self.decides not in DECISIONS:
            raise VariantError(f"{self.id}: decides {self.decides!r}: one of {', '.join(DECISIONS)}")
        if (self.rule is None) != (self.decides is None):
            raise VariantError(f"{self.id}: a rule needs the decision it overrides (decides=…), and back")
        if self.rule is not None and not callable(self.rule):
            raise VariantError(f"{self.id}: rule must be a function")

    @property
    def relation(self) -> str:
        return "replaces" if self.replaces else "amends" if self.amends else "adds"

    @property
    def targets(self) -> tuple[str, ...]:
        return self.replaces or self.amends

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "text": self.text, "relation": self.relation,
                "targets": list(self.targets), "decides": self.decides, "variant": self.variant}


def _standard_parts() -> frozenset[str]:
    return frozenset(cid.split(".")[0] for cid in _clauses.CLAUSES)


@dataclass(frozen=True)
class Variant:
    """A named, versioned rule variant (see the module documentation).

    ``base`` is the variant it builds on (a Variant, a name, or ``None`` for the standard
    game); ``options`` the option values it sets (``{"direction": "counterclockwise"}``);
    ``clauses`` its own clauses; ``overrides`` an optional ``{clause id: rule}`` giving the
    rules of clauses declared with ``decides``.  :attr:`rules` is the resolved option set.
    """

    name: str
    version: str = "1"
    base: Variant | str | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    clauses: Sequence[VariantClause] = ()
    overrides: Mapping[str, Callable[..., Any]] = field(default_factory=dict, compare=False)
    description: str = ""
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise VariantError(f"variant name {self.name!r}: lower case letters, digits, '-', '.'")
        base = self.base
        if isinstance(base, str):
            base = resolve(base)
        if base is not None and not isinstance(base, Variant):
            raise VariantError(f"variant {self.name}: base must be a Variant or a name, not {base!r}")
        object.__setattr__(self, "base", base)
        try:
            rules = rules_from_dict({str(k): str(v) for k, v in dict(self.options).items()},
                                    base.rules if base is not None else Rules())
        except RulesOptionError as e:
            raise VariantError(f"variant {self.name}: {e}") from None
        object.__setattr__(self, "options", dict(self.options))
        object.__setattr__(self, "rules", rules)
        own = []
        for vc in self.clauses:
            if not isinstance(vc, VariantClause):
                raise VariantError(f"variant {self.name}: {vc!r} is not a VariantClause")
            rule = self.overrides.get(vc.id)
            if rule is not None:
                vc = replace(vc, rule=rule)
            own.append(replace(vc, variant=vc.variant or self.name))
        unknown = set(self.overrides) - {vc.id for vc in own}
        if unknown:
            raise VariantError(f"variant {self.name}: overrides name no clause of it: {sorted(unknown)}")
        for vc in own:
            if (vc.rule is None) != (vc.decides is None):
                raise VariantError(f"{vc.id}: a clause that decides {vc.decides!r} needs its rule")
        ids = [vc.id for vc in own]
        if len(set(ids)) != len(ids):
            raise VariantError(f"variant {self.name}: a clause id is given twice")
        object.__setattr__(self, "clauses", tuple(own))
        inherited = base.all_clauses if base is not None else ()
        object.__setattr__(self, "all_clauses",
                           tuple(own) + tuple(c for c in inherited if c.id not in ids))
        deciders: dict[str, tuple[VariantClause, ...]] = {}
        for vc in self.all_clauses:  # own clauses first: they decide before the base's
            if vc.decides:
                deciders[vc.decides] = deciders.get(vc.decides, ()) + (vc,)
        object.__setattr__(self, "_deciders", deciders)
        object.__setattr__(self, "_deal_class", None)
        _clauses.register(self.all_clauses)

    rules: Rules = field(init=False, compare=False)
    all_clauses: tuple[VariantClause, ...] = field(init=False, compare=False)

    def __hash__(self) -> int:
        return hash((self.name, self.version))

    # --- what it is ------------------------------------------------------------------------

    @property
    def has_rules(self) -> bool:
        """Whether any clause overrides a decision (else the standard engine serves it)."""
        return bool(self._deciders)

    def decides(self, decision: str) -> tuple[VariantClause, ...]:
        """The clauses overriding ``decision``, in the order they are asked."""
        return self._deciders.get(decision, ())

    def lineage(self) -> list[str]:
        out, v = [], self
        while v is not None:
            out.append(f"{v.name} {v.version}")
            v = v.base
        return out

    def option_clauses(self, other: Rules | None = None) -> dict[str, tuple[str, str]]:
        """``{option clause: (this value, other's)}`` for the options that differ from ``other``
        (default: the standard game)."""
        diff = self.rules.differences(other if other is not None else Rules())
        return {OPTIONS[k]: v for k, v in diff.items()}

    def describe(self) -> dict[str, Any]:
        """The variant as plain data (``turub variants show``)."""
        return {"name": self.name, "version": self.version,
                "base": self.base.name if self.base is not None else None,
                "lineage": self.lineage(), "description": self.description,
                "options": self.rules.to_dict(),
                "options_changed": {k: list(v) for k, v in self.rules.differences(Rules()).items()},
                "option_clauses": sorted(self.option_clauses()),
                "clauses": [c.describe() for c in self.all_clauses],
                "source": self.source or "built in"}

    # The option attributes, so a variant can stand where rules are read.
    def to_dict(self) -> dict[str, str]:
        return self.rules.to_dict()

    @property
    def direction(self):
        return self.rules.direction

    @property
    def stake(self) -> str:
        return self.rules.stake

    @property
    def opponent_dealer(self) -> str:
        return self.rules.opponent_dealer

    @property
    def signal_kinds(self) -> str:
        return self.rules.signal_kinds

    @property
    def early_close(self) -> str:
        return self.rules.early_close

    def differences(self, other) -> dict[str, tuple[str, str]]:
        return self.rules.differences(other.rules if isinstance(other, Variant) else other)

    def __str__(self) -> str:
        return self.name

    # --- the oracle ------------------------------------------------------------------------

    def _ask(self, decision: str, *args: Any) -> tuple[Any, VariantClause] | None:
        for vc in self._deciders.get(decision, ()):
            out = vc.rule(*args)
            if out is not None:
                return out, vc
        return None

    def legal_plays(self, hand: Iterable[Card], trick: Sequence[Card], trump: Suit | None
                    ) -> tuple[frozenset[Card], tuple[str, ...]]:
        """The distinct cards of ``hand`` that may be played to ``trick``, and the clauses."""
        hand = tuple(hand)
        trick = tuple(trick)
        led = trick[0].suit if trick else None
        asked = self._ask("legal_plays", hand, trick, trump) if self._deciders else None
        if asked is not None:
            cards, vc = asked
            try:
                out = frozenset(cards)
            except TypeError:
                raise VariantError(f"{vc.id}: its rule returned {cards!r}, not cards") from None
            if not out <= frozenset(hand) or (hand and not out):
                raise VariantError(f"{vc.id}: its rule returned {sorted(map(str, out))}, which is "
                                   "not a non-empty part of the hand")
            return out, (vc.id,)
        out = _legal_plays(hand, led)
        if led is None or any(c.suit is led for c in hand):
            return out, ("play.follow-suit",)
        return out, ("play.void-any-card", "play.no-forced-trump")

    def is_legal_play(self, hand: Iterable[Card], trick: Sequence[Card], trump: Suit | None,
                      card: Card) -> tuple[bool, str]:
        """Whether ``card`` may be played, and the clause that decides it."""
        hand = list(hand)
        led = trick[0].suit if trick else None
        if card not in hand:
            return False, "play.card-in-hand"
        asked = self._ask("legal_plays", tuple(hand), tuple(trick), trump) if self._deciders else None
        if asked is not None:
            legal, clauses = self.legal_plays(hand, trick, trump)
            return card in legal, clauses[0]
        return is_legal_play(hand, led, card)

    def trick_winner(self, cards: Sequence[Card], trump: Suit) -> tuple[int, tuple[str, ...]]:
        """The position of the winning card of ``cards``, and the clauses."""
        asked = self._ask("trick_winner", tuple(cards), trump) if self._deciders else None
        if asked is not None:
            position, vc = asked
            if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < len(cards):
                raise VariantError(f"{vc.id}: its rule returned {position!r}, not a position in the trick")
            return position, (vc.id,)
        d = decide_trick(cards, trump, Seat.NORTH)
        return d.position, d.clauses

    def decide_trick(self, cards: Sequence[Card], trump: Suit, leader: Seat, direction=None) -> TrickDecision:
        """:func:`turub.rules.decide_trick` as the variant decides it."""
        direction = self.rules.direction if direction is None else direction
        asked = self._ask("trick_winner", tuple(cards), trump) if self._deciders else None
        if asked is None:
            return decide_trick(cards, trump, leader, direction)
        position, clauses = self.trick_winner(cards, trump)
        return TrickDecision(position, PLAY_ORDER[direction][leader][position], cards[position], clauses)

    def deal_result(self, north_south: int, east_west: int, *, closed_early: bool = False,
                    rules: Rules | None = None) -> DealResult:
        """:func:`turub.rules.deal_result` as the variant decides it (counts checked first;
        ``rules``, default the variant's own, for ``early-close``)."""
        rules = self.rules if rules is None or isinstance(rules, Variant) else rules
        standard = deal_result(north_south, east_west, closed_early=closed_early, rules=rules)
        asked = self._ask("deal_result", north_south, east_west, closed_early) if self._deciders else None
        if asked is None:
            return standard
        outcome, vc = asked
        winner = {"NS": Side.NORTH_SOUTH, "EW": Side.EAST_WEST, "draw": None}.get(outcome, outcome) \
            if isinstance(outcome, str) else outcome
        if winner is not None and not isinstance(winner, Side):
            raise VariantError(f"{vc.id}: its rule returned {outcome!r}: a Side, 'NS', 'EW' or 'draw'")
        return DealResult(standard.tricks, winner, closed_early, (vc.id,))

    def next_dealer(self, dealer: Seat, winner: Side | None, rules: Rules | None = None) -> NextDealer:
        """:func:`turub.rules.next_dealer` as the variant decides it."""
        rules = self.rules if rules is None or isinstance(rules, Variant) else rules
        asked = self._ask("next_dealer", dealer, winner, rules) if self._deciders else None
        if asked is None:
            return next_dealer(dealer, winner, rules)
        seat, vc = asked
        if not isinstance(seat, Seat):
            raise VariantError(f"{vc.id}: its rule returned {seat!r}, not a Seat")
        return NextDealer(seat, (vc.id,))

    def contest_step(self, contest: Contest, result: DealResult, rules: Rules | None = None) -> Contest:
        """:func:`turub.contest.contest_step` as the variant decides it (a decided contest
        still takes no more results: ``contest.decided-is-final``)."""
        rules = self.rules if rules is None or isinstance(rules, Variant) else rules
        if contest.winner is not None or not self._deciders:
            return _contest_step(contest, result, rules)
        asked = self._ask("contest_step", contest, result, rules)
        if asked is None:
            return _contest_step(contest, result, rules)
        out, vc = asked
        if not isinstance(out, Contest):
            raise VariantError(f"{vc.id}: its rule returned {out!r}, not a Contest")
        return replace(out, deals=contest.deals + 1, clauses=(vc.id,))

    # --- the engine, playing by the variant --------------------------------------------------

    @property
    def deal_class(self) -> type:
        """The :class:`~turub.deal.Deal` class that plays by this variant (``Deal`` itself
        when no clause overrides a decision)."""
        from .deal import Deal
        if not self.has_rules:
            return Deal
        if self._deal_class is None:
            object.__setattr__(self, "_deal_class", _variant_deal_class(self))
        return self._deal_class

    def deal(self, pack: Sequence[Card], dealer: Seat = Seat.NORTH, cut: int = 0):
        """A deal of ``pack`` played by this variant."""
        return self.deal_class(pack, dealer, self.rules, cut)

    def deal_from_seed(self, seed: int, dealer: Seat = Seat.NORTH):
        return self.deal_class.from_seed(seed, dealer, self.rules)

    def play_random_deal(self, dealer: Seat, rng):
        """A whole deal of random legal play by this variant, drawn from ``rng`` (as
        :func:`turub.deal.play_random_deal` draws a run of deals)."""
        from .deal import play_random_deal
        if not self.has_rules:
            return play_random_deal(None, dealer, self.rules, rng)
        deal = self.deal_class._shuffled(rng, dealer, self.rules)
        deal.name_trump(deal.caller, SUITS[int(rng.random() * 4)])
        deal.play_out(rng)
        return deal

    def sitting(self, first_dealer: Seat = Seat.NORTH, *, keep_rows: bool = True):
        """A score sheet kept by this variant (its next dealers and contest)."""
        from .sitting import Sitting
        if not (self.decides("next_dealer") or self.decides("contest_step")):
            return Sitting(first_dealer, self.rules, keep_rows=keep_rows)
        variant = self

        class VariantSitting(Sitting):
            __slots__ = ()
            _next_dealer = staticmethod(variant.next_dealer)
            _contest_step = staticmethod(variant.contest_step)

        return VariantSitting(first_dealer, self.rules, keep_rows=keep_rows)


def _direction_of(order) -> Any:
    from .seats import Direction
    return next(d for d in Direction if PLAY_ORDER[d] is order or PLAY_ORDER[d] == order)


def _variant_deal_class(variant: Variant) -> type:
    from .deal import Deal, Phase

    class VariantDeal(Deal):
        __slots__ = ()
        _check_follow_suit = False  # the variant's legal plays decide, below

        def legal_plays(self, seat: Seat | None = None) -> tuple[Card, ...]:
            if self.phase is not Phase.PLAYING or (seat is not None and seat != self.to_act):
                return ()
            hand = self.hand(self.to_act)
            legal, _ = variant.legal_plays(hand, [c for _, c in self.current_trick], self.trump)
            return tuple(c for c in CARDS if c in legal)

        def play(self, seat: Seat, card: Card | str):
            if self.phase is Phase.PLAYING and seat == self.to_act:
                card = card if isinstance(card, Card) else parse_card(card)
                if self.holds(seat, card):
                    trick = [c for _, c in self.current_trick]
                    legal, clauses = variant.legal_plays(self.hand(seat), trick, self.trump)
                    if card not in legal:
                        error = MustFollowSuitError if clauses[0] == "play.follow-suit" else IllegalActionError
                        raise error(f"{seat} may not play {card} here", clause=clauses[0])
            return super().play(seat, card)

        def play_out(self, rng=None):
            """Random legal play to the end, every card through the variant's checked step."""
            import random
            rng = rng if rng is not None else random.Random()
            while self.phase is Phase.PLAYING:
                legal = self.legal_plays()
                self.play(self.to_act, legal[int(rng.random() * len(legal))])
            return self.result

        def to_record(self) -> dict[str, Any]:
            return {**super().to_record(), "variant": variant.name}

    def trick_decision(leader, codes, position, trump, order):
        cards = [CARDS[c] for c in codes]
        decision = variant.decide_trick(cards, SUITS[trump], leader, _direction_of(order))
        return decision

    VariantDeal._trick_decision = staticmethod(trick_decision)
    VariantDeal._judge_result = staticmethod(variant.deal_result)
    VariantDeal.__name__ = VariantDeal.__qualname__ = f"Deal[{variant.name}]"
    VariantDeal.variant = variant
    return VariantDeal


# --- the one table of names --------------------------------------------------------------------

#: The built-in variants: the option presets, as variants.
BUILTIN: Final[dict[str, Variant]] = {}

_REGISTERED: dict[str, Variant] = {}
_ENTRY_POINTS_LOADED = [False]


def _builtin(name: str, description: str, **options: str) -> None:
    BUILTIN[name] = Variant(name, "1", None, options, description=description)


_builtin("standard", "The game as the guide plays it: every option at its default.")
_builtin("counterclockwise", "Play and deal run counter-clockwise (table.direction).",
         direction="counterclockwise")
_builtin("stake-per-deal", "Each won deal settles the stake on its own (stake.per-deal).",
         stake="per-deal")
_builtin("opponent-previous", "After the dealer's side wins, the other opponent deals "
         "(dealer.after-win).", **{"opponent-dealer": "previous"})
_builtin("signals-documented", "Only the two documented signals, the knock and the click "
         "(signal.kinds).", **{"signal-kinds": "documented"})
_builtin("early-close-known", "A deal closed with one side already past 18 tricks is that "
         "side's win (result.closed-early).", **{"early-close": "known-result"})


def register(variant: Variant) -> Variant:
    """Add ``variant`` to the table of names (a name already taken by another variant is refused)."""
    if not isinstance(variant, Variant):
        raise VariantError(f"{variant!r} is not a Variant")
    known = BUILTIN.get(variant.name) or _REGISTERED.get(variant.name)
    if known is not None and known != variant:
        raise VariantError(f"the name {variant.name!r} is taken by another variant")
    _REGISTERED.setdefault(variant.name, variant)
    return variant


def _load_entry_points() -> None:
    if _ENTRY_POINTS_LOADED[0]:
        return
    _ENTRY_POINTS_LOADED[0] = True
    from importlib.metadata import entry_points
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            v = ep.load()
            v = v() if callable(v) and not isinstance(v, Variant) else v
            register(replace(v, source=f"entry point {ep.value}") if isinstance(v, Variant) else v)
        except Exception as e:  # noqa: BLE001 - one broken package must not hide the others
            _BROKEN[ep.name] = f"entry point {ep.value}: {type(e).__name__}: {e}"


_BROKEN: dict[str, str] = {}


def variant_names() -> dict[str, Variant]:
    """Every variant known by name: the built-ins, then installed and registered ones."""
    _load_entry_points()
    return {**BUILTIN, **{k: v for k, v in _REGISTERED.items() if k not in BUILTIN}}


def load_file(path: str | Path, name: str | None = None) -> Variant:
    """The variant in a file: ``club.py`` (the Variant named ``name``, or its only one),
    ``club.toml`` or ``club.json`` (declarative: ``name``, ``version``, ``base``,
    ``options``, ``description`` and ``clauses`` without rules)."""
    p = Path(path)
    if not p.is_file():
        raise VariantError(f"no variant file {str(p)!r}")
    if p.suffix == ".py":
        spec = importlib.util.spec_from_file_location(f"turub_variant_{abs(hash(str(p.resolve())))}", p)
        if spec is None or spec.loader is None:
            raise VariantError(f"{p}: cannot be loaded as Python")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except RuleError:
            raise
        except Exception as e:  # noqa: BLE001 - the user's file: say what broke
            raise VariantError(f"{p}: {type(e).__name__}: {e}") from None
        found = {k: v for k, v in vars(module).items() if isinstance(v, Variant)}
        if name is not None:
            v = found.get(name) or next((x for x in found.values() if x.name == name), None)
            if v is None:
                raise VariantError(f"{p} has no variant {name!r} (it has: {', '.join(found) or 'none'})")
        else:
            own = [x for x in found.values() if x.name not in BUILTIN]
            if len(own) != 1:
                raise VariantError(f"{p} defines {len(own)} variants: name one ({p}:NAME)")
            v = own[0]
        return replace(v, source=str(p)) if not v.source else v
    if p.suffix in (".toml", ".json"):
        try:
            if p.suffix == ".toml":
                import tomllib
                data = tomllib.loads(p.read_text(encoding="utf-8"))
            else:
                data = json.loads(p.read_text(encoding="utf-8"))
        except (ValueError, OSError) as e:
            raise VariantError(f"{p}: {e}") from None
        return from_data(data, str(p))
    raise VariantError(f"{p}: a variant file is .py, .toml or .json")


def from_data(data: Mapping[str, Any], source: str = "") -> Variant:
    """A declarative variant: option values and clauses that override nothing."""
    if not isinstance(data, Mapping):
        raise VariantError(f"{source}: a variant is a table of name, version, options…")
    allowed = {"name", "version", "base", "options", "description", "clauses"}
    extra = set(data) - allowed
    if extra:
        raise VariantError(f"{source}: unknown key(s) {sorted(extra)}: use {sorted(allowed)}")
    if "name" not in data:
        raise VariantError(f"{source}: a variant needs a name")
    clauses = []
    for c in data.get("clauses", []):
        if not isinstance(c, Mapping) or "id" not in c or "title" not in c:
            raise VariantError(f"{source}: each clause has an id and a title: {c!r}")
        keys = set(c) - {"id", "title", "text", "replaces", "amends"}
        if keys:
            raise VariantError(f"{source}: clause {c['id']}: unknown key(s) {sorted(keys)} "
                               "(a rule needs a Python variant file)")
        clauses.append(VariantClause(c["id"], c["title"], c.get("text", ""),
                                     tuple(c.get("replaces", ())), tuple(c.get("amends", ()))))
    return Variant(str(data["name"]), str(data.get("version", "1")), data.get("base"),
                   dict(data.get("options", {})), tuple(clauses),
                   description=str(data.get("description", "")), source=source)


def resolve(text: str | Variant) -> Variant:
    """The variant ``text`` names: a name of the table, ``path.py[:NAME]``, ``path.toml``,
    ``path.json``, or ``OPTION=VALUE[,OPTION=VALUE]`` (an unnamed set of options)."""
    if isinstance(text, Variant):
        return text
    if not isinstance(text, str) or not text.strip():
        raise VariantError(f"{text!r} is not a variant name")
    text = text.strip()
    names = variant_names()
    if text in names:
        return names[text]
    path, _, name = text.partition(":") if re.match(r"^[^:]+\.py:", text) else (text, "", "")
    if path.endswith((".py", ".toml", ".json")):
        v = load_file(path, name or None)
        return register(v) if v.name not in BUILTIN else v
    if "=" in text:
        try:
            rules = rules_from_dict(dict(item.split("=", 1) for item in text.split(",") if item))
        except RulesOptionError as e:
            raise VariantError(str(e)) from None
        for v in BUILTIN.values():
            if v.rules == rules:
                return v
        label = ",".join(f"{k}={v}" for k, v in rules.differences(Rules()).items()
                         for v in [v[0]])
        return Variant("custom", "1", None, rules.to_dict(), description=f"options {label}")
    hint = f"; {_BROKEN[text]}" if text in _BROKEN else ""
    raise VariantError(f"no variant {text!r}: the variants are {', '.join(names)} (or a file "
                       f"path.py:NAME, path.toml, or OPTION=VALUE){hint}")


def select(variant: str | Variant | None = None, rules: Iterable[str] = ()) -> Variant:
    """The variant a command runs under: ``--variant`` (default: standard), then each
    ``--rules`` item applied left to right (a variant name replaces it, ``OPTION=VALUE``
    changes one option).  Every command reads names through here: one table."""
    current = resolve(variant) if variant is not None else BUILTIN["standard"]
    options: dict[str, str] = {}
    for item in rules:
        if "=" not in item:
            current, options = resolve(item), {}
            continue
        key, _, value = item.partition("=")
        options[key] = value
    if not options:
        return current
    try:
        changed = rules_from_dict(options, current.rules)
    except RulesOptionError as e:
        raise VariantError(str(e)) from None
    if not current.has_rules:
        for v in BUILTIN.values():
            if v.rules == changed:
                return v
    label = ",".join(f"{k}={v[0]}" for k, v in changed.differences(current.rules).items())
    if not label:
        return current
    return Variant(f"{current.name}+{label}" if current.name != "standard" else "custom",
                   current.version, current, changed.differences(current.rules) and
                   {k: v[0] for k, v in changed.differences(current.rules).items()},
                   description=f"{current.name} with {label}")
