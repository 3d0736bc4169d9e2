"""The protocol's operations as records: each declared once, every role's part attached to
it, and a tenth operation added through the same path the nine take."""

import random

import pytest

from turub.conformance import operations
from turub.conformance.adapter import OPERATIONS
from turub.conformance.diagnosis import misreadings, situation
from turub.conformance.judging import judge
from turub.conformance.judging.verdict import PASS, WRONG, Verdict
from turub.conformance.operations import REGISTRY, ROLES, Operation, operation_part
from turub.conformance.questions import cases, generators

#: The nine operations of the protocol, as the schema names them (spec/protocol.schema.json).
NINE = {"trick_winner", "legal_plays", "deal", "check_packets", "referee", "deal_result",
        "next_dealer", "first_dealer", "contest"}


def test_the_protocol_has_nine_operations_each_declared_once():
    assert set(REGISTRY) == NINE
    assert OPERATIONS == {name: op.clauses for name, op in REGISTRY.items()}


@pytest.mark.parametrize("name", sorted(NINE))
def test_every_operation_has_every_part(name):
    # Every room that handles an operation attached its part: the input generator, the
    # judge, the misreadings' answer, the situation drawing (the referee's inputs are the
    # streams played under the check's rules).
    record = REGISTRY[name]
    assert set(record.needs()) <= set(record.parts), f"{name} lacks {set(record.needs()) - set(record.parts)}"


def test_an_operation_a_house_rule_can_decide_in_has_its_decisions_part():
    # A house rule overrides one of the engine's decisions (turub.decisions.DECISIONS, by the
    # standard clauses it replaces): each operation exercising one of those clauses walks its
    # cases for where a variant decided; the others (the deal, the packets' check, the first
    # dealer) have no such part.
    from turub.conformance.judging import decided  # noqa: F401  (attaches the parts)
    from turub.decisions import DECISIONS
    overridable = {c for clauses in DECISIONS.values() for c in clauses}
    assert {n for n, r in REGISTRY.items() if "decisions" in r.parts} == {
        n for n, r in REGISTRY.items() if overridable & set(r.clauses)}


def test_differential_play_asks_the_operations_whose_records_say_so():
    # A drawn deal is refereed; a drawn sitting asks each deal's next dealer and the
    # contest over its results (the guide's "differential play"), each through its part.
    from turub.conformance.questions import differential  # noqa: F401  (attaches the parts)
    assert {n for n, r in REGISTRY.items() if r.searched_in is operations.DEALS} == {"referee"}
    assert {n for n, r in REGISTRY.items() if r.searched_in is operations.SITTINGS} == {"next_dealer", "contest"}
    assert {n for n, r in REGISTRY.items() if "in_sitting" in r.parts} == {"next_dealer", "contest"}


def test_the_protocol_2_context_is_read_from_the_record():
    # Protocol version 2 adds the trump to legal_plays, the dealer to deal_result and contest.
    assert {o.name: o.context for o in REGISTRY.values() if o.context} == {
        "legal_plays": "trump", "deal_result": "dealer", "contest": "dealer"}
    assert cases.protocol_of("legal_plays", {"hand": [], "trick": [], "trump": "S"}) == 2
    assert cases.protocol_of("legal_plays", {"hand": [], "trick": []}) == 1
    assert cases.protocol_of("sitting", {}) == 1  # not an operation: no context


def test_a_part_attached_twice_or_to_an_unknown_role_is_refused():
    with pytest.raises(ValueError, match="already has a 'judge' part"):
        operation_part("trick_winner", "judge")(lambda case, expected, got: PASS)
    with pytest.raises(ValueError, match="already has a 'decisions' part"):
        operation_part("referee", "decisions")(lambda variant, args: {})
    with pytest.raises(ValueError, match="unknown role 'blame'"):
        operation_part("trick_winner", "blame")(lambda: None)
    with pytest.raises(ValueError, match="already declared"):
        operations.declare(Operation("deal", ()))


