"""The kit's sub-commands of ``turub``: ``check``, ``vectors`` and ``variants``.

Imported by ``turub.cli`` when present; registers itself with :func:`turub.cli.register`.

* ``turub check [-- CMD ARG...] | --python module:Object | --sample``: run the kit.
  Exit statuses: :data:`~turub.conformance.reports.report.EXIT_STATUSES` (0 conforms, 1 does not,
  2 usage error, 3 the program could not start, 4 nothing checked or cut short, 128 + N
  stopped by signal N).  Options and files are checked before anything runs
  (:mod:`~turub.conformance.args`); everything after the first ``--`` is the program's
  command line, exactly as given.
* ``turub check --diff OLD.json NEW.json``: what changed between two JSON reports.
* ``turub vectors``: export the committed vectors (``--regenerate`` rewrites them,
  ``--check`` compares them with the reference).
* ``turub variants diff A B``: the cases and clauses whose answers differ between two
  option sets.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO

from turub import __version__
from turub import cli as _cli
from turub.errors import RuleError

from .. import args as checks
from ..args import DEFAULT_LINE_LIMIT, DEFAULT_SPEC_URL, EXIT_USAGE, PLAYED_DEALS, OptionError

# The rest of the kit is imported by the command that needs it, so that building the parser
# (``turub check --help``) loads nothing else.

__all__ = ["add_commands"]


class _Usage(Exception):
    pass


def _rules(items: list[str], variant: str | None = None):
    """The variant a command runs under (``--variant``, ``--rules``): one table of names."""
    from turub.variants import select
    try:
        return select(variant, items)
    except RuleError as e:
        raise _Usage(str(e)) from None


def _option_set(text: str):
    """A variant named on the command line: a name of the table, a file, or OPTION=VALUE[,...]."""
    return _rules([], text)


def _write(path: str, text: str, out: TextIO) -> None:
    if path == "-":
        out.write(text)
    else:
        Path(path).write_text(text, encoding="utf-8")


def _write_with(path: str, writer, report: dict, out: TextIO) -> None:
    """Write a report with ``writer(report, stream)`` to ``path`` (``-``: ``out``)."""
    if path == "-":
        writer(report, out)
        return
    with open(path, "w", encoding="utf-8") as f:
        writer(report, f)


_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def _signals_interrupt() -> Iterator[None]:
    """While the run lasts, SIGINT, SIGTERM and SIGHUP raise :class:`Interrupted` (the run
    stops its program and keeps what it has); afterwards, while the reports are written,
    a further signal is held off; then the previous handlers come back."""
    import threading

    from ..programs.targets import Interrupted
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in _SIGNALS}

    def interrupt(signum, frame):
        for s in _SIGNALS:
            signal.signal(s, signal.SIG_IGN)  # one interruption is enough: now report
        raise Interrupted(signum)

    for s in _SIGNALS:
        signal.signal(s, interrupt)
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)


# --- turub check -----------------------------------------------------------------------------

def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    try:
        return _check(args, out)
    except (_Usage, OptionError) as e:
        sys.stderr.write(f"turub check: error: {e}\n")
        return EXIT_USAGE


def _validate(args: argparse.Namespace) -> None:
    """Every option checked before anything runs (OptionError names the first bad one)."""
    args.timeout = checks.number("--timeout", args.timeout, high=86_400)
    args.time_limit = checks.number("--time-limit", args.time_limit, high=30 * 86_400)
    args.scale = checks.number("--scale", args.scale, low_inclusive=True, high=10_000)
    args.budget = checks.number("--budget", args.budget, high=86_400)
    checks.integer("--max-restarts", args.max_restarts, high=1000)
    checks.integer("--examples", args.examples, high=10_000_000)
    checks.integer("--properties", args.properties, high=1_000_000)
    checks.integer("--window", args.window, low=1, high=4096)
    checks.integer("--max-line", args.max_line, low=1024, high=1 << 30)
    for option in ("json", "jsonl", "junit", "write_xfail"):
        checks.output_path(f"--{option.replace('_', '-')}", getattr(args, option))
    checks.output_dir("--html", args.html)
    if sum(getattr(args, o) == "-" for o in ("json", "jsonl", "junit", "write_xfail")) > 1:
        raise OptionError("only one of --json, --jsonl, --junit, --write-xfail can be - (stdout)")


def _check(args: argparse.Namespace, out: TextIO) -> int:
    from ..reports.baseline import compare_reports, render_comparison
    from ..questions.cases import rules_name
    from .check import KIT_VERSION, CheckOptions, run_check
    from ..reports.report import (XfailError, as_json, finish, load_xfail, startup_message, write_json, write_text,
                         xfail_document)
    from ..resources import sample_command
    from ..questions.select import Selection, SelectionError
    from ..programs.targets import Interrupted
    if args.diff:
        docs = []
        for p in args.diff:
            try:
                docs.append(json.loads(checks.input_text("--diff", p)))
            except ValueError as e:
                raise _Usage(f"--diff {p}: not a JSON report ({e})") from None
        if not all(isinstance(d, dict) and isinstance(d.get("cases", []), list) for d in docs):
            raise _Usage("--diff needs two JSON reports written by --json")
        d = compare_reports(*docs)
        for w in d["warnings"]:
            sys.stderr.write(f"turub check: warning: {w}\n")
        if args.json:
            _write(args.json, as_json(d), out)
        if args.json != "-":
            out.write(render_comparison(d))
        return 1 if d["regressions"] else 0
    command = checks.program_command(args.command)
    chosen = sum(bool(x) for x in (command, args.python, args.sample))
    if chosen > 1:
        raise _Usage("give one of: -- CMD ARG..., --python module:Object, --sample")
    _validate(args)
    rules = _rules(args.rules, args.variant)  # first: a variant's clauses may be listed below
    xfail: list[dict] = []
    if args.xfail:
        try:
            xfail = load_xfail(checks.input_text("--xfail", args.xfail))
        except XfailError as e:
            raise _Usage(f"--xfail {args.xfail}: {e}") from None
    if args.python:
        from ..programs.loader import AdapterLoadError, split_spec
        try:
            split_spec(args.python)
        except AdapterLoadError as e:
            raise _Usage(str(e)) from None
    if args.jobs < 1:
        raise _Usage("--jobs must be at least 1")
    try:
        selection = Selection(args.keyword, tuple(args.clause or ()), tuple(args.op or ()))
    except SelectionError as e:
        raise _Usage(str(e)) from None
    options = CheckOptions(rules=rules, vectors=not args.no_vectors,
                           seed=None if args.no_generated else args.seed, scale=args.scale,
                           examples=args.examples, budget=args.budget, properties=args.properties,
                           selection=selection, exitfirst=args.exitfirst,
                           second_process=not args.one_process)
    if args.quick:
        options.scale, options.examples = min(options.scale, 0.2), min(options.examples, 30)
        options.properties = min(options.properties, 10)
    if args.list:
        from .listing import planned_checks, render_list
        out.write(render_list(planned_checks(options)))
        return 0
    started = time.monotonic()
    deadline = started + args.time_limit
    # what the checks may use, leaving time to stop the program and write the reports
    checks_deadline = deadline - min(2.0, 0.1 * args.time_limit)
    note = None
    if args.sample:
        command = sample_command() or []
        if not command:
            note = "Node.js is not installed: checking the bundled reference instead"
    describe: dict = {}
    if command:
        from ..programs.protocol import ProtocolTarget

        def make():
            return ProtocolTarget(command, timeout=args.timeout, max_restarts=args.max_restarts,
                                  deadline=checks_deadline, window=args.window, line_limit=args.max_line)
        describe = {"command": command}
    elif args.python:
        from ..programs.protocol import ProtocolTarget
        shim = [sys.executable, "-P", "-m", "turub.conformance.programs.shim", args.python]

        def make():
            return ProtocolTarget(shim, timeout=args.timeout, max_restarts=args.max_restarts,
                                  deadline=checks_deadline, window=args.window, line_limit=args.max_line,
                                  trusted=True)
        describe = {"python": args.python}
    else:
        from .check import reference_target

        def make():
            return reference_target(args.timeout, rules)  # under --variant: playing by it
        describe = {"python": "turub.conformance.adapter:ReferenceImplementation"}
    if args.jobs > 1:  # -j N: N instances answer together (turub.conformance.programs.parallel)
        from ..programs.parallel import ParallelTarget
        target = ParallelTarget([make() for _ in range(args.jobs)])
    else:
        target = make()
    if note:
        sys.stderr.write(f"turub check: {note}\n")
        describe["note"] = note
    progress = sys.stderr if not args.quiet else None
    log = (lambda m: sys.stderr.write(m + "\n")) if progress and sys.stderr.isatty() else None
    lines = None
    if args.jsonl:
        from ..reports.jsonl import JsonlWriter
        lines = JsonlWriter(args.jsonl, out)
        lines.start(kit={"version": KIT_VERSION, "engine": __version__}, rules=rules.to_dict(),
                    rules_name=rules_name(rules), seed=options.seed, **describe)
    with _signals_interrupt():
        try:
            raw = run_check(target, options, describe=describe, progress_stream=progress,
                            deadline=checks_deadline, log=log,
                            on_result=lines.case if lines is not None else None)
        except Interrupted as e:  # before the run had anything to keep
            if lines is not None:
                lines.close()
            from ..programs.process import stop_all
            stop_all()
            sys.stderr.write(f"turub check: interrupted by {signal.Signals(e.signum).name}\n")
            return 128 + e.signum
        for s in _SIGNALS:
            signal.signal(s, signal.SIG_IGN)  # the reports are written whatever comes now
        startup = raw.get("startup_failure")
        if startup and args.python and startup.get("status") == EXIT_USAGE:
            # the shim could not load the adapter: a usage error, its one line says why
            why = (startup.get("stderr") or [startup.get("reason", "")])[-1]
            sys.stderr.write(f"turub check: error: --python {args.python}: {why}\n")
            return EXIT_USAGE
        report = finish(raw, xfail)
        if startup:
            sys.stderr.write(f"turub check: {startup_message(startup)}\n")
        if lines is not None:
            lines.summary(report)
            lines.close()
        if args.json:
            _write_with(args.json, write_json, report, out)
        if args.junit:
            from ..reports.junit import write_junit  # (xml and its imports) only when asked
            _write_with(args.junit, write_junit, report, out)
        if args.write_xfail:
            _write(args.write_xfail, as_json(xfail_document(report)), out)
        if args.html:
            from ..reports.html import write_html
            write_html(report, args.html, base_url=args.spec_url)
        if not args.quiet and "-" not in (args.json, args.jsonl, args.junit, args.write_xfail):
            write_text(report, out)
        if report.get("interrupted"):
            sys.stderr.write(f"turub check: interrupted by {signal.Signals(report['interrupted']).name}; "
                             f"the reports hold what was checked before\n")
        return report["exit_status"]


def _add_check(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="check an implementation against the spec, clause by clause",
                       description="Run the conformance kit.  `turub check -- node impl.js` checks a "
                                   "program speaking the JSON-lines protocol; `--python module:Object` "
                                   "an in-process adapter; `--sample` the bundled JavaScript sample; "
                                   "nothing, the reference engine itself.")
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="-- CMD ARG",
                   help="the implementation's command line: everything after the first --, "
                        "exactly as given, run without a shell")
    p.add_argument("--python", metavar="MODULE:OBJECT", help="an in-process Python adapter")
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
    p.add_argument("--budget", type=float, default=8.0, help="seconds for each differential search and shrink")
    p.add_argument("--properties", type=int, default=25, metavar="N",
                   help="examples for each property of the project's property suites (the costlier "
                        "ones, which play whole deals, their declared share of N, at least 5; 0: skip them)")
    p.add_argument("--quick", action="store_true", help="a fifth of the generated cases, 30 examples")
    p.add_argument("--no-vectors", action="store_true", help="skip the committed vectors")
    p.add_argument("--no-generated", action="store_true", help="skip the generated cases")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds per request (default 5)")
    p.add_argument("--time-limit", type=float, default=300.0, help="seconds for the whole run (default 300)")
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
    p.add_argument("--spec-url", metavar="URL", default=DEFAULT_SPEC_URL,
                   help="where --html links each clause: the specification site's root (its "
                        "spec/PAGE.html#CLAUSE pages), a URL or a path relative to the current folder")
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
    g.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    g.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="N instances of the implementation answer the cases together; same "
                        "verdict and report order as one (default 1)")
    g.add_argument("--one-process", action="store_true",
                   help="every check in this process; by default, checking the reference (or an "
                        "in-process adapter) on two cores or more runs the property suites in a "
                        "second process meanwhile, with the same report")
    p.set_defaults(run=cmd_check)


# --- turub vectors ---------------------------------------------------------------------------

def cmd_vectors(args: argparse.Namespace, out: TextIO) -> int:
    from ..reports.baseline import run_variant
    from ..questions.cases import ask_args, build_vectors, rules_name
    from .check import vector_cases
    from ..questions.vectors import VECTOR_DIR, render_vectors, write_vectors
    try:
        checks.output_path("-o/--output", args.output)
        if args.regenerate:
            for path in write_vectors(Path(args.dir) if args.dir else VECTOR_DIR):
                out.write(f"wrote {path}\n")
            return 0
        if args.check:
            directory = Path(args.dir) if args.dir else VECTOR_DIR
            stale = [name for name, text in render_vectors(build_vectors()).items()
                     if not (directory / name).exists()
                     or (directory / name).read_text(encoding="utf-8") != text]
            for name in stale:
                out.write(f"differs from the reference: {directory / name}\n")
            out.write("vectors up to date\n" if not stale else
                      "regenerate with `turub vectors --regenerate` and review the diff\n")
            return 1 if stale else 0
        rules = _rules(args.rules, args.variant)
        cases = [{**c, "args": ask_args(c["op"], c["args"], rules)} for c in vector_cases(rules)
                 if not args.op or c["op"] in args.op]
        if args.format == "jsonl":
            text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
        else:
            text = json.dumps({"format": "turub-vectors/1", "rules": rules.to_dict(),
                               "rules_name": rules_name(rules), "variant": run_variant(rules),
                               "cases": cases},
                              ensure_ascii=False, indent=1) + "\n"
        _write(args.output, text, out)
        return 0
    except (_Usage, OptionError) as e:
        sys.stderr.write(f"turub vectors: error: {e}\n")
        return 2


def _add_vectors(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("vectors", help="export the conformance vectors (cases as JSON data)")
    p.add_argument("--rules", nargs="+", default=[], metavar="OPTION=VALUE", help="the option set")
    p.add_argument("--variant", metavar="NAME", help="the expected answers of a rule variant")
    p.add_argument("--op", nargs="+", help="only these operations")
    p.add_argument("--format", choices=("json", "jsonl"), default="json")
    p.add_argument("-o", "--output", default="-", help="file to write (default stdout)")
    p.add_argument("--regenerate", action="store_true", help="rewrite the committed vectors from the reference")
    p.add_argument("--check", action="store_true", help="exit 1 if the committed vectors differ from the reference")
    p.add_argument("--dir", help=argparse.SUPPRESS)
    p.set_defaults(run=cmd_vectors)


# --- turub variants ----------------------------------------------------------------------------

def cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    from turub.variants import variant_names

    from ..reports.report import as_json
    from ..reports.variants import render_report, variant_report
    try:
        if args.variants_command == "list":
            names = variant_names()
            width = max(len(n) for n in names)
            for name, v in names.items():
                own = f"; clauses {', '.join(c.id for c in v.all_clauses)}" if v.all_clauses else ""
                out.write(f"{name:<{width}}  {v.version:<4} {v.description or v.rules.to_dict()}{own}\n")
            return 0
        if args.variants_command == "show":
            v = _option_set(args.name)
            d = v.describe()
            if args.json:
                out.write(as_json(d))
                return 0
            out.write(f"{d['name']} {d['version']} ({' <- '.join(d['lineage'])}); {d['source']}\n")
            if d["description"]:
                out.write(f"  {d['description']}\n")
            out.write(f"  options: {', '.join(f'{k}={x}' for k, x in d['options'].items())}\n")
            for k, (mine, std) in d["options_changed"].items():
                out.write(f"  changes {k}: {std} -> {mine} (option clause {_option_clause(k)})\n")
            for c in d["clauses"]:
                out.write(f"  {c['id']} ({c['relation']} {', '.join(c['targets']) or 'the standard rules'}"
                          f"{'; decides ' + c['decides'] if c['decides'] else ''}): {c['title']}\n")
                if c["text"]:
                    out.write(f"      \"{c['text']}\"\n")
            return 0
        a, b = _option_set(args.a), _option_set(args.b)
    except _Usage as e:
        sys.stderr.write(f"turub variants: error: {e}\n")
        return 2
    d = variant_report(a, b, deals=args.deals)
    if args.json:
        _write(args.json, as_json(d), out)
        if args.json == "-":
            return 0
    out.write(render_report(d))
    return 0


def _option_clause(option: str) -> str:
    from turub.options import OPTIONS
    return OPTIONS.get(option, "?")


def _add_variants(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("variants", help="rule variants: list them, show one, compare two")
    vs = p.add_subparsers(dest="variants_command", metavar="SUBCOMMAND", parser_class=_cli._Parser)
    vs.required = True
    vs.add_parser("list", help="every variant name every command accepts")
    s = vs.add_parser("show", help="a variant's options and its own clauses")
    s.add_argument("name", metavar="NAME", help="a name, path.py:NAME, path.toml or OPTION=VALUE[,...]")
    s.add_argument("--json", action="store_true")
    d = vs.add_parser("diff", help="each case whose answer differs between two variants, with the "
                                   "first decision that differs")
    d.add_argument("a", metavar="A", help="a variant: a name of `turub variants list`, path.py:NAME, "
                   "path.toml, or OPTION=VALUE[,OPTION=VALUE]")
    d.add_argument("b", metavar="B")
    d.add_argument("--deals", type=int, default=PLAYED_DEALS,
                   help=f"deals played under each and refereed by both (default {PLAYED_DEALS})")
    d.add_argument("--json", metavar="FILE", help="write the diff as JSON (- for stdout)")
    for q in (s, d):
        q.set_defaults(run=cmd_variants)
    p.set_defaults(run=cmd_variants)


def _add_schema(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("schema", help="print the protocol's JSON Schema (draft 2020-12)",
                       description="Print the JSON Schema of the kit's protocol: every message "
                                   "a program under test receives and sends.")
    p.set_defaults(run=cmd_schema)


def cmd_schema(args: argparse.Namespace, out: TextIO) -> int:
    from ..resources import schema_text
    out.write(schema_text())
    return 0


# --- turub report ------------------------------------------------------------------------------

def cmd_report(args: argparse.Namespace, out: TextIO) -> int:
    from ..reports.compare import ReportError, as_data, compare, write_html, write_terminal
    from ..reports.report import as_json
    try:
        checks.output_dir("--html", args.html)
        checks.output_path("--json", args.json)
        d = compare(args.reports)
    except (ReportError, OptionError) as e:
        sys.stderr.write(f"turub report: error: {e}\n")
        return EXIT_USAGE
    if args.html:
        write_html(d, args.html, base_url=args.spec_url)
    if args.json:
        _write(args.json, as_json(as_data(d)), out)
    if args.json != "-":
        write_terminal(d, out)
    return 0


def _add_report(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="compare the JSON reports of several implementations side by side",
                       description="Compare the JSON reports (`turub check --json`) of several "
                                   "implementations, clause by clause: a table on the terminal, an "
                                   "HTML page with an SVG badge per implementation (--html).  The "
                                   "reports must come from one kit version and one option set.")
    p.add_argument("reports", nargs="+", metavar="REPORT.json", help="JSON reports of turub check --json")
    p.add_argument("--html", metavar="DIR", help="write DIR/index.html and DIR/badges/*.svg")
    p.add_argument("--spec-url", metavar="URL", default=DEFAULT_SPEC_URL,
                   help="where --html links each clause: the specification site's root, a URL or "
                        "a path relative to the current folder")
    p.add_argument("--json", metavar="FILE", help="write the comparison as JSON (- for stdout)")
    p.set_defaults(run=cmd_report)


def add_commands(sub: argparse._SubParsersAction) -> None:
    _add_check(sub)
    _add_report(sub)
    _add_vectors(sub)
    _add_variants(sub)
    _add_schema(sub)


_cli.register(add_commands)
