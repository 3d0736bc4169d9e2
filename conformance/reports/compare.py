"""Several implementations side by side (``turub report A.json B.json ...``).

Reads the JSON reports ``turub check --json`` wrote, one per implementation, and shows for
each clause (grouped by part of the game) the result each implementation got: on the
terminal a table (drawn by rich on a terminal, plain text otherwise), and as a static HTML
page (``--html DIR``: ``DIR/index.html`` and an SVG badge per implementation in
``DIR/badges/``), after the public comparison sites of other specifications (Bowtie's for
JSON Schema).

Reports are comparable only when one kit version wrote them under one option set (rules and
variant); anything else, or a file that is not a finished turub report, is a
:class:`ReportError` naming the file.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any, TextIO

from .badge import COLOURS, report_badge
from .html import clause_groups, clause_link, clause_title, e, page, spec_base, verdict_badge
from .report import STATUS_STYLES
from ..text import options_text, safe_text

__all__ = ["ReportError", "load_report", "compare", "render_text", "write_terminal", "write_html",
           "REPORT_FORMAT"]

REPORT_FORMAT = "turub-report/1"

#: What each field of a report read back must be, checked before any of it is used: the
#: fields every finished report has, then those it may leave out or null.
_OBJECT, _TEXT, _LIST = (dict, "an object"), (str, "text"), (list, "a list")
_NEEDED: dict[str, tuple[type, str]] = {
    "verdict": _TEXT, "clauses": _OBJECT, "summary": _OBJECT, "implementation": _OBJECT, "kit": _OBJECT,
    "rules": _OBJECT,
}
_OPTIONAL: dict[str, tuple[type, str]] = {"cases": _LIST, "variant": _OBJECT, "spec": _OBJECT, "diagnosis": _OBJECT}
#: The fields of the nested objects the readers use.
_NESTED: dict[str, dict[str, tuple[type, str]]] = {
    "implementation": {"name": _TEXT, "version": _TEXT}, "kit": {"version": _TEXT},
    "variant": {"name": _TEXT, "version": _TEXT},
}


class ReportError(ValueError):
    """A file ``turub report`` (or ``--diff``) cannot use; the message names the file."""


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true or false",
            type(None): "null"}.get(type(value), "a number")


def _checked_fields(path: str, doc: dict) -> dict:
    """``doc`` if each field has its type (``ReportError`` naming the first that does not)."""
    def refuse(field: str, wanted: str, value: Any) -> ReportError:
        return ReportError(f"{safe_text(path, 300)}: the field '{field}' is {_kind(value)}, not {wanted}")
    for field, (kind, wanted) in {**_NEEDED, **_OPTIONAL}.items():
        if field in doc and not (doc[field] is None and field in _OPTIONAL) and not isinstance(doc[field], kind):
            raise refuse(field, wanted, doc[field])
    for field, inner in _NESTED.items():
        for key, (kind, wanted) in inner.items():
            value = (doc.get(field) or {}).get(key)
            if value is not None and not isinstance(value, kind):
                raise refuse(f"{field}.{key}", wanted, value)
    for clause, row in (doc.get("clauses") or {}).items():
        if not isinstance(row, dict):
            raise refuse(f"clauses.{safe_text(clause, 80)}", "an object", row)
        if not isinstance(row.get("status", ""), str):
            raise refuse(f"clauses.{safe_text(clause, 80)}.status", "text", row["status"])
    for n, case in enumerate(doc.get("cases") or []):
        if not isinstance(case, dict) or not isinstance(case.get("id"), str):
            raise refuse(f"cases[{n}]", "an object with an 'id' (text)", case)
        if not isinstance(case.get("status", ""), str):
            raise refuse(f"cases[{n}].status", "text", case["status"])
    return doc


def load_report(path: str, *, finished: bool = True) -> dict:
    """A JSON report of ``turub check``, each field of its type, or :class:`ReportError`:
    a finished one (its format and every field ``turub report`` reads), or, with
    ``finished=False`` (``--diff``), any report object."""
    from turub.user_files import InputFileError, read_input_text
    try:
        text = read_input_text(path)
    except InputFileError as err:
        raise ReportError(str(err)) from None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ReportError(f"{safe_text(path, 300)}: not JSON ({err})") from None
    if not isinstance(doc, dict) or (finished and doc.get("format") != REPORT_FORMAT):
        raise ReportError(f"{safe_text(path, 300)}: not a turub report (a report of `turub check --json` has "
                          f"\"format\": \"{REPORT_FORMAT}\")")
    missing = [k for k in _NEEDED if k not in doc]
    if finished and missing:
        raise ReportError(f"{safe_text(path, 300)}: a turub report without {', '.join(missing)} "
                          "(not a finished report)")
    return _checked_fields(path, doc)


def _option_set(report: dict) -> str:
    variant = (report.get("variant") or {}).get("name", "standard")
    return f"variant {variant} ({options_text(sorted((report.get('rules') or {}).items()))})"


def compare(paths: list[str]) -> dict:
    """The comparison of the reports in ``paths`` (plain data), or :class:`ReportError`."""
    reports = [(p, load_report(p)) for p in paths]
    first_path, first = reports[0]
    for path, r in reports[1:]:
        if (r.get("kit") or {}).get("version") != (first.get("kit") or {}).get("version"):
            raise ReportError(f"{path}: written by kit version {safe_text((r.get('kit') or {}).get('version'), 40)}, "
                              f"{first_path} by {safe_text((first.get('kit') or {}).get('version'), 40)}: "
                              "compare reports of one kit version")
        if _option_set(r) != _option_set(first):
            raise ReportError(f"{path}: checked under {safe_text(_option_set(r), 300)}, {first_path} under "
                              f"{safe_text(_option_set(first), 300)}: compare reports of one option set")
    implementations = []
    for n, (path, r) in enumerate(reports, 1):
        impl = r["implementation"]
        name = safe_text(impl.get("name"), 80)
        version = safe_text(impl.get("version"), 40)
        rows = r["clauses"]
        passed = sum(1 for x in rows.values() if isinstance(x, dict) and x.get("status") == "passed")
        command = impl.get("command") or impl.get("python") or ""
        if isinstance(command, list):
            command = " ".join(str(part) for part in command)
        implementations.append({
            "file": safe_text(path, 300), "name": name, "version": version, "verdict": safe_text(r.get("verdict"), 40),
            "command": safe_text(command, 300), "seed": safe_text(r.get("seed"), 40),
            "clauses_passed": passed, "clauses": len(rows),
            "badge": f"badges/{n}-{re.sub(r'[^A-Za-z0-9_.-]+', '-', name).strip('-.') or 'implementation'}.svg",
            "svg": report_badge(r)})
    _label(implementations)
    ids = list(dict.fromkeys(cid for _, r in reports for cid in r["clauses"]))
    # Everything below came from files someone else wrote: escaped once, here (clause IDs,
    # statuses, the option set, the kit's version, the files' names).
    return {"option_set": safe_text(_option_set(first), 300),
            "kit": safe_text((first.get("kit") or {}).get("version"), 40),
            "implementations": implementations,
            "clauses": {safe_text(cid, 120): [_status(r["clauses"].get(cid)) for _, r in reports]
                        for cid in ids}}


def _status(row: Any) -> str:
    """A clause row's status as another report states it, escaped and bounded."""
    return safe_text((row if isinstance(row, dict) else {}).get("status", "absent"), 40)


