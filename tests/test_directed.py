"""The clause-directed cases (``turub.conformance.questions.directed``): fixed, independent of
--seed, every cell of the coverage matrix the spec defines filled, each offence refused by
the reference and each refusal followed by a continuation the rules accept."""

from __future__ import annotations

import pytest

from turub import Rules
from turub.conformance.commands.check import vector_cases
from turub.conformance.questions.cases import OPTION_SETS
from turub.conformance.questions.directed import (NON_SUITS, coverage_matrix, defined_cells,
                                                   directed_cases)
from turub.properties.tags import verifies


@verifies("play.refusal-changes-nothing", "play.malformed-action", "trump.any-suit", "pack.card-notation")
@pytest.mark.parametrize("rules_name", list(OPTION_SETS))
def test_no_cell_the_spec_defines_is_empty(rules_name):
    rules = OPTION_SETS[rules_name]
    matrix = coverage_matrix(vector_cases(rules) + directed_cases(rules))
    empty = sorted(cell for cell in defined_cells(rules) if not matrix.get(cell))
    assert not empty, empty


def test_the_directed_cases_do_not_depend_on_the_seed_and_are_unique():
    cases = directed_cases(Rules())
    assert [c["id"] for c in cases] == [c["id"] for c in directed_cases(Rules())]
    assert len({c["id"] for c in cases}) == len(cases)


def test_every_non_suit_named_trump_is_refused_and_then_a_suit_is_accepted():
    # trump.any-suit: one of the four suits, nothing else; the refusal changes nothing.
    streams = {c["id"]: c for c in directed_cases(Rules()) if c["id"].startswith("directed/refused/trump-named-")}
    assert len(streams) == len(NON_SUITS)
    for case in streams.values():
        responses = case["expected"]["responses"]
        assert responses[0] == {"refused": "trump.any-suit"} and responses[1] == {"ok": True}


def test_each_refusal_is_followed_by_accepted_actions():
    # play.refusal-changes-nothing: what follows a refused action is the legal continuation.
    for case in directed_cases(Rules()):
        if not case["id"].startswith("directed/refused/") or "close" in case["id"]:
            continue
        responses = case["expected"]["responses"]
        at = next(i for i, r in enumerate(responses) if "refused" in r)
        assert responses[at + 1:] and all("ok" in r for r in responses[at + 1:]), case["id"]


def test_the_signal_window_stays_open_after_a_refusal_in_it():
    for case in directed_cases(Rules()):
        if case["id"].startswith("directed/refused/in-window-"):
            actions, responses = case["args"]["actions"], case["expected"]["responses"]
            at = next(i for i, r in enumerate(responses) if "refused" in r)
            assert actions[at + 1]["act"] == "signal" and responses[at + 1] == {"ok": True}, case["id"]


def test_a_first_round_of_packets_against_the_direction_of_play_does_not_stand():
    # deal.packets: the first round goes clockwise (the question's direction) from the dealer's left.
    got = {c["id"]: c["expected"]["stands"] for c in directed_cases(Rules()) if "/packets/" in c["id"]}
    assert got and all(stands == c.endswith("/clockwise") for c, stands in got.items()), got


def test_the_matrix_in_the_docs_has_a_row_for_each_defined_pair_and_only_those():
    # docs/guides/verification-power.md shows the matrix: its rows and defined cells are the spec's.
    from pathlib import Path

    from turub.conformance.questions.directed import DEFINED_CELLS
    page = (Path(__file__).parents[1] / "docs" / "guides" / "verification-power.md").read_text(encoding="utf-8")
    shown = set()
    for line in page.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`"):
            clause, op = cells[0].strip("`"), cells[1].strip("`")
            for name, value in zip(("accepted", "refused", "value"), cells[2:]):
                if value != "—":
                    shown.add((clause, op, name))
    assert shown == set(DEFINED_CELLS)


def test_each_directed_case_names_its_clause_and_each_refusal_its_control():
    # The diagnosis looks these up (diagnosis.probes): a lookup that fails blames nothing.
    from turub.conformance.questions.directed import control_of, directed_clause
    cases = directed_cases(Rules())
    ids = {c["id"] for c in cases}
    for case in cases:
        if case["id"].startswith("directed/refused/"):
            assert directed_clause(case["id"], Rules()) == case["directed"]["clause"]
            assert control_of(case["id"], Rules()) in ids
