"""Property tests built from a factory, so each run can have its own Hypothesis settings.

A property of the suites is declared once, with its strategies and its worked examples::

    @verifies("trick.earliest-identical")
    @property_test(cards=S.tricks(min_size=2), trump=S.suits,
                   examples=[worked(["AC", "AC", "6C", "KC"], "H")])
    def test_second_ace_never_beats_the_first(impl, cards, trump):
        ...

The result is an ordinary ``@given`` test, with the settings of the Hypothesis profile
loaded when it is built (``scale`` takes that share of the profile's examples, for the
costlier properties): pytest runs it as it is.  Its ``build(**settings)`` makes a new
``@given`` test of the same property with other settings
(``max_examples=25, derandomize=True``...), which is how the conformance kit and
:func:`turub.properties.checks.search` run a property on their own terms.  Everything
goes through Hypothesis's public API: ``given``, ``example`` and ``settings``.  (A
worked example is kept as data and made into a fresh ``example`` at each build: one
``example`` object remembers every test it was applied to.)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hypothesis import example, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.strategies import SearchStrategy, just

__all__ = ["PropertyTest", "Worked", "property_test", "worked"]


@dataclass(frozen=True)
class Worked:
    """A worked example: the arguments of one call of the property."""

    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)


def worked(*args: Any, **kwargs: Any) -> Worked:
    """A worked example, written as the call it stands for: ``worked(cards, "H")``."""
    return Worked(args, kwargs)


class PropertyTest(Protocol):
    """A ``@given`` test that can be built again with other settings."""

    def __call__(self, *args: Any, **kwargs: Any) -> None: ...

    def build(self, *, fixed: Mapping[str, Any] | None = None,
              **overrides: Any) -> Callable[..., None]: ...


def property_test(*, examples: Sequence[Worked] = (), scale: float = 1.0,
                  **strategies: SearchStrategy) -> Callable[[Callable[..., None]], PropertyTest]:
    """Declare a property: ``strategies`` for its drawn arguments, its ``examples``
    (:func:`worked`, tried first and whatever the budget), and ``scale``, the
    share of the profile's ``max_examples`` it draws (at least 5)."""
    if not 0 < scale <= 1:
        raise ValueError(f"scale is a share of the profile's examples, in (0, 1], not {scale}")

    def declare(body: Callable[..., None]) -> PropertyTest:
        def build(*, fixed: Mapping[str, Any] | None = None, seed: int | None = None,
                  **overrides: Any) -> Callable[..., None]:
            """The property as a new ``@given`` test with ``overrides`` (Hypothesis settings);
            ``fixed`` arguments (``impl=...``) are given, not drawn, so the test needs no
            fixture (HypoFuzz's targets, ``turub.properties.fuzz_targets``).  A ``seed``
            (Hypothesis's ``@seed``, applied under the settings so that a ``database`` among
            them is kept) makes it draw the same examples on every run."""
            base = settings()  # the profile loaded now
            budget = {"max_examples": max(5, int(base.max_examples * scale))}

            @functools.wraps(body, updated=())  # a fresh function: its own examples
            def run(*args: Any, **kwargs: Any) -> None:
                body(*args, **kwargs)

            for w in reversed(examples):  # listed first, tried first
                if fixed:  # then every argument by name, the fixed ones included
                    drawn = [p for p in inspect.signature(body).parameters if p in strategies]
                    run = example(**dict(zip(drawn, w.args)), **w.kwargs, **fixed)(run)
                else:
                    run = example(*w.args, **w.kwargs)(run)
            given_now = {**strategies, **{k: just(v) for k, v in (fixed or {}).items()}}
            test = given(**given_now)(run)
            if seed is not None:
                test = hypothesis_seed(seed)(test)
            return settings(base, **{**budget, **overrides})(test)

        test = build()
        test.build = build  # type: ignore[attr-defined]
        test.scale = scale  # type: ignore[attr-defined]  # (the kit draws this share of its budget)
        return test  # type: ignore[return-value]

    return declare
