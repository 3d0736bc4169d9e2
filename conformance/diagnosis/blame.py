"""The diagnosis: which rule is likely broken, with the evidence, before any table.

:func:`attribute` works on a finished list of results (plain data, after the judge):

1. *Consequences are not causes*: a refereed deal whose dealing the implementation got wrong
   (its own ``deal`` answer for the same pack, dealer and cut failed) fails because of that;
   it is marked ``consequence_of`` the deal case and blames nothing on its own.
2. *Known misreadings*: each failed question is put to the catalogue of misreadings
   (:mod:`turub.conformance.diagnosis.misreadings`: the reference with one clause read another way).
   A misreading *explains* a failure when it gives the implementation's answer.  The one that
   explains the most failures is the likely cause; a failure it explains is blamed on its
   clause.
3. The blamed clauses, ranked by the failures they explain, each with its smallest situation.

:func:`render_diagnosis` turns that into the lines the terminal report opens with.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import AbstractSet, Any, Final

from ..operations import REGISTRY

__all__ = ["attribute", "render_diagnosis", "top_blamed", "failed_rows"]

#: How many blamed clauses the terminal shows with their situations.
SHOWN: Final = 3


def _deal_key(args: dict) -> tuple | None:
    """The deal a question is about: its pack (each card as its plain name, however the
    question writes it), dealer, cut and direction of play."""
    from ..judging.judge import card_text
    try:
        pack = []
        for text in args["pack"]:
            try:
                pack.append(card_text(text))
            except Exception:  # noqa: BLE001 - text that is no card: kept as it is
                pack.append(text)
        return (tuple(pack), args["dealer"], args["cut"],
                (args.get("rules") or {}).get("direction", "clockwise"))
    except (KeyError, TypeError):
        return None


def _mark_consequences(cases: list[dict]) -> None:
    dealers = {r.dealt_by for r in REGISTRY.values() if r.dealt_by is not None}
    wrong_deals: dict[Any, Any] = {}
    for c in cases:
        if c["op"] in dealers and c["status"] == "failed" and isinstance(c.get("args"), dict):
            wrong_deals.setdefault(_deal_key(c["args"]), c["id"])
    if not wrong_deals:
        return
    for c in cases:
        record = REGISTRY.get(c["op"])
        dealt = record is not None and record.dealt_by is not None  # its pack is dealt by another operation
        if dealt and c["status"] == "failed" and c.get("blamed") and isinstance(c.get("args"), dict):
            args = dict(c["args"])
            args.setdefault("rules", c.get("rules") if isinstance(c.get("rules"), dict) else {})
            cause = wrong_deals.get(_deal_key(args))
            if cause is not None:
                c["consequence_of"] = cause
                c["consequence_blame"] = c["blamed"]
                c["blamed"] = None
                c["failing_clauses"] = []


def _order_or_rule(failed: list[dict]) -> None:
    """A refusal named out of order is blamed on the order of refusals, unless the rule it
    should have named is shown misread elsewhere (accepted when broken alone): then the
    program does not see that rule at all, and the failure is that rule's."""
    misread = {c["blamed"] for c in failed if c.get("blamed") and c.get("blamed") != "play.refusal-order"}
    for c in failed:
        if c.get("blamed") != "play.refusal-order":
            continue
        detail = c.get("detail", "")
        first = detail.split("expected refused for ", 1)[1].split(",", 1)[0] if "expected refused for " in detail else None
        if first in misread:
            c["blamed"] = first
            c["failing_clauses"] = [first]


def _size(result: dict) -> tuple:
    """Smaller is a better example: shrunk first, then the shortest question."""
    from .situation import question_of
    q = question_of(result)
    args = q["args"] if q else result.get("args", {})
    actions = len(args.get("actions", [])) if isinstance(args, dict) else 0
    return (result.get("kind") != "differential", actions, len(json.dumps(args, default=str)))


