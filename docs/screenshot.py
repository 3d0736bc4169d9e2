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

PAGES = {"index": "index.html", "clause-page": "spec/play.html"}
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
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
const pages = %s, width = %d, res = {};
let left = pages.length;
for (const page of pages) {
  const frame = document.createElement("iframe");
  frame.style.cssText = `width:${width}px;height:700px;border:0`;
  frame.onload = () => {
    try { const d = frame.contentDocument.documentElement; res[page] = [d.scrollWidth, d.clientWidth]; }
    catch (e) { res[page] = String(e); }
    left -= 1;
    document.getElementById("out").textContent = "RESULT" + JSON.stringify(res) + "END";
  };
  frame.src = page;
  document.body.appendChild(frame);
}
</script></body></html>"""


def overflow(html_dir: Path, width: int = 1280, timeout: float = 120) -> dict[str, tuple[int, int]]:
    """Every page of the built site laid out ``width`` pixels wide in headless Chromium:
    ``{page: (scrollWidth, clientWidth)}`` of its document.  A page overflows horizontally
    when the first is larger than the second (the viewport less any scroll bar).

    Each page is loaded in an iframe of that width inside one probe page, so one Chromium
    run measures the whole site.  Raises if Chromium is missing or a page cannot be measured.
    """
    browser = chromium()
    if browser is None:
        raise FileNotFoundError("no Chromium found (apt-get install chromium)")
    pages = sorted(str(p.relative_to(html_dir)) for p in html_dir.rglob("*.html")
                   if not p.name.startswith("_") and "_static" not in p.parts)
    measured: dict = {}
    for _attempt in range(3):  # a page still loading when the probe is dumped is measured again
        todo = [p for p in pages if not isinstance(measured.get(p), list)]
        if not todo:
            break
        measured.update(_probe(browser, html_dir, todo, width, timeout))
    missing = [p for p in pages if not isinstance(measured.get(p), list)]
    if missing:
        raise RuntimeError(f"pages not measured: {missing}")
    return {p: (v[0], v[1]) for p, v in measured.items()}


def _probe(browser: str, html_dir: Path, pages: list[str], width: int, timeout: float) -> dict:
    import json
    import re

    probe = html_dir / "_overflow_probe.html"
    probe.write_text(_PROBE % (json.dumps(pages), width), encoding="utf-8")
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
