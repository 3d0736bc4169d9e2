"""The kit's sub-commands of ``turub``: ``check``, ``vectors`` and ``variants``.

Imported by ``turub.tools.cli`` when present; registers itself with :func:`turub.tools.cli.register`.

* ``turub check [-- CMD ARG...] | --python module:Object | --sample``: run the kit.
  Exit statuses: :data:`~turub.conformance.reports.report.EXIT_STATUSES` (0 conforms, 1 does not,
  2 usage error, 3 the program could not start, 4 nothing checked or cut short, 128 + N
  stopped by signal N).  Options and files are checked before anything runs
  (:mod:`~turub.conformance.option_checks`); everything after the first ``--`` is the program's
  command line, exactly as given.
* ``turub check --diff OLD.json NEW.json``: what changed between two JSON reports.
* ``turub vectors``: export the committed vectors (``--regenerate`` rewrites them,
  ``--check`` compares them with the reference).
* ``turub variants diff A B``: the cases and clauses whose answers differ between two
  option sets.
"""

from __future__ import annotations

import argparse
import math
import signal
import sys
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TextIO

from turub import __version__
from turub.tools import cli as _cli

from .. import option_checks
from ..option_checks import DEFAULT_LINE_LIMIT, EXIT_USAGE, OptionError
from ..text import safe_text
from .tools import write_output
from .usercode import UsageError, load_variant, private_stdout, stdout_to_stderr, whole_run_limit

# The rest of the kit is imported by the command that needs it, so that building the parser
# (``turub check --help``) loads nothing else.

__all__ = ["add_commands"]


def _rules(items: list[str], variant: str | None = None, time_limit: float | None = None):
    """The variant a command runs under (``--variant``, ``--rules``), loaded behind the
    user-code boundary (:func:`.usercode.load_variant`)."""
    return load_variant(items, variant, time_limit)


_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def _signals_interrupt() -> Iterator[Callable[[], int | None]]:
    """While the run lasts, SIGINT, SIGTERM and SIGHUP raise :class:`Interrupted` (the run
    stops its program and keeps what it has); afterwards, while the reports are written,
    a further signal is held off; then the previous handlers come back, unless a signal
    interrupted the run: the process is ending with that signal's status, and a later signal
    of the same burst (three within 60 ms) stays ignored rather than end it by the signal
    (no report status, or a KeyboardInterrupt traceback) after the reports were written.
    Gives ``arm``, to call first thing inside the caller's ``try``: from then on a signal raises
    there; it returns the signal kept before (held while the command loaded, :func:`turub.tools.
    cli.take_signals`, or come since), if one came: the run is then interrupted before it starts."""
    import threading

    from ..programs.targets import INTERRUPTION, Interrupted, stop_when_dropped, when_dropped
    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    interrupted: list[int] = []
    armed: list[bool] = []  # (until the caller arms it, a signal is only kept, as in the hold)

    def interrupt(signum, frame):
        if interrupted:
            return
        interrupted.append(signum)
        for s in _SIGNALS:
            signal.signal(s, _cli.ignore_signal)  # one interruption is enough: now report
        if armed:
            raise Interrupted(signum)
    held, previous = _cli.take_signals(interrupt)
    if held is not None:
        interrupt(held, None)
    hook_below = when_dropped(INTERRUPTION.keep)  # one raised where Python drops it: raised again

    def arm() -> int | None:
        armed.append(True)  # (called inside the caller's try: a signal from now on raises there)
        return interrupted[0] if interrupted else None
    try:
        yield arm
    finally:
        stop_when_dropped(hook_below)
        INTERRUPTION.clear()
        if not interrupted:
            for s, h in previous.items():
                signal.signal(s, h if h is not None else signal.SIG_DFL)  # type: ignore[arg-type]


# --- turub check -----------------------------------------------------------------------------
# One run reads top to bottom: plan (options, files, the variant, the target) -> run (ask and
# judge, in .check) -> finish (diagnose, verdict) -> write the reports -> the exit status.

