"""The kit's reports: JSON lines written as the run goes (a killed run keeps them), JUnit with
errors apart from failures and a time per case, a static HTML page with every value escaped,
and `turub report` comparing several implementations."""

from __future__ import annotations

import io
import json
from html import escape
import os
import re
import signal
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from turub.tools.cli import main

from pace import generous

HERE = Path(__file__).parent
PROG = HERE / "faults" / "prog.py"
BROKEN = HERE / "broken" / "impl.py"
SMALL = ["--no-vectors", "--scale", "0.05", "--examples", "0", "--properties", "0",
         "--timeout", "1", "--max-restarts", "1", "--time-limit", "30"]
# A wrong answer (the rule is wrong) as the implementers' guide defines it; every other
# outcome of a failure is the program misbehaving.
WRONG_ANSWERS = {"wrong-answer", "illegal-action-accepted", "legal-action-refused"}


def check(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["check", *args], out)
    return status, out.getvalue()


# --- --jsonl ---------------------------------------------------------------------------------

def test_jsonl_holds_each_case_and_a_summary_that_matches_the_report(tmp_path):
    lines, report = tmp_path / "r.jsonl", tmp_path / "r.json"
    status, _ = check("--quiet", *SMALL, "--jsonl", str(lines), "--json", str(report), "--",
                      sys.executable, str(PROG), "wrong-type")
    assert status == 1
    rows = [json.loads(x) for x in lines.read_text(encoding="utf-8").splitlines()]
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert rows[0]["type"] == "start" and rows[0]["format"] == "turub-jsonl/1"
    assert rows[-1]["type"] == "summary"
    cases = [r for r in rows if r["type"] == "case"]
    # one line per case (the last line of an id wins), the same statuses as the report
    last = {c["id"]: c for c in cases}
    assert {c["id"]: c["status"] for c in doc["cases"]} == {k: v["status"] for k, v in last.items()}
    assert all(isinstance(c["time"], float) and c["time"] >= 0 for c in cases)
    assert rows[-1]["verdict"] == doc["verdict"] == "DOES NOT CONFORM"
    assert rows[-1]["summary"] == doc["summary"] and "cases" not in rows[-1]


def test_a_run_killed_mid_way_keeps_every_finished_case(tmp_path):
    # SIGKILL cannot be caught: only lines already written and flushed survive it
    marker = uuid.uuid4().hex
    lines = tmp_path / "r.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "turub.tools.cli", "check", "--quiet", "--no-vectors",
                             "--scale", "0.2", "--examples", "0", "--properties", "0", "--window", "1", "--op", "trick_winner",
                             "--jsonl", str(lines), "--", sys.executable, str(PROG), "slow", marker],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + generous(6)
        seen = []  # the number of answered cases on disk, each time it changed
        while time.monotonic() < deadline:  # until a few cases are in (each answer takes 0.15 s)
            n = lines.read_text(encoding="utf-8").count('"status": "passed"') if lines.exists() else 0
            if n and (not seen or seen[-1] != n):
                seen.append(n)
            if n >= 4:
                break
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=generous(1))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    # the program, in a process group of its own, sees its input close and ends by itself
    left = _running(marker)
    until = time.monotonic() + generous(1)
    while left and time.monotonic() < until:
        time.sleep(0.1)
        left = _running(marker)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "the program outlived the killed kit"
    text = lines.read_text(encoding="utf-8")
    assert text.endswith("\n"), "a line cut in the middle"
    rows = [json.loads(x) for x in text.splitlines()]
    asked = [r for r in rows if r["type"] == "case" and r["op"] == "trick_winner"]
    assert len(asked) >= 4 and all(c["status"] == "passed" and c["time"] > 0.1 for c in asked)
    assert rows[-1]["type"] == "case", "no summary: the run did not finish"
    # written as each answer came, not in bursts held in a buffer
    assert seen[0] < 4, seen


