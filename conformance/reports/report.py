"""The report: per clause and per case, as a terminal table, JSON and JUnit XML.

A case's status is ``passed``, ``failed``, ``unsupported``, ``not-run`` (never asked: the
restart limit or the time limit came first), ``xfail`` (a listed expected failure) or
``xpass`` (listed, but it passed: that fails the run, so the list cannot rot).
A failed case names its outcome class (:data:`~turub.conformance.judging.judge.OUTCOMES`) and the
one clause it blames (``blamed``; none for a crash, a timeout, a protocol violation or a
consequence of an earlier wrong answer, ``consequence_of``).  A clause row is ``failed``
if a failure blames it, ``affected`` if failing cases exercise it but none blames it,
``passed`` if at least one case exercising it passed and none failed, ``not-run`` if none
of its cases ran, and ``unsupported`` if all its cases were.  The report opens with the
diagnosis (:mod:`turub.conformance.diagnosis.blame`): the clauses blamed, the known misreading
that reproduces the answers, and the smallest situation of each.

The verdict and the exit status (:data:`EXIT_STATUSES`): ``CONFORMS`` (0) only when
something was checked, nothing failed and the run was complete; ``DOES NOT CONFORM`` (1);
``COULD NOT START`` (3) when the program never completed the handshake (no per-case rows);
``NOTHING CHECKED`` or ``INCOMPLETE`` (4) when no case was judged (all unsupported, none
run), or a planned check did not run to its end (``not-run``: the whole-run time limit, a
time budget, user code that raised or exited) in a run that found no failure; ``INTERRUPTED``
(128 + the signal's number) when a signal stopped the kit.  Usage errors are 2.

Everything in a report that came from the program was made safe where it entered the kit
(:mod:`~turub.conformance.text`); the writers escape again what they print, so the terminal
shows escapes, the JSON is valid and the JUnit XML well-formed.  Reports are written case by
case (:func:`write_json`, :func:`turub.conformance.reports.junit.write_junit`), never built whole in
memory.

The expected-failures file is JSON::

    {"format": "turub-xfail/1", "expected_failures": [
        {"case": "referee/illegal-revoke-0", "reason": "..."},
        {"clause": "signal.once-per-trick", "reason": "..."}]}
"""

from __future__ import annotations

import io
import json
import signal
from collections import Counter
from collections.abc import Iterable
from typing import Any, Final, TextIO

from turub.clauses import CLAUSES, is_clause

from ..adapter import OPERATIONS
from ..option_checks import EXIT_USAGE
from ..judging.judge import OUTCOMES, WRONG_ANSWERS
from .files import strict_json
from .spool import CaseLog, as_list
from ..text import options_text, safe_text

#: The case statuses that make a run fail: a wrong answer, or an expected failure that passed.
FAILING: Final = frozenset({"failed", "xpass"})


def failing_cases(report: dict) -> list[dict]:
    """The report's failing cases, in report order."""
    return [c for c in report["cases"] if c["status"] in FAILING]

__all__ = ["finish", "judged_scope", "verdict_text", "render_text", "write_json", "diff_reports",
           "render_diff", "load_xfail", "xfail_document", "XFAIL_FORMAT", "EXIT_STATUSES",
           "EXIT_CONFORMS", "EXIT_FAILS", "EXIT_USAGE", "EXIT_CANNOT_START", "EXIT_INCOMPLETE",
           "EXIT_REPORT_LOST", "EXIT_BROKEN_PIPE", "house_clauses_exercised"]

XFAIL_FORMAT: Final = "turub-xfail/1"
STATUSES: Final = ("passed", "failed", "unsupported", "not-run", "xfail", "xpass")

