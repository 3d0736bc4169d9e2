"""Differential play draws a new pack for (nearly) every deal, from the whole range of seeds
(#24: a deep campaign must reach the rare pack; ``benchmarks/bench_pack_diversity.py``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import seed as hypothesis_seed

from turub.conformance.questions.differential import _settings, deal_plans

DRAWS = 400


def _drawn_seeds(search_seed: int) -> list[int]:
    """The pack seeds of ``DRAWS`` deals, drawn with the settings differential play searches
    with (generation and Hypothesis's mutations included)."""
    seeds: list[int] = []

    @_settings(DRAWS)
    @hypothesis_seed(search_seed)
    @given(deal_plans())
    def draw(plan):
        seeds.append(plan["seed"])

    draw()
    return seeds


def test_nearly_every_drawn_deal_has_a_pack_of_its_own():
    for search_seed in (1, 7):
        seeds = _drawn_seeds(search_seed)
        assert len(seeds) >= DRAWS * 0.9
        assert len(set(seeds)) >= 0.9 * len(seeds), (len(set(seeds)), len(seeds))


def test_pack_seeds_cover_the_whole_range_without_a_lean_to_small_numbers():
    seeds = _drawn_seeds(3)
    small = sum(s < 2**16 for s in seeds)  # 1 in 65,536 of a uniform draw
    assert small <= 0.05 * len(seeds), small
    assert sum(s >= 2**31 for s in seeds) >= 0.35 * len(seeds)  # about half, if uniform


def test_a_plan_the_kit_cannot_build_does_not_end_the_search():
    """At seed 5 a drawn plan slips an out-of-turn card in from an empty hand (the kit's own
    generator raises): that plan is rejected, the search draws its 200 deals and no more;
    taken for a disagreement, it was shrunk (350 calls) and the search ended early, a pass."""
    from turub.conformance.adapter import ReferenceImplementation
    from turub.conformance.programs.targets import PythonTarget
    from turub.conformance.questions.differential import differential_deals
    from turub.options import Rules

    target = PythonTarget(ReferenceImplementation(), 5.0)
    target.start()
    r = differential_deals(target, Rules(), 300, 5)
    assert (r["status"], r["detail"]) == ("passed", "200 drawn deals refereed alike")
