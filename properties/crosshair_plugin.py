"""A CrossHair plugin: how CrossHair builds a :class:`turub.Rules` for the contracts.

``Rules`` holds five options of two values each.  Left to itself, CrossHair builds each
option as a free symbolic string and must hit an allowed value for all five at once before
``Rules.__post_init__`` accepts it; within the CI budget it never does, and reports "Unable
to meet precondition" for every contract taking rules (``turub.contest.contest_step``).
Here each option is one symbolic choice between its values, made through the public
:func:`turub.options.rules_from_dict`: every ``Rules`` CrossHair builds is valid and every
combination of values stays reachable, so the contracts are searched over all of them.

Used with ``crosshair check --extra_plugin properties/crosshair_plugin.py``
(``properties/test_contracts.py`` passes it).
"""

from __future__ import annotations

from crosshair import SymbolicFactory, register_type

from turub.options import Rules


def _rules(factory: SymbolicFactory) -> Rules:
    # (imported here: CrossHair runs the creator with globals of its own)
    from turub.options import OPTION_VALUES, rules_from_dict

    chosen = {}
    for option, values in OPTION_VALUES.items():
        value = values[0]
        for other in values[1:]:  # one symbolic yes/no per further value
            if factory(bool, "_" + option.replace("-", "_") + "_" + other.replace("-", "_")):
                value = other
                break
        chosen[option] = value
    return rules_from_dict(chosen)


register_type(Rules, _rules)
