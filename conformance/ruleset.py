"""The rules a check runs under: an option set (:class:`turub.options.Rules`) or a rule
variant (:class:`turub.variants.Variant`), one type, :data:`Ruleset`, read through
:func:`options_of`, :func:`variant_of` and :func:`name_of`.

>>> from turub.options import Rules
>>> options_of(Rules()) == Rules(), variant_of(Rules()), name_of(Rules())
(True, None, 'custom')
"""
from __future__ import annotations

from typing import TypeAlias

from turub.options import Rules
from turub.variants import Variant

__all__ = ["Ruleset", "options_of", "variant_of", "name_of"]

#: What ``rules`` means wherever the kit checks under some rules.
Ruleset: TypeAlias = "Rules | Variant"


def options_of(rules: Ruleset) -> Rules:
    """The option set ``rules`` plays by (a variant's own options)."""
    return rules.rules if isinstance(rules, Variant) else rules


def variant_of(rules: Ruleset | None) -> Variant | None:
    """``rules`` as a variant that overrides decisions (has house rules), or None."""
    return rules if isinstance(rules, Variant) and rules.has_rules else None


def name_of(rules: Ruleset) -> str:
    """A variant's name; ``custom`` for a bare option set (its preset's name is
    :func:`turub.conformance.questions.cases.rules_name`)."""
    return rules.name if isinstance(rules, Variant) else "custom"
