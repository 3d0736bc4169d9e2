"""Properties built by turub.properties.factory: each build runs with its own settings, the
worked examples are tried in every build, and a failure a deep run saves in the example
database is replayed by a later plain run (docs/guides/deep-campaign.md)."""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from turub.conformance.adapter import ReferenceImplementation
from turub.properties import test_tricks
from turub.properties.checks import search
from turub.properties.factory import property_test, worked
from turub.properties.tags import verifies


def test_each_build_has_its_own_settings_and_the_same_worked_examples():
    seen: list[int] = []

    @property_test(x=st.integers(0, 10**6), examples=[worked(5), worked(x=7)])
    def prop(x):
        seen.append(x)

    prop.build(max_examples=3, phases=(Phase.explicit,))()
    assert seen == [5, 7]
    seen.clear()
    prop.build(max_examples=40, phases=(Phase.generate,), database=None)()
    assert 5 < len(seen) <= 40 and seen[:2] != [5, 7]
    seen.clear()
    prop.build(max_examples=3, phases=(Phase.explicit,))()
    assert seen == [5, 7]  # building again does not repeat the examples


def test_scale_takes_a_share_of_the_profiles_examples():
    seen: list[int] = []

    @property_test(x=st.integers(), scale=0.3)
    def prop(x):
        seen.append(x)

    with pytest.raises(ValueError, match="scale"):
        property_test(x=st.integers(), scale=0)(prop)
    prop.build(phases=(Phase.generate,), database=None)()
    assert len(seen) <= max(5, int(settings().max_examples * 0.3))


class _LaterCopyWins(ReferenceImplementation):
    """Of two identical cards, the later one takes the trick."""

    def trick_winner(self, cards, trump):
        first = super().trick_winner(cards, trump)
        later = [i for i in range(first + 1, len(cards)) if cards[i] == cards[first]]
        return later[-1] if later else first


@verifies("trick.earliest-identical")
def test_a_failure_saved_by_one_run_is_replayed_first_by_the_next(tmp_path):
    database = DirectoryBasedExampleDatabase(str(tmp_path / "examples"))
    prop = test_tricks.test_second_ace_never_beats_the_first
    # A deep run, as HypoFuzz runs the property (turub.properties.fuzz_targets: the
    # implementation a fixed argument), without the worked examples, finds the bug and saves it.
    target = prop.build(fixed={"impl": _LaterCopyWins()}, database=database, max_examples=500,
                        phases=(Phase.generate, Phase.shrink), derandomize=False,
                        report_multiple_bugs=False)
    with pytest.raises(AssertionError):
        target()
    # A later ordinary run of the property (the implementation passed in, as the pytest
    # fixture does) that only replays the database (no generation, no worked examples)
    # fails on the saved example; the same run on the reference passes.
    replay = dict(database=database, phases=(Phase.reuse,), max_examples=1, derandomize=False,
                  report_multiple_bugs=False)
    with pytest.raises(AssertionError, match="copy"):
        search(prop, _LaterCopyWins(), **replay)
    search(prop, ReferenceImplementation(), **replay)
