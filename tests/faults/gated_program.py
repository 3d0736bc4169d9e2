"""A program over the protocol that blocks as it starts, before its hello, until the test
says so (see gated.py): the kit is waiting for the handshake of a program of its own."""

import os
from pathlib import Path

ready, fifo = os.environ["TURUB_GATE"].split(os.pathsep)
Path(ready).write_text(str(os.getpid()), encoding="utf-8")
with open(fifo, encoding="utf-8") as f:  # blocks: no writer
    f.read()