def _running(marker: str) -> list[int]:
    """The processes whose command line carries ``marker``."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


# --- JUnit -------------------------------------------------------------------------------------

def junit_and_json(tmp_path, *program: str) -> tuple[ET.Element, dict]:
    xml, report = tmp_path / "r.xml", tmp_path / "r.json"
    check("--quiet", *SMALL, "--junit", str(xml), "--json", str(report), "--", *program)
    return ET.parse(xml).getroot(), json.loads(report.read_text(encoding="utf-8"))


@pytest.mark.parametrize("mode, errors, failures", [
    ("hang", True, False),          # a timeout: an error
    ("wrong-type", True, False),    # a malformed answer: a protocol violation, an error
])
def test_junit_counts_errors_apart_from_failures(tmp_path, mode, errors, failures):
    root, doc = junit_and_json(tmp_path, sys.executable, str(PROG), mode)
    _check_junit(root, doc)
    assert (int(root.get("errors")) > 0) == errors
    assert (int(root.get("failures")) > 0) == failures


def test_junit_of_a_wrong_rule_has_failures_and_no_errors(tmp_path):
    xml, report = tmp_path / "r.xml", tmp_path / "r.json"
    check("--quiet", "--quick", "--examples", "0", "--properties", "0", "--junit", str(xml),
          "--json", str(report), "--", sys.executable, str(BROKEN), "no-follow-suit")
    root, doc = ET.parse(xml).getroot(), json.loads(report.read_text(encoding="utf-8"))
    _check_junit(root, doc)
    assert int(root.get("failures")) > 0 and int(root.get("errors")) == 0


def _check_junit(root: ET.Element, doc: dict) -> None:
    assert root.tag == "testsuite"
    cases = root.findall("testcase")
    kinds = [next((child.tag for child in tc if child.tag in ("failure", "error", "skipped")), None)
             for tc in cases]
    # the suite's attributes count exactly the test cases below it
    assert int(root.get("tests")) == len(cases)
    assert int(root.get("failures")) == kinds.count("failure")
    assert int(root.get("errors")) == kinds.count("error")
    assert int(root.get("skipped")) == kinds.count("skipped")
    assert float(root.get("time")) == pytest.approx(doc["duration"], abs=0.001)
    # ... and agree with the JSON report of the same run
    failed = [c for c in doc["cases"] if c["status"] == "failed"]
    assert kinds.count("error") == sum(c["outcome"] not in WRONG_ANSWERS for c in failed)
    assert kinds.count("failure") == sum(c["outcome"] in WRONG_ANSWERS for c in failed) + doc["summary"]["xpass"]
    assert len(cases) == len(doc["cases"])
    for tc, c in zip(cases, doc["cases"]):
        assert tc.get("name") == c["id"]
        assert float(tc.get("time")) == pytest.approx(c["time"], abs=1e-4) and float(tc.get("time")) >= 0


# --- HTML --------------------------------------------------------------------------------------

HOSTILE = r'''
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r["op"] == "hello":
        print(json.dumps({"id": r["id"], "result": {"protocol": 1, "name": "<script>alert(1)</script>",
              "version": "<b>1</b>", "operations": ["trick_winner"]}}), flush=True)
    elif r["op"] == "bye":
        print(json.dumps({"id": r["id"], "result": None}), flush=True)
        break
    elif r["id"] % 2:
        print(json.dumps({"id": r["id"], "error": {"message": "<script>alert(2)</script><img src=x onerror=alert(3)>"}}), flush=True)
    else:
        print(json.dumps({"id": r["id"], "result": "<script>alert(4)</script>"}), flush=True)
        sys.stderr.write("<script>alert(5)</script>\n")
'''


def test_html_report_escapes_everything_the_program_sent(tmp_path):
    prog = tmp_path / "hostile.py"
    prog.write_text(HOSTILE, encoding="utf-8")
    out = tmp_path / "html"
    status, _ = check("--quiet", *SMALL, "--html", str(out), "--", sys.executable, str(prog))
    assert status == 1
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<script" not in page.lower() and "<img src=x" not in page and "<b>1" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # shown, as text
    assert "&lt;script&gt;alert(2)" in page
    assert "DOES NOT CONFORM" in page
    assert (out / "badge.svg").read_text(encoding="utf-8").startswith("<svg")


def test_html_report_groups_clauses_by_part_and_links_each_to_the_spec(tmp_path):
    from turub.clauses import PARTS, part_of
    out = tmp_path / "html"
    status, _ = check("--quiet", "--quick", "--examples", "0", "--properties", "0", "--html", str(out),
                      "--spec-url", "https://spec.example/turub", "--json", str(tmp_path / "r.json"),
                      "--", sys.executable, str(BROKEN), "no-follow-suit")
    assert status == 1
    page = (out / "index.html").read_text(encoding="utf-8")
    titles = re.findall(r"<h3>([^<]+)</h3>", page)
    assert [t for t in titles if t in {p.title for p in PARTS}] == [p.title for p in PARTS
                                                                      if p.title in titles]
    assert "Playing the tricks" in titles and "The pack and the cards" in titles
    # the failure names its blamed clause, linked to the clause's item on its part's page at
    # its documented address (the clause's ID is its anchor, #34; it was #play:follow-suit)
    assert 'href="https://spec.example/turub/spec/play.html#play.follow-suit"' in page
    for cid in json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["clauses"]:
        part = part_of(cid)
        assert f'href="https://spec.example/turub/spec/{part.page}.html#{cid}"' in page
    # the failure, its detail and its smallest situation
    assert "illegal-action-accepted" in page and "blames" in page and "expected legal" in page


def test_the_html_report_is_whole_offline_and_links_only_to_a_given_site(tmp_path, monkeypatch):
    """From an empty folder (no docs build) the page has no link to the site, none dead;
    each clause row shows its ID and its text, each failure its reproduce command.  With
    --spec-url FOLDER the links are there, relative to the report."""
    from turub.clauses import CLAUSES
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    check("--quiet", *SMALL, "--html", "out/html", "--", sys.executable, str(PROG), "wrong-type")
    page = (tmp_path / "out" / "html" / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'href="([^"]*)"', page)
    assert links == [], links
    row = re.search(r"<tr[^>]*><td><code>trick\.highest-led</code></td><td>([^<]*)</td>", page)
    assert row and row.group(1) == escape(CLAUSES["trick.highest-led"].title)
    assert re.search(r"reproduce: <code>turub check --seed \d+ --case [^<]+ -- ", page)
    check("--quiet", *SMALL, "--html", "out/linked", "--spec-url", "docs/_build/html",
          "--", sys.executable, str(PROG), "wrong-type")
    page = (tmp_path / "out" / "linked" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../docs/_build/html/spec/play.html#trick.highest-led"' in page


# --- turub report --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def two_reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    for name, program in (("good", [sys.executable, str(PROG), "ok"]),
                          ("bad", [sys.executable, str(PROG), "wrong-type"])):
        check("--quiet", *SMALL, "--json", str(folder / f"{name}.json"), "--", *program)
    return folder


def report(*args: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "report", *args], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
    return done.returncode, done.stdout, done.stderr


def test_report_compares_implementations_side_by_side(two_reports, tmp_path):
    good, bad = two_reports / "good.json", two_reports / "bad.json"
    status, text, _ = report(str(good), str(bad), "--html", str(tmp_path / "cmp"))
    assert status == 0
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in (good, bad)]
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()
            if line.startswith("  ") and "." in line.split()[0]}
    # each clause: the status each report gives it, side by side ("absent": not in that report)
    clauses = set(docs[0]["clauses"]) | set(docs[1]["clauses"])
    assert set(rows) == clauses
    for cid in clauses:
        assert rows[cid] == [d["clauses"].get(cid, {}).get("status", "absent") for d in docs], cid
    assert any(a != b for a, b in rows.values())  # the broken program differs somewhere
    page = (tmp_path / "cmp" / "index.html").read_text(encoding="utf-8")
    badges = sorted((tmp_path / "cmp" / "badges").glob("*.svg"))
    assert len(badges) == 2
    svgs = [b.read_text(encoding="utf-8") for b in badges]
    for svg, doc in zip(svgs, (json.loads(good.read_text()), json.loads(bad.read_text()))):
        rows = doc["clauses"]
        passed = sum(r["status"] == "passed" for r in rows.values())
        assert f"{passed}/{len(rows)} clauses" in svg
        ET.fromstring(svg)  # well-formed
    assert "#2e7d32" in svgs[0] and "#c62828" in svgs[1]  # green conforms, red does not
    assert all(f'src="badges/{b.name}"' in page for b in badges)


@pytest.mark.parametrize("make, says", [
    (lambda d: "{ not json", "not JSON"),
    (lambda d: json.dumps({"format": "turub-xfail/1", "expected_failures": []}), "not a turub report"),
    (lambda d: json.dumps({**d, "kit": {**d["kit"], "version": "99"}}), "kit version"),
    (lambda d: json.dumps({**d, "rules": {**d["rules"], "direction": "counterclockwise"}}), "option set"),
    (lambda d: json.dumps({k: v for k, v in d.items() if k != "verdict"}), "not a finished report"),
])
def test_report_refuses_bad_input_naming_the_file(two_reports, tmp_path, make, says):
    good = two_reports / "good.json"
    other = tmp_path / "other.json"
    other.write_text(make(json.loads(good.read_text(encoding="utf-8"))), encoding="utf-8")
    status, text, err = report(str(good), str(other), "--html", str(tmp_path / "cmp"))
    assert status == 2 and text == ""
    assert err.startswith("turub report: error: ") and str(other) in err and says in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "cmp").exists()  # nothing written


def test_report_draws_a_table_on_a_terminal(two_reports):
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "report", str(two_reports / "good.json"),
                           str(two_reports / "bad.json")], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "FORCE_COLOR": "1", "COLUMNS": "120"})
    assert done.returncode == 0
    assert "┃" in done.stdout and "\x1b[" in done.stdout  # rich's table, with colour


# --- help --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["check", "report"])
def test_the_spec_url_help_says_there_is_no_link_without_it(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    after = text[text.index("--spec-url", text.index("options:")):]
    assert "without it" in after[:400] and "default:" not in after[:400]


# --- no Python reprs in what a person reads -------------------------------------------------------

# An object's default repr, a dict or list or tuple of quoted strings, a keyword with a quoted
# value, an enum member: Python's notation, not the game's nor the protocol's.
REPR = re.compile(r"object at 0x[0-9a-fA-F]+|<[A-Za-z_][\w.]* object\b|\{'[^']*': |\['[^']*'[,\]]"
                  r"|\('[^']*'[,)]|\b[a-z_]+='[^']*'|\b(?:Side|Seat|Suit|Phase|Rank)\.[A-Z][A-Z_]+")


def _texts(tmp_path: Path, name: str, *args: str) -> dict[str, str]:
    """The terminal output, the JUnit XML's text and attributes, the HTML page's text and
    every string of the JSON report's failures, of one run."""
    folder = tmp_path / name
    folder.mkdir()
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "check", "--json", str(folder / "r.json"),
                           "--junit", str(folder / "r.xml"), "--html", str(folder / "html"), *args],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 1, done.stderr
    xml = ET.parse(folder / "r.xml").getroot()
    xml_text = "\n".join([*(t for t in xml.itertext()), *(v for el in xml.iter() for v in el.attrib.values())])
    import html
    page = html.unescape(re.sub(r"<[^>]+>", " ", (folder / "html" / "index.html").read_text(encoding="utf-8")))
    doc = json.loads((folder / "r.json").read_text(encoding="utf-8"))
    failed = [json.dumps({k: c.get(k) for k in ("detail", "minimal")}, ensure_ascii=False)
              for c in doc["cases"] if c["status"] == "failed"]
    assert failed
    details = "\n".join(str(c.get(k) or "") for c in doc["cases"] for k in ("detail", "minimal"))
    return {"terminal": done.stdout + done.stderr, "junit": xml_text, "html": page, "json": details}


