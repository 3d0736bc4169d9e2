"""The whole run's clock: the wall clock less the time the machine kept the run waiting.

``turub check --time-limit`` bounds the run's own time.  On a machine busy with other work (a
CI runner beside other jobs, heavy CPU steal, sixteen busy loops on two cores) the kit and its
program are often ready to run and waiting for a CPU; that time is the machine's, not the
run's, and a limit read off the wall clock would cut a correct program ``INCOMPLETE`` however
generous it is.  The run's clock (:func:`now`) is ``time.monotonic()`` less what the kit's
main thread and the processes it started (the program under test, the property suites'
second process) spent runnable but waiting for a CPU, as Linux counts it (the second field of
``/proc/<pid>/schedstat``), counted for each stretch between two looks at it, and never more
than ``1 - PACE_FLOOR`` of a stretch: however busy the machine (or a program that loads it
itself), the limit still ends a run, at most ``1 / PACE_FLOOR`` times later by the wall
clock.  Where the waits cannot be read (another system, no scheduler statistics) the run's
clock is the wall clock.  On a quiet machine the waits are close to nothing, and the limit is
what it was.

The clock never runs backwards and never faster than the wall clock; it is a
``time.monotonic()``-like number, so a deadline is ``now() + seconds``, and
:func:`wall_time_of` gives the earliest wall-clock time a deadline can come (what a wait is
bounded by: after it, look at the run's clock again).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Final

from .process import live_groups

__all__ = ["now", "past", "wall_time_of", "PACE_FLOOR"]

#: The slowest pace the run's clock keeps: a twentieth of the wall clock's.
PACE_FLOOR: Final = 0.05
_LOOK_EVERY: Final = 0.05  # seconds of wall time between two readings of the waits

_LOCK = threading.Lock()
_STATE = {"looked": -1.0, "lost": 0.0, "shown": 0.0}  # the last look, the time lost, the last reading
_SEEN: dict[int, int] = {}  # pid -> nanoseconds it had waited for a CPU at the last look


def _waited(pid: int, path: str) -> int | None:
    """Nanoseconds ``pid`` has spent runnable but waiting for a CPU (None: not readable)."""
    try:
        with open(path, "rb") as f:
            return int(f.read(256).split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _look(wall: float) -> None:
    """Count the waits since the last look into the time lost."""
    me = os.getpid()  # (a forked second process is a new pid: its waits count from its start)
    pids = {me: "/proc/self/schedstat"}
    for pid in live_groups():  # each group's leader: the program, the second process
        pids[pid] = f"/proc/{pid}/schedstat"
    waited = 0
    for pid, path in pids.items():
        w = _waited(pid, path)
        if w is None:
            _SEEN.pop(pid, None)
            continue
        waited += max(0, w - _SEEN.get(pid, 0 if pid != me else w))
        _SEEN[pid] = w
    for pid in [p for p in _SEEN if p not in pids]:
        del _SEEN[pid]
    looked = _STATE["looked"]
    if looked >= 0.0:  # (the first look only sets where the waits count from)
        stretch = wall - looked
        _STATE["lost"] += min(waited / 1e9, stretch * (1.0 - PACE_FLOOR))
    _STATE["looked"] = wall


def now() -> float:
    """The run's clock: ``time.monotonic()`` less the time the machine kept the run waiting."""
    wall = time.monotonic()
    with _LOCK:
        if wall - _STATE["looked"] >= _LOOK_EVERY:
            _look(wall)
        reading = max(_STATE["shown"], wall - _STATE["lost"])
        _STATE["shown"] = reading
    return reading


def past(deadline: float) -> bool:
    """Whether the run's clock has come to ``deadline`` (it never runs ahead of the wall
    clock, so before ``deadline`` by the wall clock the answer is no without a look)."""
    return time.monotonic() >= deadline and now() >= deadline


def wall_time_of(at: float) -> float:
    """The earliest ``time.monotonic()`` at which the run's clock can read ``at`` (a wait for
    ``at`` waits until then, then looks at :func:`now` again)."""
    return at + _STATE["lost"]
