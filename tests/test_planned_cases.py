"""The default check's planned cases, shipped as data (``conformance/planned/``): they are
what the kit plans now, the default check judges by them, and any other seed, scale or rules
works its cases out as before."""

from __future__ import annotations

import json
import shutil

import pytest

from turub import Rules
from turub.conformance.adapter import ReferenceImplementation
from turub.conformance.commands.check import CheckOptions, run_check
from turub.conformance.programs.targets import PythonTarget
from turub.conformance.questions import planned
from turub.conformance.questions.cases import generated_cases
from turub.conformance.questions.directed import directed_cases
from turub.options import rules_from_dict


def test_the_shipped_planned_cases_are_what_the_kit_plans_now():
    # A change of a generator, of a directed case or of an expected answer shows up here,
    # and as a diff of conformance/planned/ once `turub vectors --regenerate` is run.
    for name, text in planned.render_planned().items():
        committed = (planned.PLANNED_DIR / name).read_text(encoding="utf-8")
        assert committed == text, f"{name} differs from the kit's plan: run `turub vectors --regenerate`"


def test_the_shipped_cases_are_the_directed_and_generated_cases_of_the_defaults():
    shipped = planned.planned_cases(Rules(), 1, 1.0)
    assert shipped is not None
    as_json = json.loads(json.dumps([directed_cases(Rules()), generated_cases(1, Rules())]))
    assert [shipped.directed, shipped.generated] == as_json
    assert len(shipped.directed) > 400 and len(shipped.generated) > 900


@pytest.mark.parametrize("rules, seed, scale", [
    (Rules(), 2, 1.0), (Rules(), None, 1.0), (Rules(), 1, 0.5),
    (rules_from_dict({"direction": "counterclockwise"}), 1, 1.0),
    (Rules(signal_kinds="documented"), 1, 1.0)])
def test_anything_but_the_defaults_works_its_cases_out(rules, seed, scale):
    assert planned.planned_cases(rules, seed, scale) is None


def _check(seed: int) -> dict:
    options = CheckOptions(rules=Rules(), seed=seed, examples=0, properties=0)
    return run_check(PythonTarget(ReferenceImplementation()), options)


def _changed_answer(tmp_path, monkeypatch) -> str:
    """A copy of the shipped cases with one generated case's expected answer changed, put in
    the shipped cases' place; the id of that case."""
    folder = tmp_path / "planned"
    shutil.copytree(planned.PLANNED_DIR, folder)
    path = folder / "standard.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    case = next(c for c in data["generated"] if c["op"] == "trick_winner")
    case["expected"] = (case["expected"] + 1) % 4
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(planned, "PLANNED_DIR", folder)
    return case["id"]


def test_the_default_check_judges_by_the_shipped_cases(tmp_path, monkeypatch):
    changed = _changed_answer(tmp_path, monkeypatch)
    rows = {r["id"]: r for r in _check(1)["cases"]}
    assert rows[changed]["status"] == "failed"  # the reference judged against the copy's answer
    assert sum(r["status"] == "failed" for r in rows.values()) == 1


def test_another_seed_does_not_read_them(tmp_path, monkeypatch):
    _changed_answer(tmp_path, monkeypatch)
    rows = _check(2)["cases"]
    assert rows and all(r["status"] == "passed" for r in rows), \
        [r["id"] for r in rows if r["status"] != "passed"][:5]
