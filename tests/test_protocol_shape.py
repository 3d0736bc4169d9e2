"""One definition of the protocol's shape (#19): the kit and the published schema agree.

The schema (``spec/protocol.schema.json``, as the kit ships it) is the only statement of what
is well-formed.  These tests hold the kit to it from the outside:

* Hypothesis draws answers from the schema itself (hypothesis-jsonschema's ``from_schema``),
  writes some of their integers with a point (``2.0``, as some encoders do), and mutates them
  (another type at one place, a key taken away or added, ``true`` for a number); a second,
  independent validator (``jsonschema``'s Draft 2020-12) says whether each line fits, and the
  kit, reading the line as it reads a program's, must call it a protocol violation exactly
  when it does not.  The same for the handshake.
* Each point the schema decides is shown once as a worked example (the implementers' guide,
  "The protocol", states them): ``2.0`` is an integer, booleans are not counts, seats are
  letters, a hello names itself with text, ``1e999`` is kept as text.
* Requests keep their promise: an option a program may not know is never sent at its
  default, in any kind of check (the property suites included).
"""

from __future__ import annotations

import json
import sys
import textwrap
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import utils as conjecture_utils
from jsonschema import Draft202012Validator

import hypothesis_jsonschema._from_schema as _from_schema
from hypothesis_jsonschema import from_schema
from turub import Rules
from turub.conformance.adapter import OPERATIONS, ReferenceImplementation
from turub.conformance.commands.check import CheckOptions, run_check
from turub.conformance.judging.judge import verdict_of
from turub.conformance.programs.exchange import answer_of
from turub.conformance.programs.handshake import BadHandshake, read_hello
from turub.conformance.programs.messages import decode, request_line
from turub.conformance.programs.protocol import ProtocolTarget
from turub.conformance.programs.targets import PythonTarget
from turub.conformance.questions.cases import OPTION_SETS
from turub.conformance.questions.vectors import load_vectors
from turub.conformance.reports.report import finish
from turub.conformance.resources import schema

SCHEMA = schema()
PROTOCOL = "protocol-violation"


class _Many:
    """hypothesis-jsonschema 0.23 (the newest release) draws an object's keys with
    ``cu.many(...).more()``, an internal Hypothesis API that Hypothesis 6.170 replaced by a
    context manager to iterate.  This gives it the old calls over the new class, for its
    module only (Hypothesis itself keeps its own)."""

    def __init__(self, data, **sizes) -> None:
        self._many = conjecture_utils.many(data, **sizes)
        self._elements = None

    def more(self) -> bool:
        if self._elements is None:
            self._many.__enter__()
            self._elements = iter(self._many)
        if next(self._elements, StopIteration) is StopIteration:
            self._many.__exit__(None, None, None)
            return False
        return True

    def reject(self) -> None:
        self._many.reject()


if not hasattr(conjecture_utils.many, "more"):
    _from_schema.cu = types.SimpleNamespace(**{k: getattr(conjecture_utils, k) for k in dir(conjecture_utils)
                                               if not k.startswith("__")})
    _from_schema.cu.many = _Many


def part(name: str) -> dict:
    """One definition of the schema, as a schema of its own."""
    return {"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{name}"}


ORACLE = {name: Draft202012Validator(part(name)) for name in SCHEMA["$defs"]}


def fits(line: str, op: str) -> bool:
    """The independent judge: ``line`` read by the standard library and checked by jsonschema."""
    msg = json.loads(line)
    return ORACLE["answer"].is_valid(msg) and ("result" not in msg or ORACLE[f"result_{op}"].is_valid(msg["result"]))


CASES = {}
for _case in load_vectors(Rules()):
    CASES.setdefault(_case["op"], _case)


def kit_calls_it_malformed(line: str, op: str) -> bool:
    """The kit's verdict on ``line`` as the answer to its vector case for ``op``."""
    answer = answer_of(decode(line.encode("utf-8")), op)
    return verdict_of(CASES[op], answer).outcome == PROTOCOL


# --- drawing answers: from the schema, written with points, mutated ---------------------------

