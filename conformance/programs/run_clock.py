"""The run's clock: the wall clock less the time the machine kept the run waiting.

``turub check --time-limit`` bounds the run's own time, and ``--timeout`` each request's.  On
a machine busy with other work (a CI runner beside other jobs, heavy CPU steal, sixteen busy
loops on two cores) the kit and its program are often ready to run and waiting for a CPU;
that time is the machine's, not the run's, and a limit read off the wall clock would cut a
correct program ``INCOMPLETE`` (or call an answer a timeout) however generous it is.  The
run's clock (:func:`now`) is ``time.monotonic()`` less what the kit's main thread and the
processes it started (the program under test, the property suites' second process, and
their children) spent runnable but waiting for a CPU, as Linux counts it (the second field
of ``/proc/<pid>/schedstat``), counted for each stretch between two looks at it, and never
more than ``1 - PACE_FLOOR`` of a stretch: however busy the machine (or a program that loads
it itself), a limit still comes, at most ``1 / PACE_FLOOR`` times later by the wall clock.
Where the waits cannot be read (another system, no scheduler statistics) the run's clock is
the wall clock.  On a quiet machine the waits are close to nothing, and the limits are what
they were.

The clock never runs backwards and never faster than the wall clock; it is a
``time.monotonic()``-like number, so a deadline is ``now() + seconds``, a wait of ``deadline
- now()`` seconds is never too long (after it, look at the clock again), and
:func:`wall_time_of` gives the earliest wall-clock time a deadline can come.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Final

from .process import live_groups, resumed_at

__all__ = ["now", "past", "wall_time_of", "clock_start", "PACE_FLOOR"]

#: The slowest pace the run's clock keeps: a twentieth of the wall clock's.
PACE_FLOOR: Final = 0.05
_LOOK_EVERY: Final = 0.05  # seconds of wall time between two readings of the waits
_monotonic = time.monotonic

class _Clock:
    """The last look at the waits, the time lost so far, the last reading given."""
    __slots__ = ("looked", "lost", "shown")

    def __init__(self) -> None:
        self.looked, self.lost, self.shown = -1.0, 0.0, 0.0


_LOCK = threading.Lock()
_STATE = _Clock()
_SEEN: dict[int, int] = {}  # pid -> nanoseconds it had waited for a CPU at the last look


def _waited(pid: int, path: str) -> int | None:
    """Nanoseconds ``pid`` has spent runnable but waiting for a CPU (None: not readable)."""
    try:
        with open(path, "rb") as f:
            return int(f.read(256).split()[1])
    except (OSError, ValueError, IndexError):
        return None


_MOST_PROCESSES: Final = 64  # of the processes the kit started and theirs, the ones looked at


def _programs() -> list[int]:
    """The processes the kit started (each group's leader: the program, the second process)
    and their descendants (a program started through a shell or a launcher does its work in a
    child), as Linux lists each one's children, at most :data:`_MOST_PROCESSES`."""
    found: list[int] = []
    todo = list(live_groups())
    while todo and len(found) < _MOST_PROCESSES:
        pid = todo.pop(0)
        found.append(pid)
        try:
            with open(f"/proc/{pid}/task/{pid}/children", "rb") as f:
                todo.extend(int(c) for c in f.read(4096).split())
        except (OSError, ValueError):
            pass
    return found


def _look(wall: float) -> None:
    """Count the waits since the last look into the time lost."""
    me = os.getpid()  # (a forked second process is a new pid: its own waits count from its first look)
    pids = {me: "/proc/self/schedstat"}
    for pid in _programs():
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
    looked = _STATE.looked
    if looked >= 0.0:  # (the first look only sets where the waits count from)
        _STATE.lost += min(waited / 1e9, (wall - looked) * (1.0 - PACE_FLOOR))
    _STATE.looked = wall


def now() -> float:
    """The run's clock: ``time.monotonic()`` less the time the machine kept the run waiting."""
    wall = _monotonic()
    clock = _STATE
    if wall - clock.looked >= _LOOK_EVERY:
        with _LOCK:
            if wall - clock.looked >= _LOOK_EVERY:
                _look(wall)
    reading = wall - clock.lost
    if reading < clock.shown:
        return clock.shown
    clock.shown = reading
    return reading


def past(deadline: float) -> bool:
    """Whether the run's clock has come to ``deadline`` (it never runs ahead of the wall
    clock, so before ``deadline`` by the wall clock the answer is no without a look)."""
    return _monotonic() >= deadline and now() >= deadline


def clock_start(start: float) -> float:
    """When a request's clock that started at ``start`` (a reading of :func:`now`) counts
    from: the time the kit was stopped is none of the program's, so a clock restarts when
    the kit goes on (:func:`~.process.resumed_at`, read on the run's clock)."""
    resumed = resumed_at()
    if resumed == 0.0:
        return start
    resumed -= _STATE.lost
    return resumed if resumed > start else start


def wall_time_of(at: float) -> float:
    """The earliest ``time.monotonic()`` at which the run's clock can read ``at`` (a wait for
    ``at`` waits until then, then looks at :func:`now` again)."""
    return at + _STATE.lost
