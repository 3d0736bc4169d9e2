"""Hostile answer lines, generated: whatever a program sends, the kit reads it as data.

Hypothesis draws answer lines a fuzzer would try: JSON values whose strings hold lone
surrogates, NUL and C0/C1 controls, ANSI escapes, bidi overrides, line separators; raw bytes
that are not UTF-8; deep nesting; NaN; wrong ids.  For each, the kit's boundary must leave only
safe text (valid UTF-8, no control character), and the three reports written from the
verdict must be valid: the JSON parses to the same data, the JUnit XML parses, the terminal
text holds no raw control character.  A few drawn lines also go through a real program.
"""

from __future__ import annotations

import io
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from turub import Rules
from turub.conformance.commands.case_stage import _case_result
from turub.conformance.programs.protocol import ProtocolTarget, _decode
from turub.conformance.reports.junit import write_junit
from turub.conformance.reports.report import finish, write_json, write_text
from turub.conformance.reports.spool import CaseLog
from turub.conformance.programs.targets import RESULT, Answer, Request

PROG = Path(__file__).parent / "faults" / "prog.py"
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                         "\u2066-\u2069\ud800-\udfff]")
NASTY = ["\x1b[31m", "\x1b]0;title\x07", "\x1b[2J", "\u202e", "\u2066", "\udfff", "\ud800", "\x00",
         "\x85", "\x9b", "\r", "\n", "\t", "\x7f", "\ufeff", "\u2028", "CONFORMS", "]]>", "<!--", "&amp;"]

hostile_text = st.lists(st.one_of(
    st.sampled_from(NASTY),
    st.text(st.characters(exclude_categories=()), max_size=8),
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, exclude_categories=()),
    st.characters(max_codepoint=0x9F, exclude_categories=()),
), max_size=6).map("".join)

hostile_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
              hostile_text),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(hostile_text, inner, max_size=4)),
    max_leaves=12)


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)


def line_of(value, ascii_only: bool) -> bytes:
    text = json.dumps({"id": 1, "result": value}, ensure_ascii=ascii_only)
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate raw: not UTF-8 at all


CASE = {"id": "generated/1/trick_winner/r000", "op": "trick_winner", "clauses": ["trick.highest-trump"],
        "rules": "any", "args": {"cards": ["AC", "AC", "6H", "KC"], "trump": "H"}, "expected": 2}


def reports_of(results: list[dict]) -> tuple[str, str, str]:
    report = {"format": "turub-report/1", "kit": {}, "implementation": {"name": "x", "version": "0"},
              "rules": Rules().to_dict(), "rules_name": "standard", "seed": 1, "duration": 0.0,
              "restarts": 0, "diagnostics": [], "cut": False, "interrupted": None,
              "startup_failure": None, "cases": CaseLog(results)}
    report = finish(report)
    js, xml, text = io.StringIO(), io.StringIO(), io.StringIO()
    write_json(report, js)
    write_junit(report, xml)
    write_text(report, text)
    return js.getvalue(), xml.getvalue(), text.getvalue()


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=hostile_values, ascii_only=st.booleans(), message=hostile_text)
@example(value={"\r": None}, ascii_only=False, message="")  # JSON's short escapes (\r, \t, \b)
def test_any_answer_line_becomes_safe_data_and_valid_reports(value, ascii_only, message):
    line = line_of(value, ascii_only)
    try:
        msg = _decode(line)
    except ValueError:  # not UTF-8 (a raw surrogate): refused as "not JSON", nothing kept
        msg = None
    results = []
    if msg is not None:
        for s in strings(msg):
            assert not RAW_CONTROL.search(s), repr(s)
            s.encode("utf-8")  # strict: no surrogate survives
        results.append(_case_result(CASE, "generated", Answer(RESULT, msg["result"]), Rules()))
    # an error message from the program, as the protocol client keeps it
    from turub.conformance.text import safe_text
    results.append({**_case_result(CASE, "generated", Answer("error-reported", None, safe_text(message, 2000)),
                                   Rules()), "id": "generated/1/trick_winner/r001"})
    js, xml, text = reports_of(results)
    assert json.loads(js)["summary"]["cases"] == len(results)
    ET.fromstring(xml.encode("utf-8"))
    assert not RAW_CONTROL.search(text), RAW_CONTROL.findall(text)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=64))
def test_raw_bytes_never_break_the_decoder(data):
    try:
        msg = _decode(data)
    except ValueError:
        return
    for s in strings(msg):
        assert not RAW_CONTROL.search(s)
        s.encode("utf-8")


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(lines=st.lists(st.one_of(
    hostile_values.map(lambda v: line_of({"hostile": v}, True)),
    st.binary(max_size=40).filter(lambda b: b"\n" not in b),
    st.sampled_from([b"NaN", b"[" * 5000, b'{"id": 99999, "result": 0}', b"", b'{"id": true}'])),
    min_size=1, max_size=6))
def test_a_program_sending_drawn_lines_gets_a_verdict(lines, tmp_path_factory):
    """The drawn lines are what a real program prints in place of its answers."""
    folder = tmp_path_factory.mktemp("replay")
    replay = folder / "lines.json"
    replay.write_text(json.dumps([b.decode("latin-1") for b in lines]))
    target = ProtocolTarget([sys.executable, str(PROG), "replay", "marker", str(replay)], timeout=0.5,
                            max_restarts=0)
    assert target.start() is None
    got = {}
    args = {"cards": ["AC", "AC", "6H", "KC"], "trump": "H"}
    target.run([Request(i, "trick_winner", args) for i in range(len(lines) + 2)], got.__setitem__)
    target.close()
    assert set(got) == set(range(len(lines) + 2))  # every request has a verdict
    for answer in got.values():
        for s in strings([answer.value, answer.detail]):
            assert not RAW_CONTROL.search(s)