def with_points(value, flags):
    """``value`` with its integers written with a point where ``flags`` say (2 -> 2.0)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return float(value) if abs(value) < 2 ** 53 and next(flags, False) else value
    if isinstance(value, list):
        return [with_points(v, flags) for v in value]
    if isinstance(value, dict):
        return {k: with_points(v, flags) for k, v in value.items()}
    return value


others = st.one_of(st.none(), st.booleans(), st.integers(-5, 40), st.floats(-1e6, 1e6, allow_nan=False),
                   st.sampled_from(["N", "north", "AC", "A♣ ", "AC\n", "play.turn", "ok", "", "draw"]),
                   st.just([]), st.just({}), st.just({"ok": True}), st.just(["AC"]))


@st.composite
def mutated(draw, value):
    """``value`` changed at one place: another value, a key taken away or added, or nothing."""
    places = [()]
    def walk(v, path):
        if isinstance(v, list):
            for i, x in enumerate(v):
                places.append(path + (i,))
                walk(x, path + (i,))
        elif isinstance(v, dict):
            for k, x in v.items():
                places.append(path + (k,))
                walk(x, path + (k,))
    walk(value, ())
    path = draw(st.sampled_from(places))
    how = draw(st.sampled_from(["replace", "drop", "add"]))
    new = json.loads(json.dumps(value))
    if not path:
        return draw(others) if how == "replace" else new
    parent = new
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = draw(others)
    elif how == "drop":
        del parent[last]
    elif isinstance(parent, dict):
        parent[draw(st.sampled_from(["ok", "refused", "extra", "N", "X"]))] = draw(others)
    else:
        parent.append(draw(others))
    return new


def answers(op: str):
    """Answer lines for ``op``: drawn from the schema, points and mutations mixed in."""
    valid = from_schema(part(f"result_{op}"))
    results = st.one_of(valid, valid.flatmap(mutated))
    flags = st.lists(st.booleans(), max_size=64).map(iter)
    return st.tuples(results, flags, st.booleans()).map(
        lambda t: json.dumps({"id": 7, "result": with_points(t[0], t[1])}, ensure_ascii=t[2]))


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
#: A dealt answer holds 150 cards, each drawn from a pattern: fewer of those.
EXAMPLES = {"deal": 10, "referee": 30}


@pytest.mark.parametrize("op", OPERATIONS)
def test_the_kit_calls_an_answer_malformed_exactly_when_the_schema_does(op):
    @settings(SETTINGS, max_examples=EXAMPLES.get(op, 60))
    @given(answers(op))
    def agree(line):
        assert kit_calls_it_malformed(line, op) == (not fits(line, op)), line
    agree()


envelopes = from_schema(part("answer")).flatmap(lambda a: st.one_of(st.just(a), mutated(a)))


@SETTINGS
@given(envelopes.filter(lambda m: isinstance(m, dict)))
@example({"id": 7, "error": {"unsupported": True}})  # an error says what went wrong
@example({"id": 7, "error": {"message": "no", "unsupported": 1}})
@example({"id": 7, "result": None, "error": {"message": "both"}})
def test_the_kit_reads_an_answer_object_as_the_schema_does(msg):
    line = json.dumps({**msg, "id": 7})
    answer = answer_of(decode(line.encode()), "next_dealer")
    envelope_ok = ORACLE["answer"].is_valid(json.loads(line))
    if not envelope_ok:
        assert answer.kind == PROTOCOL, line
    elif "error" in msg:
        assert answer.kind in ("error-reported", "unsupported"), line


hellos = from_schema(part("result_hello")).flatmap(lambda h: st.one_of(st.just(h), mutated(h)))


@SETTINGS
@given(hellos, st.lists(st.booleans(), max_size=16).map(iter))
@example({"protocol": 2.0, "name": "x", "version": "1", "operations": ["deal"]}, iter([]))
@example({"protocol": True, "name": "x", "version": "1", "operations": []}, iter([]))
@example({"protocol": 2, "version": "1", "operations": []}, iter([]))
@example({"protocol": 2, "name": {"first": "x"}, "version": "1", "operations": []}, iter([]))
@example({"protocol": 3, "name": "x", "version": "1", "operations": []}, iter([]))
def test_the_kit_takes_a_handshake_exactly_when_the_schema_does(hello, flags):
    line = json.dumps({"id": 1, "result": with_points(hello, flags)})
    try:
        read_hello(line.encode(), 1)
        taken = True
    except BadHandshake:
        taken = False
    assert taken == fits(line, "hello"), line


# --- each decision, once, as a worked example -----------------------------------------------

def test_an_integer_written_with_a_point_is_that_integer():
    # JSON Schema 2020-12: a number with no fractional part is an integer.
    case = CASES["trick_winner"]
    right = json.dumps({"id": 1, "result": float(case["expected"])})
    assert verdict_of(case, answer_of(decode(right.encode()), "trick_winner")).passed
    hello = read_hello(b'{"id": 1, "result": {"protocol": 2.0, "name": "x", "version": "1",'
                       b' "operations": ["deal"]}}', 1)
    assert hello.protocol == 2 and type(hello.protocol) is int


@pytest.mark.parametrize("op, result", [
    ("referee", {"responses": [], "winners": [], "tricks": [True, 0], "outcome": None}),  # a count
    ("trick_winner", True),                                    # a position
    ("next_dealer", "north"),                                  # seats are the letters N E S W
    ("legal_plays", ["AC\t"]),                                 # a card is rank and suit, spaces only
    ("contest", [{"holder": "NS", "mark": False, "winner": None}]),
])
def test_what_the_schema_forbids_is_a_protocol_violation(op, result):
    line = json.dumps({"id": 1, "result": result})
    assert not fits(line, op)
    answer = answer_of(decode(line.encode()), op)
    assert answer.kind == PROTOCOL and answer.detail.startswith("malformed answer: result")


@pytest.mark.parametrize("hello, words", [
    ({"protocol": 2, "version": "1", "operations": []}, "name"),
    ({"protocol": 2, "name": "x", "operations": []}, "version"),
    ({"protocol": 2, "name": {"n": 1}, "version": "1", "operations": []}, "hello.name must be string"),
    ({"protocol": True, "name": "x", "version": "1", "operations": []}, "protocol version True"),
])
def test_a_handshake_the_schema_forbids_is_refused_saying_why(hello, words):
    with pytest.raises(BadHandshake, match=words):
        read_hello(json.dumps({"id": 1, "result": hello}).encode(), 1)


def test_a_number_json_cannot_hold_is_kept_as_text():
    # 1e999 reads as infinity: a malformed position; where the schema leaves a key open, text.
    answer = answer_of(decode(b'{"id": 1, "result": 1e999}'), "trick_winner")
    assert answer.kind == PROTOCOL
    answer = answer_of(decode(b'{"id": 1, "result": {"stands": true, "note": [1e999, -1e999]}}'),
                       "check_packets")
    assert answer.value == {"stands": True, "note": ["1e999", "-1e999"]}
    json.dumps(answer.value, allow_nan=False)  # strict JSON
    hello = read_hello(b'{"id": 1, "result": {"protocol": 2, "name": "x", "version": "1", '
                       b'"operations": [], "load": 1e999}}', 1)
    assert hello.message["load"] == "1e999"


def test_a_lone_surrogate_is_made_safe_where_it_enters():
    answer = answer_of(decode(b'{"id": 1, "error": {"message": "bad \\udfff"}}'), "deal")
    answer.detail.encode("utf-8")  # a lone surrogate would raise here
    hello = read_hello(b'{"id": 1, "result": {"protocol": 2, "name": "\\ud800x", "version": "1", '
                       b'"operations": []}}', 1)
    hello.name.encode("utf-8")


# --- a real program that writes its integers with a point -----------------------------------

_POINTS = textwrap.dedent("""\
    # The reference behind the protocol, writing every integer with a point (2 -> 2.0).
    import json, sys
    from turub.conformance.adapter import OPERATIONS, ReferenceImplementation
    def points(v):
        if isinstance(v, bool) or not isinstance(v, (int, list, dict)):
            return v
        if isinstance(v, int):
            return float(v)
        return [points(x) for x in v] if isinstance(v, list) else {k: points(x) for k, x in v.items()}
    impl = ReferenceImplementation()
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "hello":
            result = {"protocol": 2, "name": "points", "version": "1", "operations": list(OPERATIONS)}
        elif req["op"] == "bye":
            print(json.dumps({"id": float(req["id"]), "result": None}), flush=True)
            break
        else:
            result = getattr(impl, req["op"])(**req["args"])
        print(json.dumps({"id": float(req["id"]), "result": points(result)}), flush=True)
