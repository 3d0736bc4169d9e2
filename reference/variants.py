"""Rule variants: named, versioned house rules, each with its own clauses.

A :class:`Variant` is a base (the standard game, or another variant), option values
(:mod:`turub.options`) and its own clauses (:class:`VariantClause`), with namespaced IDs
(``club.must-trump``).  Each clause says whether it *replaces*, *amends* or *adds to*
standard clauses, and gives the house rule in the maintainer's words.  A clause may carry
a ``rule``: a function that overrides one of the engine's decisions (:data:`DECISIONS`;
their typed signatures and conventions: :mod:`turub.decisions`), and the decision it makes
then cites that clause (a refusal names it).

The variant is the oracle: :meth:`Variant.legal_plays`, :meth:`Variant.decide_trick`,
:meth:`Variant.deal_result`, :meth:`Variant.next_dealer`, :meth:`Variant.contest_step`
answer as the variant plays, and :meth:`Variant.deal` gives a :class:`~turub.deal.Deal`
that plays by it.  A variant without rules (the built-in presets are such) is served by
the standard engine unchanged, at no extra cost.

The built-in presets are variants (:data:`BUILTIN`); every command reads names from one
table (:func:`variant_names`, :func:`resolve`): the built-ins, the variants of installed
packages (entry-point group ``turub.variants``), a Python file (``path.py:NAME``) or a
declarative file of option values (``path.toml`` or ``path.json``).

A house rule in one file, with a worked example per kind of decision: the guide
``docs/guides/house-rules.md`` (the club's own file: ``tests/variants/club.py``).

>>> BUILTIN["counterclockwise"].rules.to_dict()["direction"]
'counterclockwise'
>>> resolve("stake-per-deal").name
'stake-per-deal'
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Final, cast

from . import records

from . import clauses as _clauses
from .cards import SUITS, Card, Suit
from .contest import Contest
from .contest import contest_step as _contest_step
from .deal import Deal, play_random_deal
from .decisions import (CONTEST_STEP, DEAL_RESULT, DEAL_STANDS, DECISION_TABLE, DECISIONS, FIRST_DEALER,
                        NEXT_DEALER, PLAYS, SIGNAL, TRICK_WINNER, TRUMP_CALLER, Game,
                        HouseRuleError, asker, is_async, kinds_of_play, sees_game)
from .errors import RecordError, RuleError, RulesOptionError, stops_the_command
from .user_files import InputFileError, described, read_input
from .options import OPTIONS, Rules, rules_from_dict
from .rules import (DealResult, FirstDealer, NextDealer, PacketCheck, TrickDecision, check_packets,
                    decide_trick, deal_result, first_dealer, is_legal_play, next_dealer)
from .rules import legal_plays as _legal_plays
from .seats import PLAY_ORDER, SEATS, Seat, Side
from .sitting import HouseRuleSitting, Sitting, draw_first_dealer
from . import argument_checks
from .errors import FirstDealerError
from .house_rule_deal import HouseRuleDeal
from .rule_checks import RuleCheckError, captured_output, check_rules

__all__ = ["Variant", "VariantClause", "VariantError", "HouseRuleError", "DECISIONS",
           "DECISION_TABLE", "RELATIONS", "BUILTIN", "ENTRY_POINT_GROUP", "resolve", "select",
           "variant_names", "load_file", "from_data", "register", "find"]

#: How a variant's clause stands to the standard clauses.
RELATIONS: Final = ("replaces", "amends", "adds")

#: The entry-point group under which installed packages offer variants (each entry point
#: loads a :class:`Variant`).
ENTRY_POINT_GROUP: Final = "turub.variants"

_ID: Final = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")
_NAME: Final = re.compile(r"^[a-z0-9][a-z0-9._+=,-]*$")
#: A name a file gives its variant (the guide's): no '+', '=' or ',', which the name of a
#: variant with options set on the command line uses (``club+direction=counterclockwise``).
_FILE_NAME: Final = re.compile(r"^[a-z0-9][a-z0-9.-]*$")


class VariantError(RuleError):
    """A variant that is not well formed, or a name no table knows.  It names the variant
    (or the argument), not a rule clause.  ``rename``, for a clause ID that takes a part of
    the standard game, is the rest of the ID: named after its variant once the variant is
    known (:meth:`in_file`)."""

    def __init__(self, message: str, *, rename: str | None = None) -> None:
        super().__init__(message, clause="table.direction")
        self.args = (message,)
        self.rename = rename

    def in_file(self, path: str, variant: str | None) -> VariantError:
        """This error as a definition error of ``variant`` (its name, if known) in the file
        ``path``: one line naming both, and a clause ID named after the variant."""
        message = str(self.args[0])
        if self.rename is not None:
            part = re.sub(r"[^a-z0-9-]+", "-", (variant or "your-club").lower()).strip("-") or "your-club"
            message += f" ('{part}.{self.rename}')"
        if variant is not None and not message.startswith(f"variant {variant}"):
            message = f"variant {variant}: {message}"
        return VariantError(f"{path}: {message}")


@dataclass(frozen=True, slots=True)
class VariantClause:
    """One clause of a variant: its namespaced ``id`` (``club.must-trump``), a short title,
    the house rule in the maintainer's words (``text``), the standard clauses it
    ``replaces`` or ``amends`` (neither: it ``adds`` a rule), and optionally the decision it
    overrides (``decides``, a key of :data:`DECISIONS`) with the ``rule`` that decides it.
    A ``legal_plays`` rule may name the kinds of play it ``applies_to`` (some of
    :data:`~turub.decisions.PLAYS`: ``"lead"``, ``"follow"``, ``"void"``): it is asked at
    those plays only, the standard rule deciding the others."""

    id: str
    title: str
    text: str = ""
    replaces: tuple[str, ...] = ()
    amends: tuple[str, ...] = ()
    decides: str | None = None
    rule: Callable[..., Any] | None = field(default=None, compare=False)
    applies_to: tuple[str, ...] | None = None
    variant: str = ""

    kind: ClassVar[str] = "variant"
    cites: ClassVar[tuple[str, ...]] = ()
    is_normative: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _ID.match(self.id):
            raise VariantError(f"clause id {self.id!r} must be namespaced, lower case: 'club.must-trump'")
        self._check_kinds()
        if self.id.split(".")[0] in _standard_parts():
            raise VariantError(f"clause id {self.id!r} uses the standard part "
                               f"{self.id.split('.')[0]!r}: name it after its variant",
                               rename=self.id.split(".", 1)[1])
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
        if self.rule is not None and is_async(self.rule):
            raise VariantError(f"{self.id}: rule must be a plain function returning its answer, not an async "
                               f"one (nothing in a game awaits it)")
        if self.applies_to is not None:
            if self.decides is None or not DECISION_TABLE[self.decides].by_kind_of_play:
                raise VariantError(f"{self.id}: applies_to names kinds of play: only a rule deciding "
                                   f"legal_plays takes it")
            kinds = kinds_of_play(self.applies_to)
            if kinds is None:
                raise VariantError(f"{self.id}: applies_to {self.applies_to!r}: one or more of "
                                   f"{', '.join(PLAYS)}")
            object.__setattr__(self, "applies_to", kinds)

    def _check_kinds(self) -> None:
        """Each field given of its kind (a :class:`VariantError` naming the field otherwise);
        ``replaces`` and ``amends`` made tuples."""
        for name in ("title", "text"):
            if not isinstance(getattr(self, name), str):
                raise VariantError(f"{self.id}: {name} must be text, not {_kind_of(getattr(self, name))}")
        for name in ("replaces", "amends"):  # a text is not read letter by letter
            given = getattr(self, name)
            if isinstance(given, (str, bytes, Mapping)) or not isinstance(given, Iterable) \
                    or not all(isinstance(cid, str) for cid in given):
                raise VariantError(f"{self.id}: {name} must be a list of clause ids, not {_kind_of(given)}")
            object.__setattr__(self, name, tuple(given))
        if self.decides is not None and not isinstance(self.decides, str):
            raise VariantError(f"{self.id}: decides must be the name of a decision, not {_kind_of(self.decides)}")

    @property
    def plays(self) -> tuple[str, ...]:
        """The kinds of play its rule is asked at (every kind unless ``applies_to`` says)."""
        return self.applies_to or PLAYS

    @property
    def relation(self) -> str:
        return "replaces" if self.replaces else "amends" if self.amends else "adds"

    @property
    def targets(self) -> tuple[str, ...]:
        return self.replaces or self.amends

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "text": self.text, "relation": self.relation,
                "targets": list(self.targets), "decides": self.decides, "variant": self.variant,
                **({"applies_to": list(self.applies_to)} if self.applies_to else {})}


def _kind_of(value: Any) -> str:
    """A value a definition gave where another kind was wanted, in words (``text 'x'``)."""
    names: dict[type, str] = {str: "text", dict: "a table", list: "a list", tuple: "a tuple"}
    kind = names.get(type(value), type(value).__name__)
    return f"{kind} {value!r:.60}"


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
        self._check_name()
        self._check_kinds()
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
            why = DECISION_TABLE[vc.decides].check_signature(vc.rule) \
                if vc.rule is not None and vc.decides is not None else None
            if why:
                raise VariantError(f"variant {self.name} {self.version}: house rule {vc.id} "
                                   f"({vc.decides}) {why}")
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
        object.__setattr__(self, "_seeing", frozenset(
            d for d, vcs in deciders.items() if any(sees_game(vc.rule) for vc in vcs)))
        object.__setattr__(self, "_deal_class", None)
        object.__setattr__(self, "_tally", None)
        object.__setattr__(self, "_askers", {})
        _clauses.register(self.all_clauses)

    def _check_name(self) -> None:
        """The name and the version, as every report, record and error line shows them."""
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise VariantError(f"variant name {self.name!r}: lower case letters, digits, '-', '.'")
        # A version is text (records and reports keep it as given): 2 or 1.0 is refused.
        if not isinstance(self.version, str) or not self.version.strip():
            raise VariantError(f"variant {self.name}: version {self.version!r} is not text: "
                               f"write it as a string ('{self.version}')")
        if not self.version.isprintable():
            raise VariantError(f"variant {self.name}: version {self.version!r} is not one line of "
                               "printable text")

    def _check_kinds(self) -> None:
        """Each field given of its kind (a :class:`VariantError` naming the field otherwise)."""
        for name, kind in (("options", Mapping), ("overrides", Mapping), ("description", str)):
            if not isinstance(getattr(self, name), kind):
                raise VariantError(f"variant {self.name}: {name} must be "
                                   f"{'text' if kind is str else 'a table'}, not {_kind_of(getattr(self, name))}")
        if isinstance(self.clauses, (str, bytes, Mapping)) or not isinstance(self.clauses, Iterable):
            raise VariantError(f"variant {self.name}: clauses must be a list of VariantClause, "
                               f"not {_kind_of(self.clauses)}")

    # Set once by __post_init__ (object.__setattr__: the value is frozen).
    rules: Rules = field(init=False, compare=False)
    all_clauses: tuple[VariantClause, ...] = field(init=False, compare=False)
    _deciders: dict[str, tuple[VariantClause, ...]] = field(init=False, compare=False, repr=False)
    _seeing: frozenset[str] = field(init=False, compare=False, repr=False)
    _deal_class: type[Deal] | None = field(init=False, compare=False, repr=False)
    _tally: dict[str, list[int]] | None = field(init=False, compare=False, repr=False)
    _askers: dict[str, Callable[..., Any]] = field(init=False, compare=False, repr=False)

    def __hash__(self) -> int:
        return hash((self.name, self.version))

    # --- what it is ------------------------------------------------------------------------

    @property
    def has_rules(self) -> bool:
        """Whether any clause overrides a decision (else the standard engine serves it)."""
        return bool(self._deciders)

    def sees_game(self, decision: str) -> bool:
        """Whether a rule deciding ``decision`` reads the game (:class:`~turub.decisions.Game`)."""
        return decision in self._seeing

    def decides(self, decision: str) -> tuple[VariantClause, ...]:
        """The clauses overriding ``decision``, in the order they are asked."""
        return self._deciders.get(decision, ())

    @property
    def parent(self) -> Variant | None:
        """The variant this one builds on, resolved (``None``: the standard game)."""
        return cast("Variant | None", self.base)  # a name in ``base`` is resolved on creation

    def lineage(self) -> list[str]:
        out, v = [], cast("Variant | None", self)
        while v is not None:
            out.append(f"{v.name} {v.version}")
            v = v.parent
        return out

    def option_clauses(self, other: Rules | None = None) -> dict[str, tuple[str, str]]:
        """``{option clause: (this value, other's)}`` for the options that differ from ``other``
        (default: the standard game)."""
        diff = self.rules.differences(other if other is not None else Rules())
        return {OPTIONS[k]: v for k, v in diff.items()}

    def describe(self) -> dict[str, Any]:
        """The variant as plain data (``turub variants show``)."""
        return {"name": self.name, "version": self.version,
                "base": self.parent.name if self.parent is not None else None,
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

    def house(self, decision: str, *args: Any, game: Game | None = None) -> tuple[Any, VariantClause] | None:
        """The house rules' answer to ``decision`` (a key of :data:`DECISIONS`) on ``args``:
        ``(answer, clause)`` from the first clause whose rule does not defer (own clauses
        before the base's), or ``None`` when every rule defers (the standard rule decides).
        The answer is checked and normalised (cards as a frozenset, a side or ``None`` for a
        draw, a Seat, a Contest); a rule that raises or answers nonsense raises
        :class:`~turub.decisions.HouseRuleError` (:func:`turub.decisions.asker`).  ``game``:
        what a rule that reads the game sees (default: a view that knows nothing)."""
        ask = self._askers.get(decision)
        if ask is None:
            ask = self._askers[decision] = asker(self.label, decision, self.decides(decision))
        return ask(*args, game=game) if game is not None else ask(*args)

    @property
    def label(self) -> str:
        """The variant's name and version, as messages name it."""
        return f"{self.name} {self.version}"

    def legal_plays(self, hand: Iterable[Card], trick: Sequence[Card], trump: Suit | None,
                    game: Game | None = None) -> tuple[frozenset[Card], tuple[str, ...]]:
        """The distinct cards of ``hand`` that may be played to ``trick``, and the clauses
        (``game``: what a rule reading the game sees; default: nothing known)."""
        hand = tuple(hand)
        trick = tuple(trick)
        led = trick[0].suit if trick else None
        asked = self.house("legal_plays", hand, trick, trump, game=game) if self._deciders else None
        if asked is not None:
            self.count_decision("legal_plays", asked, lambda: _legal_plays(hand, led))
            return asked[0], (asked[1].id,)
        out = _legal_plays(hand, led)
        if led is None or any(c.suit is led for c in hand):
            return out, ("play.follow-suit",)
        return out, ("play.void-any-card", "play.no-forced-trump")

    def is_legal_play(self, hand: Iterable[Card], trick: Sequence[Card], trump: Suit | None,
                      card: Card, game: Game | None = None) -> tuple[bool, str]:
        """Whether ``card`` may be played, and the clause that decides it (``play.card-in-hand``
        first; then the house rule's clause where it decides, else the standard one)."""
        hand = list(hand)
        led = trick[0].suit if trick else None
        if card not in hand:
            return False, "play.card-in-hand"
        if self._deciders.get("legal_plays"):
            legal, clauses = self.legal_plays(hand, trick, trump, game)
            if clauses[0] not in DECISIONS["legal_plays"]:
                return card in legal, clauses[0]
        return is_legal_play(hand, led, card)

    def trick_winner(self, cards: Sequence[Card], trump: Suit, game: Game | None = None
                     ) -> tuple[int, tuple[str, ...]]:
        """The position of the winning card of ``cards``, and the clauses."""
        asked = self.house("trick_winner", tuple(cards), trump, game=game) if self._deciders else None
        if asked is not None:
            self.count_decision("trick_winner", asked, lambda: decide_trick(cards, trump, Seat.NORTH).position)
            return asked[0], (asked[1].id,)
        d = decide_trick(cards, trump, Seat.NORTH)
        return d.position, d.clauses

    def decide_trick(self, cards: Sequence[Card], trump: Suit, leader: Seat, direction=None,
                     game: Game | None = None) -> TrickDecision:
        """:func:`turub.rules.decide_trick` as the variant decides it (a rule reading the
        game sees at least the leader and the rules)."""
        direction = self.rules.direction if direction is None else direction
        if game is None and self.sees_game(TRICK_WINNER.name):
            game = Game(seat=leader, rules=replace(self.rules, direction=direction))
        asked = self.house("trick_winner", tuple(cards), trump, game=game) if self._deciders else None
        if asked is None:
            return decide_trick(cards, trump, leader, direction)
        self.count_decision("trick_winner", asked, lambda: decide_trick(cards, trump, leader, direction).position)
        position = asked[0]
        return TrickDecision(position, PLAY_ORDER[direction][leader][position], cards[position],
                             (asked[1].id,))

    def may_signal(self, seat: Seat, leader: Seat, kind: str, game: Game | None = None) -> str | None:
        """Whether ``seat`` may give a ``kind`` signal to a trick ``leader`` led, as the
        variant decides it: ``None`` (it may), else the clause refusing it (the house
        clause whose rule said ``False``, or ``signal.leader-only`` when every rule defers
        and ``seat`` did not lead)."""
        if game is None and self.sees_game(SIGNAL.name):
            game = Game(seat=seat, rules=self.rules)
        asked = self.house(SIGNAL.name, seat, leader, kind, game=game) if self._deciders else None
        if asked is None:
            return None if seat is leader else "signal.leader-only"
        return None if asked[0] else asked[1].id

    def trump_caller(self, dealer: Seat, rules: Rules | None = None) -> tuple[Seat, tuple[str, ...]]:
        """Who names trump in ``dealer``'s deal, as the variant decides it, and the clauses
        (``trump.caller``: the seat after the dealer, where every rule defers)."""
        rules = self.rules if rules is None or isinstance(rules, Variant) else rules
        asked = self.house(TRUMP_CALLER.name, dealer, rules,
                           game=Game(rules=rules, dealer=dealer) if self.sees_game(TRUMP_CALLER.name) else None) \
            if self._deciders else None
        standard = PLAY_ORDER[rules.direction][dealer][1]
        if asked is None:
            return standard, ("trump.caller",)
        self.count_decision(TRUMP_CALLER.name, asked, lambda: standard)
        return asked[0], (asked[1].id,)

    def first_dealer(self, rounds: Iterable[Mapping[Seat, Card]]) -> FirstDealer:
        """:func:`turub.rules.first_dealer` as the variant decides it: its rule asked after
        each round (a round after the one it decided at is refused naming its clause); where
        it defers the standard rule reads the round (who is still tied draws again)."""
        if not self.decides(FIRST_DEALER.name) or isinstance(rounds, (str, bytes, Mapping)) \
                or not isinstance(rounds, Iterable):
            return first_dealer(rounds)
        given = list(rounds)
        drawn: list[dict[Seat, Card]] = []
        contenders, decided = set(SEATS), None
        for k, shown in enumerate(given):
            if decided is not None:
                raise FirstDealerError(f"the draw was decided for {decided[0]} after round {k} "
                                       f"({decided[1].id}): nobody draws again", clause=decided[1].id)
            try:
                parsed = {argument_checks.seat(seat, "dealer.first-draw"): argument_checks.card(card, "dealer.first-draw")
                          for seat, card in shown.items()}
            except (RuleError, AttributeError, TypeError):
                return first_dealer(given[:k + 1])  # refused as the standard rule refuses it
            if len(contenders) == 1 or set(parsed) != contenders:
                return first_dealer(given[:k + 1])
            drawn.append(parsed)
            decided = self._draw_decided(drawn)
            if decided is None:
                top = max(card.rank for card in parsed.values())
                contenders = {seat for seat, card in parsed.items() if card.rank == top}
        if decided is None:
            return first_dealer(drawn)
        return FirstDealer(decided[0], _rounds_shown(drawn), (decided[1].id,))

    def _draw_decided(self, drawn: Sequence[Mapping[Seat, Card]]) -> tuple[Seat, VariantClause] | None:
        """The house rules' answer after the last round of ``drawn`` (``None``: they defer)."""
        asked = self.house(FIRST_DEALER.name, _rounds_shown(drawn),
                           game=Game(rules=self.rules) if self.sees_game(FIRST_DEALER.name) else None)
        if asked is not None and self._tally is not None:
            self.count_decision(FIRST_DEALER.name, asked, lambda: None)
        return asked

    def draw_first_dealer(self, seed: int) -> FirstDealer:
        """:func:`turub.sitting.draw_first_dealer` as the variant decides it (the same cards
        shown: where every rule defers, the standard draw)."""
        if not self.decides(FIRST_DEALER.name):
            return draw_first_dealer(seed, self.rules)

        def decide(drawn: Sequence[Mapping[Seat, Card]]) -> FirstDealer | None:
            asked = self._draw_decided(drawn)
            return None if asked is None else FirstDealer(asked[0], _rounds_shown(drawn), (asked[1].id,))
        return draw_first_dealer(seed, self.rules, decide)

    def check_packets(self, packets: Sequence[tuple[Seat, Any]], dealer: Seat,
                      rules: Rules | None = None) -> PacketCheck:
        """:func:`turub.rules.check_packets` as the variant decides it (the packets checked
        for their form first; a house rule sees each packet's number of cards)."""
        rules = self.rules if rules is None or isinstance(rules, Variant) else rules
        standard = check_packets(packets, dealer, rules)
        if not self.decides(DEAL_STANDS.name):
            return standard
        dealer = argument_checks.seat(dealer, "deal.dealer-check")
        counts = tuple((argument_checks.seat(seat, "deal.dealer-check"), n if type(n) is int else len(n))
                       for seat, n in packets)
        asked = self.house(DEAL_STANDS.name, counts, dealer, rules,
                           game=Game(rules=rules, dealer=dealer) if self.sees_game(DEAL_STANDS.name) else None)
        if asked is None:
            return standard
        self.count_decision(DEAL_STANDS.name, asked, lambda: standard.stands)
        stands, vc = asked
        return PacketCheck(stands, f"the deal {'stands' if stands else 'is void: deal again'} ({vc.id})",
                           standard.hand_sizes, (vc.id,) if stands else (vc.id, "deal.redeal"))

    def deal_result(self, north_south: int, east_west: int, *, closed_early: bool = False,
                    rules: Rules | None = None, dealer: Seat | None = None,
                    game: Game | None = None) -> DealResult:
        """:func:`turub.rules.deal_result` as the variant decides it (counts checked first;
        ``rules``, default the variant's own, for ``early-close``; ``dealer``, if known, and
        the rules are what a rule reading the game sees, unless ``game`` says more)."""
        rules = self.rules if rules is None or isinstance(rules, Variant) else rules
        standard = deal_result(north_south, east_west, closed_early=closed_early, rules=rules)
        if game is None and self.sees_game(DEAL_RESULT.name):
            game = Game(rules=rules, dealer=dealer)
        asked = self.house("deal_result", north_south, east_west, closed_early, game=game) \
            if self._deciders else None
        if asked is None:
            return standard
        self.count_decision("deal_result", asked, lambda: standard.winner)
        return DealResult(standard.tricks, asked[0], closed_early, (asked[1].id,))

    def next_dealer(self, dealer: Seat, winner: Side | None, rules: Rules | None = None) -> NextDealer:
        """:func:`turub.rules.next_dealer` as the variant decides it."""
        rules = self.rules if rules is None or isinstance(rules, Variant) else rules
        game = Game(rules=rules, dealer=dealer) if self.sees_game(NEXT_DEALER.name) else None
        asked = self.house("next_dealer", dealer, winner, rules, game=game) if self._deciders else None
        if asked is None:
            return next_dealer(dealer, winner, rules)
        self.count_decision("next_dealer", asked, lambda: next_dealer(dealer, winner, rules).seat)
        return NextDealer(asked[0], (asked[1].id,))

    def contest_step(self, contest: Contest, result: DealResult, rules: Rules | None = None) -> Contest:
        """:func:`turub.contest.contest_step` as the variant decides it (a decided contest
        still takes no more results: ``contest.decided-is-final``)."""
        rules = self.rules if rules is None or isinstance(rules, Variant) else rules
        if contest.winner is not None or not self._deciders:
            return _contest_step(contest, result, rules)
        asked = self.house("contest_step", contest, result, rules,
                           game=Game(rules=rules) if self.sees_game(CONTEST_STEP.name) else None)
        if asked is None:
            return _contest_step(contest, result, rules)
        out, vc = asked
        mine = replace(out, deals=contest.deals + 1, clauses=(vc.id,))
        self.count_decision("contest_step", asked, lambda: _same_state(_contest_step(contest, result, rules)), mine)
        return mine

    # --- how often the house rules decided otherwise (turub simulate --variant) ---------------

    def tally(self) -> dict[str, list[int]]:
        """Start counting, per house clause, the decisions its rule made and how many of them
        differ from what the standard rule gives; returns the live counts
        ``{clause: [decided, differed]}`` (stop with :meth:`stop_tally`)."""
        counts: dict[str, list[int]] = {}
        object.__setattr__(self, "_tally", counts)
        return counts

    def stop_tally(self) -> None:
        object.__setattr__(self, "_tally", None)

    @property
    def tallying(self) -> dict[str, list[int]] | None:
        """The live counts while a tally runs (:meth:`tally`), else ``None``."""
        return self._tally

    def count_decision(self, decision: str, asked: tuple[Any, VariantClause],
                       standard: Callable[[], Any], mine: Any = None) -> None:
        """Count, while a tally runs, one decision ``asked`` (the answer and the clause) made by
        a house rule, and whether it differs from the ``standard`` rule's (called only then);
        ``mine``, if given, is the contest the answer made."""
        if self._tally is None:
            return
        counts = self._tally.setdefault(asked[1].id, [0, 0])
        if not isinstance(counts, list):
            counts = self._tally[asked[1].id] = [0, 0]
        counts[0] += 1
        answer = _same_state(mine) if mine is not None else asked[0]
        if answer != standard():
            counts[1] += 1

    # --- the engine, playing by the variant --------------------------------------------------

    @property
    def deal_class(self) -> type[Deal]:
        """The :class:`~turub.deal.Deal` class that plays by this variant (``Deal`` itself
        when no clause overrides a decision)."""
        if not self.has_rules:
            return Deal
        built = self._deal_class
        if built is None:
            built = HouseRuleDeal.for_variant(self)
            object.__setattr__(self, "_deal_class", built)
        return built

    def deal(self, pack: Sequence[Card], dealer: Seat = Seat.NORTH, cut: int = 0):
        """A deal of ``pack`` played by this variant."""
        return self.deal_class(pack, dealer, self.rules, cut)

    def deal_from_seed(self, seed: int, dealer: Seat = Seat.NORTH):
        return self.deal_class.from_seed(seed, dealer, self.rules)

    def replay(self, record: Mapping[str, Any]):
        """The deal a record describes, replayed by this variant (every action re-checked)."""
        named = record.get("variant") if isinstance(record, Mapping) else None
        if named not in (None, self.name):
            raise RecordError(f"the record was made under variant {named!r:.40}, not {self.name}")
        return self.deal_class.replay(record)

    def play_random_deal(self, dealer: Seat, rng):
        """A whole deal of random legal play by this variant, drawn from ``rng`` (as
        :func:`turub.deal.play_random_deal` draws a run of deals)."""
        if not self.has_rules:
            return play_random_deal(None, dealer, self.rules, rng)
        deal = self.deal_class.shuffled(rng, dealer, self.rules)
        deal.name_trump(deal.caller, SUITS[int(rng.random() * 4)])
        deal.play_out(rng)
        return deal

    def sitting(self, first_dealer: Seat = Seat.NORTH, *, keep_rows: bool = True):
        """A score sheet kept by this variant (its next dealers and contest)."""
        if not any(self.decides(d) for d in (NEXT_DEALER.name, CONTEST_STEP.name, FIRST_DEALER.name,
                                             DEAL_STANDS.name)):
            return Sitting(first_dealer, self.rules, keep_rows=keep_rows)
        return HouseRuleSitting.for_variant(self)(first_dealer, self.rules, keep_rows=keep_rows)


def _rounds_shown(drawn: Sequence[Mapping[Seat, Card]]) -> tuple[tuple[tuple[Seat, Card], ...], ...]:
    """A draw as a rule receives it: each round its ``(seat, card)`` pairs, North first."""
    return tuple(tuple(sorted(shown.items())) for shown in drawn)


def _same_state(contest: Contest) -> tuple:
    return (contest.holder, contest.mark, contest.winner)


# --- the one table of names ---------------------------------------------------------------
# The built-ins, installed packages (entry points), registered variants, and files
# (``path.py:NAME``, ``path.toml``, ``path.json``): every command reads names through here.

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
    if not p.exists() and not p.is_symlink():
        raise VariantError(f"no variant file {str(p)!r}")
    if p.suffix not in (".py", ".toml", ".json"):
        raise VariantError(f"{p}: a variant file is .py, .toml or .json")
    try:  # a regular file of bounded size, read once (never a FIFO, a device, a folder)
        source = read_input(p)
    except InputFileError as e:
        raise VariantError(f"variant file {e}") from None
    if p.suffix == ".py":
        return _load_python(p, source, name)
    try:
        if p.suffix == ".toml":
            import tomllib
            data = tomllib.loads(source.decode("utf-8"))
        else:
            data = json.loads(source.decode("utf-8"))
    except (ValueError, RecursionError) as e:
        raise VariantError(f"{p}: {e}") from None
    return _own_name(from_data(data, str(p)), str(p))


@contextlib.contextmanager
def _exit_handlers(p: Path) -> Iterator[list[Callable[..., Any]]]:
    """The functions of the variant file ``p`` it registers to run at exit (``atexit``) while it
    loads: each is taken off again (run after the command's last word, what it writes would
    follow a report on standard output).  A library the file imports keeps its own."""
    registered: list[Callable[..., Any]] = []
    real = atexit.register

    def held(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[..., Any]:
        if getattr(getattr(func, "__code__", None), "co_filename", None) == str(p):
            registered.append(func)
        return real(func, *args, **kwargs)
    setattr(atexit, "register", held)
    try:
        yield registered
    finally:
        setattr(atexit, "register", real)
        for func in registered:
            atexit.unregister(func)


#: The signals whose handling a variant file may not change: the command's own stop (Ctrl-C,
#: a ``kill``, a closed terminal) and its time limit.
_KEPT_SIGNALS: Final = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP", "SIGALRM")
                             if hasattr(signal, n))


def _engine_names() -> dict[str, dict[str, Any]]:
    """What every loaded module of the ``turub`` package binds, and each of its own classes:
    a variant file that rebinds one of them changes the engine that judges it."""
    names: dict[str, dict[str, Any]] = {}
    for module_name, module in list(sys.modules.items()):
        if module_name != "turub" and not module_name.startswith("turub."):
            continue
        bound = dict(vars(module))
        names[module_name] = bound
        for key, value in bound.items():
            if isinstance(value, type) and value.__module__ == module_name:
                names[f"{module_name}.{key}"] = dict(vars(value))
    return names


@dataclass(frozen=True)
class _ProcessState:
    """What a variant file may not change of the command that loads it: the working
    directory (a report or a record written after it would land elsewhere), the handling of
    the command's signals (Ctrl-C, a ``kill``, the time limit) and the names the engine binds
    (a function, a table, a method of ``turub``: the engine judging a program would be the
    file's)."""

    folder: str
    handlers: dict[int, Any]
    engine: dict[str, dict[str, Any]]

    @classmethod
    def now(cls) -> _ProcessState:
        return cls(os.getcwd(), {s: signal.getsignal(s) for s in _KEPT_SIGNALS}, _engine_names())

    def restore(self) -> list[str]:
        """Put back whatever changed since :meth:`now`; what it was, in words."""
        changed: list[str] = []
        if os.getcwd() != self.folder:
            os.chdir(self.folder)
            changed.append("the working directory")
        for s, handler in self.handlers.items():
            if signal.getsignal(s) is not handler:
                signal.signal(s, handler if handler is not None else signal.SIG_DFL)
                changed.append(f"how the command handles {signal.Signals(s).name}")
        for where, bound in self.engine.items():
            module = sys.modules.get(where)
            now = vars(module) if module is not None else vars(_class_at(where))
            for key, value in bound.items():
                if now.get(key, _GONE) is not value:
                    _rebind(module, where, key, value)
                    changed.append(f"{where}.{key}")
        return changed


_GONE: Final = object()


def _class_at(where: str) -> type:
    module_name, _, class_name = where.rpartition(".")
    return getattr(sys.modules[module_name], class_name)  # type: ignore[no-any-return]


def _rebind(module: Any, where: str, key: str, value: Any) -> None:
    """Put back ``key`` of the module or class at ``where`` as it was (``value``)."""
    owner = module if module is not None else _class_at(where)
    try:
        setattr(owner, key, value)
    except (AttributeError, TypeError):  # a class's __dict__, __weakref__...: left as they are
        pass


def _load_python(p: Path, source: bytes, name: str | None) -> Variant:
    """:func:`_loaded_python`, refused if the file or its rules changed the command's process
    (:class:`_ProcessState`): put back as it was, whatever the load ended with."""
    kept = _ProcessState.now()
    try:
        return _loaded_python(p, source, name, kept)
    finally:
        kept.restore()  # (whatever the load ended with: what it changed is put back)


def _loaded_python(p: Path, source: bytes, name: str | None, kept: _ProcessState) -> Variant:
    """The variant ``name`` (or the only one) of the Python file ``p``, whose text is ``source``:
    run once, its rules checked (:mod:`turub.rule_checks`); a :class:`VariantError` naming the
    file (and the variant, once known) for whatever it does wrong."""
    spec = importlib.util.spec_from_file_location(f"turub_variant_{abs(hash(str(p.resolve())))}", p)
    if spec is None or spec.loader is None:
        raise VariantError(f"{p}: cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    threads = set(threading.enumerate())
    try:
        with captured_output() as written, _exit_handlers(p) as at_exit:
            exec(compile(source, str(p), "exec"), vars(module))  # noqa: S102 - the user's own variant file
    except VariantError as e:
        raise e.in_file(str(p), _variant_at(p, source, e.__traceback__)) from None
    except RuleError:
        raise
    except SystemExit as e:  # the user's file ended the interpreter: say which file
        raise VariantError(f"{p}: the file exited while it was loaded (SystemExit: "
                           f"{str(e.code)[:200]!r})") from None
    except BaseException as e:  # noqa: BLE001 - the user's file (a bare BaseException, an
        # exception whose text cannot be had or runs over lines): say what broke, in one line
        if stops_the_command(e):
            raise  # Ctrl-C, a signal, or the command's time limit: the command's own line and status
        raise VariantError(f"{p}: {described(e)}") from None
    if (said := written.said()) is not None:
        raise VariantError(f"{p}: the file printed {said!r} while it was loaded (a variant file may "
                           "not write: it would mix with the command's output)")
    if at_exit:
        raise VariantError(f"{p}: the file registered a function to run at exit (atexit) while it was "
                           "loaded (a variant file may not run code after the command's output)")
    if set(threading.enumerate()) - threads:
        THREADS_LEFT.extend(set(threading.enumerate()) - threads)
        raise VariantError(f"{p}: the file started a thread while it was loaded (a variant file "
                           "may not run code in the background)")
    v = _chosen(p, {k: x for k, x in vars(module).items() if isinstance(x, Variant)}, name)
    if changed := kept.restore():
        more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        raise VariantError(f"{p}: variant {v.label}: the file changed {', '.join(changed[:3])}{more} while "
                           "it was loaded (a variant file may change nothing of the command that runs it, "
                           "and no name of the engine that judges with it)")
    if v.has_rules:  # user code, checked like a program before it plays (turub.rule_checks)
        try:
            check_rules(v, kept.restore)
        except RuleCheckError as e:
            raise VariantError(f"{p}: {e}") from None
        except BaseException as e:
            # What a rule gave broke the checks themselves: still one line
            if stops_the_command(e):
                raise  # Ctrl-C, the time limit, a signal: the command's own line and status
            raise VariantError(f"{p}: variant {v.name} {v.version}: its house rules could not be checked: "
                               f"{described(e)}") from None
    return replace(v, source=str(p)) if not v.source else v


def _chosen(p: Path, found: Mapping[str, Variant], name: str | None) -> Variant:
    """Of the variants ``found`` in the file ``p`` (by variable), the one ``name`` names (a
    variable or a variant's name), or the file's only own one."""
    for each in found.values():  # a built-in imported is not the file's; a new one named so is refused
        _own_name(each, str(p))
    if name is not None:
        v = found.get(name) or next((x for x in found.values() if x.name == name), None)
        if v is None:
            raise VariantError(f"{p} has no variant {name!r} (it has: {', '.join(found) or 'none'})")
        return v
    own = [x for x in found.values() if x.name not in BUILTIN]
    if len(own) != 1:
        raise VariantError(f"{p} defines {len(own)} variants: name one ({p}:NAME)")
    return own[0]


#: The threads a variant file started as it loaded (refused): the ``turub`` command ends without
#: waiting for them (:func:`turub.tools.cli.main`).
THREADS_LEFT: list[threading.Thread] = []


def _own_name(variant: Variant, source: str) -> Variant:
    """``variant``, unless it takes the name of a built-in variant it is not (every report and
    record would call it by the other's name): a :class:`VariantError` naming ``source``."""
    if not _FILE_NAME.match(variant.name):  # '+', '=', ',' name a variant with options
        raise VariantError(f"{source}: variant {variant.name}: a variant's name is lower case letters, "
                           "digits, '-' and '.' ('+', '=' and ',' join a variant and its options: "
                           "club+direction=counterclockwise)")
    known = BUILTIN.get(variant.name)
    if known is not None and known != variant:
        raise VariantError(f"{source}: variant {variant.name}: the name {variant.name!r} is a built-in "
                           f"variant's ({known.description or 'the standard game'}): name it after your club")
    return variant


#: What each value of a declarative variant (a ``.toml`` or ``.json`` house rule) must be: a
#: value of another type is refused, never coerced (a ``replaces`` that is a string is not read
#: letter by letter).
_TEXT, _TEXTS, _TABLE, _TABLES = "text", "a list of texts", "a table", "a list of tables"
_VARIANT_FIELDS: Final[dict[str, str]] = {"name": _TEXT, "version": _TEXT, "base": _TEXT, "options": _TABLE,
                                          "description": _TEXT, "clauses": _TABLES}
_CLAUSE_FIELDS: Final[dict[str, str]] = {"id": _TEXT, "title": _TEXT, "text": _TEXT, "replaces": _TEXTS,
                                         "amends": _TEXTS}


def _is_kind(value: Any, kind: str) -> bool:
    if kind == _TEXT:
        return isinstance(value, str)
    if kind == _TABLE:
        return isinstance(value, Mapping)
    inner = str if kind == _TEXTS else Mapping
    return isinstance(value, list) and all(isinstance(x, inner) for x in value)


def _typed(source: str, where: str, table: Mapping[str, Any], fields: Mapping[str, str]) -> None:
    """Each known field of ``table`` of its kind, or a :class:`VariantError` naming the field."""
    for key, kind in fields.items():
        if key in table and not _is_kind(table[key], kind):
            shown = type(table[key]).__name__.replace("str", "text").replace("dict", "a table")
            raise VariantError(f"{source}: {where}'{key}' must be {kind}, not {shown} {table[key]!r:.60}")


def _variant_at(path: Path, source: bytes, tb: Any) -> str | None:
    """The name of the variant whose definition in the file ``path`` (its text as it was
    read, ``source``: the file is never read again, for it may have changed since) was
    running when the traceback ``tb`` was raised: the ``Variant("NAME", ...)`` call spanning
    the file's last line in it, else the file's only one (``None``: not known)."""
    import ast
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == str(path):
            line = tb.tb_lineno
        tb = tb.tb_next
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    calls = [(node.lineno, node.end_lineno or node.lineno, node.args[0].value) for node in ast.walk(tree)
             if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Variant"
             and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)]
    around = [name for first, last, name in calls if line is not None and first <= line <= last]
    if around:
        return around[-1]
    names = {name for _, _, name in calls}
    return names.pop() if len(names) == 1 else None


def from_data(data: Mapping[str, Any], source: str = "") -> Variant:
    """A declarative variant: option values and clauses that override nothing (an error
    names the file ``source`` and the variant)."""
    try:
        return _from_data(data, source)
    except VariantError as e:
        if not source:
            raise
        name = data.get("name") if isinstance(data, Mapping) else None
        message = str(e.args[0])
        message = message[len(source) + 2:] if message.startswith(f"{source}: ") else message
        raise VariantError(message, rename=e.rename).in_file(
            source, name if isinstance(name, str) else None) from None


def _from_data(data: Mapping[str, Any], source: str) -> Variant:
    if not isinstance(data, Mapping):
        raise VariantError(f"{source}: a variant is a table of name, version, options…")
    extra = set(data) - set(_VARIANT_FIELDS)
    if extra:
        raise VariantError(f"{source}: unknown key(s) {sorted(extra)}: use {sorted(_VARIANT_FIELDS)}")
    if "name" not in data:
        raise VariantError(f"{source}: a variant needs a name")
    _typed(source, "", data, _VARIANT_FIELDS)
    clauses = []
    for c in data.get("clauses", []):
        if "id" not in c or "title" not in c:
            raise VariantError(f"{source}: each clause has an id and a title: {c!r}")
        _typed(source, f"clause {c['id']!r:.60}: ", c, _CLAUSE_FIELDS)
        keys = set(c) - set(_CLAUSE_FIELDS)
        if keys:
            raise VariantError(f"{source}: clause {c['id']}: unknown key(s) {sorted(keys)} "
                               "(a rule needs a Python variant file)")
        clauses.append(VariantClause(c["id"], c["title"], c.get("text", ""),
                                     tuple(c.get("replaces", ())), tuple(c.get("amends", ()))))
    return Variant(data["name"], data.get("version", "1"), data.get("base"),
                   dict(data.get("options", {})), tuple(clauses),
                   description=data.get("description", ""), source=source)


def resolve(text: str | Variant) -> Variant:
    """The variant ``text`` names: a name of the table, ``path.py[:NAME]``, ``path.toml``,
    ``path.json``, or ``OPTION=VALUE[,OPTION=VALUE]`` (an unnamed set of options)."""
    if isinstance(text, Variant):
        return text
    if not isinstance(text, str) or not text.strip():
        raise VariantError(f"{text!r} is not a variant name")
    text = text.strip()
    # A variant's name has no ':' or '/' (_NAME): a file path asks no installed package
    # (reading the entry points costs tens of milliseconds at each start).
    names = {} if re.search(r"[:/\\]", text) else variant_names()
    if text in names:
        return names[text]
    path, _, name = text.partition(":") if re.match(r"^[^:]+\.py:", text) else (text, "", "")
    if path.endswith((".py", ".toml", ".json")):
        v = load_file(path, name or None)
        if v.name in BUILTIN:
            return v
        try:
            return register(v)
        except VariantError as e:  # another file (or package) named its variant so
            taken = _REGISTERED.get(v.name)
            where = f" by {taken.source}" if taken is not None and taken.source else ""
            raise VariantError(f"{path}: variant {v.name}: {e}{where}") from None
    if "=" in text:
        try:
            rules = rules_from_dict(dict(item.split("=", 1) for item in text.split(",") if item))
        except RulesOptionError as e:
            raise VariantError(str(e)) from None
        for v in BUILTIN.values():
            if v.rules == rules:
                return v
        label = ",".join(f"{k}={mine}" for k, (mine, _standard) in rules.differences(Rules()).items())
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
                   current.version, current, {k: v[0] for k, v in changed.differences(current.rules).items()},
                   description=f"{current.name} with {label}", source=current.source)


def find(name: str, version: str | None = None) -> Variant | None:
    """The variant of the table called ``name`` (and of ``version``, if given), or None."""
    v = variant_names().get(name)
    if v is None or (version is not None and v.version != version):
        return None
    return v


# A record made under a variant replays by it, found in this table (turub.records).
records.VARIANT_FINDERS.append(find)
