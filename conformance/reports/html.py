"""The report as a static HTML page (``turub check --html DIR``): ``DIR/index.html`` and
``DIR/badge.svg``, no script, no network, readable offline and in a CI artifact.

The page shows the verdict, the summary, the diagnosis, the clause matrix grouped by part of
the game (the parts, their titles and the clause titles come from :mod:`turub.clauses`),
each failure with its blamed clause, its detail, its smallest situation and the command that
asks it alone, and what the program wrote on its standard error.  The page is whole offline:
each clause shows its ID and its text.  With ``--spec-url SPEC``, every clause also links to
its item in the specification site: ``SPEC/spec/PAGE.html#ID`` where ``PAGE`` is its part's
page and ``ID`` the clause's ID, its documented anchor (``spec/play.html#play.follow-suit``);
``SPEC`` is a URL (used as given) or a folder (a path relative to the current folder, made
relative to ``DIR``).  Without it there is no link (none that would be dead where no docs
build is).

Everything that came from the program is escaped with :func:`html.escape` after
:func:`~turub.conformance.text.safe_text`, so no answer can add markup to the page.
"""

from __future__ import annotations

import json
import os
from html import escape
from pathlib import Path
from typing import Any, Final, Iterable

from turub.clauses import CLAUSES, PARTS, VARIANT_CLAUSES, part_of

from ..option_checks import DEFAULT_SPEC_URL
from .badge import report_badge
from .baseline import judged_by
from .report import failing_cases
from .rerun import rerun_command
from ..text import options_text, safe_text

__all__ = ["write_html", "render_html", "DEFAULT_SPEC_URL", "clause_url", "spec_base", "page",
           "clause_groups", "clause_title", "e"]

#: How many failures the page shows in full (the JSON report has them all).
SHOWN_FAILURES: Final = 200

