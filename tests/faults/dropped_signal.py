"""A variant file that makes the kit's own process take a signal inside a garbage collector's
callback, where CPython drops whatever the kit's handler raises ("Exception ignored in ..."),
as it drops it inside Hypothesis's own callback: the run must stop all the same.

``TURUB_DROPPED_SIGNAL`` is ``STAGE:FILE``: at the callback's first collection in the main
thread at that stage (``loading``: while the file loads, under the loading stage's limit;
``run``: once the run is under way, under the whole-run limit; told apart by the alarm's
handler, whose name says which limit set it), it writes
``spinning`` to the file and spins there until an exception comes (at most 60 s): a signal
the test sends, or the run's own time limit; it then writes the exception's name to the file
(the situation under test came about, not merely a signal) and lets Python drop it.
``dropped-signal`` has no house clause; under ``dropped-then-loops`` a rule asked at each lead
makes a collection at the stage, then loops for ever once that exception came: only the time
limit, raised again, can stop it."""

import gc
import os
import signal
import threading
import time
from pathlib import Path

from turub.variants import Variant, VariantClause

_stage, _marker = os.environ["TURUB_DROPPED_SIGNAL"].split(":", 1)
_HANDLERS = {"loading": "_time_limit", "run": "whole_run_limit"}  # (the kit's own functions)
_pid = os.getpid()
_spun: list = []
_dropped: list = []


def _collecting(phase, info):
    if _spun or os.getpid() != _pid or threading.current_thread() is not threading.main_thread() \
            or not _at_the_stage():
        return
    _spun.append(True)
    try:  # (the marker written inside: a signal the test sends on reading it lands in here)
        Path(_marker).write_text("spinning", encoding="utf-8")
        end = time.monotonic() + 60
        while time.monotonic() < end:  # the handler runs here, between two of these steps
            pass
    except BaseException as e:
        Path(_marker).write_text(type(e).__name__, encoding="utf-8")
        _dropped.append(e)
        raise


def _at_the_stage() -> bool:
    return _HANDLERS[_stage] in getattr(signal.getsignal(signal.SIGALRM), "__qualname__", "")


def loops_once_dropped(hand, trick, trump):
    if not _spun and _at_the_stage():
        gc.collect()  # (the kit makes collections rare while it runs: one now, at the stage)
    while _dropped:
        pass
    return None


gc.callbacks.append(_collecting)
DROPPED_SIGNAL = Variant("dropped-signal", version="1", clauses=[])
DROPPED_THEN_LOOPS = Variant("dropped-then-loops", version="1", clauses=[VariantClause(
    "dropped.loops", "Loops at each lead once the run's exception was dropped",
    decides="legal_plays", rule=loops_once_dropped, applies_to="lead")])
