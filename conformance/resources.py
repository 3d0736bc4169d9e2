"""The files the kit ships: the JavaScript sample and the protocol's JSON Schema.

People see them at the top of the repository (``examples/turub-sample.js``,
``spec/protocol.schema.json``); ``conformance/data/`` holds a symbolic link to each, so a
built wheel or sdist carries a copy as package data of ``turub.conformance`` and git
holds one.  They are read through :mod:`importlib.resources`, so the kit finds them the
same way from a checkout, an editable install or an installed wheel.
"""

from __future__ import annotations

import atexit
import json
import shutil
from contextlib import ExitStack
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["sample_path", "sample_command", "schema_text", "schema"]

_DATA = resources.files(__package__) / "data"
_KEEP = ExitStack()  # a real path for the whole run, even from a zipped install
atexit.register(_KEEP.close)


def sample_path() -> Path:
    """The bundled JavaScript implementation, as a file path Node.js can run."""
    return _KEEP.enter_context(resources.as_file(_DATA / "turub-sample.js"))


def sample_command() -> list[str] | None:
    """``node …/turub-sample.js``, or None when Node.js is not installed."""
    node = shutil.which("node")
    return [node, str(sample_path())] if node else None


def schema_text() -> str:
    """The protocol's JSON Schema (draft 2020-12), as published."""
    return (_DATA / "protocol.schema.json").read_text(encoding="utf-8")


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema, parsed."""
    return json.loads(schema_text())
