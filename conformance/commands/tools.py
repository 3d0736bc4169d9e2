"""The kit's other sub-commands of ``turub``: ``vectors``, ``variants``, ``schema`` and
``report`` (``check`` is :mod:`.cli`'s).  Each checks its arguments first; a mistake is one
line and exit status 2; everything it prints that came from a file is escaped.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from turub.tools import cli as _cli

from .. import option_checks
from ..option_checks import EXIT_USAGE, PLAYED_DEALS, OptionError
from ..text import safe_text
from .usercode import UsageError as _Usage
from .usercode import load_variant

__all__ = ["add_commands", "write_output"]


def _rules(items: list[str], variant: str | None = None):
    return load_variant(items, variant)


def _option_set(text: str):
    """A variant named on the command line: a name of the table, a file, or OPTION=VALUE[,...]."""
    return _rules([], text)


def write_output(path: str, text: str, out: TextIO, what: str = "output") -> None:
    """``text`` to ``path`` (``-``: ``out``), written atomically
    (:func:`~turub.conformance.reports.files.write_atomically`)."""
    if path == "-":
        out.write(text)
        return
    from ..reports.files import write_atomically
    write_atomically(path, lambda f: f.write(text), what)


_write = write_output


# --- turub vectors ---------------------------------------------------------------------------

def cmd_vectors(args: argparse.Namespace, out: TextIO) -> int:
    from ..reports.files import ReportWriteError
    from ..reports.report import EXIT_REPORT_LOST
    from ..reports.baseline import run_variant
    from ..questions.cases import ask_args, build_vectors, rules_name
    from .check import vector_cases
    from turub.releases import SPEC_VERSION
    from ..questions.vectors import VECTOR_DIR, render_vectors, write_vectors
    from ..questions.planned import PLANNED_DIR, render_planned, write_planned
    try:
        option_checks.output_path("-o/--output", args.output)
        if args.regenerate or args.check:  # every committed set, from the reference: nothing to choose
            given = [o for o, v in (("--rules", args.rules), ("--variant", args.variant), ("--op", args.op),
                                    ("--spec", args.spec), ("--format", args.format != "json")) if v]
            if given:
                raise _Usage(f"{'--regenerate' if args.regenerate else '--check'} covers every committed "
                             f"set of vectors as the reference answers them; {', '.join(given)} does not apply")
        if args.regenerate:
            option_checks.output_dir("--dir", args.dir)  # a folder planted as a link is never followed
            # the committed folders: the planned cases of the default check too (--dir: a
            # folder of vectors alone)
            for path in write_vectors(Path(args.dir) if args.dir else VECTOR_DIR) + \
                    ([] if args.dir else write_planned()):
                out.write(f"wrote {path}\n")
            return 0
        if args.check:
            directory = Path(args.dir) if args.dir else VECTOR_DIR
            rendered = [(directory / name, text) for name, text in render_vectors(build_vectors()).items()]
            if not args.dir:
                rendered += [(PLANNED_DIR / name, text) for name, text in render_planned().items()]
            stale = [path for path, text in rendered
                     if not path.exists() or option_checks.input_text("--dir", str(path)) != text]
            for path in stale:
                out.write(f"differs from the reference: {path}\n")
            out.write("vectors up to date\n" if not stale else
                      "regenerate with `turub vectors --regenerate` and review the diff\n")
            return 1 if stale else 0
        rules = _rules(args.rules, args.variant)
        try:
            pinned = vector_cases(rules, args.spec)
        except ValueError as e:
            raise _Usage(str(e)) from None
        cases = [{**c, "args": ask_args(c["op"], c["args"], rules)} for c in pinned
                 if not args.op or c["op"] in args.op]
        if args.format == "jsonl":
            text = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
        else:
            text = json.dumps({"format": "turub-vectors/1", "rules": rules.to_dict(),
                               "rules_name": rules_name(rules), "variant": run_variant(rules),
                               "release": args.spec or SPEC_VERSION,
                               "cases": cases},
                              ensure_ascii=False, indent=1) + "\n"
        _write(args.output, text, out)
        return 0
    except (_Usage, OptionError) as e:
        sys.stderr.write(f"turub vectors: error: {e}\n")
        return EXIT_USAGE
    except ReportWriteError as e:
        sys.stderr.write(f"turub vectors: error: {e}\n")
        return EXIT_REPORT_LOST


def _add_vectors(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("vectors", help="export the conformance vectors (cases as JSON data)")
    p.add_argument("--rules", nargs="+", default=[], metavar="OPTION=VALUE", help="the option set")
    p.add_argument("--variant", metavar="NAME", help="the expected answers of a rule variant")
    p.add_argument("--op", nargs="+", help="only these operations")
    p.add_argument("--spec", metavar="VERSION", help="a frozen release's cases (default: the current vectors)")
    p.add_argument("--format", choices=("json", "jsonl"), default="json")
    p.add_argument("-o", "--output", default="-", help="file to write (default stdout)")
    p.add_argument("--regenerate", action="store_true", help="rewrite the committed vectors (and the default check's planned cases) from the reference")
    p.add_argument("--check", action="store_true", help="exit 1 if the committed vectors (or the planned cases) differ from the reference")
    p.add_argument("--dir", help=argparse.SUPPRESS)
    p.set_defaults(run=cmd_vectors)


# --- turub variants ----------------------------------------------------------------------------

class _Escaping:
    """``out`` with everything written escaped (:func:`~turub.conformance.text.safe_text`,
    lines kept): what a variant file says about itself is shown, never obeyed."""

    def __init__(self, out: TextIO) -> None:
        self._out = out

    def write(self, text: str) -> int:
        return self._out.write(safe_text(text, keep_lines=True))

    def __getattr__(self, name: str):
        return getattr(self._out, name)


def cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    from turub.variants import variant_names

    from ..reports.report import as_json
    from ..reports.variants import render_report, variant_report
    raw, out = out, _Escaping(out)  # type: ignore[assignment]
    try:
        if args.variants_command == "list":
            names = variant_names()
            width = max(len(n) for n in names)
            for name, v in names.items():
                own = f"; clauses {', '.join(c.id for c in v.all_clauses)}" if v.all_clauses else ""
                out.write(f"{name:<{width}}  {v.version:<4} {v.description or v.rules.to_dict()}{own}\n")
            return 0
        if args.variants_command == "show":
            args.variant = args.name  # named by a time limit reached while it loads
            v = _option_set(args.name)
            d = v.describe()
            if args.json:
                raw.write(as_json(d))
                return 0
            out.write(f"{d['name']} {d['version']} ({' <- '.join(d['lineage'])}); {d['source']}\n")
            if d["description"]:
                out.write(f"  {d['description']}\n")
            out.write(f"  options: {', '.join(f'{k}={x}' for k, x in d['options'].items())}\n")
            for k, (mine, std) in d["options_changed"].items():
                out.write(f"  changes {k}: {std} -> {mine} (option clause {_option_clause(k)})\n")
            for c in d["clauses"]:
                asked = f" at {', '.join(c['applies_to'])} plays only" if c.get("applies_to") else ""
                out.write(f"  {c['id']} ({c['relation']} {', '.join(c['targets']) or 'the standard rules'}"
                          f"{'; decides ' + c['decides'] + asked if c['decides'] else ''}): {c['title']}\n")
                if c["text"]:
                    out.write(f"      \"{c['text']}\"\n")
            return 0
        args.variant = args.a  # named by a time limit reached while one loads
        a = _option_set(args.a)
        args.variant = args.b
        b = _option_set(args.b)
    except _Usage as e:
        sys.stderr.write(f"turub variants: error: {e}\n")
        return EXIT_USAGE
    d = variant_report(a, b, deals=args.deals)
    if args.json:
        _write(args.json, as_json(d), raw)
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
    from turub.tools.limits import seconds
    for q in (s, d):  # a variant file's rules are user code: they may loop as it loads
        q.add_argument("--time-limit", type=seconds, metavar="SECONDS", dest="command_time_limit",
                       help="stop after SECONDS (loading the variant and its house rules included) "
                            "with one line saying what was running, exit status 4")
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
    from ..reports.files import ReportWriteError
    from ..reports.report import EXIT_REPORT_LOST
    try:
        option_checks.output_dir("--html", args.html)
        option_checks.output_path("--json", args.json)
        d = compare(args.reports)
    except (ReportError, OptionError) as e:
        sys.stderr.write(f"turub report: error: {safe_text(str(e), 600)}\n")
        return EXIT_USAGE
    try:
        if args.html:
            write_html(d, args.html, base_url=args.spec_url)
        if args.json:
            _write(args.json, as_json(as_data(d)), out, "comparison")
    except BrokenPipeError:
        raise  # standard output closed (--json -): SIGPIPE's status (turub.tools.cli), not a lost file
    except (ReportWriteError, OSError) as e:
        sys.stderr.write(f"turub report: error: {e}\n")
        return EXIT_REPORT_LOST
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
    p.add_argument("--spec-url", metavar="URL",
                   help="link each clause of the --html page to the specification site at URL: a "
                        "URL or a path relative to the current folder; without it, no links")
    p.add_argument("--json", metavar="FILE", help="write the comparison as JSON (- for stdout)")
    p.set_defaults(run=cmd_report)


def add_commands(sub: argparse._SubParsersAction) -> None:
    _add_report(sub)
    _add_vectors(sub)
    _add_variants(sub)
    _add_schema(sub)
