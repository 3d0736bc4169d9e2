"""The boundary around user code the commands run in this process: variant files and the
rules in them (``--variant club.py``), and what they print.

User code is untrusted like a program under test: it may raise anything (``SystemExit`` and
``KeyboardInterrupt`` included), print, or loop at import.  :func:`user_code` runs it with
its standard output sent to standard error (so nothing it prints reaches ``--json -``), a
time limit (``--time-limit`` covers loading), and turns whatever escapes into one
:class:`UsageError` line naming the file.  :func:`load_variant` refuses a variant from a file
whose name is a built-in one.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

from turub.errors import OutOfTime, RuleError

from ..text import safe_text

__all__ = ["UsageError", "user_code", "load_variant", "stdout_to_stderr", "whole_run_limit", "run_out_of_time",
           "private_stdout"]


class UsageError(Exception):
    """A bad argument or input file (exit status 2); the message is one line."""


class _OutOfTime(OutOfTime):
    """User code still running when its time limit came (the engine's :class:`OutOfTime`:
    a house rule being checked as the variant loads is named, :mod:`turub.rule_checks`)."""


def _out_of_time_class() -> type:
    from ..programs.targets import Interrupted

    class RunOutOfTime(Interrupted):
        """The whole-run time limit came while something in this process still ran (a
        variant's rule that loops): the run stops as for a signal, but is marked ``cut``."""
    return RunOutOfTime


@contextlib.contextmanager
def whole_run_limit(deadline: float) -> Iterator[None]:
    """While the run lasts, the whole-run time limit interrupts whatever still runs in this
    process when it comes (raising :func:`run_out_of_time`'s class, an ``Interrupted``):
    ``deadline`` is a reading of the run's clock (:mod:`~turub.conformance.programs.run_clock`),
    so the alarm, set for the earliest wall-clock time it can come, is set again for the rest
    when the machine kept the run waiting meanwhile."""
    import time

    from ..programs import run_clock
    from ..programs.targets import INTERRUPTION, stop_when_dropped, when_dropped
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    out_of_time = run_out_of_time()

    def expire(signum: int, frame: Any) -> None:
        if not run_clock.past(deadline):
            signal.setitimer(signal.ITIMER_REAL, max(run_clock.wall_time_of(deadline) - time.monotonic(), 0.001))
            return
        raise out_of_time(signal.SIGALRM)

    def again(e: BaseException) -> None:
        """Python dropped the limit's exception (raised in a garbage collector's callback):
        the next request raises it, and so does the alarm, soon, for user code looping
        without asking anything."""
        INTERRUPTION.keep(e)
        signal.setitimer(signal.ITIMER_REAL, _AGAIN)

    previous = signal.signal(signal.SIGALRM, expire)
    hook_below = when_dropped(again, (out_of_time,))
    signal.setitimer(signal.ITIMER_REAL, max(run_clock.wall_time_of(deadline) - time.monotonic(), 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        stop_when_dropped(hook_below)


#: Seconds until a time limit's alarm comes again after Python dropped its exception.
_AGAIN = 0.01

_RUN_OUT_OF_TIME: list[type] = []


def run_out_of_time() -> type:
    """The exception the whole-run limit raises (one class per process)."""
    if not _RUN_OUT_OF_TIME:
        _RUN_OUT_OF_TIME.append(_out_of_time_class())
    return _RUN_OUT_OF_TIME[0]


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """What user code prints goes to standard error, never into a report on standard output."""
    with contextlib.redirect_stdout(sys.stderr):
        yield


@contextlib.contextmanager
def private_stdout(out: Any, wanted: bool) -> Iterator[Any]:
    """When a report goes to standard output (``wanted``) and ``out`` is the process's own
    standard output: the stream to write the reports to, on a private copy of file
    descriptor 1, while descriptor 1 itself points at standard error for as long as the
    command runs, so that not even user code writing to the descriptor (``os.write(1, ...)``,
    a C extension) reaches the report.  Otherwise ``out`` itself."""
    import os
    try:
        private = wanted and out.fileno() == 1
    except (AttributeError, OSError, ValueError):
        private = False
    if not private:
        yield out
        return
    out.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    stream = open(saved, "w", encoding=getattr(out, "encoding", None) or "utf-8",
                  errors=getattr(out, "errors", None) or "strict", closefd=False)
    from turub.tools.cli import printable
    try:
        yield printable(stream)
        stream.flush()
    finally:
        try:
            stream.close()
        except OSError:
            pass
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


@contextlib.contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`_OutOfTime` in this thread after ``seconds`` (main thread only)."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    from ..programs.targets import stop_when_dropped, when_dropped

    def expire(signum: int, frame: Any) -> None:
        raise _OutOfTime("")

    def again(e: BaseException) -> None:
        """Python dropped it (raised in a garbage collector's callback): the alarm comes
        again soon, so user code that loops is stopped all the same."""
        signal.setitimer(signal.ITIMER_REAL, _AGAIN)

    previous = signal.signal(signal.SIGALRM, expire)
    hook_below = when_dropped(again, (_OutOfTime,))
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        stop_when_dropped(hook_below)


@contextlib.contextmanager
def user_code(what: str, time_limit: float | None = None) -> Iterator[None]:
    """Run user code (``what`` names it: ``--variant club.py``) behind the boundary: any
    exception, exit or interruption it raises, or its running past ``time_limit`` seconds,
    is one :class:`UsageError`; a :class:`RuleError` keeps its own message."""
    from turub.tools.cli import Interruption

    from ..programs.targets import Interrupted
    try:
        with stdout_to_stderr(), _time_limit(time_limit):
            yield
    except (UsageError, Interrupted, Interruption):  # (a signal that came meanwhile is the command's)
        raise
    except RuleError as e:
        raise UsageError(safe_text(str(e), 600)) from None
    except _OutOfTime as e:
        raise UsageError(f"{what}: still loading after the whole-run time limit ({time_limit:g} s): "
                         + (safe_text(str(e), 600) if str(e) else "does it loop at import?")) from None
    except OutOfTime as e:  # the rule being checked, named (turub.decisions.interrupted)
        if time_limit is None:  # the command's own --time-limit: its one line, its status
            raise
        raise UsageError(f"{what}: still loading after the whole-run time limit ({time_limit:g} s): "
                         f"{safe_text(str(e), 600)}") from None
    except RecursionError:
        raise UsageError(f"{what}: nested too deep (RecursionError)") from None
    except BaseException as e:  # noqa: BLE001 - SystemExit, KeyboardInterrupt: user code's
        raise UsageError(f"{what}: {type(e).__name__} while loading: {safe_text(str(e), 300)}") from None


def _names_a_file(text: str) -> bool:
    head = text.split(":", 1)[0] if ".py:" in text else text
    return head.endswith((".py", ".toml", ".json"))


def load_variant(items: list[str], variant: str | None = None, time_limit: float | None = None) -> Any:
    """The variant a command runs under (``--variant``, ``--rules``), loaded behind the
    boundary; a variant from a file may not take a built-in variant's name."""
    from turub.variants import BUILTIN, select
    what = f"--variant {safe_text(variant, 200)}" if variant else f"--rules {safe_text(' '.join(items), 200)}"
    with user_code(what, time_limit):
        chosen = select(variant, items)
    named = [variant] if variant else list(items)
    if any(_names_a_file(x) for x in named) and chosen.name in BUILTIN and chosen is not BUILTIN[chosen.name]:
        raise UsageError(f"{what}: its variant is named {chosen.name!r}, a built-in variant's name: "
                         "give it a name of its own")
    return chosen