def _label(implementations: list[dict]) -> None:
    """Give each report its ``label``: its name and version, and where two reports share
    them (two runs of one program), what tells them apart: the seed, else the command, else
    the file (the first of these that differs for each of them), else its place in the list."""
    names = [f"{i['name']} {i['version']}".strip() for i in implementations]
    for n, (i, name) in enumerate(zip(implementations, names), 1):
        twins = [j for j, other in zip(implementations, names) if other == name]
        if len(twins) == 1:
            i["label"] = name
            continue
        apart = [key for key in ("seed", "command", "file") if len({j[key] for j in twins}) == len(twins)]
        differ = [key for key in ("seed", "command", "file") if len({j[key] for j in twins}) > 1]
        keys = apart[:1] or differ
        extra = ", ".join(f"{key} {i[key]}" for key in keys) if keys else f"report {n}"
        i["label"] = f"{name} ({extra})"


def _heading(impl: dict) -> str:
    """The report's label: what distinguishes it from the others compared."""
    return impl.get("label") or f"{impl['name']} {impl['version']}".strip()


def render_text(d: dict) -> str:
    """The comparison as plain text (a log, a file, a pipe)."""
    impls = d["implementations"]
    width = max([len(c) for c in d["clauses"]] + [6])
    cols = [max(len(_heading(i)), 10) for i in impls]
    lines = [f"turub report: {len(impls)} implementation(s), {d['option_set']}, kit {d['kit']}", ""]
    for i in impls:
        lines.append(f"  {_heading(i)}: {i['verdict']}, {i['clauses_passed']}/{i['clauses']} clauses passed ({i['file']})")
    for title, ids in clause_groups(d["clauses"]):
        lines += ["", title, f"  {'clause':<{width}}  " + "  ".join(f"{_heading(i):<{w}}" for i, w in zip(impls, cols))]
        for cid in ids:
            lines.append((f"  {cid:<{width}}  " + "  ".join(f"{s:<{w}}" for s, w in zip(d["clauses"][cid], cols))).rstrip())
    return "\n".join(lines) + "\n"


