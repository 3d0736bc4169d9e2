"""``--python`` adapters that stop at one stage of a run until the test says so.

At its gate an adapter writes its pid to the file named first in ``TURUB_GATE`` (the test
waits for that file: the kit is then at that stage) and opens the FIFO named second for
reading, which blocks until a writer comes (none does: the kit stops the adapter). No sleep
decides a stage.
"""

from __future__ import annotations

import os
from pathlib import Path

from turub.conformance.adapter import ReferenceImplementation


def _gate() -> None:
    ready, fifo = os.environ["TURUB_GATE"].split(os.pathsep)
    Path(ready).write_text(str(os.getpid()), encoding="utf-8")
    with open(fifo, encoding="utf-8") as f:  # blocks: no writer
        f.read()


class _TricksOnly(ReferenceImplementation):
    """Answers ``trick_winner`` (through the reference) until its gate."""

    answers_before_the_gate = 0
    calls = 0

    def supports(self):
        return ["trick_winner"]

    def trick_winner(self, cards, trump):
        type(self).calls += 1
        if type(self).calls > self.answers_before_the_gate:
            _gate()
        return super().trick_winner(cards, trump)


class StopsInTheHandshake(_TricksOnly):
    """Never answers the hello (the shim asks ``supports`` before it answers)."""

    def supports(self):
        _gate()
        return ["trick_winner"]


class StopsAtTheTenthCase(_TricksOnly):
    answers_before_the_gate = 9


class StopsAtTheFirstProperty(_TricksOnly):
    """With only the property suites asked (no vectors, cases or differential play), the
    first request is a property's."""