def attribute(report: dict, passed: AbstractSet[str] = frozenset()) -> dict:
    """Mark consequences, apply the known misreadings, rank the blamed clauses.  Adds
    ``report["diagnosis"]`` and returns it.  ``passed``: the ids of the vectors that passed
    (evidence against a misreading that would have answered them otherwise)."""
    cases = report["cases"]
    _mark_consequences(cases)
    failed = [c for c in cases if c["status"] in ("failed", "xfail")]
    misreadings: list[dict] = []
    try:
        variant = report.get("variant")
        if isinstance(variant, dict) and variant.get("clauses"):  # a house rule of its own: the
            raise ImportError  # catalogue misreads the standard rules, not the variant's
            raise ImportError
        from .misreadings import explain
        passed = set(passed) | {c["id"] for c in cases if c["status"] == "passed"}
        misreadings = explain(failed, report.get("rules") or {}, passed)
    except ImportError:
        pass
    try:  # the follow-up questions' answers (the clause-directed cases), for the standard rules
        if isinstance(report.get("variant"), dict) and report["variant"].get("clauses"):
            raise ImportError  # a house rule of its own: its clauses are blamed as the judge says
        from .probes import reblame
        reblame(failed, set(passed) | {c["id"] for c in cases if c["status"] == "passed"},
                report.get("rules") or {})
    except ImportError:
        pass
    except Exception as e:  # noqa: BLE001 - a diagnosis is a nicety: the verdict stands without it
        report.setdefault("diagnostics", []).append(f"the follow-up questions could not be read: {e}")
    try:  # the program's own refusals, and the decisions upstream: under a house rule too
        from .probes import reblame_by_evidence
        reblame_by_evidence(failed, set(passed) | {c["id"] for c in cases if c["status"] == "passed"},
                            report.get("rules") or {}, report.get("variant"))
    except Exception as e:  # noqa: BLE001 - a diagnosis is a nicety: the verdict stands without it
        report.setdefault("diagnostics", []).append(f"the program's refusals could not be read: {e}")
    _order_or_rule(failed)
    blamed = Counter(c["blamed"] for c in failed if c.get("blamed"))
    ranked = []
    from .situation import question_of
    for clause, n in blamed.most_common():
        mine = [c for c in failed if c.get("blamed") == clause]
        drawable = [c for c in mine if question_of(c) is not None]
        smallest = min(drawable or mine, key=_size)
        ranked.append({"clause": clause, "failures": n, "smallest": smallest["id"],
                       "misreadings": [m for m in misreadings if m["clause"] == clause][:1]})
    diagnosis = {"blamed": ranked, "misreadings": misreadings,
                 "consequences": sum(1 for c in failed if c.get("consequence_of")),
                 "unblamed": sum(1 for c in failed if not c.get("blamed") and not c.get("consequence_of"))}
    report["diagnosis"] = diagnosis
    return diagnosis


def render_diagnosis(report: dict) -> list[str]:
    """The lines the terminal report opens with (nothing when every case passed)."""
    d = report.get("diagnosis")
    if not d or not (d["blamed"] or d["unblamed"]):
        return []
    from turub.clauses import CLAUSES, VARIANT_CLAUSES

    from .situation import draw, question_of
    by_id = {c["id"]: c for c in report["cases"]}
    lines = ["Diagnosis: the likely broken rule" + ("s" if len(d["blamed"]) > 1 else "")]
    for k, b in enumerate(d["blamed"]):
        clause = CLAUSES.get(b["clause"]) or VARIANT_CLAUSES.get(b["clause"])
        title = clause.title if clause else "(not in the registry)"  # type: ignore[attr-defined]
        lines.append(f"  {k + 1}. {b['clause']} — {title}: {b['failures']} failure"
                     f"{'s point' if b['failures'] != 1 else ' points'} to it")
        for m in b["misreadings"]:
            lines.append(f"     a known misreading reproduces the answers: {m['text']} "
                         f"(explains {m['explains']} of {m['of']} failures)")
    if d["consequences"]:
        lines.append(f"  {d['consequences']} more failure(s) are consequences of a wrong deal and blame nothing")
    if d["unblamed"]:
        lines.append(f"  {d['unblamed']} failure(s) name no rule (crash, timeout, protocol violation)")
    for b in d["blamed"][:SHOWN]:
        result = by_id.get(b["smallest"])
        q = question_of(result) if result else None
        if q is None:
            continue
        lines += ["", f"Smallest situation for {b['clause']} ({b['smallest']}):"]
        lines += ["  " + x for x in draw(q, b["clause"])]
    return lines + [""]


def top_blamed(report: dict) -> str | None:
    """The clause most failures point to (None if none)."""
    d = report.get("diagnosis") or {}
    return d["blamed"][0]["clause"] if d.get("blamed") else None


def failed_rows(report: dict) -> list[str]:
    return [k for k, r in report["clauses"].items() if r["status"] == "failed"]