EXIT_CONFORMS: Final = 0
EXIT_FAILS: Final = 1
EXIT_CANNOT_START: Final = 3
EXIT_INCOMPLETE: Final = 4
#: A report asked for could not be written (a full disk, a folder gone): the old file kept.
EXIT_REPORT_LOST: Final = 5
#: Standard output was closed before everything was written (``| head``): SIGPIPE's status.
EXIT_BROKEN_PIPE: Final = 128 + signal.SIGPIPE
#: Every exit status of ``turub check`` and what it means (the implementers' guide lists them).
EXIT_STATUSES: Final = {
    EXIT_CONFORMS: "CONFORMS: cases were checked, none failed, the run was complete",
    EXIT_FAILS: "DOES NOT CONFORM: a case failed (or a listed expected failure passed, or is stale)",
    EXIT_USAGE: "usage error: a bad option, an unreadable or malformed input file, an unwritable "
                "output path, a --python adapter that cannot be loaded",
    EXIT_CANNOT_START: "COULD NOT START: the program did not complete the handshake",
    EXIT_INCOMPLETE: "NOTHING CHECKED or INCOMPLETE: no case was judged (all unsupported or not run), "
                     "or a planned check did not run to its end (the whole-run time limit, a time "
                     "budget, user code that raised or exited) in a run that found no failure",
    EXIT_REPORT_LOST: "REPORT NOT WRITTEN: a report asked for could not be written (a full disk, a "
                      "folder gone); one line names it, an old file of that name is kept",
    EXIT_BROKEN_PIPE: "standard output closed before everything was written (a pipe to head): "
                      "what went to it is incomplete, never a pass",
    128 + signal.SIGHUP: "INTERRUPTED by SIGHUP (reports written, marked interrupted)",
    128 + signal.SIGINT: "INTERRUPTED by SIGINT (reports written, marked interrupted)",
    128 + signal.SIGTERM: "INTERRUPTED by SIGTERM (reports written, marked interrupted)",
}
#: The outcome classes an expected failure may stand for: wrong answers, never a program
#: that crashed, reported an error, hung or broke the protocol.
_LISTABLE: Final = WRONG_ANSWERS


class XfailError(ValueError):
    pass


