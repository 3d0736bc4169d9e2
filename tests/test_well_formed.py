"""Everything stated is asked: each row of the one definition of what is well-formed
(``turub.well_formed.WELL_FORMED``) is asked by the kit's directed cases on both sides, every
form it reads read and every text it refuses refused for the clause it names (#28).

The test walks the directed cases' own requests and expected answers (what a program is sent
and must answer), not the helpers that made them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from turub import Rules
from turub.conformance.questions.directed import directed_cases
from turub.well_formed import WELL_FORMED, read_action_seat, read_trump_suit

ROOT = Path(__file__).resolve().parents[1]

#: The field of an action each row is about.
FIELD = {"action-seat": "seat", "trump-suit": "suit", "card-text": "card", "signal-kind": "signal"}


def _asked(cases) -> set[tuple[str, str, str]]:
    """(field, text, outcome) for every text the cases send: ``ok`` or the refusal's clause."""
    seen: set[tuple[str, str, str]] = set()
    for case in cases:
        args, expected = case["args"], case["expected"]
        if case["op"] == "referee":
            for action, response in zip(args["actions"], expected["responses"]):
                outcome = response.get("refused", "ok")
                for field in ("seat", "suit", "card", "signal"):
                    if isinstance(action.get(field), str):
                        seen.add((field, action[field], outcome))
            seen.update(("card", c, "ok") for c in args["pack"])
        elif case["op"] in ("trick_winner", "legal_plays") and not \
                (isinstance(expected, dict) and "refused" in expected):
            for key in ("cards", "hand", "trick"):
                seen.update(("card", c, "ok") for c in args.get(key, ()))
    return seen


@pytest.mark.parametrize("row", WELL_FORMED, ids=[r.id for r in WELL_FORMED])
def test_every_promised_input_class_is_asked_on_both_sides(row):
    from turub.options import rules_from_dict
    asked = _asked(directed_cases(rules_from_dict(dict(row.rules))))  # under the row's options
    field = FIELD[row.id]
    # Every form the definition reads is sent and answered as read ...
    for form, example, _ in row.read:
        assert (field, example, "ok") in asked, f"{row.id}: {form} {example!r} is never asked"
    # ... and every text it refuses is sent and refused for the clause it names.
    for text in row.refused:
        assert (field, text, row.refused_as) in asked, \
            f"{row.id}: {text!r} is never asked refused as {row.refused_as}"


def test_a_row_without_its_cases_fails():
    # Taking the outline-symbol cases away leaves that promised form unasked.
    asked = {a for a in _asked(directed_cases(Rules())) if not any(s in a[1] for s in "♤♡♢♧")}
    card = next(r for r in WELL_FORMED if r.id == "card-text")
    missing = [ex for _, ex, _ in card.read if ("card", ex, "ok") not in asked]
    assert missing == ["10♡"]


def test_an_actions_seat_and_trump_suit_are_read_one_way():
    # A seat in an action is one of the letters N E S W; a suit named trump one of S H D C.
    assert [read_action_seat(t).letter for t in "NESW"] == list("NESW")
    for text in ("n", "north", "North", " N ", "NORTH", None, 1):
        with pytest.raises(ValueError):
            read_action_seat(text)
    assert [read_trump_suit(t).letter for t in "SHDC"] == list("SHDC")  # type: ignore[union-attr]
    for text in ("h", "♥", "hearts", " H ", "NT", None):
        assert not hasattr(read_trump_suit(text), "letter")


def test_the_guide_generates_its_table_from_the_definition():
    guide = (ROOT / "docs/guides/implementers.md").read_text(encoding="utf-8")
    assert ":::{well-formed-table}" in guide
    # No second hand-written statement of the seats' and cards' spellings.
    assert '`"north"`, `"n"` for a seat' not in guide and "either case, `♠` or `♤`" not in guide