def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    try:
        with private_stdout(out, "-" in (args.json, args.jsonl, args.junit, args.write_xfail)) as reports_out:
            return _check(args, reports_out)
    except (UsageError, OptionError) as e:
        sys.stderr.write(f"turub check: error: {e}\n")
        return EXIT_USAGE


def _check(args: argparse.Namespace, out: TextIO) -> int:
    """``turub check``: every stage below takes what the one before gave, nothing more."""
    if args.diff:
        return _diff(args, out)
    started = time.monotonic()  # --time-limit covers loading a variant too
    from ..programs import run_clock
    from ..programs.targets import Interrupted
    run_started = run_clock.now()  # (the limit counts the run's time, not the machine's: run_clock)
    early = _Early()
    with _signals_interrupt() as arm:
        try:  # a signal while the variant loads or the program starts: its status, the reports
            held = arm()
            if held is not None:  # it came while turub loaded
                early.stage = "starting"
                try:
                    _validate(args)  # (the output paths, as for any run)
                except OptionError as e:  # the signal came first: its status, the error said
                    sys.stderr.write(f"turub check: error: {e}\n"
                                     f"turub check: interrupted by {signal.Signals(held).name}\n")
                    return 128 + held
                raise Interrupted(held)
            options, xfail = _plan(args, early)
            if args.list:
                from .listing import planned_checks, render_list
                out.write(render_list(planned_checks(options)))
                return 0
            _say_where_it_cannot_police(args)
            deadline = run_started + args.time_limit
            # what the checks may use, leaving time to stop the program and write the reports
            checks_deadline = deadline - min(2.0, 0.1 * args.time_limit)
            early.stage = "making the program ready"
            target, describe = _target(args, options.rules, checks_deadline)
            early.describe = describe
        except Interrupted as e:
            return _interrupted_early(args, e.signum, early, None, started, out)
        lines = None
        try:
            early.stage = "opening the --jsonl stream"
            lines = _open_jsonl(args, options, describe, out)
            # nothing user code prints reaches a report on stdout; nothing it runs outlasts the limit
            with stdout_to_stderr(), whole_run_limit(deadline):
                raw = _run(target, options, describe, checks_deadline, lines, quiet=args.quiet)
        except Interrupted as e:  # before the run had anything to keep
            return _interrupted_early(args, e.signum, early, lines, started, out)
        try:
            for s in _SIGNALS:
                signal.signal(s, _cli.ignore_signal)  # the reports are written whatever comes now
        except Interrupted as e:  # (one that came as they were being ignored: still an interruption)
            return _interrupted_early(args, e.signum, early, lines, started, out)
        return _conclude(args, raw, xfail, lines, out)


class _Early:
    """How far a run got before it asked anything: the stage it is at, and what it knows
    (the options once planned, how the report describes the program), for the reports of a
    run a signal stops there."""

    def __init__(self) -> None:
        self.stage = "checking the options"
        self.options: Any = None
        self.xfail: list[dict] = []
        self.describe: dict = {}


