"""Render pages of the built site to PNG with headless Chromium, to look at them.

    .venv/bin/python docs/screenshot.py [BUILT_HTML_DIR] [OUT_DIR]

Defaults: ``docs/_build/html`` and ``docs/_build/screenshots``.  :func:`overflow` measures
every page at 1280 px for horizontal overflow (the docs test asserts there is none).  Renders the index and one
clause page (the play page, with the duplicate-aces pictures).  Exits 0 and prints the PNG
paths, 2 with a one-line message if Chromium or the built site is missing, 1 if Chromium
fails.  No network: Chromium is told not to reach out.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence

PAGES = {"index": "index.html", "clause-page": "spec/play.html"}
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--virtual-time-budget=20000",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--window-size=1280,1600"]


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def render(html_dir: Path, out_dir: Path, pages: dict[str, str] = PAGES,
           timeout: float = 60) -> list[Path]:
    """Screenshots of ``pages`` (name → path in the site); raises on any failure."""
    browser = chromium()
    if browser is None:
        raise FileNotFoundError("no Chromium found (apt-get install chromium)")
    out_dir.mkdir(parents=True, exist_ok=True)
    shots = []
    for name, page in pages.items():
        target = html_dir / page
        if not target.exists():
            raise FileNotFoundError(f"{target} does not exist: build the site first")
        png = out_dir / f"{name}.png"
        png.unlink(missing_ok=True)
        with tempfile.TemporaryDirectory(prefix="turub-chromium-") as profile:
            run = subprocess.run(
                [browser, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={png}",
                 target.resolve().as_uri()],
                capture_output=True, text=True, timeout=timeout)
        if run.returncode != 0 or not png.exists() or png.stat().st_size == 0:
            raise RuntimeError(f"chromium failed on {page} (status {run.returncode}): "
                               + run.stderr.strip().splitlines()[-1:][0] if run.stderr.strip() else "")
        shots.append(png)
    return shots


_PROBE = """<!doctype html><html><body><pre id="out">pending</pre><script>
const pages = %s, widths = %s, res = {};
let width = widths[0];
const NAV = [".mobile-header label[for=__navigation]", ".sidebar-drawer .sidebar-search",
             ".sidebar-drawer .sidebar-tree"];
function visible(el) { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
  return r.width > 0 && r.height > 0 && r.right > 0 && r.left < width
    && s.visibility !== "hidden" && s.display !== "none"; }
function spill(d) {  /* elements of the page drawn past the screen's right edge, not in a
                        frame of their own that scrolls (or clips) them */
  const edge = d.documentElement.clientWidth + 1, out = [], art = d.querySelector("article");
  if (!art) return out;
  for (const el of art.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= edge) continue;
    let q = el.parentElement, framed = false;
    while (q && q !== art) { if (getComputedStyle(q).overflowX !== "visible") { framed = true; break; }
                             q = q.parentElement; }
    if (!framed) out.push(`${el.tagName.toLowerCase()}.${el.className} (${Math.round(r.right)} px)`);
  }
  return out.slice(0, 10); }
function navTop(d) {  /* the top of the first visible way into the navigation, or null */
  for (const sel of NAV) { const el = d.querySelector(sel);
    if (el && visible(el)) return Math.round(el.getBoundingClientRect().top); }
  return null; }
function lines(d, node, start, end) {  /* the lines a piece of a text node is laid out on */
  const r = d.createRange(); r.setStart(node, start); r.setEnd(node, end);
  return new Set(Array.from(r.getClientRects()).filter(x => x.width > 0).map(x => Math.round(x.top))).size; }
function broken(d) {  /* plain words (letters only) laid out on more than one line in a table */
  const out = [];
  for (const cell of d.querySelectorAll("article table td, article table th")) {
    const walk = d.createTreeWalker(cell, NodeFilter.SHOW_TEXT); let node;
    while ((node = walk.nextNode())) {
      if (lines(d, node, 0, node.data.length) < 2) continue;  /* on one line: no word broken */
      const re = /[\\p{L}]{2,}/gu; let m;
      while ((m = re.exec(node.data))) {
        if (lines(d, node, m.index, m.index + m[0].length) > 1) out.push(m[0]);
      } } }
  return out.slice(0, 20); }
