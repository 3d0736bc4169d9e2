"""turub check: --list, -k, --clause, --op, -x and -j N (turub.conformance.questions.select,
listing, parallel), against the reference and a Python adapter with one wrong rule."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from turub.tools.cli import main
from turub.conformance.adapter import ReferenceImplementation
from turub.conformance.programs.parallel import ParallelTarget
from turub.conformance.questions.select import Selection, SelectionError
from turub.conformance.programs.targets import PythonTarget
from turub.properties.tags import verifies

BROKEN = f"{Path(__file__).parent / 'broken' / 'adapters.py'}:NoFollowSuit"
LIGHT = ["--scale", "0.3", "--examples", "20", "--properties", "3"]
#: The cases only (a wrong implementation's searches would spend their budget shrinking).
CASES = ["--scale", "0.3", "--examples", "0", "--properties", "0"]


def check(*args: str, tmp: Path) -> tuple[int, dict, str]:
    """``turub check ARGS --json``: the exit status, the report and the text on stdout."""
    out = io.StringIO()
    status = main(["check", *args, "--json", str(tmp / "r.json")], out)
    report = json.loads((tmp / "r.json").read_text(encoding="utf-8")) if (tmp / "r.json").exists() else {}
    return status, report, out.getvalue()


@pytest.fixture(scope="module")
def checked_once(tmp_path_factory):
    """``check`` of given arguments, run once for this file's tests: those making one same run
    share it (they read its report, never change it)."""
    done: dict[tuple[str, ...], tuple[int, dict, str]] = {}

    def of(*args: str) -> tuple[int, dict, str]:
        if args not in done:
            done[args] = check(*args, tmp=tmp_path_factory.mktemp("once"))
        return done[args]
    return of


def listed(*args: str) -> list[list[str]]:
    out = io.StringIO()
    assert main(["check", "--list", *args], out) == 0
    lines = out.getvalue().splitlines()
    assert lines[-1] == f"{len(lines) - 1} checks"
    return [line.split() for line in lines[:-1]]


def test_list_names_every_check_a_run_makes_without_running_anything(checked_once):
    rows = listed(*LIGHT)
    status, report, _ = checked_once(*LIGHT)
    assert status == 0
    assert [r[0] for r in rows] == [c["id"] for c in report["cases"]]
    assert [r[1] for r in rows[:5]] == [c["op"] for c in report["cases"][:5]]
    assert rows[0][2:] == sorted(report["cases"][0]["clauses"])


@verifies("play.follow-suit")
def test_clause_runs_only_and_fewer_cases_about_that_clause(tmp_path, checked_once):
    _status, every, _ = checked_once(*LIGHT)
    status, chosen, _ = check("--clause", "play.follow-suit", *LIGHT, tmp=tmp_path)
    assert status == 0 and 0 < len(chosen["cases"]) < len(every["cases"])
    assert all("play.follow-suit" in c["clauses"] for c in chosen["cases"])
    about = [c["id"] for c in every["cases"] if "play.follow-suit" in c["clauses"]]
    assert [c["id"] for c in chosen["cases"]] == about  # every one of them, in the same order


def test_clause_prefixes_op_and_k_select_as_documented():
    assert all(any(c.startswith("play.") for c in r[2:]) for r in listed("--clause", "play.*"))
    ops = {r[1] for r in listed("--op", "deal", "--op", "contest", "--no-generated")}
    assert ops == {"deal", "contest"}
    rows = listed("-k", "referee and not generated", "--properties", "0", "--examples", "0")
    assert rows and all("referee" in " ".join(r) and "generated" not in r[0] for r in rows)
    either = listed("-k", "(follow-suit or highest-trump) and worked", "--properties", "0")
    assert either and all("worked" in r[0] for r in either)


@pytest.mark.parametrize(("make", "option"), [
    (lambda: Selection(clauses=("bogus-clause",)), "--clause bogus-clause"),
    (lambda: Selection(clauses=("nothing.*",)), "--clause nothing.*"),
    (lambda: Selection(ops=("shuffle",)), "--op shuffle"),
    (lambda: Selection(keyword="a and"), "-k"),
    (lambda: Selection(keyword="(a or b"), "-k"),
    (lambda: Selection(keyword="not"), "-k"),
])
def test_a_bad_selection_is_refused_naming_the_option(make, option):
    with pytest.raises(SelectionError, match=option.replace("*", r"\*").replace("(", r"\(")):
        make()


def test_usage_errors_name_the_option_and_exit_2(tmp_path, capsys):
    assert main(["check", "--clause", "bogus-clause"], io.StringIO()) == 2
    assert "--clause bogus-clause" in capsys.readouterr().err
    assert main(["check", "-j", "0"], io.StringIO()) == 2
    assert "--jobs" in capsys.readouterr().err


@verifies("play.follow-suit")
def test_exitfirst_stops_at_the_first_failure_with_exit_1(tmp_path):
    status, whole, _ = check("--python", BROKEN, *CASES, tmp=tmp_path)
    first = next(i for i, c in enumerate(whole["cases"]) if c["status"] == "failed")
    status, stopped, _ = check("-x", "--python", BROKEN, *CASES, tmp=tmp_path)
    assert status == 1
    assert [c["id"] for c in stopped["cases"]] == [c["id"] for c in whole["cases"][:first + 1]]
    assert stopped["cases"][-1]["status"] == "failed"
    assert "play.follow-suit" in stopped["cases"][-1]["failing_clauses"]


def _verdicts(report: dict) -> list[tuple]:
    return [(c["id"], c["status"], c.get("outcome"), tuple(c.get("failing_clauses", ())))
            for c in report["cases"]]


@pytest.mark.parametrize("jobs", ["2", "3"])
def test_jobs_give_the_same_verdict_and_report_order_as_one(tmp_path, jobs, checked_once):
    one_status, one, _ = checked_once("--python", BROKEN, *CASES)
    n_status, many, _ = check("-j", jobs, "--python", BROKEN, *CASES, tmp=tmp_path)
    assert (one_status, _verdicts(one), one["summary"]) == (n_status, _verdicts(many), many["summary"])
    assert one_status == 1


def test_a_parallel_target_shares_a_batch_among_its_instances():
    calls: list[int] = []

    class Counting(ReferenceImplementation):
        def __init__(self, n: int) -> None:
            self.n = n

        def trick_winner(self, cards, trump):
            calls.append(self.n)
            time.sleep(0.01)  # as a program takes a while to answer
            return super().trick_winner(cards, trump)

    from turub.conformance.programs.targets import Request
    target = ParallelTarget([PythonTarget(Counting(i)) for i in range(3)])
    assert target.start() is None
    got: dict[int, object] = {}
    order: list[int] = []

    def report(key, answer):
        order.append(key)
        got[key] = answer

    target.run((Request(k, "trick_winner", {"cards": ["AC", "KC"], "trump": "H"}) for k in range(30)),
               report)
    assert order == list(range(30)) and all(a.value == 0 for a in got.values())  # in request order
    assert sorted(set(calls)) == [0, 1, 2] and len(calls) == 30  # every instance answered some
