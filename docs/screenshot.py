"""Render pages of the built site to PNG with headless Chromium, to look at them.

    .venv/bin/python docs/screenshot.py [BUILT_HTML_DIR] [OUT_DIR]

Defaults: ``docs/_build/html`` and ``docs/_build/screenshots``.  Renders the index and one
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