def _plan(args: argparse.Namespace, early: _Early | None = None) -> tuple[Any, list[dict]]:
    """Every option, file and output path checked, the variant loaded: what to run
    (a :class:`~.check.CheckOptions`) and the expected failures.  Raises UsageError.
    ``early`` is told each stage as it starts (what a signal there reports)."""
    early = early if early is not None else _Early()
    from ..questions.select import Selection, SelectionError
    from ..reports.report import XfailError, load_xfail
    from .check import CheckOptions
    if sum(bool(x) for x in (option_checks.program_command(args.command), args.python, args.sample)) > 1:
        raise UsageError("give one of: -- CMD ARG..., --python module:Object, --sample")
    _validate(args)
    early.stage = f"loading the rules ({_loading(args)})"
    rules = _rules(args.rules, args.variant, args.time_limit)  # first: its clauses may be listed below
    early.options = CheckOptions(rules=rules)
    early.stage = "reading the committed cases"
    example = _example(args, rules)
    xfail: list[dict] = []
    if args.xfail:
        early.stage = "reading the expected failures (--xfail)"
        try:
            xfail = load_xfail(option_checks.input_text("--xfail", args.xfail))
        except (XfailError, RecursionError) as e:
            raise UsageError(f"--xfail {args.xfail}: {e}") from None
    if args.python:
        from ..programs.loader import AdapterLoadError, split_spec
        try:
            split_spec(args.python)
        except AdapterLoadError as e:
            raise UsageError(str(e)) from None
    early.stage = "reading the committed cases"
    try:
        selection = Selection(args.keyword, tuple(args.clause or ()), tuple(args.op or ()),
                              tuple(args.case or ()))
    except SelectionError as e:
        raise UsageError(str(e)) from None
    except (RecursionError, MemoryError):
        raise UsageError("-k: the expression is nested too deep") from None
    options = CheckOptions(rules=rules, vectors=not args.no_vectors,
                           seed=None if args.no_generated else args.seed, scale=args.scale,
                           examples=args.examples, budget=args.budget, properties=args.properties,
                           properties_budget=math.inf if args.properties_budget is None else args.properties_budget,
                           selection=selection, exitfirst=args.exitfirst,
                           second_process=not args.one_process, spec=_pinned(args.spec, rules))
    early.options, early.xfail = options, xfail
    early.stage = "reading the committed cases"
    if example is not None:  # --example N: its case alone, under its option set
        options.rules, options.example_ids = example[0], frozenset({example[1]})
        options.seed, options.examples, options.properties = None, 0, 0
    if args.quick:
        options.scale, options.examples = min(options.scale, 0.2), min(options.examples, 30)
        options.properties = min(options.properties, 10)
    if args.smoke:
        if selection:
            raise UsageError("--smoke asks its own checks: give no -k, --clause, --op or --case with it")
        options.selection, options.seed = smoke_selection(rules), None
        options.examples = options.properties = 0
    return options, xfail


def _example(args: argparse.Namespace, rules: Any) -> tuple[Any, str] | None:
    """``--example N``: the rules of example N's option set and its case ID (UsageError if
    there is no example N, or other rules or a release were asked)."""
    if args.example is None:
        return None
    from turub.options import rules_from_dict
    from ..questions.examples import example_number
    try:
        ex = example_number(args.example)
    except ValueError as e:
        raise UsageError(str(e)) from None
    own = rules_from_dict(ex.rules)
    if args.rules and rules != own or args.variant or args.spec:
        raise UsageError(f"--example {args.example} is a case of the option set {ex.set} "
                         f"({', '.join(f'{k}={v}' for k, v in ex.rules.items())}) at the current "
                         "release: give no --rules, --variant or --spec with it")
    return own, ex.case["id"]


def _pinned(spec: str | None, rules: Any) -> str | None:
    """``--spec VERSION``: a frozen release with cases for ``rules`` (UsageError if not)."""
    if spec is None:
        return None
    from .check import pinned_cases
    try:
        pinned_cases(rules, spec)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return spec


def smoke_selection(rules: Any) -> Any:
    """``--smoke``: the first committed question of each operation (after the handshake,
    which every run makes), nothing generated, no search."""
    from ..questions.select import Selection
    from .check import vector_cases
    first: dict[str, str] = {}
    for case in vector_cases(rules):
        first.setdefault(case["op"], case["id"])
    return Selection(cases=tuple(first.values()))


def _say_where_it_cannot_police(args: argparse.Namespace) -> None:
    """One line at start-up, on a system where a program's processes cannot be policed."""
    from ..programs import process
    if (option_checks.program_command(args.command) or args.python or args.sample) \
            and not process.can_police_processes():
        sys.stderr.write(f"turub check: {process.CANNOT_POLICE.format(platform=sys.platform)}\n")


