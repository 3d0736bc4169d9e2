"""``turub clause ID``: one clause at the terminal, as the specification states it.

Prints the clause in our words and its interpretation (read from the spec's page, ``spec/*.md``),
the sentences it cites, verbatim from the sources when they are found (:mod:`turub.tools.sources`),
the engine code that implements it and the checks that verify it (found as the site's build
finds them, by reading the source).  The spec's pages and the scan live in a source checkout;
from an installed copy without them, the command says so and prints what the registry holds.

Everything heavy is imported when the command runs, not when ``turub`` starts.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[2]

_ITEM = re.compile(r"^(:{3,})\{spec-clause\}[ ]+(\S+)\n((?::[\w-]+:[^\n]*\n)*)(.*?)^\1[ ]*$",
                   re.M | re.S)
_NOTE = re.compile(r"^(:{3,})\{interpretation\}[^\n]*\n(.*?)^\1[ ]*$", re.M | re.S)
_FENCE = re.compile(r"^(`{3,}|:{3,})[^\n]*\n.*?^\1[ ]*$", re.M | re.S)
_ROLE = re.compile(r"\{\w+\}`([^`<]*?)(?:\s*<([^>]*)>)?`")


def _plain(myst: str) -> str:
    """MyST prose as plain text: roles as their text, code blocks and directives dropped."""
    text = _FENCE.sub("", myst)
    text = _ROLE.sub(lambda m: m.group(1) or m.group(2) or "", text)
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
    return "\n\n".join(p for p in paragraphs if p)


def spec_item(clause_id: str, root: Path = ROOT) -> tuple[dict[str, str], str, str] | None:
    """The clause's fields, prose and interpretation from ``spec/*.md``, or None."""
    for page in sorted((root / "spec").glob("*.md")):
        for m in _ITEM.finditer(page.read_text(encoding="utf-8")):
            if m.group(2) == clause_id:
                fields = dict(re.findall(r"^:([\w-]+):\s*(.*)$", m.group(3), re.M))
                body = m.group(4)
                notes = [_plain(n.group(2)) for n in _NOTE.finditer(body)]
                prose = _plain(_NOTE.sub("", body))
                return fields, prose, "\n\n".join(notes)
    return None


def _wrap(text: str, indent: str = "  ", width: int = 92) -> str:
    import textwrap

    # A clause ID (contest.second-win-beats-mark) is one word: never broken at its hyphens.
    return "\n".join(textwrap.fill(p, width, initial_indent=indent, subsequent_indent=indent,
                                    break_on_hyphens=False, break_long_words=False)
                     for p in text.split("\n\n"))


def cmd_clause(args: argparse.Namespace, out: TextIO) -> int:
    from difflib import get_close_matches

    from . import sources
    from ..clauses import CLAUSES, SPEC_VERSION, WITHDRAWN

    cid = args.id
    if cid in WITHDRAWN and cid not in CLAUSES:
        version, why = WITHDRAWN[cid]
        out.write(f"{cid}: withdrawn in specification {version}\n" + _wrap(why) + "\n")
        return 0
    if cid not in CLAUSES:
        near = get_close_matches(cid, list(CLAUSES), n=3, cutoff=0.5)
        hint = f" (did you mean {', '.join(near)}?)" if near else ""
        sys.stderr.write(f"turub clause: error: no clause {cid!r} in the registry{hint}\n")
        return 2
    clause = CLAUSES[cid]
    item = spec_item(cid)
    fields = item[0] if item else {}
    out.write(f"{cid}: {clause.title}\n  specification {SPEC_VERSION}\n")
    facts = [f"kind: {clause.kind}"]
    if fields.get("agreement"):
        facts.append(f"sources: {fields['agreement']}")
    if fields.get("option"):
        facts.append(f"rule option: {fields['option']}")
    if fields.get("rests-on"):
        facts.append(f"rests on: {fields['rests-on']}")
    out.write("  " + "; ".join(facts) + "\n\n")
    if item is None:
        out.write("In our words: the spec's pages (spec/*.md) are not beside this copy.\n\n")
    else:
        out.write("In our words:\n" + _wrap(item[1]) + "\n\n")
        if item[2]:
            out.write("Interpretation:\n" + _wrap(item[2]) + "\n\n")
    folder = sources.find_folder(args.sources)
    if not clause.cites:
        out.write("Sources: none state it; the clause is our decision.\n\n")
    else:
        where = f" (from {folder})" if folder else \
            f" (the source files were not found: pass --sources DIR or set {sources.ENV_VAR})"
        out.write(f"Sources{where}:\n")
        for c in clause.cites:
            out.write(f"  {c}\n")
            if folder:
                try:
                    out.write(_wrap("\u201c" + sources.resolve(c, folder) + "\u201d", "    ") + "\n")
                except sources.CitationError as e:
                    out.write(f"    (does not resolve: {e.reason})\n")
        out.write("\n")
    _code_and_checks(cid, out)
    return 0


def _code_and_checks(cid: str, out: TextIO) -> None:
    ext = ROOT / "docs" / "_ext"
    if not (ext / "turub_trace.py").is_file():
        out.write("Code and checks: found by scanning a source checkout; none is beside this copy.\n")
        return
    sys.path.insert(0, str(ext))
    try:
        import turub_trace
    finally:
        sys.path.remove(str(ext))
    code = [i for i in turub_trace.scan_code(ROOT) if cid in i.clauses]
    checks = [c for c in turub_trace.scan_checks(ROOT) if cid in c.clauses]
    out.write("Code:\n" if code else "Code: none cites it.\n")
    for i in code:
        out.write(f"  {i.name}  ({i.path.relative_to(ROOT)}:{i.start})\n")
    out.write(f"\nChecks ({len(checks)}):\n" if checks else "\nChecks: none.\n")
    for c in checks:
        out.write(f"  {c.name}  ({c.path.relative_to(ROOT)}:{c.line})\n")


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("clause", help="one clause: our words, the interpretation, the cited "
                                      "sentences of the sources, the code and the checks")
    p.add_argument("id", metavar="ID", help="a clause ID, e.g. play.follow-suit")
    p.add_argument("--sources", metavar="DIR", help="the folder holding the source files "
                   "(default: $TURUB_SOURCES, then ../shared/seeds beside the project)")
    p.set_defaults(run=cmd_clause)
