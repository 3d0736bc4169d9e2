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
from collections.abc import Callable, Mapping
from typing import Final

from .process import live_groups, resumed_at

__all__ = ["RunClock", "run_waits", "now", "past", "wall_time_of", "clock_start", "PACE_FLOOR", "LOOK_EVERY"]

#: The slowest pace the run's clock keeps: a twentieth of the wall clock's.
PACE_FLOOR: Final = 0.05
#: Seconds of wall time between two readings of the waits.
LOOK_EVERY: Final = 0.05
_MOST_PROCESSES: Final = 64  # of the processes the kit started and theirs, the ones looked at


def _waited(path: str) -> int | None:
    """Nanoseconds a process has spent runnable but waiting for a CPU, read from its
    ``schedstat`` file at ``path`` (None: not readable)."""
    try:
        with open(path, "rb") as f:
            return int(f.read(256).split()[1])
    except (OSError, ValueError, IndexError):
        return None


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


def run_waits() -> tuple[int, dict[int, int]]:
    """What the run has waited for a CPU so far, as Linux counts it: this process's id, and
    for it and each process of :func:`_programs` whose statistics can be read, the
    nanoseconds it has waited."""
    me = os.getpid()
    waits: dict[int, int] = {}
    for pid, path in [(me, "/proc/self/schedstat"),
                      *((p, f"/proc/{p}/schedstat") for p in _programs())]:
        w = _waited(path)
        if w is not None:
            waits[pid] = w
    return me, waits


class RunClock:
    """A run's clock over two sources: ``monotonic`` (the wall clock, ``time.monotonic``) and
    ``waits`` (:func:`run_waits`: this process's id and what each process of the run has
    waited so far); ``resumed`` gives when the kit last went on after being stopped
    (:func:`~.process.resumed_at`, 0.0 for never).  The waits are read at most every
    ``look_every`` seconds of wall time.  What a process waited counts from the first look
    for this process (a forked second process is a new one: from its own first look), and
    from its start for a process that appeared since the last look (the program started
    in between: all its waits are the run's)."""

    __slots__ = ("_monotonic", "_waits", "_resumed", "_look_every", "_lock", "looked", "lost",
                 "shown", "_seen")

    def __init__(self, monotonic: Callable[[], float] = time.monotonic,
                 waits: Callable[[], tuple[int, Mapping[int, int]]] = run_waits,
                 resumed: Callable[[], float] = resumed_at, look_every: float = LOOK_EVERY) -> None:
        self._monotonic, self._waits, self._resumed = monotonic, waits, resumed
        self._look_every = look_every
        self._lock = threading.Lock()
        self.looked = -1.0  # the wall time of the last look (-1: none yet)
        self.lost = 0.0  # the seconds the machine kept the run waiting, as counted so far
        self.shown = 0.0  # the last reading given (the clock never runs backwards)
        self._seen: dict[int, int] = {}  # pid -> nanoseconds it had waited at the last look

    def _look(self, wall: float) -> None:
        """Count the waits since the last look into the time lost, never more than
        ``1 - PACE_FLOOR`` of the stretch since that look."""
        me, waits = self._waits()
        seen = self._seen
        waited = 0
        for pid, w in waits.items():
            waited += max(0, w - seen.get(pid, w if pid == me else 0))
        self._seen = dict(waits)
        if self.looked >= 0.0:  # (the first look only sets where the waits count from)
            self.lost += min(waited / 1e9, (wall - self.looked) * (1.0 - PACE_FLOOR))
        self.looked = wall

    def now(self) -> float:
        """The run's clock: the wall clock less the time the machine kept the run waiting."""
        wall = self._monotonic()
        if wall - self.looked >= self._look_every:
            with self._lock:
                if wall - self.looked >= self._look_every:
                    self._look(wall)
        reading = wall - self.lost
        if reading < self.shown:
            return self.shown
        self.shown = reading
        return reading

    def past(self, deadline: float) -> bool:
        """Whether the run's clock has come to ``deadline`` (it never runs ahead of the wall
        clock, so before ``deadline`` by the wall clock the answer is no without a look)."""
        return self._monotonic() >= deadline and self.now() >= deadline

    def clock_start(self, start: float) -> float:
        """When a request's clock that started at ``start`` (a reading of :meth:`now`) counts
        from: the time the kit was stopped is none of the program's, so a clock restarts
        when the kit goes on (``resumed``, read on the run's clock)."""
        resumed = self._resumed()
        if resumed == 0.0:
            return start
        resumed -= self.lost
        return resumed if resumed > start else start

    def wall_time_of(self, at: float) -> float:
        """The earliest wall-clock time at which the run's clock can read ``at`` (a wait for
        ``at`` waits until then, then looks at :meth:`now` again)."""
        return at + self.lost


_CLOCK: Final = RunClock()  # the kit's: one per process
#: The run's clock of this process (:class:`RunClock` over Linux's scheduler statistics).
now: Final = _CLOCK.now
past: Final = _CLOCK.past
clock_start: Final = _CLOCK.clock_start
wall_time_of: Final = _CLOCK.wall_time_of
