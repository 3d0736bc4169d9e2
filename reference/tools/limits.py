"""The limits a command's arguments set: a time limit (``--time-limit SECONDS``: a finite
number above 0, enforced by a timer in the main thread that raises
:class:`~turub.errors.OutOfTime`) and a share of deals (``--close-early P``: 0 to 1)."""

from __future__ import annotations

import argparse
import math
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import OutOfTime

__all__ = ["EXIT_TIME_LIMIT", "seconds", "share", "time_limit"]


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds above 0 (``nan`` and ``inf`` refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text[:40]!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"a time limit is a finite number of seconds above 0, not {text[:40]!r}")
    return value


#: The exit status of a command that ran past its ``--time-limit``.
EXIT_TIME_LIMIT = 4


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`~turub.errors.OutOfTime` in the main thread after ``seconds`` (and again
    every quarter second after, should user code swallow it); ``None``: no limit."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise OutOfTime("")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.25)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def share(text: str) -> float:
    """A share of deals: a finite number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None
    if not math.isfinite(value) or not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a share of deals is a number from 0 to 1, not {text[:40]!r}")
    return value
