"""A file that blocks while it is imported until the test says so (see gated.py): as a
variant (``--variant gated_load.py``) it stops the kit while it loads the rules, in the
kit's own process; as an adapter (``--python gated_load.py:Adapter``) it stops the shim
before the hello."""

import os
from pathlib import Path

from turub.conformance.adapter import ReferenceImplementation
from turub.variants import Variant

ready, fifo = os.environ["TURUB_GATE"].split(os.pathsep)
Path(ready).write_text(str(os.getpid()), encoding="utf-8")
with open(fifo, encoding="utf-8") as f:  # blocks: no writer
    f.read()

GATED_LOAD = Variant("gated-load", version="1", clauses=[])
Adapter = ReferenceImplementation
