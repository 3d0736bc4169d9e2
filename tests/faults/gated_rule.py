"""A house rule whose rule blocks at its first call until the test says so (see gated.py):
with only the property suites asked, the reference playing it stops inside the suites (in the
forked second process, where the machine has two cores)."""

import os
from pathlib import Path

from turub.variants import Variant, VariantClause


def blocks(hand, trick, trump):
    ready, fifo = os.environ["TURUB_GATE"].split(os.pathsep)
    Path(ready).write_text(str(os.getpid()), encoding="utf-8")
    with open(fifo, encoding="utf-8") as f:  # blocks: no writer
        f.read()
    return None


GATED = Variant("gated", version="1", clauses=[VariantClause(
    "gated.blocks", "A rule that blocks", text="Decides nothing; waits for the test.",
    replaces=["play.no-forced-trump"], decides="legal_plays", rule=blocks, applies_to="void")])