def _validate(args: argparse.Namespace) -> None:
    """Every option checked before anything runs (OptionError names the first bad one)."""
    args.timeout = option_checks.number("--timeout", args.timeout, high=86_400)
    args.time_limit = option_checks.number("--time-limit", args.time_limit, high=30 * 86_400)
    args.scale = option_checks.number("--scale", args.scale, low_inclusive=True, high=10_000)
    args.budget = option_checks.number("--budget", args.budget, high=86_400)
    if args.properties_budget is not None:
        args.properties_budget = option_checks.number("--properties-budget", args.properties_budget, high=30 * 86_400)
    option_checks.integer("--max-restarts", args.max_restarts, high=1000)
    option_checks.integer("--examples", args.examples, high=10_000_000)
    option_checks.integer("--properties", args.properties, high=1_000_000)
    option_checks.integer("--window", args.window, low=1, high=4096)
    option_checks.integer("--max-line", args.max_line, low=1024, high=1 << 30)
    option_checks.integer("--jobs", args.jobs, low=1, high=256)
    option_checks.output_paths((f"--{o.replace('_', '-')}", getattr(args, o)) for o in _REPORTS)
    option_checks.output_dir("--html", args.html)


#: The options that name a report file (``-``: standard output).
_REPORTS = ("json", "jsonl", "junit", "write_xfail")


def _target(args: argparse.Namespace, rules: Any, deadline: float) -> tuple[Any, dict]:
    """The program to check (``-j N``: N of it) and how the report describes it; with no
    program, the reference playing by ``rules`` (a variant's house rules included)."""
    from ..resources import sample_command
    command = option_checks.program_command(args.command)
    note = None
    if args.sample:
        command = sample_command() or []
        if not command:
            note = "Node.js is not installed: checking the bundled reference instead"
    if command or args.python:
        from ..programs.protocol import ProtocolTarget
        from ..programs.shim import adapter_target

        def make():
            options = dict(timeout=args.timeout, max_restarts=args.max_restarts, deadline=deadline,
                           window=args.window, line_limit=args.max_line)
            return ProtocolTarget(command, **options) if command else adapter_target(args.python, **options)
        describe: dict = {"command": command} if command else {"python": args.python}
    else:
        from .check import reference_target

        def make():
            return reference_target(args.timeout, rules)  # under --variant: playing by it
        describe = {"python": "turub.conformance.adapter:ReferenceImplementation"}
    if note:
        sys.stderr.write(f"turub check: {note}\n")
        describe["note"] = note
    if args.jobs > 1:  # -j N: N instances answer together (turub.conformance.programs.parallel)
        from ..programs.parallel import ParallelTarget
        return ParallelTarget([make() for _ in range(args.jobs)]), describe
    return make(), describe


def _open_jsonl(args: argparse.Namespace, options: Any, describe: dict, out: TextIO) -> Any:
    """The ``--jsonl`` stream, its start line written (None if not asked)."""
    if not args.jsonl:
        return None
    from ..questions.cases import rules_name
    from ..reports.jsonl import JsonlWriter
    from turub.releases import SPEC_VERSION
    from .check import KIT_VERSION
    lines = JsonlWriter(args.jsonl, out)
    rules = options.rules
    lines.start(kit={"version": KIT_VERSION, "engine": __version__}, rules=rules.to_dict(),
                rules_name=rules_name(rules), seed=options.seed,
                judged_by=options.spec or SPEC_VERSION, **describe)
    return lines


def _log_line(message: str) -> None:
    sys.stderr.write(message + "\n")


def _run(target: Any, options: Any, describe: dict, deadline: float, lines: Any, *, quiet: bool) -> dict:
    """The run itself (:func:`~.check.run_check`): the raw report, before the verdict."""
    from .check import run_check
    progress = sys.stderr if not quiet else None
    log = _log_line if progress and sys.stderr.isatty() else None
    return run_check(target, options, describe=describe, progress_stream=progress, deadline=deadline,
                     log=log, on_result=lines.case if lines is not None else None)