function measure(frame) {  /* the page laid out at each width in turn (the frame resized,
                              its layout brought up to date when it is read) */
  const found = {};
  for (const w of widths) {
    width = w; frame.style.width = `${w}px`; void frame.offsetWidth;
    const d = frame.contentDocument, e = d.documentElement;
    found[w] = [e.scrollWidth, e.clientWidth, broken(d), navTop(d), spill(d)];
  }
  return found; }
for (const page of pages) {
  const frame = document.createElement("iframe");
  frame.style.cssText = `width:${widths[0]}px;height:700px;border:0`;
  frame.onload = () => {
    try { res[page] = measure(frame); }
    catch (e) { res[page] = String(e); }
    document.getElementById("out").textContent = "RESULT" + JSON.stringify(res) + "END";
  };
  frame.src = page;
  document.body.appendChild(frame);
}
</script></body></html>"""


def layout(html_dir: Path, width: int = 1280, timeout: float = 180) -> dict[str, dict]:
    """Every page of the built site laid out ``width`` pixels wide in headless Chromium:
    ``{page: {"scroll": (scrollWidth, clientWidth), "spill": [elements], "broken": [words],
    "nav": top}}``.
    A page scrolls sideways when its scrollWidth is larger than its clientWidth; ``spill``
    lists the elements drawn past the screen's right edge outside a frame of their own (a
    theme that clips the page would hide them instead of scrolling); ``broken``
    lists the plain words a table breaks across two lines (never at a space or a hyphen:
    "sittin g"); ``nav`` is the top, in pixels, of the first visible way into the
    navigation (the menu button of a phone's top bar, the side bar's search box), None if
    there is none.  Raises if Chromium is missing or a page cannot be measured."""
    return layouts(html_dir, (width,), timeout)[width]


def layouts(html_dir: Path, widths: Sequence[int] = (1280,), timeout: float = 180) -> dict[int, dict[str, dict]]:
    """:func:`layout` at each of ``widths``, ``{width: {page: ...}}``, in one run of Chromium
    that loads each page once and lays it out at each width in turn (the frame resized, as a
    window is): the pages' loading is most of the cost."""
    browser = chromium()
    if browser is None:
        raise FileNotFoundError("no Chromium found (apt-get install chromium)")
    pages = sorted(str(p.relative_to(html_dir)) for p in html_dir.rglob("*.html")
                   if not p.name.startswith("_") and "_static" not in p.parts)
    measured: dict = {}
    for _attempt in range(3):  # a page still loading when the probe is dumped is measured again
        todo = [p for p in pages if not isinstance(measured.get(p), dict)]
        if not todo:
            break
        measured.update(_probe(browser, html_dir, todo, list(widths), timeout))
    missing = [p for p in pages if not isinstance(measured.get(p), dict)]
    if missing:
        raise RuntimeError(f"pages not measured: {missing}")
    return {w: {p: {"scroll": (v[0], v[1]), "broken": v[2], "nav": v[3], "spill": v[4]}
                for p, at in measured.items() for v in [at[str(w)]]} for w in widths}


def overflow(html_dir: Path, width: int = 1280, timeout: float = 180) -> dict[str, tuple[int, int]]:
    """``{page: (scrollWidth, clientWidth)}`` of every page at ``width`` (see :func:`layout`)."""
    return {p: v["scroll"] for p, v in layout(html_dir, width, timeout).items()}


def _probe(browser: str, html_dir: Path, pages: list[str], widths: list[int], timeout: float) -> dict:
    import json
    import re

    probe = html_dir / "_overflow_probe.html"
    probe.write_text(_PROBE % (json.dumps(pages), json.dumps(widths)), encoding="utf-8")
    try:
        with tempfile.TemporaryDirectory(prefix="turub-chromium-") as profile:
            run = subprocess.run(
                [browser, *FLAGS, "--allow-file-access-from-files", f"--user-data-dir={profile}",
                 "--dump-dom", probe.resolve().as_uri()],
                capture_output=True, text=True, timeout=timeout)
    finally:
        probe.unlink(missing_ok=True)
    found = re.search(r"RESULT(.*?)END", run.stdout)
    return json.loads(found.group(1)) if found else {}


def main(argv: list[str]) -> int:
    html_dir = Path(argv[0]) if argv else Path("docs/_build/html")
    out_dir = Path(argv[1]) if len(argv) > 1 else Path("docs/_build/screenshots")
    try:
        for png in render(html_dir, out_dir):
            print(png)
    except FileNotFoundError as e:
        print(f"screenshot: {e}", file=sys.stderr)
        return 2
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        print(f"screenshot: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
