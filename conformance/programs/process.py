"""The life cycle of a program under test: started in a process group of its own, stopped
as a whole.

A program may fork workers, leave helpers running, exit while its workers go on, or even
``setsid`` away.  :func:`spawn` starts it in a new session (so a new process group whose id
is the program's pid, kept from the start since the leader may die first) with a marker in
its environment; :func:`stop` ends the group (SIGTERM, a short grace, SIGKILL) and then hunts
escapees: on Linux the kit makes itself a child subreaper (``PR_SET_CHILD_SUBREAPER``), so
orphans of the program are re-parented to the kit instead of init, and any process still
carrying the marker is killed and reaped.  :func:`stop_all` stops every group still running;
it runs at exit, and the command line calls it on SIGINT, SIGTERM and SIGHUP.

Nothing here judges: it only starts and stops.
"""

from __future__ import annotations

import atexit
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from types import FrameType
from typing import Final

__all__ = ["spawn", "stop", "stop_all", "MARKER_VARIABLE", "live_groups", "resumed_at",
           "can_police_processes", "CANNOT_POLICE"]

#: The environment variable that marks every process the kit starts (and their descendants).
MARKER_VARIABLE: Final = "TURUB_KIT_RUN"
#: Seconds between SIGTERM and SIGKILL.
GRACE: Final = 0.3

_TOKEN: Final = f"{os.getpid()}-{secrets.token_hex(6)}"
_LIVE: dict[int, subprocess.Popen] = {}  # process group id -> its leader
_SUBREAPER = [False]
_RESUMED = [0.0]  # time.monotonic() of the last SIGCONT the kit got (0.0: none)
_WATCHING = [False]


def resumed_at() -> float:
    """When the kit last went on after being stopped (SIGSTOP or Ctrl-Z, then SIGCONT or
    ``fg``): a ``time.monotonic()``, 0.0 if never."""
    return _RESUMED[0]


def _watch_resumes() -> None:
    """Note each SIGCONT (in the main thread only, where Python runs handlers; the handler
    before is still called)."""
    if _WATCHING[0] or threading.current_thread() is not threading.main_thread():
        return
    _WATCHING[0] = True
    try:
        before = signal.getsignal(signal.SIGCONT)
    except (AttributeError, ValueError):  # no SIGCONT here
        return

    def resumed(signum: int, frame: FrameType | None) -> None:
        _RESUMED[0] = time.monotonic()
        if callable(before):
            before(signum, frame)
    try:
        signal.signal(signal.SIGCONT, resumed)
    except (ValueError, OSError):
        pass


def live_groups() -> list[int]:
    """The process groups started and not yet stopped."""
    return list(_LIVE)


def can_police_processes() -> bool:
    """Whether the kit can police the processes of a program under test here: stop its group
    as a whole, find its escapees (``/proc``) and adopt its orphans (a child subreaper).  Only
    on Linux; elsewhere ``turub check`` says so in one line at start-up."""
    return sys.platform.startswith("linux")


#: What ``turub check`` says at start-up where :func:`can_police_processes` is false.
CANNOT_POLICE: Final = ("on {platform} the kit cannot police the program's processes (it needs Linux's "
                        "process groups, /proc and child subreaper): a process the program leaves "
                        "behind may outlive the run; supported systems: Linux")


def _become_subreaper() -> None:
    """Make orphaned descendants of the kit's programs the kit's children (Linux only)."""
    if _SUBREAPER[0] or not can_police_processes():
        return
    _SUBREAPER[0] = True
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_CHILD_SUBREAPER = 36
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux after all, or no prctl: the group kill remains
        pass