def _loading(args: argparse.Namespace) -> str:
    if args.variant:
        return f"--variant {safe_text(args.variant, 200)}"
    return f"--rules {safe_text(' '.join(args.rules), 200)}" if args.rules else "the standard rules"


def _interrupted_early(args: argparse.Namespace, signum: int, early: _Early, lines: Any, started: float,
                       out: TextIO) -> int:
    """A signal before anything was asked: the program's group stopped, and the reports
    written as for any interrupted run (nothing checked, marked ``interrupted``, a line
    saying at which stage), with the signal's status."""
    from ..programs.process import stop_all
    from .check import CheckOptions, interrupted_before_the_run
    for s in _SIGNALS:
        signal.signal(s, _cli.ignore_signal)  # the reports are written whatever comes now
    stop_all()
    stage, options = early.stage, early.options
    if options is None:
        options = CheckOptions()
        stage += " (the rules were not read: the report names the standard ones)"
    if lines is None:
        try:
            lines = _open_jsonl(args, options, early.describe, out)
        except (OptionError, OSError):  # another run writes it, or it cannot be opened
            lines = None
    raw = interrupted_before_the_run(signum, options, early.describe, stage, started)
    return _conclude(args, raw, early.xfail, lines, out)


def _conclude(args: argparse.Namespace, raw: dict, xfail: list[dict], lines: Any, out: TextIO) -> int:
    """The verdict (:func:`~turub.conformance.reports.report.finish`: diagnosis, clause table,
    exit status), the reports written, and the status: the verdict's, or 5 if a report asked
    for was lost."""
    from ..reports.report import EXIT_REPORT_LOST, finish, startup_message
    startup = raw.get("startup_failure")
    if startup and args.python and startup.get("status") == EXIT_USAGE:
        # the shim could not load the adapter: a usage error, its one line says why
        why = (startup.get("stderr") or [startup.get("reason", "")])[-1]
        sys.stderr.write(f"turub check: error: --python {args.python}: {why}\n")
        return EXIT_USAGE
    report = finish(raw, xfail)
    if startup:
        sys.stderr.write(f"turub check: {startup_message(startup)}\n")
    lost = _write_reports(args, report, lines, out)
    if report.get("interrupted"):
        sys.stderr.write(f"turub check: interrupted by {signal.Signals(report['interrupted']).name}; "
                         f"the reports hold what was checked before\n")
    for why in lost:
        sys.stderr.write(f"turub check: error: {why} (the verdict was {report['verdict']})\n")
    return EXIT_REPORT_LOST if lost else report["exit_status"]


def _write_reports(args: argparse.Namespace, report: dict, lines: Any, out: TextIO) -> list[str]:
    """Each report asked for, files written atomically; why each one lost was lost."""
    from ..reports.files import ReportWriteError, write_atomically
    from ..reports.report import as_json, write_json, write_text, xfail_document
    lost: list[str] = []
    if lines is not None:
        lines.summary(report)
        lines.close()
        if lines.lost:
            lost.append(lines.lost)

    def junit(r: dict, f: TextIO) -> None:
        from ..reports.junit import write_junit  # (xml and its imports) only when asked
        write_junit(r, f)
    writers = {"json": write_json, "junit": junit,
               "write_xfail": lambda r, f: f.write(as_json(xfail_document(r)))}
    stdout_gone = lines is not None and lines.stdout_gone  # its reader left: no other report lost
    for option, writer in writers.items():
        path = getattr(args, option)
        try:
            if path == "-":
                try:
                    writer(report, out)
                    out.flush()
                except BrokenPipeError:
                    stdout_gone = True
            elif path:
                write_atomically(path, lambda f: writer(report, f), f"--{option.replace('_', '-')} report")
        except ReportWriteError as e:
            lost.append(str(e))
    if args.html:
        from ..reports.html import write_html
        try:
            write_html(report, args.html, base_url=args.spec_url)
        except ReportWriteError as e:
            lost.append(str(e))
        except OSError as e:
            lost.append(f"cannot write the --html report to {args.html}: {e.strerror or e}")
    if not args.quiet and "-" not in (args.json, args.jsonl, args.junit, args.write_xfail):
        write_text(report, out)
    if stdout_gone:  # every file written: now SIGPIPE's status (turub.tools.cli)
        raise BrokenPipeError(32, "standard output closed")
    return lost