@pytest.mark.parametrize("program", [
    [str(BROKEN), "loss-passes-left"],   # a property fails: its message and example are Python
    [str(BROKEN), "no-follow-suit"],     # differential play: the smallest deal, its rules
    [str(BROKEN), "equal-beats-mark"],   # a contest: states compared
    [str(PROG), "wrong-type"],           # a malformed answer
])
def test_no_python_reprs_in_any_report(tmp_path, program):
    texts = _texts(tmp_path, program[-1], "--quick", "--examples", "30", "--properties", "3",
                   "--timeout", "2", "--", sys.executable, *program)
    found = {where: sorted(set(m.group() for m in REPR.finditer(text))) for where, text in texts.items()}
    assert not any(found.values()), found


# --- the terminal ----------------------------------------------------------------------------------

def _terminal_run(env_extra: dict) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")}
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "check", *SMALL, "--", sys.executable, str(PROG),
                           "wrong-type"], capture_output=True, text=True, timeout=120,
                          env={**env, "COLUMNS": "120", **env_extra})
    assert done.returncode == 1
    return done.stdout


def test_check_draws_its_table_in_colour_on_a_terminal_and_plain_elsewhere():
    colour = re.compile(r"\x1b\[[0-9;]*m")
    plain = _terminal_run({})
    assert not re.search("\x1b", plain) and "DOES NOT CONFORM" in plain  # a pipe: plain text
    forced = _terminal_run({"FORCE_COLOR": "1"})  # a terminal: rich's table, the verdict in red
    assert colour.search(forced) and "\x1b[1;31mDOES NOT CONFORM" in forced
    rows = lambda text: {line.split()[0]: line.split()[1] for line in colour.sub("", text).splitlines()
                         if re.match(r"(trick|pack)\.[a-z-]+ ", line)}
    assert rows(forced) == rows(plain) and rows(plain)  # the same rows, only drawn differently
    no_colour = _terminal_run({"FORCE_COLOR": "1", "NO_COLOR": "1"})  # bold stays; no colour
    foreground_or_background = re.compile(r"\x1b\[(?:[0-9]+;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9]+)*m")
    assert foreground_or_background.search(forced) and not foreground_or_background.search(no_colour)
    assert "DOES NOT CONFORM" in no_colour


