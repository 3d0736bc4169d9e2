"""The kit's HTML reports are readable at any width, in a real browser (#34).

A passing report, a long failing report and a comparison of two runs of one program are
written by the kit, then laid out in headless Chromium 1280 px wide (a desktop) and 390 px
wide (a phone) and photographed.  On each: the page never scrolls sideways, no text runs out
of its table cell over the next one (the headers "affected", "unsupported", "failures by
outcome" did, at 1280 px), and whatever is wider than the screen (the clause matrix on a
phone) scrolls inside a frame of its own.  Skipped, saying why, where Chromium is absent.
Set ``TURUB_REPORT_SHOTS=DIR`` to keep the screenshots.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from turub.tools.cli import main

HERE = Path(__file__).resolve().parent
PROG = HERE / "faults" / "prog.py"
BROKEN = HERE / "broken" / "impl.py"
SMALL = ["--quiet", "--no-vectors", "--scale", "0.05", "--examples", "0", "--properties", "0",
         "--timeout", "1", "--max-restarts", "1", "--time-limit", "60"]
WIDTHS = (1280, 390)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--virtual-time-budget=20000", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


needs_chromium = pytest.mark.skipif(chromium() is None, reason="Chromium is not installed "
                                    "(apt-get install chromium): the layout needs a real browser")


def check(*args: str) -> int:
    return main(["check", *args], io.StringIO())


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    """The three pages: a passing report, a failing one, a comparison of two runs."""
    out = tmp_path_factory.mktemp("reports")
    assert check(*SMALL, "--html", str(out / "passing"), "--json", str(out / "a.json"),
                 "--seed", "1", "--", sys.executable, str(PROG), "ok") == 0
    check(*SMALL, "--json", str(out / "b.json"), "--seed", "2", "--", sys.executable, str(PROG), "ok")
    assert check(*SMALL, "--scale", "0.3", "--html", str(out / "failing"), "--spec-url", "docs/_build/html",
                 "--", sys.executable,
                 str(PROG), "escapes-in-errors", "x") == 1
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "report", str(out / "a.json"),
                           str(out / "b.json"), "--html", str(out / "comparison")],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    return {name: out / name / "index.html" for name in ("passing", "failing", "comparison")}


#: Laid out in a frame ``width`` px wide: the page's own sideways scroll, the cells whose text
#: runs past their edge, two cells of a row drawn over each other, and the elements drawn past
#: the screen's edge outside a frame of their own that scrolls.
_PROBE = """<!doctype html><html><body><pre id="out">pending</pre><script>
const width = %d, frame = document.createElement("iframe");
frame.style.cssText = `width:${width}px;height:900px;border:0`;
frame.onload = () => {
  const d = frame.contentDocument, root = d.documentElement, res = {};
  for (const det of d.querySelectorAll("details")) det.open = true;  /* every fold open */
  res.scroll = [root.scrollWidth, root.clientWidth];
  res.overflowing = []; res.overlapping = []; res.spill = []; res.frames = [];
  for (const cell of d.querySelectorAll("td, th, p, h1, h2, h3, summary, pre")) {
    if (cell.scrollWidth > cell.clientWidth + 1 && getComputedStyle(cell).overflowX === "visible")
      res.overflowing.push(cell.tagName + ": " + cell.textContent.trim().slice(0, 40));
  }
  for (const row of d.querySelectorAll("tr")) {
    const cells = Array.from(row.children).map(c => c.getBoundingClientRect());
    for (let i = 1; i < cells.length; i++)
      if (cells[i].left < cells[i - 1].right - 1)
        res.overlapping.push(row.textContent.trim().slice(0, 40));
  }
  const edge = root.clientWidth + 1;
  for (const el of d.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= edge) continue;
    let q = el.parentElement, framed = false;
    while (q && q !== d.body) { if (getComputedStyle(q).overflowX !== "visible") { framed = true; break; }
                                q = q.parentElement; }
    if (!framed) res.spill.push(el.tagName + "." + el.className);
  }
  for (const f of d.querySelectorAll(".frame"))
    res.frames.push([f.scrollWidth, f.clientWidth, getComputedStyle(f).overflowX]);
  res.matrices = d.querySelectorAll(".matrix").length;
  res.inFrames = d.querySelectorAll(".frame > .matrix").length;
  document.getElementById("out").textContent = "RESULT" + JSON.stringify(res) + "END";
};
frame.src = %s;
document.body.appendChild(frame);
</script></body></html>"""


def _run(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="turub-chromium-") as profile:
        for attempt in (1, 2):  # a start that hangs on a loaded machine is tried once more
            try:
                return subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
                                      capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                if attempt == 2:
                    raise
    raise AssertionError("unreachable")


def measure(page: Path, width: int) -> dict:
    probe = page.parent / f"_probe_{width}.html"
    probe.write_text(_PROBE % (width, json.dumps(page.name)), encoding="utf-8")
    try:
        run = _run(["--allow-file-access-from-files", "--dump-dom", probe.resolve().as_uri()])
    finally:
        probe.unlink(missing_ok=True)
    found = re.search(r"RESULT(.*?)END", run.stdout)
    assert found, f"Chromium measured nothing on {page}: {run.stderr[-500:]}"
    return json.loads(found.group(1))


def screenshot(page: Path, width: int, out: Path) -> Path:
    png = out / f"{page.parent.name}-{width}.png"
    _run([f"--window-size={width},1400", f"--screenshot={png}", page.resolve().as_uri()])
    assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
    return png


@needs_chromium
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["passing", "failing", "comparison"])
def test_a_report_fits_the_screen_and_nothing_in_it_overlaps(reports, name, width, tmp_path):
    page = reports[name]
    keep = os.environ.get("TURUB_REPORT_SHOTS")
    shots = Path(keep) if keep else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    assert screenshot(page, width, shots).stat().st_size > 5_000
    m = measure(page, width)
    assert m["scroll"][0] <= m["scroll"][1], f"{name} scrolls sideways at {width} px: {m['scroll']}"
    assert not m["overflowing"], f"text runs out of its box at {width} px: {m['overflowing'][:5]}"
    assert not m["overlapping"], f"cells drawn over each other at {width} px: {m['overlapping'][:5]}"
    assert not m["spill"], f"drawn past the {width} px screen: {m['spill'][:5]}"
    # The clause matrix is in a frame of its own, which scrolls where the table is wider.
    assert m["matrices"] >= 1 and m["inFrames"] == m["matrices"]
    assert all(f[2] == "auto" for f in m["frames"])
    if width == 390:
        assert any(f[0] > f[1] for f in m["frames"]), "on a phone the matrix scrolls inside itself"


def test_the_failing_report_groups_its_failures_by_clause_and_folds_the_rest(reports):
    html = reports["failing"].read_text(encoding="utf-8")
    groups = re.findall(r'<details class="clause-failures"( open)?><summary>(.*?)</summary>', html)
    assert len(groups) >= 2 and groups[0][0] == " open" and not any(g[0] for g in groups[1:])
    # within a clause, the first failure open and the rest folded under it
    assert '<details class="more"><summary>' in html
    # each group names its clause by its documented address
    assert all(re.search(r'href="[^"]*/spec/\w[\w-]*\.html#[a-z]+\.[a-z0-9-]+"', g[1])
               for g in groups if "blame no clause" not in g[1])


def test_a_comparison_labels_two_runs_of_one_program_apart(reports):
    html = reports["comparison"].read_text(encoding="utf-8")
    heads = re.findall(r"<tr><td>([^<]*)</td><td><img", html)
    assert len(heads) == 2 and heads[0] != heads[1], heads
    assert "seed 1" in heads[0] and "seed 2" in heads[1]