def write_terminal(d: dict, out: TextIO) -> None:
    """A rich table when ``out`` is a terminal (rich decides: NO_COLOR, FORCE_COLOR), else
    :func:`render_text`."""
    from turub.tools.progress import terminal_console
    console = terminal_console(out)
    if console is None:
        out.write(render_text(d))
        return
    from rich.table import Table
    from rich.text import Text
    impls = d["implementations"]
    summary = Table(title=f"turub report: {d['option_set']}, kit {d['kit']}")
    for col in ("implementation", "verdict", "clauses passed", "report"):
        summary.add_column(col)
    for i in impls:
        colour = "green" if i["verdict"] == "CONFORMS" else "red" if i["verdict"] in COLOURS else "dim"
        summary.add_row(Text(_heading(i)), Text(i["verdict"], style=colour),
                        Text(f"{i['clauses_passed']}/{i['clauses']}"), Text(i["file"]))
    console.print(summary)
    for title, ids in clause_groups(d["clauses"]):
        table = Table(title=title, title_justify="left")
        table.add_column("clause")
        for i in impls:
            table.add_column(Text(_heading(i)))
        for cid in ids:
            table.add_row(Text(cid), *(Text(s, style=STATUS_STYLES.get(s, "")) for s in d["clauses"][cid]))
        console.print(table)


def _write_text(text: str, f: TextIO) -> None:
    f.write(text)


def write_html(d: dict, out_dir: str | Path, base_url: str | None = None) -> Path:
    """``out_dir/index.html`` and ``out_dir/badges/*.svg``; returns the page's path."""
    from turub.user_files import planted_link

    from .files import ReportWriteError, write_atomically
    folder = Path(out_dir)
    for inside in (folder, folder / "badges"):  # (--html /tmp: its badges folder may be planted)
        if (why := planted_link(str(inside))) is not None:
            raise ReportWriteError(f"cannot write the --html report to {inside}: {why}")
    (folder / "badges").mkdir(parents=True, exist_ok=True)
    for i in d["implementations"]:
        write_atomically(str(folder / i["badge"]), functools.partial(_write_text, i["svg"]), "badge")
    base = spec_base(base_url, folder)
    impls = d["implementations"]
    body = [f"<h1>turub report: {len(impls)} implementation{'s' if len(impls) != 1 else ''}</h1>",
            f"<p>{e(d['option_set'])}; kit {e(d['kit'])}</p>",
            "<table>\n<tr><th>implementation</th><th>badge</th><th>verdict</th><th>clauses passed</th><th>report</th></tr>"]
    for i in impls:
        body.append(f"<tr><td>{e(_heading(i))}</td><td><img src=\"{e(i['badge'])}\" alt=\"{e(i['name'])}\"></td>"
                    f"<td>{verdict_badge(i['verdict'])}</td><td class=\"n\">{i['clauses_passed']}/{i['clauses']}</td>"
                    f"<td><code>{e(i['file'])}</code></td></tr>")
    body.append("</table>")
    head = "".join(f"<th>{e(_heading(i))}</th>" for i in impls)
    for title, ids in clause_groups(d["clauses"]):
        body.append(f"<h2>{e(title)}</h2>\n<table class=\"matrix\">\n<tr><th>clause</th><th>title</th>{head}</tr>")
        for cid in ids:
            cells = "".join(f"<td class=\"s-{e(s, 20)}\">{e(s, 20)}</td>" for s in d["clauses"][cid])
            body.append(f"<tr><td>{clause_link(cid, base)}</td><td>{e(clause_title(cid))}</td>{cells}</tr>")
        body.append("</table>")
    index = folder / "index.html"
    text = page("turub report", "\n".join(body))
    write_atomically(str(index), lambda f: f.write(text), "--html report")
    return index


def as_data(d: dict) -> dict[str, Any]:
    """The comparison without the badges' SVG text (for ``--json``)."""
    return {**d, "implementations": [{k: v for k, v in i.items() if k != "svg"} for i in d["implementations"]]}
