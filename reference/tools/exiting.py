"""A command that is its process's whole work (the ``turub`` script, ``python -m
turub.tools.cli``) leaves its cyclic garbage to the exit.

Freeing garbage costs the cyclic collector a walk of every young object, and the
interpreter's last act is a full collection of everything: for ``turub check``, whose
Hypothesis searches leave hundreds of thousands of objects in cycles, those walks took
over a tenth of its CPU in one process (about 0.3 s).  A process about to end needs neither: what it holds goes back to
the system with it.  So, for the process's own command only (never for a caller's
``main(argv)`` in its own process, which lives on):

* :func:`ends_the_process` says so, and a stage that raised the collector's threshold for
  its work (the kit's run) keeps it raised instead of setting it back, which would collect
  at once everything the run left;
* when the command returns, what is left is frozen (``gc.freeze``): the interpreter's last
  collection then walks nothing.  Streams are flushed and files closed by the commands
  themselves (``with``), the exit handlers still run; only cycles no one can reach are left
  unwalked, and the system takes them back.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["ends_the_process", "whole_process"]

_ENDS: list[bool] = [False]


def ends_the_process() -> bool:
    """Whether the command running now is its process's whole work (:func:`whole_process`)."""
    return _ENDS[0]


@contextmanager
def whole_process(whole: bool) -> Iterator[None]:
    """Run a command; if it is the ``whole`` of its process, say so meanwhile
    (:func:`ends_the_process`) and freeze what is left when it returns."""
    if not whole:
        yield
        return
    _ENDS[0] = True
    try:
        yield
    finally:
        gc.freeze()  # the exit's full collection walks nothing; the system frees the rest
