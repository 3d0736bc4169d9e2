"""The report as JUnit XML, for CI systems (one ``<testcase>`` per case, with its time).

A wrong answer (:data:`~turub.conformance.judging.judge.WRONG_ANSWERS`) is a ``<failure>``; the
program misbehaving (an error it reported for a legal request, a crash, a hang, a broken
protocol, a program that could not start) is an ``<error>``; an unsupported case, a case not
run and a listed expected failure are ``<skipped>``.  A listed expected failure that passed
(``xpass``) and a stale entry of the list are failures, and an interrupted run gets one
``<error>`` saying so.  The ``<testsuite>``'s ``tests``, ``failures``, ``errors``,
``skipped`` and ``time`` count exactly the test cases written below it.  The cases are read
twice (once to count, once to write), never held in memory.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from typing import Any, Final, TextIO
from xml.sax.saxutils import escape, quoteattr

from ..judging.judge import WRONG_ANSWERS
from .baseline import judged_by
from .report import startup_message
from ..text import safe_text

__all__ = ["write_junit", "render_junit", "junit_kind"]

_XML_UNSAFE: Final = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _x(value: Any, limit: int = 4000) -> str:
    """Text for an XML attribute or element: safe, bounded, nothing XML 1.0 forbids."""
    text = safe_text(value, limit, keep_lines=True)
    return _XML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def junit_kind(case: dict) -> str | None:
    """What a case is in JUnit: ``failure``, ``error``, ``skipped`` or None (passed)."""
    status = case["status"]
    if status == "failed":
        return "failure" if case.get("outcome") in WRONG_ANSWERS else "error"
    if status == "xpass":
        return "failure"
    if status in ("unsupported", "not-run", "xfail"):
        return "skipped"
    return None


def render_junit(report: dict) -> str:
    out = io.StringIO()
    write_junit(report, out)
    return out.getvalue()


def write_junit(report: dict, out: TextIO) -> None:
    """JUnit XML, written case by case."""
    counts: Counter = Counter()
    for c in report["cases"]:
        counts[junit_kind(c)] += 1
        counts["tests"] += 1
    startup = report.get("startup_failure")
    stale = report.get("stale_expected_failures") or []
    interrupted = report.get("interrupted")
    extra_errors = bool(startup) + bool(interrupted)
    w = out.write
    w('<?xml version="1.0" encoding="utf-8"?>\n')
    name = f"turub conformance: {report['implementation']['name']}"
    w(f"<testsuite name={quoteattr(_x(name, 200))} tests=\"{counts['tests'] + extra_errors + len(stale)}\" "
      f"failures=\"{counts['failure'] + len(stale)}\" errors=\"{counts['error'] + extra_errors}\" "
      f"skipped=\"{counts['skipped']}\" time=\"{float(report.get('duration') or 0):.3f}\">\n"
      "  <properties>\n")
    for k, v in report["rules"].items():
        w(f"    <property name={quoteattr('rules.' + k)} value={quoteattr(_x(v))} />\n")
    w(f"    <property name=\"spec_version\" value={quoteattr(_x((report.get('spec') or {}).get('spec_version', '')))} />\n")
    w(f"    <property name=\"judged_by\" value={quoteattr(_x(judged_by(report)))} />\n")
    w(f"    <property name=\"verdict\" value={quoteattr(report.get('verdict', ''))} />\n")
    w(f"    <property name=\"verdict_text\" value={quoteattr(_x(report.get('verdict_text', ''), 300))} />\n  </properties>\n")
    if startup:
        w(f"  <testcase classname=\"startup\" name=\"handshake\" time=\"0\">\n    <error type=\"could-not-start\" "
          f"message={quoteattr(_x(startup.get('reason', ''), 1000))}>{escape(_x(startup_message(startup)))}"
          f"</error>\n  </testcase>\n")
    for c in report["cases"]:
        _testcase(c, w)
    for e in stale:
        message = f"stale expected failure: clause {e['clause']} ({e['why']}): remove it from the list"
        w(f"  <testcase classname=\"expected-failures\" name={quoteattr(_x(e['clause'], 200))} time=\"0\">\n"
          f"    <failure type=\"stale-expected-failure\" message={quoteattr(_x(message, 1000))} />\n"
          "  </testcase>\n")
    if interrupted:
        w(f"  <testcase classname=\"run\" name=\"interrupted\" time=\"0\">\n    <error type=\"interrupted\" "
          f"message=\"the run was interrupted by signal {int(interrupted)}: what was not checked is not run\" />\n"
          "  </testcase>\n")
    w("</testsuite>\n")


def _testcase(c: dict, w) -> None:
    classname = quoteattr(_x(f"{c['kind']}.{c['op']}", 200))
    w(f"  <testcase classname={classname} name={quoteattr(_x(c['id'], 300))} "
      f"time=\"{float(c.get('time') or 0):.4f}\">\n")
    if c["clauses"]:
        w("    <properties>\n")
        for x in c["clauses"]:
            w(f"      <property name=\"clause\" value={quoteattr(_x(x, 100))} />\n")
        w("    </properties>\n")
    kind, status = junit_kind(c), c["status"]
    if status == "failed":
        blamed = c.get("blamed") or ", ".join(c.get("failing_clauses", [])) or "no clause"
        message = f"[{blamed}] {c.get('detail', '')}"
        w(f"    <{kind} type={quoteattr(_x(c.get('outcome', 'failed'), 100))} message={quoteattr(_x(message, 1000))}>"
          f"{escape(_x(c.get('minimal') or c.get('detail', '')))}</{kind}>\n")
    elif status == "xpass":
        w(f"    <failure type=\"xpass\" message={quoteattr(_x(c.get('detail', ''), 1000))} />\n")
    elif status == "unsupported":
        w(f"    <skipped message={quoteattr(_x(c.get('detail') or 'unsupported', 1000))} />\n")
    elif status == "not-run":
        w(f"    <skipped message={quoteattr(_x('not run: ' + str(c.get('detail', '')), 1000))} />\n")
    elif status == "xfail":
        w(f"    <skipped message={quoteattr(_x('expected failure: ' + str(c.get('xfail_reason', '')), 1000))} />\n")
    w("  </testcase>\n")