def load_xfail(text: str) -> list[dict]:
    """The entries of an expected-failures file; ``XfailError`` says what is wrong."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise XfailError(f"not JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != XFAIL_FORMAT:
        raise XfailError(f"expected an object with \"format\": \"{XFAIL_FORMAT}\"")
    entries = doc.get("expected_failures")
    if not isinstance(entries, list):
        raise XfailError("'expected_failures' must be a list")
    for n, e in enumerate(entries, 1):  # type: ignore[misc]  # a name reused from the except above
        if not isinstance(e, dict) or (("case" in e) == ("clause" in e)) or not isinstance(e.get("reason"), str) \
                or not isinstance(e.get("case", e.get("clause")), str):
            raise XfailError(f"entry {n}: each entry is an object with a 'case' or a 'clause' (text) "
                             f"and a 'reason' (text), not {safe_text(json.dumps(e, ensure_ascii=False), 120)}")
        if "clause" in e and not is_clause(e["clause"]):
            raise XfailError(f"entry {n}: no clause {safe_text(e['clause'], 80)!r} in the registry "
                             "(nor in the variant checked)")
        if "outcome" in e and e["outcome"] not in _LISTABLE:
            raise XfailError(f"entry {n}: outcome {safe_text(e['outcome'], 80)!r}: an expected failure "
                             f"is one of {', '.join(_LISTABLE)} (a crash, an error, a hang or a "
                             "protocol violation always fails the run)")
    return entries


def xfail_document(report: dict) -> dict:
    """The current failures as an expected-failures document: one entry per blamed clause and
    outcome class (so the list survives another seed); failures that blame no clause, or
    crash, are not listable."""
    entries: dict[tuple[str, str], dict] = {}
    for c in report["cases"]:
        if c["status"] in ("failed", "xfail") and c.get("blamed") and c.get("outcome") in _LISTABLE:
            key = (c["blamed"], c["outcome"])
            if key not in entries:
                entries[key] = {"clause": c["blamed"], "outcome": c["outcome"],
                                "reason": safe_text(f"e.g. {c['id']}: {c.get('detail', '')}", 300)}
    return {"format": XFAIL_FORMAT, "expected_failures": list(entries.values())}


def finish(report: dict, xfail: Iterable[dict] = ()) -> dict:
    """Apply expected failures, then add the clause table, the summary, the verdict and the
    exit status.  The cases are read once and logged again with their final status."""
    entries = list(xfail)
    by_case = {e["case"]: e for e in entries if "case" in e}
    by_clause = {(e["clause"], e.get("outcome")): e for e in entries if "clause" in e}
    final, failed, passed_vectors, used_clauses, seen_cases = _apply_expected_failures(
        report["cases"], by_case, by_clause)
    report["cases"] = final
    from ..diagnosis.blame import attribute
    report["diagnosis"] = attribute({**report, "cases": failed}, passed_vectors)
    clauses = _clause_table(final)
    stale = []
    for (cid, _outcome), e in by_clause.items():
        if cid not in used_clauses and clauses.get(cid, {}).get("status") == "passed":
            stale.append({"clause": cid, "reason": e["reason"], "why": "no failure is about it any more"})
    missing = [{"case": k, "why": "not run"} for k in by_case if k not in seen_cases]
    counts: Counter = Counter()
    outcomes: Counter = Counter()
    for c in final:
        counts[c["status"]] += 1
        if c["status"] in ("failed", "xfail"):
            outcomes[c.get("outcome")] += 1
    report["clauses"] = clauses
    report["summary"] = {"cases": len(final), **{s: counts.get(s, 0) for s in STATUSES},
                         "outcomes": {o: outcomes[o] for o in (*OUTCOMES, *sorted(set(outcomes) - set(OUTCOMES),
                                                                                 key=str)) if outcomes[o]},
                         "clauses": dict(Counter(v["status"] for v in clauses.values()))}
    exercised = house_clauses_exercised(final)
    if exercised is not None:  # a run under house rules: how often each decided in differential play
        report["summary"]["house_clauses"] = exercised
    report["stale_expected_failures"] = stale
    report["expected_failures_not_run"] = missing
    verdict, status = verdict_of_run(report, counts, len(stale))
    report["verdict"] = verdict
    report["conforms"] = status == EXIT_CONFORMS
    report["exit_status"] = status
    report["judged"] = judged_scope(report)
    report["verdict_text"] = verdict_text(report)
    return report


def house_clauses_exercised(cases: Iterable[dict]) -> dict[str, int] | None:
    """Each house clause's decisions over the differential rows (their ``house_clauses``), a
    clause that never decided 0; ``None`` when no row counts them (no house rules)."""
    total: dict[str, int] | None = None
    for c in cases:
        counts = c.get("house_clauses")
        if isinstance(counts, dict):
            total = total if total is not None else {}
            for clause, n in counts.items():
                total[clause] = total.get(clause, 0) + (n if isinstance(n, int) else 0)
    return None if total is None else dict(sorted(total.items()))


#: A clause row's statuses that mean a case judged it (an answer compared with the rules').
_JUDGED_ROWS: Final = frozenset({"passed", "failed", "affected", "xfail", "xpass"})
_JUDGED_CASES: Final = frozenset({"passed", "failed", "xfail", "xpass"})


def judged_scope(report: dict) -> dict[str, int]:
    """What the run judged: the operations some case's answer was judged on, of the
    protocol's operations; the clauses some judged case is about, of the clauses the run's
    checks are about.  A program that answers a third of the operations is told so."""
    ops = {c["op"] for c in report["cases"] if c["status"] in _JUDGED_CASES and c.get("op") in OPERATIONS}
    rows = report.get("clauses") or {}
    return {"operations": len(ops), "operations_of": len(OPERATIONS),
            "clauses": sum(1 for r in rows.values() if r.get("status") in _JUDGED_ROWS),
            "clauses_of": len(rows)}


def verdict_text(report: dict) -> str:
    """The verdict with what it judged: ``CONFORMS (3 of 9 operations, 17 of 54 clauses)``
    (the verdict alone when nothing was judged)."""
    verdict = report.get("verdict", "")
    scope = report.get("judged") or judged_scope(report)
    if not (scope["operations"] or scope["clauses"]):
        return verdict
    return (f"{verdict} ({scope['operations']} of {scope['operations_of']} operations, "
            f"{scope['clauses']} of {scope['clauses_of']} clauses)")


def _apply_expected_failures(cases: Iterable[dict], by_case: dict, by_clause: dict) -> tuple:
    """Each case with its final status (``xfail``, ``xpass``), logged again; the failures
    (for the diagnosis), the vectors that passed, the clauses and cases the list used."""
    used_clauses: set[str] = set()
    seen_cases = set()
    final = CaseLog()
    failed: list[dict] = []
    passed_vectors: set[str] = set()
    for c in cases:
        if c["id"] in by_case:
            seen_cases.add(c["id"])
        listed = by_case.get(c["id"])
        if c["status"] == "failed" and c.get("outcome") not in _LISTABLE:
            listed = None  # a crash, a hang, a protocol violation: never an expected failure
        elif c["status"] == "failed":
            if listed is None:
                blamed = [c["blamed"]] if c.get("blamed") else c.get("failing_clauses", [])
                listed = next((by_clause.get((x, c.get("outcome"))) or by_clause.get((x, None))
                               for x in blamed if (x, c.get("outcome")) in by_clause
                               or (x, None) in by_clause), None)
                if listed is not None:
                    used_clauses.add(listed["clause"])
            if listed is not None:
                c = {**c, "status": "xfail", "xfail_reason": listed["reason"]}
        elif c["status"] == "passed" and listed is not None:
            c = {**c, "status": "xpass",
                 "detail": f"listed as an expected failure ({listed['reason']}) but it passed"}
        if c["status"] in ("failed", "xfail"):
            failed.append(c)  # the diagnosis works on the failures (kept in memory), in place
        elif c["status"] == "passed" and c.get("kind") == "vector":
            passed_vectors.add(c["id"])  # evidence against a misreading (bounded: the vectors)
        final.append(c)
    return final, failed, passed_vectors, used_clauses, seen_cases


def verdict_of_run(report: dict, counts: Counter, stale: int = 0) -> tuple[str, int]:
    """The run's verdict and exit status, from its case statuses (``counts``), the stale
    expected failures and how it ended: 0 only when every planned check ran to its end."""
    bad = counts.get("failed", 0) + counts.get("xpass", 0) + stale
    judged = counts.get("passed", 0) + counts.get("failed", 0) + counts.get("xfail", 0) + counts.get("xpass", 0)
    if report.get("interrupted"):
        return "INTERRUPTED", 128 + int(report["interrupted"])
    if report.get("startup_failure"):
        return "COULD NOT START", EXIT_CANNOT_START
    if bad:
        return "DOES NOT CONFORM", EXIT_FAILS
    if judged == 0:
        return "NOTHING CHECKED", EXIT_INCOMPLETE
    if report.get("cut") or counts.get("not-run", 0):
        return "INCOMPLETE", EXIT_INCOMPLETE  # a planned check did not run to its end
    return "CONFORMS", EXIT_CONFORMS


def _clause_table(cases: Iterable[dict]) -> dict[str, dict]:
    """One row per clause: ``failed`` counts the failures that blame it, ``affected`` the
    failing cases that exercise it without blaming it (a consequence blames nothing)."""
    table: dict[str, dict] = {}

    def row(cid: str) -> dict:
        return table.setdefault(cid, {"passed": 0, "failed": 0, "affected": 0, "unsupported": 0,
                                      "not-run": 0, "xfail": 0, "xpass": 0, "outcomes": {}})
    for c in cases:
        status = c["status"]
        if status in ("failed", "xfail"):
            blamed = c.get("blamed")
            if blamed:
                r = row(blamed)
                r[status] += 1
                r["outcomes"][c["outcome"]] = r["outcomes"].get(c["outcome"], 0) + 1
            for cid in c["clauses"]:
                if cid != blamed:
                    row(cid)["affected"] += 1
        else:
            for cid in c["clauses"]:
                row(cid)[status] += 1
    for r in table.values():
        r["status"] = ("failed" if r["failed"] or r["xpass"] else "xfail" if r["xfail"]
                       else "affected" if r["affected"]
                       else "passed" if r["passed"] else "not-run" if r["not-run"] else "unsupported")
    order = list(CLAUSES)
    return {k: table[k] for k in sorted(table, key=lambda k: order.index(k) if k in order else 10**6)}


# --- terminal ------------------------------------------------------------------------------------

def _t(value: Any, limit: int = 300) -> str:
    """Anything shown on the terminal: escaped, one line, bounded."""
    return safe_text(value, limit)


def render_text(report: dict, failures: int = 15) -> str:
    """The report as the terminal shows it (every value from the program escaped)."""
    out = io.StringIO()
    write_text(report, out, failures)
    return out.getvalue()


def write_text(report: dict, out: TextIO, failures: int = 15) -> None:
    impl = report["implementation"]
    w = out.write
    w(f"turub check: {_t(impl['name'], 100)} {_t(impl['version'], 100)} under rules {report['rules_name']} "
      f"({options_text(report['rules'])}), seed {report['seed']}\n\n")
    startup = report.get("startup_failure")
    if startup:
        w(startup_message(startup) + "\n\nCOULD NOT START\n")
        return
    from ..diagnosis.blame import render_diagnosis
    failed = [c for c in report["cases"] if c["status"] in ("failed", "xfail")]
    for line in render_diagnosis({**report, "cases": failed}):
        w(_t(line, 2000) + "\n")
    from turub.tools.progress import terminal_console
    console = terminal_console(out)  # a terminal: rich draws the table (NO_COLOR honoured)
    if console is not None:
        _rich_clause_table(report, console)
    else:
        width = max([len(k) for k in report["clauses"]] + [6])
        w(f"{'clause':<{width}}  {'result':<11} {'pass':>5} {'fail':>5} {'aff':>5} {'unsup':>5}  "
          "failures by outcome\n")
        for cid, status, passed, fails, affected, unsupported, outcomes in _clause_rows(report):
            w(f"{cid:<{width}}  {status:<11} {passed:>5} {fails:>5} {affected:>5} {unsupported:>5}  {outcomes}\n")
    uncovered = [c.id for c in CLAUSES.values() if c.is_normative and c.id not in report["clauses"]]
    if uncovered:
        w(f"(not exercised by the kit: {', '.join(uncovered)})\n")
    s = report["summary"]
    judged = s["passed"] + s["failed"] + s["xfail"] + s["xpass"]
    w(f"\n{s['cases']} cases in {report['duration']:.1f} s: checked {judged} ({s['passed']} passed, "
      f"{s['failed']} failed, {s['xfail']} expected failures, {s['xpass']} listed but passing); "
      f"not checked {s['unsupported'] + s['not-run']} ({s['unsupported']} unsupported, "
      f"{s['not-run']} not run); restarts {report['restarts']}\n")
    if s.get("house_clauses") is not None:
        w("house clauses deciding in differential play: "
          + (", ".join(f"{_t(c, 100)} {n}" for c, n in s["house_clauses"].items()) or "none") + "\n")
    if s["outcomes"]:
        w("failures by outcome: " + ", ".join(f"{o} {n}" for o, n in s["outcomes"].items()) + "\n")
    if report.get("cut"):
        w("The whole-run time limit cut this run: what was not checked in time is 'not run' "
          "(--time-limit raises it).\n")
    if report.get("interrupted"):
        w(f"Interrupted by {_signal_name(report['interrupted'])}: what was not checked is 'not run'.\n")
    _write_failures(report, out, failures)
    verdict = report.get('verdict', 'CONFORMS' if report.get('conforms') else 'DOES NOT CONFORM')
    text = report.get("verdict_text") or verdict
    if console is not None:
        from rich.text import Text
        w("\n")
        console.print(Text(text, style="bold green" if verdict == "CONFORMS" else "bold red"))
    else:
        w(f"\n{_t(text, 300)}\n")



def _write_failures(report: dict, out: TextIO, failures: int) -> None:
    """The terminal report's failures (the first ``failures`` of them, each with the command
    that asks it alone), stale expected failures and diagnostics."""
    from .rerun import rerun_command
    w = out.write
    failing = failing_cases(report)
    if failing:
        w("\nFailures:\n")
    for c in failing[:failures]:
        blame = c.get("blamed") or (f"consequence of {c['consequence_of']}" if c.get("consequence_of")
                                    else "no clause")
        w(f"  {_t(c['id'], 120)} [{blame}] {c.get('outcome', c['status'])}: {_t(c.get('detail', ''), 400)}\n")
        w(f"    reproduce: {_t(rerun_command(report, c['id']), 600)}\n")
    if len(failing) > failures:
        w(f"  … {len(failing) - failures} more failures (--json for all)\n")
    for e in report["stale_expected_failures"]:
        w(f"stale expected failure: clause {e['clause']} ({e['why']}): remove it from the list\n")
    diag = report.get("diagnostics") or []
    if diag:
        w("\nDiagnostics (never a verdict):\n")
        for d in diag[:10]:
            w("  " + "\n    ".join(_t(x, 400) for x in str(d).splitlines()[:40]) + "\n")


#: How a status shows on a terminal (rich styles).
STATUS_STYLES: Final = {"passed": "green", "failed": "bold red", "xpass": "bold red", "affected": "yellow",
                        "xfail": "magenta", "absent": "dim", "not-run": "dim", "unsupported": "dim"}


def _clause_rows(report: dict) -> Iterable[tuple[str, str, int, int, int, int, str]]:
    """Each clause row: ID, result, passed, failed, affected, unsupported, outcomes."""
    for cid, r in report["clauses"].items():
        status = r["status"] + ("" if r["status"] != "xfail" else " (listed)")
        outcomes = ", ".join(f"{o} {n}" for o, n in r["outcomes"].items())
        yield (cid, status, r["passed"], r["failed"] + r["xfail"], r.get("affected", 0), r["unsupported"],
               outcomes)


def _rich_clause_table(report: dict, console: Any) -> None:
    from rich.table import Table
    from rich.text import Text
    table = Table(box=None, pad_edge=False, header_style="bold")
    for name, right in (("clause", False), ("result", False), ("pass", True), ("fail", True),
                        ("aff", True), ("unsup", True), ("failures by outcome", False)):
        table.add_column(name, justify="right" if right else "left")
    for cid, status, *counts, outcomes in _clause_rows(report):
        table.add_row(Text(cid), Text(status, style=STATUS_STYLES.get(status.split()[0], "")),
                      *(Text(str(n)) for n in counts), Text(outcomes))
    console.print(table)


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def startup_message(startup: dict) -> str:
    """The one message for a program that could not be started: the command, the reason,
    its last stderr lines."""
    command = " ".join(_t(a, 200) for a in startup.get("command", []))
    lines = [f"could not start the implementation: {command}", f"  {_t(startup.get('reason', ''), 600)}"]
    tail = startup.get("stderr") or []
    if tail:
        lines.append("  its last stderr lines:")
        lines += [f"    | {_t(x, 300)}" for x in tail]
    else:
        lines.append("  (nothing on its stderr)")
    return "\n".join(lines)


# --- JSON ------------------------------------------------------------------------------------------

def write_json(report: dict, out: TextIO) -> None:
    """The report as one JSON document, written case by case."""
    out.write("{\n")
    for k, v in report.items():
        if k == "cases":
            continue
        out.write(f" {json.dumps(k)}: {strict_json(v, ensure_ascii=False, default=as_list)},\n")
    out.write(' "cases": [')
    first = True
    for c in report.get("cases", ()):
        out.write("\n  " if first else ",\n  ")
        out.write(strict_json(c, ensure_ascii=False))
        first = False
    out.write("\n ]\n}\n")


# --- two reports ------------------------------------------------------------------------------

def diff_reports(old: dict, new: dict) -> dict:
    """What changed from ``old`` to ``new``: cases and clauses whose status changed."""
    def key(c: dict) -> tuple:
        return (c["id"], json.dumps(c.get("rules"), sort_keys=True) if c.get("rules") != "any" else "any")
    o = {c["id"]: c for c in old.get("cases") or []}  # (null, as a report may hold: none)
    n = {c["id"]: c for c in new.get("cases") or []}
    changed = []
    for cid in sorted(set(o) | set(n)):
        a = o.get(cid, {}).get("status", "absent")
        b = n.get(cid, {}).get("status", "absent")
        oa, ob = o.get(cid, {}).get("outcome"), n.get(cid, {}).get("outcome")
        if a != b or oa != ob:
            changed.append({"id": cid, "old": a, "new": b, "old_outcome": oa, "new_outcome": ob,
                            "detail": n.get(cid, {}).get("detail", "")})
    clauses = []
    oc, nc = old.get("clauses") or {}, new.get("clauses") or {}
    for cid in sorted(set(oc) | set(nc)):
        a = oc.get(cid, {}).get("status", "absent")
        b = nc.get(cid, {}).get("status", "absent")
        if a != b:
            clauses.append({"clause": cid, "old": a, "new": b})
    return {"cases": changed, "clauses": clauses,
            "regressions": sum(1 for c in changed if c["new"] in FAILING and c["old"] not in FAILING),
            "fixes": sum(1 for c in changed if c["old"] in FAILING and c["new"] not in FAILING),
            "old": {k: old.get(k) for k in ("implementation", "rules", "summary")},
            "new": {k: new.get(k) for k in ("implementation", "rules", "summary")}}


def render_diff(d: dict) -> str:
    lines = [f"{len(d['cases'])} cases changed: {d['regressions']} now failing, {d['fixes']} fixed"]
    for c in d["clauses"]:
        lines.append(f"  clause {c['clause']}: {c['old']} -> {c['new']}")
    for c in d["cases"][:200]:
        extra = f" ({c['new_outcome']})" if c["new_outcome"] else ""
        lines.append(f"  {c['id']}: {c['old']} -> {c['new']}{extra}")
    if len(d["cases"]) > 200:
        lines.append(f"  … and {len(d['cases']) - 200} more")
    return "\n".join(lines) + "\n"


def as_json(data: Any) -> str:
    """``data`` as strict JSON text (non-finite numbers as text), indented."""
    return strict_json(data, ensure_ascii=False, indent=1, default=as_list) + "\n"
