"""The published protocol schema (spec/protocol.schema.json) describes what is really sent.

Validated with ``jsonschema`` (draft 2020-12): every committed vector (its request and its
expected answer), every request the kit makes in a whole run (vectors, generated cases,
differential play, property suites) and the reference's answer to it, and every line that
crosses the pipe to and from the JavaScript sample (the handshake and ``bye`` included).
The schema the tests read is the one the installed kit ships (``turub schema``)."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from turub.tools.cli import main
from turub.options import rules_from_dict
from turub.conformance.adapter import ReferenceImplementation
from turub.conformance.questions.cases import OPTION_SETS, ask_args
from turub.conformance.commands.check import CheckOptions, run_check
from turub.conformance.programs.protocol import ProtocolTarget
from turub.conformance.resources import sample_command, schema, schema_text
from turub.conformance.programs.targets import PythonTarget
from turub.conformance.questions.vectors import VECTOR_DIR, load_vectors, vector_sets

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = schema()
MESSAGE = Draft202012Validator(SCHEMA)


def part(name: str) -> Draft202012Validator:
    """A validator for one definition of the schema (``request``, ``result_deal``...)."""
    return Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{name}"})


def why_not(validator: Draft202012Validator, value) -> str | None:
    """Why ``value`` does not fit (the most relevant error), or None when it does."""
    error = best_match(validator.iter_errors(value))
    return None if error is None else f"{error.json_path}: {error.message}"


def test_the_schema_is_valid_draft_2020_12_and_the_one_published():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema_text() == (ROOT / "spec" / "protocol.schema.json").read_text(encoding="utf-8")


def test_the_schema_rejects_what_the_protocol_forbids():
    # The validation below would prove nothing if the schema accepted anything.
    good = {"id": 3, "op": "trick_winner", "args": {"cards": ["AC", "10♥"], "trump": "H"}}
    assert why_not(MESSAGE, good) is None
    assert why_not(MESSAGE, {**good, "args": {"cards": ["ZZ"], "trump": "H"}})  # not a card
    assert why_not(MESSAGE, {**good, "op": "shuffle"})  # no such operation
    assert why_not(MESSAGE, {"id": 3, "result": 1, "error": {"message": "x"}})  # both
    assert why_not(MESSAGE, {"id": 3, "error": {}})  # an error says what went wrong
    assert why_not(part("result_trick_winner"), 5)  # a position 0..3
    assert why_not(part("result_legal_plays"), ["AC", 7])


@pytest.mark.parametrize("name", sorted(vector_sets()))
def test_every_committed_vector_fits_the_schema(name):
    rules = rules_from_dict(vector_sets()[name]["rules"])
    cases = load_vectors(rules)
    assert cases, f"no committed vectors for {name} in {VECTOR_DIR}"
    for rid, case in enumerate(cases):
        request = {"id": rid, "op": case["op"], "args": ask_args(case["op"], case["args"], rules)}
        assert why_not(MESSAGE, request) is None, (case["id"], why_not(MESSAGE, request))
        expected = case["expected"]
        assert why_not(part(f"result_{case['op']}"), expected) is None, (
            case["id"], why_not(part(f"result_{case['op']}"), expected))


class Recording(PythonTarget):
    """The reference, validating every request the kit makes of it and every answer."""

    def __init__(self) -> None:
        super().__init__(ReferenceImplementation())
        self.asked: dict[str, int] = {}
        self.problems: list[str] = []

    def call(self, op: str, args: dict):
        self.asked[op] = self.asked.get(op, 0) + 1
        request = {"id": sum(self.asked.values()), "op": op, "args": args}
        answer = super().call(op, args)
        for what, problem in (("request", why_not(MESSAGE, request)),
                              ("answer", answer.kind == "result"
                               and why_not(part(f"result_{op}"), answer.value))):
            if problem and len(self.problems) < 5:
                self.problems.append(f"{what} {json.dumps(request)[:200]}: {problem}")
        return answer


@pytest.mark.parametrize("rules", ["standard", "counterclockwise"])
def test_every_request_of_a_whole_run_fits_the_schema(rules):
    target = Recording()
    report = run_check(target, CheckOptions(rules=OPTION_SETS[rules], scale=0.3, examples=15,
                                            properties=3, properties_budget=20))
    assert target.problems == []
    assert {c["kind"] for c in report["cases"]} == {"vector", "generated", "differential", "property"}
    assert set(target.asked) == set(target.operations)  # every operation was asked


_TEE = textwrap.dedent("""\
    # Copies every line between the kit and the program into LOG, in order, tagged.
    import subprocess, sys, threading
    log = open(sys.argv[1], "w", encoding="utf-8")
    lock = threading.Lock()
    child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    def back():
        for line in child.stdout:
            with lock:
                log.write("< " + line.decode("utf-8")); log.flush()
            sys.stdout.buffer.write(line); sys.stdout.flush()
    t = threading.Thread(target=back); t.start()
    for line in sys.stdin.buffer:
        with lock:
            log.write("> " + line.decode("utf-8")); log.flush()
        child.stdin.write(line); child.stdin.flush()
    child.stdin.close(); t.join(); sys.exit(child.wait())
""")


@pytest.mark.skipif(sample_command() is None, reason="Node.js is not installed")
def test_every_line_to_and_from_the_javascript_sample_fits_the_schema(tmp_path):
    tee, log = tmp_path / "tee.py", tmp_path / "wire.log"
    tee.write_text(_TEE, encoding="utf-8")
    target = ProtocolTarget([sys.executable, str(tee), str(log), *sample_command()], timeout=10)
    report = run_check(target, CheckOptions(scale=0.2, examples=10, properties=2))
    assert sum(c["kind"] == "vector" for c in report["cases"]) > 200
    sent = [json.loads(x[2:]) for x in log.read_text(encoding="utf-8").splitlines() if x[:2] == "> "]
    got = [json.loads(x[2:]) for x in log.read_text(encoding="utf-8").splitlines() if x[:2] == "< "]
    assert sent[0]["op"] == "hello" and sent[-1]["op"] == "bye" and len(got) == len(sent)
    ops = {m["id"]: m["op"] for m in sent}
    for message in sent + got:
        assert why_not(MESSAGE, message) is None, (message, why_not(MESSAGE, message))
    for a in got:
        assert why_not(part(f"result_{ops[a['id']]}"), a["result"]) is None, a


def test_turub_schema_prints_the_schema():
    out = io.StringIO()
    assert main(["schema"], out) == 0
    assert json.loads(out.getvalue()) == SCHEMA
