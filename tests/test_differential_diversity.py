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
