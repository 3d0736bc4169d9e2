"""The run's clock's arithmetic (``turub.conformance.programs.run_clock.RunClock``), over a
wall clock and scheduler statistics the test sets by hand: the time the machine kept the run
waiting is taken off, the clock never runs backwards, never faster than the wall clock and
never slower than ``PACE_FLOOR`` of it.  The clock over Linux's real statistics is tested
beside busy loops in ``test_budgets_on_a_slow_machine.py`` and ``test_program_time.py``."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from turub.conformance.programs.run_clock import LOOK_EVERY, PACE_FLOOR, RunClock

ME = 100
SECOND = 1_000_000_000  # nanoseconds


class Machine:
    """A wall clock and the waits of each process, moved by the test."""

    def __init__(self, waits: dict[int, int] | None = None) -> None:
        self.wall = 1000.0
        self.me = ME  # this process's id (a forked process has another)
        self.waits = {ME: 0, **(waits or {})}
        self.looks = 0
        self.resumed = 0.0

    def clock(self) -> RunClock:
        return RunClock(monotonic=lambda: self.wall, waits=self.read, resumed=lambda: self.resumed)

    def read(self) -> tuple[int, dict[int, int]]:
        self.looks += 1
        return self.me, dict(self.waits)

    def go(self, seconds: float, **waited: float) -> None:
        """``seconds`` of wall time pass; each named process (``me``, ``p7``: pid 7) waits
        ``waited[name]`` seconds of them for a CPU."""
        self.wall += seconds
        for name, wait in waited.items():
            pid = self.me if name == "me" else int(name[1:])
            self.waits[pid] = self.waits.get(pid, 0) + round(wait * SECOND)


def test_on_a_quiet_machine_the_clock_is_the_wall_clock():
    m = Machine()
    clock = m.clock()
    start = clock.now()
    assert start == m.wall
    m.go(2.5)
    assert clock.now() == pytest.approx(start + 2.5)


def test_the_time_each_process_of_the_run_waited_is_taken_off():
    m = Machine({7: 0})
    clock = m.clock()
    start = clock.now()
    m.go(2.0, me=0.5, p7=0.25)
    assert clock.now() == pytest.approx(start + 2.0 - 0.75)
    m.go(1.0, p7=0.5)
    assert clock.now() == pytest.approx(start + 3.0 - 1.25)


def test_waits_before_the_first_look_are_not_the_runs():
    m = Machine()
    m.waits[ME] = 40 * SECOND  # this process waited before the run began
    clock = m.clock()
    start = clock.now()
    m.go(1.0)
    assert clock.now() == pytest.approx(start + 1.0)


def test_a_program_started_between_two_looks_counts_all_its_waits():
    m = Machine()
    clock = m.clock()
    start = clock.now()
    m.go(1.0)
    m.waits[8] = round(0.4 * SECOND)  # started since the last look; waited 0.4 s so far
    assert clock.now() == pytest.approx(start + 1.0 - 0.4)


def test_a_process_that_is_gone_and_a_new_one_with_its_pid_count_apart():
    m = Machine({9: 3 * SECOND})
    clock = m.clock()
    start = clock.now()  # the first look: where the waits count from
    m.go(1.0, p9=0.3)
    assert clock.now() == pytest.approx(start + 1.0 - 0.3)
    m.go(1.0)
    del m.waits[9]  # it ended
    assert clock.now() == pytest.approx(start + 2.0 - 0.3)
    m.go(1.0)
    m.waits[9] = round(0.2 * SECOND)  # a new process given the same pid: from its own start
    assert clock.now() == pytest.approx(start + 3.0 - 0.3 - 0.2)


def test_however_long_the_waits_the_clock_keeps_at_least_the_floors_pace():
    m = Machine()
    clock = m.clock()
    start = clock.now()
    m.go(1.0, me=50.0)  # more waiting than the stretch is long (several CPUs' worth)
    assert clock.now() == pytest.approx(start + PACE_FLOOR * 1.0)


def test_the_waits_are_read_at_most_every_look_every_seconds():
    m = Machine()
    clock = m.clock()
    clock.now()
    m.go(LOOK_EVERY / 4, me=LOOK_EVERY / 8)
    for _ in range(3):
        clock.now()
    assert m.looks == 1
    m.go(LOOK_EVERY)
    clock.now()
    assert m.looks == 2


def test_past_reads_no_waits_before_the_deadline_by_the_wall_clock():
    m = Machine()
    clock = m.clock()
    deadline = clock.now() + 1.0
    m.go(0.9, me=0.5)
    looks = m.looks
    assert not clock.past(deadline)
    assert m.looks == looks  # the wall clock alone said no
    m.go(0.2)  # 1.1 s of wall time, 0.5 s of it waiting: the run's clock is at 0.6 s
    assert not clock.past(deadline)
    m.go(0.5)
    assert clock.past(deadline)


def test_wall_time_of_is_when_the_wall_clock_lets_the_run_clock_read_a_time():
    m = Machine()
    clock = m.clock()
    m.go(0.0)
    clock.now()
    m.go(2.0, me=0.5)
    reading = clock.now()
    assert clock.wall_time_of(reading) == pytest.approx(m.wall)
    assert clock.wall_time_of(reading + 1.0) == pytest.approx(m.wall + 1.0)


def test_a_requests_clock_restarts_when_the_kit_goes_on_after_being_stopped():
    m = Machine()
    clock = m.clock()
    start = clock.now()
    assert clock.clock_start(start) == start  # never stopped
    m.go(1.0, me=0.25)
    clock.now()
    m.resumed = m.wall  # stopped, and went on now (a wall-clock reading)
    assert clock.clock_start(start) == pytest.approx(m.wall - 0.25)
    assert clock.clock_start(m.wall) == m.wall  # a clock started after the resumption


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0.0, 2.0), st.floats(0.0, 4.0), st.floats(0.0, 4.0)),
                min_size=1, max_size=30))
def test_never_backwards_never_faster_than_the_wall_never_below_the_floor(steps):
    m = Machine({7: 0})
    clock = m.clock()
    first_wall, first = m.wall, clock.now()
    last_wall, last = first_wall, first
    for seconds, mine, program in steps:
        m.go(seconds, me=mine, p7=program)
        reading = clock.now()
        assert reading >= last  # never backwards
        assert reading - last <= m.wall - last_wall + 1e-9  # never faster than the wall clock
        # the floor holds up to the last look (a stretch not looked at yet is not counted)
        assert reading - first >= PACE_FLOOR * (clock.looked - first_wall) - 1e-9
        last_wall, last = m.wall, reading


def test_a_forked_process_counts_its_own_waits_from_its_first_look():
    m = Machine()
    clock = m.clock()
    start = clock.now()
    m.go(1.0, me=0.25)
    assert clock.now() == pytest.approx(start + 0.75)
    m.me = 101  # forked: this process is now pid 101, which had waited 0.5 s by its first look
    m.waits = {101: round(0.5 * SECOND)}
    m.go(1.0)
    assert clock.now() == pytest.approx(start + 1.75)
    m.go(1.0, me=0.125)
    assert clock.now() == pytest.approx(start + 2.75 - 0.125)