""")


def test_a_program_writing_integers_with_a_point_conforms(tmp_path):
    prog = tmp_path / "points.py"
    prog.write_text(_POINTS, encoding="utf-8")
    target = ProtocolTarget([sys.executable, str(prog)], timeout=10)
    report = finish(run_check(target, CheckOptions(rules=OPTION_SETS["standard"], seed=3, scale=0.05,
                                                   examples=0, properties=0)))
    assert target.protocol == 2
    assert report["summary"]["cases"] > 30
    assert report["exit_status"] == 0, [c.get("detail") for c in report["cases"] if c["status"] == "failed"][:3]


# --- requests keep their promise ---------------------------------------------------------------

def test_a_request_leaves_out_an_option_a_program_may_not_know_at_its_default():
    full = Rules().to_dict(complete=True)  # every option, each at its default
    sent = json.loads(request_line(3, "deal", {"pack": [], "dealer": "N", "cut": 0, "rules": full}))
    assert sent["args"]["rules"] == Rules().to_dict()  # the options of version 1 only
    away = {**full, "signal-kinds": "documented"}
    sent = json.loads(request_line(3, "deal", {"rules": away}))
    assert sent["args"]["rules"]["signal-kinds"] == "documented"


class Remembering(ReferenceImplementation):
    """The reference, remembering the rules of every request it is asked."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[dict] = []
        for op in ("deal", "referee", "next_dealer", "contest"):
            method = getattr(super(), op)
            setattr(self, op, self._remember(method))

    def _remember(self, method):
        def asked(*args, **kwargs):
            rules = kwargs.get("rules", args[-1] if args and isinstance(args[-1], dict) else None)
            if isinstance(rules, dict):
                self.seen.append(dict(rules))
            return method(*args, **kwargs)
        return asked


def test_no_kind_of_check_sends_an_option_at_its_default_a_program_may_not_know():
    impl = Remembering()
    target = PythonTarget(impl)  # untrusted: asked as any adapter is
    report = run_check(target, CheckOptions(rules=OPTION_SETS["standard"], seed=3, scale=0.1, examples=8,
                                            properties=3, properties_budget=20))
    assert {c["kind"] for c in report["cases"]} >= {"vector", "generated", "differential", "property"}
    assert impl.seen
    later = {k: v for k, v in Rules().to_dict(complete=True).items() if k not in Rules().to_dict()}
    sent_anyway = [r for r in impl.seen if any(r.get(k) == v for k, v in later.items())]
    assert sent_anyway == []
