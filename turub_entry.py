# PYTHON_ARGCOMPLETE_OK  (argcomplete completes the turub console script, which starts here: turub[completion])
"""The ``turub`` console script's first module (``[project.scripts]`` in pyproject.toml).

Importing the package ``turub`` takes a few tenths of a second (the engine, then the kit's
commands); a SIGINT, SIGTERM or SIGHUP that came meanwhile would end ``turub`` by the signal,
with no report and perhaps a ``KeyboardInterrupt`` traceback.  This module imports nothing of
``turub`` before it holds those signals: the first one that comes is kept and handed to
:func:`turub.tools.cli.main`, which ends the run with its documented status (``turub check``
writes its reports, marked interrupted).  Only a signal that comes while the interpreter
itself starts, before this module's first line, still ends the process by the signal.

``python -m turub.tools.cli`` is the same command, without this early hold.
"""

from __future__ import annotations

import signal

__all__ = ["main"]


def main() -> int:
    """Hold the signals, import ``turub``, run it; its exit status."""
    held: list[int] = []  # the first signal held (a later one of a burst is the same interruption)
    previous: dict[int, object] = {}

    def hold(signum: int, frame: object) -> None:
        if not held:
            held.append(signum)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        handler = signal.getsignal(s)
        if handler is not signal.SIG_IGN:  # (a signal ignored when turub started stays ignored)
            previous[s] = handler
            signal.signal(s, hold)
    from turub.tools.cli import main as run
    return run(early_hold=(held, previous))


if __name__ == "__main__":  # pragma: no cover
    import sys
    sys.exit(main())
