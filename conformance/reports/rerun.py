"""The one command that asks a reported case again, alone: ``turub check --seed S --case ID
-- PROGRAM`` under the run's rules.  The terminal report and the HTML page end each failure
with it; the seed is the report's, so a generated case (``generated/1/legal_plays/r155``) is
drawn again the same, and a differential search or a property replays from the same seed.

A house rule loaded from a file is named by its file and name (``--variant FILE:NAME``, the
report's ``variant.source``); a report written before it kept the file names the variant
alone: give ``--variant FILE:NAME`` as in the first run."""

from __future__ import annotations

import shlex
from typing import Any

__all__ = ["rerun_command"]


def _rules_words(report: dict[str, Any]) -> list[str]:
    from turub.options import Rules
    variant = report.get("variant") or {}
    if variant.get("clauses"):
        source = variant.get("source")
        return ["--variant", f"{source}:{variant['name']}" if source else variant["name"]]
    standard = Rules().to_dict()
    changed = [f"{k}={v}" for k, v in (report.get("rules") or {}).items() if standard.get(k) != v]
    return ["--rules", ",".join(changed)] if changed else []


def _program_words(report: dict[str, Any]) -> list[str]:
    impl = report.get("implementation") or {}
    if impl.get("python") and impl["python"] != "turub.conformance.adapter:ReferenceImplementation":
        return ["--python", impl["python"]]
    if impl.get("command"):
        return ["--", *impl["command"]]
    return []  # the reference engine, turub check's default


def rerun_command(report: dict[str, Any], case_id: str) -> str:
    """The shell command (quoted for a POSIX shell) that asks ``case_id`` of the report's
    run alone, from the report's seed and rules."""
    seed = ["--no-generated"] if report.get("seed") is None else ["--seed", str(report["seed"])]
    words = ["turub", "check", *seed, *_rules_words(report),
             "--case", case_id, *_program_words(report)]
    return shlex.join(words)
