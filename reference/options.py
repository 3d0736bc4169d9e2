"""Rule options: the choices a table may make, as one frozen value (clauses ``*.option``).

Every option names the clause that allows it.  ``Rules()`` is the game as the guide plays
it; :data:`PRESETS` holds named variants, and :func:`parse_rules` reads the command
line's ``OPTION=VALUE`` form.

>>> parse_rules(["direction=counterclockwise", "stake=per-deal"])
Rules(direction=Direction.COUNTERCLOCKWISE, stake='per-deal', opponent_dealer='next', signal_kinds='any', early_close='draw')
>>> Rules().to_dict()
{'direction': 'clockwise', 'stake': 'contest', 'opponent-dealer': 'next'}
>>> parse_rules(["early-close=known-result"]).to_dict()
{'direction': 'clockwise', 'stake': 'contest', 'opponent-dealer': 'next', 'early-close': 'known-result'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from .errors import RulesOptionError
from .seats import Direction

__all__ = ["Rules", "OPTIONS", "OPTION_VALUES", "PRESETS", "parse_rules", "rules_from_dict"]


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options in force.

    * ``direction``: clockwise (default) or counter-clockwise play and deal
      (``table.direction``).
    * ``stake``: ``contest`` (the traditional stake, default) or ``per-deal`` (the
      score-sheet brief's house option, ``stake.per-deal``).
    * ``opponent_dealer``: after the dealer's side wins, ``next`` (default: the next
      opponent in the direction of play, the guide's choice) or ``previous`` (the other
      opponent) deals (``dealer.after-win``).
    * ``signal_kinds``: ``any`` (default: any signal kind the table uses, named by a
      non-empty word) or ``documented`` (only the sources' knock and click)
      (``signal.kinds``).
    * ``early_close``: a deal closed before its last trick is a draw (``draw``, default), or,
      when one side already has more than half the tricks, that side's win
      (``known-result``) (``result.closed-early``).

    No option restricts the trump suit: the sources name no restriction, so any of the four
    suits may be named (``trump.any-suit``).  The first-dealer tie rule
    (``dealer.first-draw-ties``) and the redeal by the same dealer (``deal.redeal``) are fixed.
    """

    direction: Direction = Direction.CLOCKWISE
    stake: str = "contest"
    opponent_dealer: str = "next"
    signal_kinds: str = "any"
    early_close: str = "draw"

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise RulesOptionError(
                    f"{_key(name)}={_text(value)} is not allowed: choose one of "
                    + ", ".join(_text(v) for v in allowed), clause=OPTIONS[_key(name)])

    def to_dict(self, *, complete: bool = False) -> dict[str, str]:
        """The options as ``{name: value}`` text, the form records and vectors store.

        The options of protocol version 1 (``direction``, ``stake``, ``opponent-dealer``) are
        always listed; a later one (``signal-kinds``, ``early-close``) only away from its
        default, or with ``complete=True``: an option left out is at its default, so the
        records, vectors and requests made before it existed read the same.
        """
        return {_key(f.name): _text(getattr(self, f.name)) for f in fields(self)
                if complete or f.name in _ALWAYS_LISTED or getattr(self, f.name) != f.default}

    def differences(self, other: Rules) -> dict[str, tuple[str, str]]:
        """The options that differ from ``other``, as ``{name: (mine, theirs)}``."""
        a, b = self.to_dict(complete=True), other.to_dict(complete=True)
        return {k: (a[k], b[k]) for k in a if a[k] != b[k]}


#: Each option's command-line name and the clause that allows the choice.
OPTIONS: Final = {
    "direction": "table.direction",
    "stake": "stake.per-deal",
    "opponent-dealer": "dealer.after-win",
    "signal-kinds": "signal.kinds",
    "early-close": "result.closed-early",
}

#: The options every :meth:`Rules.to_dict` lists, at their default or not (protocol 1's).
_ALWAYS_LISTED: Final = frozenset({"direction", "stake", "opponent_dealer"})

_CHOICES: Final = {
    "direction": tuple(Direction),
    "stake": ("contest", "per-deal"),
    "opponent_dealer": ("next", "previous"),
    "signal_kinds": ("any", "documented"),
    "early_close": ("draw", "known-result"),
}

#: Each option's command-line name and the values it takes, as text.
OPTION_VALUES: Final = {_name.replace("_", "-"): tuple(str(v) for v in _values)
                        for _name, _values in _CHOICES.items()}

#: Named sets of options.
PRESETS: Final = {
    "standard": Rules(),
    "counterclockwise": Rules(direction=Direction.COUNTERCLOCKWISE),
    "stake-per-deal": Rules(stake="per-deal"),
}


def _key(field_name: str) -> str:
    return field_name.replace("_", "-")


def _text(value: object) -> str:
    return str(value)  # Direction prints as 'clockwise' / 'counterclockwise'



def _value(name: str, text: str) -> object:
    if name == "direction":
        t = text.strip().lower().replace("-", "").replace("_", "")
        for d in Direction:
            if t in (d.name.lower().replace("_", ""), {"CLOCKWISE": "cw", "COUNTERCLOCKWISE": "ccw"}[d.name]):
                return d
        return text
    return text.strip().lower()


def rules_from_dict(options: Mapping[str, str], base: Rules | None = None) -> Rules:
    """Rules from ``{name: value}`` text (names with hyphens or underscores).

    ``table.rule-options``: only the documented options, each with one of its values (as
    text); anything else is refused, naming the option.
    """
    if not isinstance(options, Mapping):
        raise RulesOptionError(f"rule options are a mapping {{name: value}}, not {options!r:.60}",
                               clause="table.rule-options")
    if base is not None and not isinstance(base, Rules):
        raise RulesOptionError(f"base must be a turub.Rules, not {base!r:.60}", clause="table.rule-options")
    rules = base or Rules()
    changes: dict[str, Any] = {}
    for key, text in options.items():
        name = key.strip().lower().replace("-", "_") if isinstance(key, str) else None
        if name not in _CHOICES:
            raise RulesOptionError(
                f"there is no rule option {key!r:.40}: the options are " + ", ".join(OPTIONS),
                clause="table.rule-options")
        if not isinstance(text, str):
            raise RulesOptionError(f"option {_key(name)} takes a text value ("  # type: ignore[arg-type]
                                   + ", ".join(OPTION_VALUES[_key(name)]) + f"), not {text!r:.40}",  # type: ignore[arg-type]
                                   clause=OPTIONS[_key(name)])  # type: ignore[arg-type]
        changes[name] = _value(name, text)  # type: ignore[index]
    return replace(rules, **changes)


def parse_rules(items: Iterable[str] = ()) -> Rules:
    """Rules from ``OPTION=VALUE`` strings, or preset names, applied left to right."""
    if isinstance(items, str):
        items = [items]
    if not isinstance(items, Iterable) or isinstance(items, (Mapping, bytes)):
        raise RulesOptionError(f"rule options are OPTION=VALUE texts, not {items!r:.60}",
                               clause="table.rule-options")
    rules = Rules()
    for item in items:
        if not isinstance(item, str):
            raise RulesOptionError(f"a rule option is an OPTION=VALUE text, not {item!r:.40}",
                                   clause="table.rule-options")
        if "=" not in item:
            if item in PRESETS:
                rules = PRESETS[item]
                continue
            raise RulesOptionError(
                f"{item!r:.40} is neither OPTION=VALUE nor a preset ({', '.join(PRESETS)})",
                clause="table.rule-options")
        key, _, value = item.partition("=")
        rules = rules_from_dict({key: value}, rules)
    return rules