@pytest.fixture
def tenth():
    """A toy tenth operation, ``parity`` (is the number of cards even?), declared for the test."""
    operations.declare(Operation("parity", ("trick.highest-led",), context="trump"))
    try:
        @operation_part("parity", "inputs")
        def _inputs(rng: random.Random, n: int):
            for i in range(n):
                yield f"r{i:03d}", {"cards": ["AS"] * rng.randint(0, 4)}

        @operation_part("parity", "judge")
        def _judge(case, expected, got) -> Verdict:
            return PASS if got == expected else Verdict(WRONG, ("trick.highest-led",), "odd", blame="trick.highest-led")

        @operation_part("parity", "misread")
        def _misread(m, cards):
            return len(cards) % 2 == 1  # the misreading: odd for even

        @operation_part("parity", "situation")
        def _situation(args, expected, got):
            return [f"{len(args['cards'])} cards", f"expected {expected}, got {got}"]

        yield REGISTRY["parity"]
    finally:
        operations.withdraw("parity")
    assert "parity" not in REGISTRY


def test_a_tenth_operation_is_one_record_and_its_functions(tenth):
    assert set(tenth.needs()) == set(ROLES) == set(tenth.parts)
    # Its inputs are drawn with the others', under its own seeded stream.
    drawn = [(i, op) for i, op, _ in generators.inputs(1, {"parity": 3})]
    assert drawn == [("parity/r000", "parity"), ("parity/r001", "parity"), ("parity/r002", "parity")]
    # Its answers are judged, its misreading answers, its situation is drawn.
    case = {"op": "parity", "args": {"cards": ["AS"]}, "expected": False, "clauses": tenth.clauses}
    assert judge.judge(case, False).passed
    assert judge.judge(case, True).blame == "trick.highest-led"
    odd = misreadings.Misreading("odd", "trick.highest-led", "odd for even", frozenset({"parity"}))
    assert misreadings.answer(odd, "parity", {"cards": ["AS", "AS"]}) is False
    assert situation.draw({"op": "parity", "args": {"cards": []}, "expected": True, "got": False},
                          None)[1:] == ["0 cards", "expected True, got False"]
    assert cases.protocol_of("parity", {"cards": [], "trump": "S"}) == 2


def test_an_operation_without_a_part_says_which_part_is_missing():
    operations.declare(Operation("bare", ()))
    try:
        with pytest.raises(LookupError, match="'bare' has no 'judge' part"):
            REGISTRY["bare"].part("judge")
    finally:
        operations.withdraw("bare")


def test_a_misreading_is_asked_under_the_rules_exactly_where_the_protocol_sends_them():
    # The schema (spec/protocol.schema.json) says which operations' questions carry the rules;
    # a misreading of those is asked under the check's rules, of the others without.
    import json
    from pathlib import Path
    schema = json.loads((Path(__file__).parent.parent / "spec" / "protocol.schema.json").read_text())
    carried = {n for n in NINE if "rules" in schema["$defs"][f"args_{n}"].get("properties", {})}
    assert {n for n in NINE if misreadings.takes_rules(n)} == carried


def test_a_question_carries_the_rules_exactly_where_the_protocol_sends_them():
    # The schema's arguments of each operation name ``rules`` where the check's options go
    # with the question; the record says so, and ask_args adds them there only.
    import json
    from pathlib import Path

    from turub import Rules
    schema = json.loads((Path(__file__).parent.parent / "spec" / "protocol.schema.json").read_text())
    carried = {n for n in NINE if "rules" in schema["$defs"][f"args_{n}"].get("properties", {})}
    assert {n for n, r in REGISTRY.items() if r.asked_with_rules} == carried
    assert {n for n in NINE if "rules" in cases.ask_args(n, {}, Rules())} == carried
    assert not operations.asked_with_rules("sitting")  # not an operation


def test_only_a_whole_deal_settles_a_misreading_alone():
    # Four hands of 36 cards given exactly as a misreading deals them is never a coincidence;
    # a trick's winner or a dealer matching one is (the guide's "misreadings").
    assert {n for n, r in REGISTRY.items() if r.decisive} == {"deal"}


def test_each_differential_search_is_a_check_of_the_report_with_its_operations_clauses():
    # The report's two differential rows: the drawn deals (the referee's question) and the
    # drawn sittings (the next dealer and the contest, each deal's and the sitting's).
    from turub.conformance.questions import differential
    assert [(s.check_id, s.asks) for s in operations.SEARCHES] == [
        ("differential/deal", "referee"), ("differential/sitting", "sitting")]
    assert operations.SITTINGS.clauses() == tuple(sorted(
        set(REGISTRY["next_dealer"].clauses) | set(REGISTRY["contest"].clauses)))
    assert operations.DEALS.clauses() == tuple(sorted(REGISTRY["referee"].clauses))
    assert set(differential.SEARCH_RUNS) == set(operations.SEARCHES)
