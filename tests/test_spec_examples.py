"""The spec's examples are the conformance cases (#28): every clause page shows the cases the
kit runs for each of its clauses, numbered and linkable, and ``turub check --example N``
asks example N alone.

The pages are checked against the committed vector files read here directly (the numbering
as the docs state it: the standard set's cases in committed order, then each other set's
cases whose rules are that set's own), not against the extension's helper.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
from pathlib import Path

import pytest

from turub.clauses import CLAUSES

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "conformance" / "vectors"


def _numbered() -> list[tuple[str, dict]]:
    index = json.loads((VECTORS / "index.json").read_text())["sets"]
    out = [("standard", c) for c in json.loads((VECTORS / "standard.json").read_text())]
    for name, entry in index.items():
        if name != "standard":
            out += [(name, c) for c in json.loads((VECTORS / entry["file"]).read_text())
                    if c["rules"] != "any"]
    return out


@pytest.fixture(scope="module")
def pages(built_site):
    """The spec's pages of the site built once for the run (``sitebuild.py``)."""
    assert built_site.returncode == 0, built_site.stderr[-3000:]
    return {p.stem: p.read_text(encoding="utf-8") for p in (built_site.html / "spec").glob("*.html")}


_EXAMPLE = re.compile(r'id="example-(\d+)".*?<code[^>]*>.*?<span class="pre">(.*?)</span>'
                      r'.*?<pre>(.*?)</pre>.*?<pre>(.*?)</pre>', re.S)


def _shown(page: str) -> dict[int, tuple[str, str, str]]:
    """Example number -> (case ID, request JSON, expected JSON) as the page shows them."""
    return {int(n): (html.unescape(cid), html.unescape(re.sub("<[^>]+>", "", req)),
                     html.unescape(re.sub("<[^>]+>", "", exp)))
            for n, cid, req, exp in _EXAMPLE.findall(page)}


def test_every_clause_page_shows_each_clauses_examples(pages):
    numbered = _numbered()
    by_clause: dict[str, set[int]] = {}
    for n, (_, case) in enumerate(numbered, 1):
        for cid in case["clauses"]:
            by_clause.setdefault(cid, set()).add(n)
    seen_clauses = 0
    for name, page in pages.items():
        shown = _shown(page)
        for cid in CLAUSES:
            if f'id="{cid}"' not in page:
                continue
            seen_clauses += 1
            # Each clause on the page has its examples' block...
            start = page.find(f'id="{cid}.examples"')
            assert start >= 0, (name, cid)
            # ... and every case that exercises it is on the page, in full, as committed.
            for n in by_clause.get(cid, ()):
                assert n in shown, (name, cid, n)
                set_name, case = numbered[n - 1]
                assert shown[n][0] == case["id"], (name, n)
                assert json.loads(shown[n][2]) == case["expected"], (name, n)
                assert json.loads(shown[n][1])["op"] == case["op"]
            if cid not in by_clause:
                assert "No committed case asks this clause" in page[start:start + 2000], cid
    assert seen_clauses == len(CLAUSES)


def test_an_examples_request_is_what_turub_vectors_sends(pages):
    # Example 1 is the standard set's first case; its request carries the rules only for
    # the operations that take them.
    _, first = _numbered()[0]
    n, (cid, request, expected) = min(_shown(pages["pack"]).items())
    assert n == 1 and cid == first["id"]
    assert json.loads(request) == {"op": first["op"], "args": first["args"]}


def _check(*argv: str) -> tuple[int, dict | None, str]:
    from turub.tools.cli import main
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"turub-example-{os.getpid()}.json"
    out.unlink(missing_ok=True)
    err = io.StringIO()
    import contextlib
    with contextlib.redirect_stderr(err):
        status = main(["check", "--quiet", "--json", str(out), *argv,
                       "--python", "turub.conformance.adapter:ReferenceImplementation"], io.StringIO())
    report = json.loads(out.read_text()) if out.exists() else None
    out.unlink(missing_ok=True)
    return status, report, err.getvalue()


@pytest.mark.parametrize("number", [1, 449, len(_numbered())])
def test_turub_check_example_asks_that_case_alone(number):
    set_name, case = _numbered()[number - 1]
    status, report, _ = _check("--example", str(number))
    assert status == 0
    assert [c["id"] for c in report["cases"]] == [case["id"]]
    assert report["rules_name"] == set_name


def test_an_example_that_is_not_there_is_a_usage_error():
    status, report, err = _check("--example", str(len(_numbered()) + 1))
    assert status == 2 and report is None and "--example" in err
