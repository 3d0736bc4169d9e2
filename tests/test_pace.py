"""The project's tests do not depend on the machine's pace (issue 30, item 8).

An assert that compares a wall time (``time.monotonic()``, an ``elapsed``, a report's
``seconds`` or ``duration``) with a fixed figure is a false red on a loaded machine: each such
bound goes through ``pace.generous``, scaled by ``TURUB_TEST_PACE``.
"""
from __future__ import annotations

import ast
from pathlib import Path

from pace import MARGIN, factor, generous

TESTS = Path(__file__).parent
CLOCK_WORDS = ("monotonic", "elapsed", "seconds", "duration", "perf_counter")


def _mentions_a_clock(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return any(word in text for word in CLOCK_WORDS)


def _is_generous(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and ast.unparse(node.func).endswith("generous")


def fixed_wall_time_bounds(source: str) -> list[str]:
    """Every assert that bounds a clock reading by something other than ``generous(...)``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Assert):
            continue
        for compare in ast.walk(node.test):
            if not isinstance(compare, ast.Compare):
                continue
            sides = [compare.left, *compare.comparators]
            for op, left, right in zip(compare.ops, sides, sides[1:]):
                if isinstance(op, (ast.Lt, ast.LtE)) and _mentions_a_clock(left) and not _is_generous(right):
                    found.append(f"line {node.lineno}: {ast.unparse(compare)}")
                if isinstance(op, (ast.Gt, ast.GtE)) and _mentions_a_clock(right) and not _is_generous(left):
                    found.append(f"line {node.lineno}: {ast.unparse(compare)}")
    return found


def test_no_test_asserts_a_fixed_wall_time():
    offenders = {path.name: bad for path in sorted(TESTS.rglob("*.py"))
                 if (bad := fixed_wall_time_bounds(path.read_text(encoding="utf-8")))}
    assert offenders == {}


def test_the_scan_finds_a_fixed_bound_and_passes_a_generous_one():
    assert fixed_wall_time_bounds("assert time.monotonic() - began < 30\n") != []
    assert fixed_wall_time_bounds("assert run.elapsed < 3 + 3\n") != []
    assert fixed_wall_time_bounds("assert 10 > lane['seconds']\n") != []
    assert fixed_wall_time_bounds("assert run.elapsed < generous(12)\n") == []
    assert fixed_wall_time_bounds("assert len(rows) < 30\n") == []


def test_a_bound_is_scaled_by_the_environment(monkeypatch):
    monkeypatch.setenv("TURUB_TEST_PACE", "3")
    assert factor() == 3 and generous(2) == 2 * MARGIN * 3
    for nonsense in ("nan", "inf", "0.1", "fast"):
        monkeypatch.setenv("TURUB_TEST_PACE", nonsense)
        assert factor() == 1
