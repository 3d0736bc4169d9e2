"""The implementers' guide says what the kit does: every exit status of ``turub check`` is
in its table, and every misbehaviour the fault catalogue checks has a row."""

from __future__ import annotations

import re
from pathlib import Path

from turub.conformance.reports.report import EXIT_STATUSES

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guides" / "implementers.md"


def _section(title: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_every_exit_status_is_in_the_guide_and_nothing_else_is():
    table = _section("Options and exit statuses")
    listed = set()
    for row in re.findall(r"^\| ([\d, ]+) \|", table, flags=re.M):
        listed |= {int(x) for x in row.split(",")}
    assert listed == set(EXIT_STATUSES)


def test_the_misbehaviour_table_covers_the_fault_catalogue():
    table = _section("When your program misbehaves").lower()
    # one phrase per class of fault in tests/test_fault_catalogue.py
    for phrase in ("cannot be started", "exits before the handshake", "never answers the handshake",
                   "another protocol version", "supports nothing", "longer than `--timeout`",
                   "resending old answers", "crashes or exits mid-run", "keeps crashing", "not json",
                   "never asked", "answers a request twice", "when no request is waiting",
                   "wrong shape or type", "--max-line", "nan", "escape codes", "lone surrogates",
                   "forks workers", "setsid", "ignores sigterm", "--time-limit", "sigterm", "sighup"):
        assert phrase in table or phrase in GUIDE.read_text(encoding="utf-8").lower(), phrase


def test_the_conditions_table_covers_each_class_of_hostile_condition():
    """One phrase per class of issue 19 that tests/test_verdict_conditions.py checks."""
    table = _section("When your program misbehaves").lower()
    for phrase in ("time budget", "standard output is closed", "cannot be written", "/dev/full",
                   "dangling symbolic link", "two reports", "strict json", "`--jsonl` file",
                   "sys.exit", "loops at import", "built-in", "turub report", "cp1252",
                   "nested thousands deep"):
        assert phrase in table, phrase
