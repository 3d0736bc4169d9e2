"""Progress of a long command (``turub simulate``, ``turub check``): the one implementation.

On a terminal, a bar drawn by rich (:class:`rich.progress.Progress`) with the count, the rate
and an estimate of the time left.  On any other stream (a CI log, a file), a plain line every
few seconds with the same figures, and never an escape code.  Nothing at all when the
stream is ``None`` or closed.

Whether the stream is a terminal is rich's decision (:attr:`rich.console.Console.is_terminal`),
so the usual variables are honoured: ``FORCE_COLOR`` (non-empty) and ``TTY_COMPATIBLE=1``
make any stream behave as a terminal (a bar, with colour), ``NO_COLOR`` (non-empty) draws
the bar without colour, ``TTY_COMPATIBLE=0`` makes a terminal plain.

rich is imported only when a bar is drawn: the engine's commands start without it, and a
stream that is not a terminal (and no variable says otherwise) never loads it.  A caller's
loop pays one comparison per step: the bar is redrawn at most every ``refresh`` seconds,
the plain line at most every ``plain_every`` seconds, and rich is never called in between.
"""

from __future__ import annotations

import os
import time
from typing import Any, TextIO

__all__ = ["Progress", "terminal_console"]


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # no isatty, or a closed stream
        return False


def _maybe_terminal(stream: TextIO, environ: Any) -> bool:
    """Whether rich could call ``stream`` a terminal: asked before importing it."""
    return (_isatty(stream) or environ.get("FORCE_COLOR", "") != ""
            or environ.get("TTY_COMPATIBLE", "") == "1")


def terminal_console(stream: TextIO | None) -> Any:
    """A :class:`rich.console.Console` on ``stream`` if rich calls it a terminal, else None;
    rich is imported only if the stream may be one (a TTY, or a variable says so)."""
    if stream is None or getattr(stream, "closed", False) or not _maybe_terminal(stream, os.environ):
        return None
    from rich.console import Console  # only now: the engine's commands never load rich
    console = Console(file=stream)  # reads NO_COLOR, FORCE_COLOR, TTY_COMPATIBLE
    return console if console.is_terminal else None


def _duration(seconds: float) -> str:
    if seconds < 1:
        return "under a second"
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class Progress:
    """Progress towards ``total`` steps (``approximate``: the total is an estimate).

    ``label`` opens each line (e.g. ``"turub check"``), ``unit`` names a step in the plain
    line (``"deals"``).  :meth:`update` takes the count done, :meth:`step` adds to it;
    :meth:`close` (or leaving a ``with`` block) ends the bar.  :attr:`active` is false when
    nothing will ever be shown, so a hot loop can skip the calls altogether."""

    def __init__(self, total: int, stream: TextIO | None = None, *, label: str = "", unit: str = "",
                 approximate: bool = False, refresh: float = 0.1, plain_every: float = 5.0) -> None:
        self.total = max(int(total), 1)
        self.stream, self.label, self.unit, self.approximate = stream, label, unit, approximate
        self.done = 0
        self.started = time.monotonic()
        self._bar: Any = None  # the rich Progress, once drawn
        self._task: Any = None
        self._console = terminal_console(stream)
        self.terminal = self._console is not None
        self.active = stream is not None and not getattr(stream, "closed", False)
        self.every = refresh if self.terminal else plain_every
        self._show_at = self.started + (0.0 if self.terminal else self.every)  # when it next shows

    # --- the hot path ------------------------------------------------------------------

    def update(self, done: int) -> None:
        """``done`` steps are done; shown if the last showing is old enough."""
        self.done = done
        if self.active:
            now = time.monotonic()
            if now >= self._show_at:
                self._show_at = now + self.every
                self._show(now)

    def step(self, n: int = 1) -> None:
        self.update(self.done + n)

    # --- showing -----------------------------------------------------------------------

    def _show(self, now: float) -> None:
        try:
            if self.terminal:
                self._draw()
            else:
                self._line(now)
        except (OSError, ValueError):  # the stream went away: stop showing, never fail the run
            self.active = False

    def _draw(self) -> None:
        if self._bar is None:
            self._bar = _rich_bar(self._console)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=self.total)
        total = max(self.total, self.done)
        self._bar.update(self._task, completed=self.done, total=total)
        self._bar.refresh()

    def _line(self, now: float) -> None:
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        about = "about " if self.approximate else ""
        # (an estimate the count has passed says nothing more: the count alone)
        of = f" of {about}{self.total}" if self.done <= self.total else ""
        text = f"{self.label + ': ' if self.label else ''}{self.done}{of}"
        text += f" {self.unit}" if self.unit else ""
        text += f" ({rate:.0f}/s"
        if rate > 0 and self.total <= 50 * self.done < 50 * self.total:  # (a time left from a fiftieth of the way on)
            left = _duration((self.total - self.done) / rate)
            text += f", {left if left == 'under a second' else 'about ' + left} left"
        self.stream.write(text + ")\n")  # type: ignore[union-attr]
        self.stream.flush()  # type: ignore[union-attr]

    def close(self) -> None:
        """End the bar (the last count drawn); a plain stream gets nothing more."""
        if self._bar is not None:
            try:
                self._bar.update(self._task, completed=self.done, total=max(self.total, self.done))
                self._bar.stop()
            except (OSError, ValueError):
                pass
            self._bar = None
        self.active = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _rich_bar(console: Any) -> Any:
    """rich's progress display: label, bar, count, rate, elapsed and estimated time left."""
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, ProgressColumn,
                               TextColumn, TimeElapsedColumn, TimeRemainingColumn)
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Steps per second, as rich estimates it."""

        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.0f}/s", style="progress.data.speed")

    return RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                        TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                        console=console, auto_refresh=False, redirect_stdout=False, redirect_stderr=False)