def test_report_as_json_and_a_missing_file(two_reports, tmp_path):
    good, bad = two_reports / "good.json", two_reports / "bad.json"
    status, text, _ = report(str(good), str(bad), "--json", "-")
    d = json.loads(text)
    assert status == 0 and [i["verdict"] for i in d["implementations"]] == ["CONFORMS", "DOES NOT CONFORM"]
    assert d["clauses"]["trick.highest-led"][0] == "passed"
    missing = tmp_path / "nowhere.json"
    status, text, err = report(str(good), str(missing))
    assert status == 2 and str(missing) in err and "cannot read" in err


def test_terminal_and_html_show_the_first_failures_and_count_the_rest(tmp_path):
    # Every answer an error: dozens of failures, more than the terminal shows (15).
    js, out = tmp_path / "r.json", tmp_path / "html"
    status, text = check(*SMALL, "--scale", "0.3", "--json", str(js), "--html", str(out),
                         "--", sys.executable, str(PROG), "escapes-in-errors", "x")
    failing = [c for c in json.loads(js.read_text())["cases"] if c["status"] in ("failed", "xpass")]
    assert status == 1 and len(failing) > 15
    listed = text.split("\nFailures:\n", 1)[1]
    assert sum(1 for c in failing if f"  {c['id']} [" in listed) == 15
    assert f"… {len(failing) - 15} more failures" in listed
    page = (out / "index.html").read_text(encoding="utf-8")
    assert f"<h2>Failures ({len(failing)})</h2>" in page
    assert page.count('<div class="failure">') == min(len(failing), 200)
