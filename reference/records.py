"""A deal on paper: its JSON record, the replay that rebuilds it, and its pickle.

:meth:`Deal.to_record <turub.deal.Deal.to_record>` writes the shuffled pack, the cut, the
dealer, the rules and every action in order; :meth:`Deal.replay <turub.deal.Deal.replay>`
deals the same pack again and re-applies each action through the checked step, so a record
that breaks a rule is refused with the clause it breaks.  A record made under a rule variant
names the variant and its version, and replays with that variant (:mod:`turub.variants`) or
is refused clearly.  A pickle of a deal is its record (a copy: ``Deal.__copy__``).

These are the :class:`~turub.deal.Deal` methods' bodies, kept apart so that the deal module reads
like the rules; the methods on ``Deal`` are the API.  They read the deal through its public
faces only (its properties, :attr:`~turub.deal.Deal.tricks`, :meth:`~turub.deal.Deal.hand`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from .cards import card_name, parse_card
from .errors import RecordError, refuse_pickle_unless_named
from .options import rules_from_dict
from .seats import Seat, parse_seat
from .well_formed import read_action_seat, read_trump_suit

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["RECORD_FORMAT", "to_record", "apply", "replay", "state", "reduced", "VARIANT_FINDERS"]

#: The version tag of a deal record.
RECORD_FORMAT: Final = "turub-deal/1"

#: How a record made under a rule variant finds it: ``find(name, version)`` gives the variant
#: or ``None``.  The table of variants (:func:`turub.variants.find`) puts itself here when it is
#: imported (``import turub`` imports it), so the engine, below the variants, imports none of them.
VARIANT_FINDERS: list[Callable[[str, str | None], Any]] = []


# --- the record --------------------------------------------------------------------------

def to_record(deal: Deal) -> dict[str, Any]:
    """The complete record of ``deal`` as JSON-ready data; :func:`replay` inverts it."""
    return {
        "format": RECORD_FORMAT,
        "rules": deal.rules.to_dict(),
        "dealer": deal.dealer.letter,
        "pack": [card_name(c, ascii=True) for c in deal.pack],
        "cut": deal.cut,
        "cutter": deal.cutter.letter,
        "actions": [_action_record(*a) for a in _action_log(deal)],
    }


def _action_record(act: str, seat: Seat, what: Any) -> dict[str, str]:
    record = {"act": act, "seat": seat.letter}
    if act == "trump":
        record["suit"] = what.letter
    elif act == "play":
        record["card"] = card_name(what, ascii=True)
    elif act == "signal":
        record["signal"] = what
    return record


def _action_log(deal: Deal) -> list[tuple[str, Seat, Any]]:
    """The actions taken, in order, rebuilt from the state: the call, then each trick's
    cards with its signal right after the lead (``signal.timing``), then the close."""
    log: list[tuple[str, Seat, Any]] = [] if deal.trump is None else [("trump", deal.caller, deal.trump)]
    tricks = [(trick.seats, trick.cards, trick.signal) for trick in deal.tricks]
    current = deal.current_trick
    tricks.append((tuple(s for s, _ in current), tuple(c for _, c in current), deal.current_signal))
    for seats, cards, signal in tricks:
        for i, (seat, card) in enumerate(zip(seats, cards)):
            log.append(("play", seat, card))
            if i == 0 and signal is not None:
                log.append(("signal", signal.seat, signal.kind))
    if deal.closed_by is not None:
        log.append(("close", deal.closed_by, None))
    return log


def apply(deal: Deal, action: Mapping[str, str]) -> Any:
    """Apply one action in record form to ``deal``: ``{"act": "play", "seat": "E", "card": "AC"}``."""
    act = action.get("act") if isinstance(action, Mapping) else None
    try:
        # an action's seat and trump suit are written one way (turub.well_formed)
        if act == "trump":
            # (a NotASuit, refused by name_trump for trump.any-suit after the moment and the caller)
            return deal.name_trump(read_action_seat(action["seat"]),
                                   read_trump_suit(action["suit"]))  # type: ignore[arg-type]
        if act == "play":
            return deal.play(read_action_seat(action["seat"]), action["card"])
        if act == "signal":
            return deal.signal(read_action_seat(action["seat"]), action["signal"])
        if act == "close":
            return deal.close(read_action_seat(action["seat"]))
    except KeyError as e:
        raise RecordError(f"action {action!r:.80} lacks {e.args[0]!r}") from None
    raise RecordError(f"{action!r:.80} is not an action: 'act' is trump, play, signal or close")


# --- the replay --------------------------------------------------------------------------

def replay(cls: type[Deal], record: Mapping[str, Any]) -> Deal:
    """The deal a record describes, dealt by ``cls``, every action re-checked by the rules."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a deal record: expected format {RECORD_FORMAT!r}")
    named = record.get("variant")
    if named is not None and getattr(cls, "variant", None) is None:
        return _replay_variant(record, named)  # made under a rule variant: replay by it
    for key in ("pack", "dealer", "actions"):
        if key not in record:
            raise RecordError(f"a deal record needs {key!r}")
    pack, actions, options = record["pack"], record["actions"], record.get("rules", {})
    if not isinstance(pack, list) or not all(isinstance(c, str) for c in pack):
        raise RecordError(f"a record's pack is a list of card texts, not {pack!r:.60}")
    if not isinstance(actions, list):
        raise RecordError(f"a record's actions are a list, not {actions!r:.60}")
    if not isinstance(options, Mapping):
        raise RecordError(f"a record's rules are a mapping of options, not {options!r:.60}")
    deal = cls([parse_card(c) for c in pack], parse_seat(record["dealer"]),
               rules_from_dict(options), cut=record.get("cut", 0))
    if "cutter" in record and record["cutter"] != deal.cutter.letter:
        raise RecordError(f"the record says {record['cutter']!r:.20} cut, but the player after "
                          f"the dealer, {deal.cutter.letter}, cuts", clause="deal.cut")
    for action in actions:
        deal.apply(action)
    return deal