def _diff(args: argparse.Namespace, out: TextIO) -> int:
    """``turub check --diff OLD.json NEW.json``: what changed (exit 1 if something newly fails)."""
    from ..reports.baseline import compare_reports, render_comparison
    from ..reports.report import as_json
    from ..reports.compare import ReportError, load_report
    try:
        docs = [load_report(p, finished=False) for p in args.diff]
    except ReportError as e:
        raise UsageError(f"--diff {e}") from None
    d = compare_reports(*docs)
    for w in d["warnings"]:
        sys.stderr.write(f"turub check: warning: {safe_text(w, 600)}\n")
    if args.json:
        write_output(args.json, as_json(d), out, "comparison")
    if args.json != "-":
        out.write(safe_text(render_comparison(d), keep_lines=True))  # IDs from files someone wrote
    return 1 if d["regressions"] else 0


def _add_check(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="check an implementation against the spec, clause by clause",
                       description="Run the conformance kit.  `turub check -- node impl.js` checks a "
                                   "program speaking the JSON-lines protocol; `--python module:Object` "
                                   "a Python adapter, run in a worker process behind the protocol; "
                                   "`--sample` the bundled JavaScript sample; "
                                   "nothing, the reference engine itself.")
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="-- CMD ARG",
                   help="the implementation's command line: everything after the first --, "
                        "exactly as given, run without a shell")
    p.add_argument("--python", metavar="MODULE:OBJECT", help="a Python adapter (module:Object or path/file.py:Object), run in a "
                        "worker process behind the protocol, stopped like any program")
    p.add_argument("--sample", action="store_true",
                   help="check the bundled JavaScript sample (the reference if Node.js is missing)")
    p.add_argument("--rules", nargs="+", default=[], metavar="OPTION=VALUE",
                   help="the rule options to check under (or a variant's name): direction, stake, "
                        "opponent-dealer, signal-kinds, early-close")
    p.add_argument("--variant", metavar="NAME", help="check against a rule variant's own expected "
                   "answers: a name of `turub variants list`, path.py:NAME, path.toml or path.json")
    p.add_argument("--seed", type=int, default=1, help="seed of the generated cases and of differential play")
    p.add_argument("--scale", type=float, default=1.0, help="multiply the number of generated cases")
    p.add_argument("--examples", type=int, default=300, help="the budget of differential play: two thirds as many deals are drawn, half of them "
                        "played out, and a third as many sittings of up to 15 deals")
    p.add_argument("--budget", type=float, default=8.0, help="seconds for each differential search's "
                   "shrinking (the search itself is sized by --examples); a counterexample found "
                   "past it is reported as found, unshrunk")
    p.add_argument("--properties-budget", type=float, default=None, metavar="SECONDS",
                   help="seconds for the property suites in all (default: no limit of their own: their "
                        "searches are sized by --properties, and only --time-limit cuts them)")
    p.add_argument("--properties", type=int, default=25, metavar="N",
                   help="examples for each property of the project's property suites (the costlier "
                        "ones, which play whole deals, their declared share of N, at least 5; 0: skip them)")
    p.add_argument("--quick", action="store_true", help="a fifth of the generated cases, 30 examples")
    p.add_argument("--no-vectors", action="store_true", help="skip the committed vectors")
    p.add_argument("--example", type=int, metavar="N", help="ask example N of the spec's pages "
                   "alone (a committed case, under its option set)")
    p.add_argument("--spec", metavar="VERSION", help="judge by a frozen release's cases (turub.releases); "
                   "what cannot be pinned (generated cases, differential play, properties) is skipped")
    p.add_argument("--no-generated", action="store_true", help="skip the generated cases")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds per request (default 5)")
    p.add_argument("--time-limit", type=float, default=300.0, help="seconds of the run's own time for the whole run: the time the machine kept it waiting for a CPU is not counted (default 300)")
    p.add_argument("--max-restarts", type=int, default=3, help="restarts of a crashed or hung program")
    p.add_argument("--window", type=int, default=64, help=argparse.SUPPRESS)
    p.add_argument("--max-line", type=int, default=DEFAULT_LINE_LIMIT, metavar="BYTES",
                   help=f"the longest answer line accepted (default {DEFAULT_LINE_LIMIT} bytes, 1 MiB)")
    p.add_argument("--json", metavar="FILE", help="write the JSON report (- for stdout)")
    p.add_argument("--jsonl", metavar="FILE",
                   help="write one JSON line per case as it finishes, then a summary line, each "
                        "flushed at once: a killed run keeps what it checked (- for stdout)")
    p.add_argument("--junit", metavar="FILE",
                   help="write JUnit XML: wrong answers as failures, crashes, hangs and protocol "
                        "violations as errors, a time per case (- for stdout)")
    p.add_argument("--html", metavar="DIR",
                   help="write a static HTML report (DIR/index.html, no script, no network): "
                        "the verdict, the clauses by part of the game, each failure")
    p.add_argument("--spec-url", metavar="URL",
                   help="link each clause of the --html page to the specification site at URL "
                        "(its spec/PAGE.html#CLAUSE pages): a URL or a path relative to the current "
                        "folder; without it the page has no links and shows each clause's text")
    p.add_argument("--xfail", metavar="FILE", help="expected failures (cases or clauses, with reasons)")
    p.add_argument("--write-xfail", metavar="FILE", help="write the current failures as an expected-failures file")
    p.add_argument("--diff", nargs=2, metavar=("OLD.json", "NEW.json"), help="what changed between two reports")
    p.add_argument("--quiet", action="store_true", help="no table on stdout")
    g = p.add_argument_group("choosing checks (turub.conformance.questions.select)")
    g.add_argument("--list", action="store_true",
                   help="list the checks (ID, operation, clauses) a run would make, and run nothing")
    g.add_argument("-k", dest="keyword", metavar="EXPR",
                   help="only checks whose ID, operation or clauses match EXPR: words with and, "
                        "or, not, parentheses (as pytest -k)")
    g.add_argument("--clause", action="append", metavar="ID",
                   help="only checks about this clause; repeatable; play.* for a prefix")
    g.add_argument("--op", action="append", metavar="NAME", help="only checks of this operation; repeatable")
    g.add_argument("--case", action="append", metavar="ID",
                   help="only the check with this ID (as a failure's reproduce command gives it, "
                        "with the run's --seed); repeatable")
    g.add_argument("--smoke", action="store_true",
                   help="is the program alive? the handshake and one question of each operation "
                        "(a second or so), a line per problem; no generated case, no search")
    g.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    g.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="N instances of the implementation answer the cases together; same "
                        "verdict and report order as one (default 1)")
    g.add_argument("--one-process", action="store_true",
                   help="every check in this process; by default, checking the reference engine "
                        "(no program given) on two cores or more runs the property suites in a "
                        "second process meanwhile, with the same report")
    p.set_defaults(run=cmd_check)


def add_commands(sub: argparse._SubParsersAction) -> None:
    from .tools import add_commands as add_tools
    _add_check(sub)
    add_tools(sub)


_cli.register(add_commands)