def spawn(argv: Sequence[str], cwd: str | None = None, env: dict | None = None) -> subprocess.Popen:
    """Start ``argv`` (no shell) with pipes for stdin/stdout/stderr, in a session of its own."""
    _become_subreaper()
    _watch_resumes()
    environment = dict(os.environ if env is None else env)
    environment[MARKER_VARIABLE] = _TOKEN
    popen = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, bufsize=0, cwd=cwd, env=environment,
                             close_fds=True, start_new_session=True)
    _LIVE[popen.pid] = popen
    return popen


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to the group; False if the group is gone."""
    try:
        os.killpg(pgid, sig)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:  # a member changed its uid: signal the ones we can
        return True


def _reap_group(popen: subprocess.Popen) -> None:
    """Collect the members of the program's group that are the kit's children: the leader,
    and orphans re-parented to the kit (a zombie still counts as a member of its group)."""
    while True:
        try:
            pid, status = os.waitpid(-popen.pid, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid == popen.pid and popen.returncode is None:
            popen.returncode = os.waitstatus_to_exitcode(status)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def _marked_processes() -> list[int]:
    """Pids (other than the kit's own) whose environment carries this kit's marker, plus
    orphans re-parented to the kit that are not groups it tracks."""
    me = os.getpid()
    needle = f"{MARKER_VARIABLE}={_TOKEN}".encode()
    found: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        pid = int(entry)
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                environ = f.read()
        except OSError:
            environ = b""
        if needle in environ.split(b"\0"):
            found.append(pid)
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rindex(b")") + 2:].split()
            ppid, pgid, sid = int(fields[1]), int(fields[2]), int(fields[3])
        except (OSError, ValueError, IndexError):
            continue
        # An orphan re-parented to the kit: not in the kit's session nor a tracked group.
        if ppid == me and sid != os.getsid(0) and pgid not in _LIVE and fields[0] != b"Z":
            found.append(pid)
    return found


def _reap(pids: list[int]) -> None:
    """Collect those of ``pids`` that are the kit's children (escapees re-parented here)."""
    pending = set(pids)
    end = time.monotonic() + 0.5
    while pending and time.monotonic() < end:
        for pid in list(pending):
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    pending.discard(pid)
            except ChildProcessError:  # not the kit's child (or already collected)
                pending.discard(pid)
        if pending:
            time.sleep(0.005)


def _children() -> list[int]:
    """The kit's own children, every thread's (``/proc/self/task/*/children``)."""
    found: list[int] = []
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/children", "rb") as f:
                found.extend(int(x) for x in f.read().split())
        except (OSError, ValueError):
            continue
    return found


def _strays() -> list[int]:
    """The kit's children that are none of its own: not a group it runs, not in its session
    (a program's helper re-parented to the kit, the subreaper; zombies included)."""
    mine = os.getsid(0)
    found = []
    for pid in _children():
        if pid in _LIVE:
            continue
        try:
            sid, pgid = os.getsid(pid), os.getpgid(pid)
        except OSError:  # collected meanwhile
            continue
        if sid != mine and pgid not in _LIVE:
            found.append(pid)
    return found


def _collect(pid: int, until: float) -> None:
    """Wait (until ``until`` at most) for the killed child ``pid`` and collect it: then its
    own children have been re-parented to the kit."""
    while True:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] or time.monotonic() > until:
                return
        except ChildProcessError:
            return
        time.sleep(0.0005)


def _stop_strays(deadline: float) -> None:
    """Kill and collect the kit's stray children until a look finds none.

    A helper that changes its pid quickly (forks and exits, again and again, each time in a
    new session) is always one of them: with the kit a subreaper, a process whose parent
    dies becomes the kit's child before that parent can be collected.  So killing and
    collecting the strays one generation at a time reaches every one of them, however
    fast they fork; a look of ``/proc/self/task/*/children`` takes microseconds."""
    while time.monotonic() < deadline:
        strays = _strays()
        if not strays:
            return
        for pid in strays:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for pid in strays:
            _collect(pid, min(deadline, time.monotonic() + 0.5))


def _hunt_escapees(deadline: float) -> None:
    """Kill and reap processes of ours that left their group, until none is left: the kit's
    stray children first (fast, and it catches fork-and-exit chains), then whatever still
    carries the kit's marker (where the kit could not become a subreaper)."""
    if not can_police_processes():
        return
    while True:
        _stop_strays(deadline)
        pids = _marked_processes()
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        _reap(pids)
        if time.monotonic() > deadline:
            return


def stop(popen: subprocess.Popen, grace: float = GRACE, *, gentle: bool = True) -> int | None:
    """Stop the program's whole process group (SIGTERM, ``grace`` seconds, SIGKILL), then
    its escapees; its exit status (None if it could not be collected)."""
    pgid = popen.pid
    others_running = len(_LIVE) > 1
    if _group_alive(pgid):
        if gentle and _signal_group(pgid, signal.SIGTERM):
            end = time.monotonic() + grace
            while time.monotonic() < end and _group_alive(pgid):
                _reap_group(popen)
                if _group_alive(pgid):
                    time.sleep(0.005)
        if _signal_group(pgid, signal.SIGKILL):
            end = time.monotonic() + 2.0
            while time.monotonic() < end and _group_alive(pgid):
                _reap_group(popen)
                if _group_alive(pgid):
                    time.sleep(0.005)
    try:
        status = popen.wait(2.0)
    except subprocess.TimeoutExpired:
        status = None
    _LIVE.pop(pgid, None)
    # Only this kit's marker is hunted; with several programs running at once (tests) the
    # others carry the same marker, so wait for the last one to hunt.
    if not others_running:
        _hunt_escapees(time.monotonic() + 2.0)
    return status


def stop_all() -> None:
    """Stop every group the kit started (at exit, on a signal)."""
    for popen in list(_LIVE.values()):
        try:
            stop(popen, gentle=False)
        except Exception:  # noqa: BLE001 - stopping must go on for the others
            pass
    _hunt_escapees(time.monotonic() + 2.0)


atexit.register(stop_all)
