"""The property suites reject deliberately wrong engines and accept the reference.

Each wrong engine (``tests/wrong_engines.py``) breaks one rule.  Every property listed for
it must find a counterexample by generation alone (the worked ``@example`` cases are
switched off, so this shows the strategies reach the bug), derandomized so the outcome is
the same on every run.  The same properties, with the same settings, pass on the
reference implementation and on a rewrite of the contest that breaks nothing (a control:
the wrong contests fail for their one bug, not for a quirk of the rewrite).
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest
from hypothesis import Phase

from turub.conformance.adapter import ReferenceImplementation
from turub.properties.checks import search
from turub.properties.tags import verifies

_spec = importlib.util.spec_from_file_location("wrong_engines", Path(__file__).with_name("wrong_engines.py"))
W = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(W)

GENERATION_ONLY = dict(derandomize=True, database=None, max_examples=300, deadline=None,
                       phases=(Phase.generate,), print_blob=False)
#: Accepting takes every example to pass: fewer of them keep the run short.
ACCEPTING = GENERATION_ONLY | dict(max_examples=60)


def _property(module: str, name: str):
    return getattr(importlib.import_module(f"turub.properties.{module}"), name)


_CASES = [pytest.param(engine, module, name, id=f"{engine.__name__}-{name}")
          for engine, props in W.WRONG_ENGINES.items() for module, name in props]
_ALL_PROPERTIES = sorted({p for props in W.WRONG_ENGINES.values() for p in props})


@verifies("trick.earliest-identical", "trick.highest-led", "play.no-forced-trump",
          "signal.timing", "trump.three-cards", "deal.dealer-check", "result.draw-18",
          "dealer.after-win", "dealer.first-draw-ties", "contest.insufficient-win",
          "contest.draw-keeps-sequence", "contest.second-win-beats-mark", "stake.per-deal")
@pytest.mark.parametrize(("engine", "module", "name"), _CASES)
def test_the_property_catches_the_wrong_engine(engine, module, name):
    with pytest.raises(AssertionError):
        search(_property(module, name), engine(), **GENERATION_ONLY)


@verifies("trick.earliest-identical", "play.no-forced-trump", "contest.insufficient-win",
          "contest.draw-keeps-sequence", "stake.per-deal")
@pytest.mark.parametrize(("module", "name"), _ALL_PROPERTIES, ids=[n for _, n in _ALL_PROPERTIES])
def test_the_same_property_accepts_the_reference(module, name):
    search(_property(module, name), ReferenceImplementation(), **ACCEPTING)


class _ContestRewritten(ReferenceImplementation):
    """The wrong engines' contest interpreter with no bug switched on."""

    def contest(self, results, rules):
        return W._contest(rules, results, W._traditional)


@verifies("contest.insufficient-win", "contest.draw-keeps-sequence", "contest.second-win-beats-mark")
@pytest.mark.parametrize("name", [n for m, n in _ALL_PROPERTIES if m == "test_contest"])
def test_the_rewritten_contest_without_its_bugs_passes(name):
    search(_property("test_contest", name), _ContestRewritten(), **ACCEPTING)