_STYLE: Final = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
.rerun code { overflow-wrap: anywhere; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; } h3 { margin-bottom: .3em; }
table { border-collapse: collapse; margin: .5em 0; } td, th { padding: .2em .6em; border: 1px solid #ddd; text-align: left; vertical-align: top; }
.frame { overflow-x: auto; max-width: 100%; } .frame > table { margin: 0; }
th { white-space: nowrap; } .about td { overflow-wrap: anywhere; } h1, h3, p { overflow-wrap: anywhere; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f6f6f6; padding: .6em; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
.verdict { display: inline-block; padding: .3em .8em; font-weight: bold; color: #fff; border-radius: 3px; }
.v-CONFORMS { background: #2e7d32; } .v-DOES-NOT-CONFORM, .v-COULD-NOT-START { background: #c62828; }
.v-other { background: #757575; }
.s-passed { background: #e8f5e9; } .s-failed, .s-xpass { background: #ffebee; } .s-affected { background: #fff8e1; }
.s-xfail { background: #f3e5f5; } .s-unsupported, .s-not-run, .s-absent { color: #777; }
.failure { border-left: 4px solid #c62828; padding-left: 1em; margin: 1.2em 0; }
.muted { color: #777; }
table.matrix { min-width: 100%; } .matrix td:nth-child(2) { min-width: 12em; } .matrix code { white-space: nowrap; }
details.clause-failures { margin: 1em 0; } details.clause-failures > summary { cursor: pointer; font-weight: bold; }
details.more { margin-left: 1em; }
@media (max-width: 600px) { body { margin: 1em auto; padding: 0 .5em; } }
"""


def e(value: Any, limit: int = 4000) -> str:
    """Any value as HTML text: made safe (escapes for control characters), bounded, escaped."""
    return escape(safe_text(value, limit, keep_lines=True))


def spec_base(spec_url: str | None, out_dir: str | Path) -> str | None:
    """The base of the clause links as written in ``out_dir``'s page (None: no links)."""
    if spec_url is None:
        return None
    if "://" in spec_url or spec_url.startswith("/"):
        return spec_url.rstrip("/")
    return Path(os.path.relpath(Path(spec_url).resolve(), Path(out_dir).resolve())).as_posix()


def clause_url(clause_id: str, base: str | None) -> str | None:
    """The clause's item in the specification site (None: not a standard clause, or no site
    given), at its documented address: the clause's ID is its anchor
    (``spec/play.html#play.follow-suit``)."""
    part = part_of(clause_id)
    if part is None or base is None:
        return None
    return f"{base}/spec/{part.page}.html#{clause_id}"


def clause_title(clause_id: str) -> str:
    c = CLAUSES.get(clause_id) or VARIANT_CLAUSES.get(clause_id)
    return getattr(c, "title", "") or ""


def clause_link(clause_id: str, base: str | None) -> str:
    url = clause_url(clause_id, base)
    text = f"<code>{e(clause_id, 200)}</code>"
    return f'<a href="{escape(url)}">{text}</a>' if url else text


def clause_groups(ids: Iterable[str]) -> list[tuple[str, list[str]]]:
    """``ids`` grouped by part of the game, in the specification's order (clauses of no
    part, such as a variant's, last)."""
    ids = list(dict.fromkeys(ids))
    order = {cid: n for n, cid in enumerate(CLAUSES)}
    groups: list[tuple[str, list[str]]] = []
    for part in PARTS:
        mine = sorted((c for c in ids if part_of(c) is part), key=lambda c: order[c])
        if mine:
            groups.append((part.title, mine))
    rest = [c for c in ids if part_of(c) is None]
    if rest:
        groups.append(("Other clauses (a variant's own, or not in the registry)", sorted(rest)))
    return groups


def page(title: str, body: str) -> str:
    """The HTML page: every table in a frame of its own that scrolls sideways when the table
    is wider than the screen (a phone), so the page itself never does."""
    body = body.replace("<table", '<div class="frame"><table').replace("</table>", "</table></div>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{e(title, 300)}</title>\n"
            f"<style>{_STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n")


def verdict_badge(verdict: str, text: str | None = None) -> str:
    """The verdict in its colour, labelled ``text`` (the verdict with what it judged)."""
    known = verdict in ("CONFORMS", "DOES NOT CONFORM", "COULD NOT START")
    css = "v-" + verdict.replace(" ", "-") if known else "v-other"
    return f'<span class="verdict {css}">{e(text or verdict, 200)}</span>'


def write_html(report: dict, out_dir: str | Path, base_url: str | None = None) -> Path:
    """Write ``out_dir/index.html`` and ``out_dir/badge.svg``; returns the page's path."""
    from turub.user_files import planted_link

    from .files import ReportWriteError, write_atomically
    folder = Path(out_dir)
    if (why := planted_link(str(folder))) is not None:
        raise ReportWriteError(f"cannot write the --html report to {folder}: {why}")
    folder.mkdir(parents=True, exist_ok=True)
    badge = report_badge(report)
    write_atomically(str(folder / "badge.svg"), lambda f: f.write(badge), "--html badge")
    index = folder / "index.html"
    page_text = render_html(report, spec_base(base_url, folder))
    write_atomically(str(index), lambda f: f.write(page_text), "--html report")
    return index


def render_html(report: dict, base: str | None = None) -> str:
    """The page, with clause links under ``base`` (as written in the page)."""
    impl = report["implementation"]
    name = f"{safe_text(impl.get('name'), 100)} {safe_text(impl.get('version'), 100)}"
    verdict = report.get("verdict", "")
    parts = [f"<h1>turub check: {e(name, 220)}</h1>",
             f"<p>{verdict_badge(verdict, report.get('verdict_text'))} <img src=\"badge.svg\" alt=\"\"></p>",
             _about(report)]
    startup = report.get("startup_failure")
    if startup:
        from .report import startup_message
        parts.append(f"<h2>Could not start</h2>\n<pre>{e(startup_message(startup), 8000)}</pre>")
    else:
        parts += [_summary(report), _diagnosis(report), _matrix(report, base), _failures(report, base)]
    diagnostics = report.get("diagnostics") or []
    if diagnostics:
        parts.append("<h2>Diagnostics (never a verdict)</h2>\n"
                     + "\n".join(f"<pre>{e(d, 4000)}</pre>" for d in diagnostics[:20]))
    return page(f"turub check: {name}: {report.get('verdict_text') or verdict}", "\n".join(p for p in parts if p))


def _about(report: dict) -> str:
    impl = report["implementation"]
    command = impl.get("command") or impl.get("python") or ""
    if isinstance(command, list):
        command = " ".join(command)
    kit = report.get("kit") or {}
    rows = [("implementation", f"{safe_text(impl.get('name'), 100)} {safe_text(impl.get('version'), 100)}"),
            ("command", command),
            ("rules", f"{report.get('rules_name', '')} ({options_text(report.get('rules'))})"),
            ("seed", report.get("seed")),
            ("kit", f"{kit.get('version', '')} (engine {kit.get('engine', '')})"),
            ("specification", f"version {safe_text((report.get('spec') or {}).get('spec_version', ''), 40)}"),
            ("judged by", f"the cases of release {safe_text(judged_by(report), 40)}"),
            ("duration", f"{float(report.get('duration') or 0):.1f} s; restarts {report.get('restarts', 0)}")]
    if report.get("cut"):
        rows.append(("note", "the whole-run time limit cut this run: what was not checked is 'not run'"))
    if report.get("interrupted"):
        rows.append(("note", "interrupted by a signal: what was not checked is 'not run'"))
    return "<table class=\"about\">\n" + "\n".join(f"<tr><th>{k}</th><td>{e(v, 1000)}</td></tr>" for k, v in rows) + "\n</table>"


def _summary(report: dict) -> str:
    s = report.get("summary") or {}
    keys = ("cases", "passed", "failed", "xfail", "xpass", "unsupported", "not-run")
    head = "".join(f"<th>{k}</th>" for k in keys)
    cells = "".join(f"<td class=\"n\">{int(s.get(k, 0))}</td>" for k in keys)
    outcomes = ", ".join(f"{o} {n}" for o, n in (s.get("outcomes") or {}).items())
    return (f"<h2>Summary</h2>\n<table><tr>{head}</tr><tr>{cells}</tr></table>"
            + (f"\n<p>Failures by outcome: {e(outcomes)}</p>" if outcomes else ""))


def _diagnosis(report: dict) -> str:
    from ..diagnosis.blame import render_diagnosis
    failed = [c for c in report["cases"] if c["status"] in ("failed", "xfail")]
    lines = render_diagnosis({**report, "cases": failed})
    return f"<h2>Diagnosis</h2>\n<pre>{e(chr(10).join(lines), 20000)}</pre>" if lines else ""


def _matrix(report: dict, base: str | None) -> str:
    table = report.get("clauses") or {}
    exercised = set(table)
    normative = [c.id for c in CLAUSES.values() if c.is_normative]
    out = ["<h2>Clauses, by part of the game</h2>",
           "<p class=\"muted\">pass, fail: cases exercising the clause that passed, failures blaming it; "
           "affected: failing cases that exercise it without blaming it.</p>"]
    for title, ids in clause_groups([*table, *normative]):
        out.append(f"<h3>{e(title)}</h3>\n<table class=\"matrix\">\n<tr><th>clause</th><th>title</th><th>result</th>"
                   "<th>pass</th><th>fail</th><th>affected</th><th>unsupported</th><th>failures by outcome</th></tr>")
        for cid in ids:
            if cid not in exercised:
                out.append(f"<tr class=\"s-absent\"><td>{clause_link(cid, base)}</td><td>{e(clause_title(cid))}</td>"
                           "<td>not exercised</td><td></td><td></td><td></td><td></td><td></td></tr>")
                continue
            r = table[cid]
            status = str(r.get("status", ""))
            outcomes = ", ".join(f"{o} {n}" for o, n in (r.get("outcomes") or {}).items())
            out.append(f"<tr class=\"s-{e(status, 20)}\"><td>{clause_link(cid, base)}</td>"
                       f"<td>{e(clause_title(cid))}</td><td>{e(status, 20)}</td>"
                       f"<td class=\"n\">{int(r.get('passed', 0))}</td>"
                       f"<td class=\"n\">{int(r.get('failed', 0)) + int(r.get('xfail', 0))}</td>"
                       f"<td class=\"n\">{int(r.get('affected', 0))}</td>"
                       f"<td class=\"n\">{int(r.get('unsupported', 0))}</td><td>{e(outcomes)}</td></tr>")
        out.append("</table>")
    return "\n".join(out)


def _situation(c: dict) -> str:
    """The smallest situation of a failed case, as the terminal draws it."""
    from ..diagnosis.situation import draw, question_of
    try:
        q = question_of(c)
        lines = draw(q, c.get("blamed")) if q is not None else []
    except Exception:  # noqa: BLE001 - a drawing is a nicety; the data follows anyway
        lines = []
    text = "\n".join(lines) or c.get("minimal") or ""
    return f"<pre>{e(text, 8000)}</pre>" if text else ""


def _value(label: str, c: dict, key: str) -> str:
    if key not in c:
        return ""
    text = json.dumps(c[key], ensure_ascii=False, indent=1) if not isinstance(c[key], str) else c[key]
    return f"<details><summary>{label}</summary><pre>{e(text, 8000)}</pre></details>"


#: Of each clause's failures, how many are shown open (the rest are folded).
OPEN_PER_CLAUSE: Final = 1


def _failure(c: dict, base: str | None, rerun: str) -> str:
    blamed = c.get("blamed")
    if blamed:
        blame = f"blames {clause_link(blamed, base)} ({e(clause_title(blamed))})"
    elif c.get("consequence_of"):
        blame = f"a consequence of {e(c['consequence_of'], 300)}"
    else:
        blame = "names no clause"
    return (f"<div class=\"failure\">\n<h3><code>{e(c['id'], 300)}</code></h3>\n"
            f"<p>{e(c.get('outcome', c['status']), 100)}; {blame}</p>\n"
            f"<p>{e(c.get('detail', ''), 2000)}</p>\n{_situation(c)}\n"
            + _value("the question", c, "args") + _value("expected", c, "expected")
            + _value("the implementation's answer", c, "got")
            + f"\n<p class=\"rerun\">reproduce: <code>{e(rerun, 2000)}</code></p>\n</div>")


def _failures(report: dict, base: str | None) -> str:
    """The failures grouped by the clause they blame, in the specification's order: each
    clause a fold of its own (the first clause's open), its first failure shown, the rest
    folded under it; at most :data:`SHOWN_FAILURES` in all (the JSON report has them all)."""
    failing = failing_cases(report)
    if not failing:
        return ""
    shown = failing[:SHOWN_FAILURES]
    by_clause: dict[str, list[dict]] = {}
    for c in shown:
        by_clause.setdefault(str(c.get("blamed") or ""), []).append(c)
    total: dict[str, int] = {}
    for c in failing:
        key = str(c.get("blamed") or "")
        total[key] = total.get(key, 0) + 1
    out: list[str] = []
    groups = [cid for _, ids in clause_groups([k for k in by_clause if k]) for cid in ids]
    for n, cid in enumerate(groups + ([""] if "" in by_clause else [])):
        cases = by_clause[cid]
        label = (f"{clause_link(cid, base)} {e(clause_title(cid))}" if cid
                 else "failures that blame no clause")
        count = total[cid]
        body = "\n".join(_failure(c, base, rerun_command(report, c["id"])) for c in cases[:OPEN_PER_CLAUSE])
        rest = cases[OPEN_PER_CLAUSE:]
        if rest:
            body += (f"\n<details class=\"more\"><summary>{len(rest)} more failure"
                     f"{'s' if len(rest) != 1 else ''} of this clause</summary>\n"
                     + "\n".join(_failure(c, base, rerun_command(report, c["id"])) for c in rest) + "\n</details>")
        out.append(f"<details class=\"clause-failures\"{' open' if n == 0 else ''}><summary>{label}: "
                   f"{count} failure{'s' if count != 1 else ''}</summary>\n{body}\n</details>")
    more = (f"<p>… {len(failing) - SHOWN_FAILURES} more failures (the JSON report has them all).</p>"
            if len(failing) > SHOWN_FAILURES else "")
    return (f"<h2>Failures ({len(failing)})</h2>\n<p class=\"muted\">By the clause each blames, "
            "in the specification's order; open a clause to see its failures.</p>\n"
            + "\n".join(out) + more)
