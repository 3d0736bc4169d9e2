"""The kit against misbehaving programs (tests/broken/impl.py, run with sys.executable).

Each misbehaviour must be reported as what it is (crash, timeout, protocol violation, error
reported), the rest of the run must go on (bounded restarts), results already obtained must
be kept, and the kit must never hang nor crash.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from turub.conformance.questions.cases import OPTION_SETS
from turub.conformance.commands.check import CheckOptions, run_check
from turub.conformance.programs import run_clock
from turub.conformance.programs.protocol import ProtocolTarget
from turub.conformance.programs.targets import Request
from turub.conformance.reports.report import finish
from turub.properties.tags import verifies
from pace import generous

IMPL = Path(__file__).parent / "broken" / "impl.py"
# A small run: ~40 generated cases, no vectors, no differential play.
SMALL = CheckOptions(rules=OPTION_SETS["standard"], vectors=False, seed=3, scale=0.05, examples=0)
#: The timeout of a run whose program hangs, which the run waits out: a correct answer here
#: takes a millisecond, and a request's time is counted on the run's clock (``run_clock``),
#: which leaves out what a loaded machine kept the kit and the program waiting for a CPU.
HANG_TIMEOUT = 0.5


def run(mode, *extra, once=None, timeout=generous(2.0), start_timeout=None, max_restarts=1, options=SMALL):
    argv = [sys.executable, str(IMPL), mode, *(["--once", str(once)] if once else []), *extra]
    target = ProtocolTarget(argv, timeout=timeout, start_timeout=start_timeout, max_restarts=max_restarts)
    started = time.monotonic()
    report = finish(run_check(target, options))
    report["_elapsed"] = time.monotonic() - started
    return report


def failed(report):
    return [c for c in report["cases"] if c["status"] == "failed"]


def test_a_well_behaved_program_passes_the_small_run():
    report = run("ok")
    assert report["exit_status"] == 0 and report["summary"]["cases"] >= 30


# mode → the outcome of the one request it strikes (request 10), the rest passing
ONE_BAD_ANSWER = {
    "garbage": ("protocol-violation", "not JSON"),
    "wrong-id": ("protocol-violation", "which was never asked"),
    "answer-twice": ("protocol-violation", "answered twice"),
    "huge-output": ("protocol-violation", "longer than"),
    "partial-line": ("crash", "a partial line was pending"),
    "exit-early": ("crash", "exit status 0"),
}


@pytest.mark.parametrize("mode", sorted(ONE_BAD_ANSWER))
def test_one_bad_answer_fails_one_case_and_the_run_goes_on(mode, tmp_path):
    outcome, words = ONE_BAD_ANSWER[mode]
    report = run(mode, once=tmp_path / "flag")
    bad = failed(report)
    assert [c["outcome"] for c in bad] == [outcome], [(c["id"], c.get("detail")) for c in bad]
    assert words in bad[0]["detail"]
    # a version-1 program: the questions that need version 2 are not applicable (unsupported)
    assert report["summary"]["passed"] == report["summary"]["cases"] - 1 - report["summary"]["unsupported"]
    assert report["exit_status"] == 1


# mode → what a lock-step request it strikes gets (each program misbehaves at its 10th request)
ONE_BAD_CALL = {**ONE_BAD_ANSWER, "hang": ("timeout", "no answer within"),
                "crash-mid-run": ("crash", "the implementation exited")}


def asked_one_at_a_time(mode, ask):
    """The answers to 12 requests asked one at a time by ``ask(target, op, args)``, as
    (kind, value, detail), and the noise the kit counted."""
    # the hang waits the timeout out (twice: asked by call, then in runs of one request)
    target = ProtocolTarget([sys.executable, str(IMPL), mode], timeout=HANG_TIMEOUT, max_restarts=1)
    args = {"cards": ["AS", "6S", "7S", "8S"], "trump": "H"}
    try:
        assert target.start() is None
        answers = [tuple(ask(target, "trick_winner", args)) for _ in range(12)]
    finally:
        target.close()
    return answers, target.noise["lines"]


def one_request_run(target, op, args):
    got = []
    target.run([Request(None, op, args)], lambda key, answer: got.append(answer))
    return got[-1]  # the last word on it (a second answer amends the first)


@pytest.mark.parametrize("mode", sorted(ONE_BAD_CALL))
def test_a_lock_step_call_judges_a_bad_answer_as_a_run_of_one_request_does(mode):
    outcome, words = ONE_BAD_CALL[mode]
    by_call, noise = asked_one_at_a_time(mode, lambda target, op, args: target.call(op, args))
    bad = [a for a in by_call if a[0] != "result"]
    # exactly one request is struck, and it is reported as what happened to it
    assert [a[0] for a in bad] == [outcome] and words in bad[0][2], bad
    assert all(a == ("result", 0, "") for a in by_call if a[0] == "result")
    # the same answers, word for word, and the same noise as one-request runs
    assert (by_call, noise) == asked_one_at_a_time(mode, one_request_run)


def test_a_crash_mid_run_is_restarted_and_the_run_goes_on(tmp_path):
    report = run("crash-mid-run", once=tmp_path / "flag")
    assert [c["outcome"] for c in failed(report)] == ["crash"]
    assert report["restarts"] == 1
    # a version-1 program: the questions that need version 2 are not applicable (unsupported)
    assert report["summary"]["passed"] == report["summary"]["cases"] - 1 - report["summary"]["unsupported"]


def test_a_program_that_keeps_crashing_is_given_up_after_the_restart_limit():
    report = run("crash-mid-run", max_restarts=2)
    assert report["restarts"] == 2
    details = [c["detail"] for c in failed(report)]
    assert sum("exited" in d for d in details) == 3  # one crash per process
    assert all("exited" in d for d in details)
    # what was never asked after the restart limit is "not run", not a crash
    not_run = [c for c in report["cases"] if c["status"] == "not-run"]
    assert not_run and all("restarted 2 times" in c["detail"] for c in not_run)
    # the answers obtained before the crashes are kept
    assert report["summary"]["passed"] >= 10


def test_a_hang_is_a_timeout_and_never_hangs_the_kit(tmp_path):
    report = run("hang", once=tmp_path / "flag", timeout=HANG_TIMEOUT)
    assert [c["outcome"] for c in failed(report)] == ["timeout"]
    assert report["_elapsed"] < generous(10)


def test_a_crash_at_start_is_one_startup_failure_with_its_stderr():
    report = run("crash-at-start")
    # no per-case rows: one message with the command, the reason and its last stderr lines
    assert len(report["cases"]) == 0 and report["exit_status"] == 3
    startup = report["startup_failure"]
    assert "exit status 3" in startup["reason"] and str(IMPL) in startup["command"]
    assert startup["stderr"] == ["cannot start: the deck is missing"]


def test_a_silent_start_is_a_startup_timeout_never_retried():
    # (the handshake's own timeout given: by default it is at least 2 s, all waited out)
    report = run("hang-at-start", timeout=0.3, start_timeout=0.3, max_restarts=3)
    assert report["startup_failure"]["reason"].startswith("the handshake got no answer")
    assert report["restarts"] == 0 and report["exit_status"] == 3
    assert report["_elapsed"] < generous(5)


def test_another_protocol_version_is_a_startup_failure():
    report = run("old-protocol")
    assert report["exit_status"] == 3 and len(report["cases"]) == 0
    assert "protocol version 0" in report["startup_failure"]["reason"]


def test_stderr_is_diagnostics_never_a_verdict():
    report = run("stderr-noise")
    assert report["exit_status"] == 0
    assert any("debug: request" in d for d in report["diagnostics"])


@verifies("play.turn", "result.more-tricks-wins")
def test_an_error_the_program_reports_is_its_own_outcome_class():
    report = run("error-reported")
    refereed = [c for c in report["cases"] if c["op"] == "referee"]
    assert refereed and {c["outcome"] for c in refereed} == {"error-reported"}
    assert "on holiday" in refereed[0]["detail"]


def test_a_subset_implementation_gets_unsupported_not_passed():
    report = run("subset")
    by_op = {}
    for c in report["cases"]:
        by_op.setdefault(c["op"], set()).add(c["status"])
    # legal_plays with the trump given needs protocol version 2: not applicable to this program
    assert by_op.pop("trick_winner") == {"passed"} and by_op.pop("legal_plays") <= {"passed", "unsupported"}
    assert set().union(*by_op.values()) == {"unsupported"}
    assert report["exit_status"] == 0


def test_a_missing_program_is_a_startup_failure_not_a_kit_failure():
    target = ProtocolTarget(["/nonexistent/turub-impl"], timeout=0.5)
    report = finish(run_check(target, SMALL))
    assert report["exit_status"] == 3 and len(report["cases"]) == 0
    assert "could not start" in report["startup_failure"]["reason"]


def test_the_whole_run_time_limit_keeps_what_was_answered(tmp_path):
    argv = [sys.executable, str(IMPL), "hang"]
    # the limit leaves time to start and answer nine requests on a loaded machine (about 0.15 s
    # of the run's clock on a quiet one); request 10's own timeout is longer still, so the
    # limit is what cuts it, and the hang waits it out
    target = ProtocolTarget(argv, timeout=generous(3.0), deadline=run_clock.now() + generous(0.3))
    started = time.monotonic()
    report = finish(run_check(target, SMALL))
    assert time.monotonic() - started < generous(8)
    assert report["summary"]["passed"] == 9  # requests 1-9, answered before the hang
    # request 10 had not used up its own timeout: cut by the time limit, not a timeout
    assert not failed(report) and report["cut"] and report["exit_status"] == 4
    assert "whole-run time limit" in next(c for c in report["cases"] if c["status"] == "not-run")["detail"]


@verifies("play.follow-suit")
def test_a_wrong_rule_behind_the_protocol_is_found_by_differential_play():
    options = CheckOptions(rules=OPTION_SETS["standard"], vectors=False, seed=3, scale=0.0, examples=60)
    report = run("no-follow-suit", options=options, timeout=5)
    deal = next(c for c in report["cases"] if c["id"] == "differential/deal")
    assert deal["status"] == "failed" and deal["failing_clauses"] == ["play.follow-suit"]
    assert len(deal["args"]["actions"]) <= 6
