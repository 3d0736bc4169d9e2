"""A house rule whose rule blocks at its first call until the test says so (see gated.py):
with only the property suites asked, the reference playing it stops inside the suites (in the
forked second process, where the machine has two cores)."""

import os
import sys
from pathlib import Path

from turub.variants import Variant, VariantClause


def _checked_at_load() -> bool:
    """Called by the load-time checks of user code (turub.rule_checks asks every rule twice
    before it plays): answer at once there, so the run reaches the stage the test gates."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__name__") == "turub.rule_checks":
            return True
        frame = frame.f_back
    return False


def blocks(hand, trick, trump):
    if _checked_at_load():
        return None
    ready, fifo = os.environ["TURUB_GATE"].split(os.pathsep)
    Path(ready).write_text(str(os.getpid()), encoding="utf-8")
    with open(fifo, encoding="utf-8") as f:  # blocks: no writer
        f.read()
    return None


GATED = Variant("gated", version="1", clauses=[VariantClause(
    "gated.blocks", "A rule that blocks", text="Decides nothing; waits for the test.",
    replaces=["play.no-forced-trump"], decides="legal_plays", rule=blocks, applies_to="void")])