def _replay_variant(record: Mapping[str, Any], name: Any) -> Deal:
    """A record made under rule variant ``name`` (and ``variant_version``), replayed by that
    variant if the table of variants has it (:mod:`turub.variants`), else refused."""
    version = record.get("variant_version")
    if not isinstance(name, str) or (version is not None and not isinstance(version, str)):
        raise RecordError(f"a record's variant is a name and a version, not {name!r:.40}")
    variant = _found(name, version)
    if variant is None:
        known = _found(name, None)
        why = (f"variant {name} is loaded at version {known.version}, not {version}" if known is not None
               else f"no variant {name} is loaded")
        raise RecordError(f"the record was made under variant {name} {version or ''}".rstrip()
                          + f": {why}; load it first (turub.variants.resolve('path.py:NAME'), "
                          "an installed package, or turub.variants.register)")
    return variant.deal_class.replay(record)


def _found(name: str, version: str | None) -> Any:
    """The variant called ``name`` (of ``version``, if given) in the table, or ``None``."""
    for find in VARIANT_FINDERS:
        found = find(name, version)
        if found is not None:
            return found
    return None


def state(deal: Deal) -> dict[str, Any]:
    """Everything about ``deal`` as plain data (for comparing two states)."""
    return {
        "record": deal.to_record(),
        "phase": deal.phase.value,
        "trump": None if deal.trump is None else deal.trump.letter,
        "to_act": deal.to_act.letter if deal.to_act is not None else None,
        "leader": deal.leader.letter,
        "hands": {s.letter: [card_name(c, ascii=True) for c in deal.hand(s)] for s in Seat},
        "stock": len(deal.stock),
        "trick": [(Seat(s).letter, card_name(c, ascii=True)) for s, c in deal.current_trick],
        "best": deal.winning_position,
        "signal": None if (signal := deal.current_signal) is None else (signal.seat.letter, signal.kind),
        "tricks": [(t.leader.letter, [card_name(c, ascii=True) for c in t.cards],
                    t.winner.letter) for t in deal.tricks],
        "won": list(deal.tricks_won),
        "result": None if deal.result is None else list(deal.result.tricks),
    }


# --- pickles (a copy: Deal.__copy__) ----------------------------------------------------

def reduced(deal: Deal) -> tuple[Any, ...]:
    """A pickle holds the deal's record; unpickling replays it, every action re-checked by the
    rules.  A deal of a rule variant is refused: its record replays with the variant
    (``variant.deal_class.replay(record)``)."""
    refuse_pickle_unless_named(type(deal), "a deal played by a rule variant", "pickle "
                               "deal.to_record() and replay it with variant.deal_class.replay")
    return (_replayed, (type(deal), deal.to_record()))


def _replayed(cls: type[Deal], record: dict[str, Any]) -> Deal:
    """A pickled deal, rebuilt from its record (see :func:`reduced`)."""
    return cls.replay(record)
