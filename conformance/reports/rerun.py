"""The one command that asks a reported case again, alone: ``turub check --seed S --case ID
-- PROGRAM`` under the run's rules.  The terminal report and the HTML page end each failure
with it; the seed is the report's, so a generated case (``generated/1/legal_plays/r155``) is
drawn again the same, and a differential search or a property replays from the same seed.

A house rule loaded from a file is named by its file and name (``--variant FILE:NAME``, the
report's ``variant.source``; a ``.toml`` or ``.json`` file by its path alone), and the options
a run set on top of it with ``--rules`` follow (``--rules OPTION=VALUE``); a report written
before it kept the file names the variant alone: give ``--variant FILE:NAME`` as in the first
run."""

from __future__ import annotations

import shlex
from typing import Any

__all__ = ["rerun_command"]


def _rules_words(report: dict[str, Any]) -> list[str]:
    from turub.options import Rules
    variant = report.get("variant") or {}
    if variant.get("clauses"):
        # a file's variant run with --rules is named NAME+OPTION=VALUE,... (turub.variants.select):
        # the file's variant again, then the same options
        name, _, options = variant["name"].partition("+")
        source = variant.get("source")
        if source and source.endswith((".toml", ".json")):  # one variant a file: no NAME
            words = ["--variant", source]
        elif source and source.endswith(".py"):
            words = ["--variant", f"{source}:{name}"]
        else:  # built in, or installed (an entry point): known by its name
            words = ["--variant", name]
        return [*words, "--rules", *options.split(",")] if options else words
    standard = Rules().to_dict()
    changed = [f"{k}={v}" for k, v in (report.get("rules") or {}).items() if standard.get(k) != v]
    return ["--rules", *changed] if changed else []  # turub check --rules takes one word an option


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
