"""A second lane: work done in a forked copy of the kit while the kit goes on.

On a machine with two cores or more, checking an in-process implementation (the reference
engine: trusted code, no program, no thread) spends one core on everything, one check after
another.  :meth:`Lane.fork` starts a copy of the kit's process (``os.fork``: the copy has the
target, the rules and the strategies already built, nothing is imported again) that does one
piece of work, the property suites, and writes each result as a JSON line to a temporary
file, flushed as it is known.  The kit goes on with its own checks and then
:meth:`~Lane.collect`\\ s what the copy wrote.

What a lane may never do is change a verdict, so it only ever hands back results, whole
lines of them: whatever it did not finish (it failed, was killed, ran out of time, wrote
something that is not a result) the caller does itself, as it would have without a lane.
The copy dies with the kit (``PR_SET_PDEATHSIG`` on Linux), ignores the terminal's SIGINT
(the kit reports the interruption and kills it), and never runs the kit's exit handlers
(``os._exit``).  A lane is only forked from a process with one thread (a fork copies no
other thread, and a lock one of them held would stay locked in the copy), on Linux, where
the kit may use two cores.

Nothing here knows what the work is: it only forks, waits and reads lines.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from . import run_clock

__all__ = ["Lane", "why_not_fork"]

#: The line the copy writes when its work returned: every result before it is complete.
FINISHED = {"lane": "finished"}
#: Seconds between two looks at whether the copy has exited.
POLL = 0.002


def cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def why_not_fork() -> str | None:
    """Why no lane can be forked here (None: one can)."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return f"no second process on {sys.platform}"
    if cores() < 2:
        return "one core"
    if threading.active_count() > 1:
        return "the kit's process has other threads"
    return None


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (``PR_SET_PDEATHSIG``)."""
    try:
        import ctypes
        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _child(work: Callable[[Callable[[dict], None]], None], out: IO[bytes], parent: int) -> None:
    """The forked copy: do ``work``, one JSON line per result, then :data:`FINISHED`; exit
    without running anything of the parent's (exit handlers, buffered output)."""
    code = 70
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the kit reports it and kills this copy
        for s in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_DFL)
        _die_with_parent()
        if os.getppid() != parent:  # the kit died before the line above took effect
            return

        def emit(result: dict) -> None:
            out.write(json.dumps(result, ensure_ascii=True).encode("ascii") + b"\n")
            out.flush()
        work(emit)
        emit(FINISHED)
        code = 0
    except BaseException:  # noqa: BLE001 - the parent does whatever is missing
        pass
    finally:
        os._exit(code)


class Lane:
    """A forked copy of the process doing one piece of work (see the module's notes)."""

    def __init__(self, pid: int, out: IO[bytes]) -> None:
        self.pid = pid
        self._out = out
        self._status: int | None = None

    @classmethod
    def fork(cls, work: Callable[[Callable[[dict], None]], None]) -> Lane | str:
        """Start ``work(emit)`` in a forked copy; the lane, or why there is none.  ``emit``
        takes one JSON-serialisable result at a time."""
        why = why_not_fork()
        if why is not None:
            return why
        try:
            out = tempfile.TemporaryFile()
        except OSError as e:
            return f"no file for its results: {e}"
        parent = os.getpid()
        for stream in (sys.stdout, sys.stderr):  # the copy leaves by os._exit: nothing twice
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        gc.freeze()  # the copy's collections leave the objects it shares with the kit untouched
        try:
            pid = os.fork()
        except OSError as e:
            gc.unfreeze()
            out.close()
            return f"could not fork: {e}"
        if pid == 0:  # pragma: no cover - the copy; it leaves through os._exit
            _child(work, out, parent)
        gc.unfreeze()
        return cls(pid, out)

    def _reap(self, block: bool) -> bool:
        """Collect the copy's exit status if it has exited; whether it has."""
        if self._status is not None:
            return True
        try:
            pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            self._status = -1
            return True
        if pid == 0:
            return False
        self._status = status
        return True

    def _kill(self) -> None:
        """SIGKILL the copy if it is still running, and collect it."""
        if self._status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap(block=True)

    def cancel(self) -> None:
        """Kill the copy (if it is still running) and collect it; its results are dropped."""
        self._kill()
        self._out.close()

    def collect(self, until: float) -> tuple[list[dict[str, Any]], str | None]:
        """Wait for the copy until it exits or ``until`` (a reading of :mod:`.run_clock`), killing it
        then; the results it wrote in full, and why they may not be all of them (None: its
        work returned)."""
        late = False
        while not self._reap(block=False):
            if run_clock.past(until):
                late = True
                self._kill()
                break
            time.sleep(POLL)
        self._out.seek(0)
        lines = self._out.read().split(b"\n")
        self._out.close()
        results: list[dict[str, Any]] = []
        finished = False
        for line in lines[:-1]:  # the last piece has no newline: unfinished, or empty
            try:
                item = json.loads(line)
            except ValueError:
                break
            if item == FINISHED:
                finished = True
                break
            if not isinstance(item, dict):
                break
            results.append(item)
        if finished:
            return results, None
        status = self._status
        if late:
            why = "ran out of time"
        elif status is not None and status > 0 and os.WIFSIGNALED(status):
            why = f"stopped by {signal.Signals(os.WTERMSIG(status)).name}"
        elif status is not None and status > 0 and os.WIFEXITED(status):
            why = f"exited with status {os.WEXITSTATUS(status)}"
        else:
            why = "did not finish"
        return results, why
