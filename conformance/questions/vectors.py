"""The committed vectors: cases as JSON data, one file per option set.

``conformance/vectors/<set>.json`` holds every case that holds under that option set, one
case per line, so that a change of any expected answer is a one-line diff in review.
``index.json`` names the format, the sets and their options, and a digest of each file.
``turub vectors --regenerate`` rewrites them from the reference; a test regenerates them
in memory and compares with the committed files.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from turub import Rules
from turub.user_files import ReportWriteError, write_atomically

from .cases import OPTION_SETS, VECTOR_FORMAT, VECTOR_SEED, Case, build_vectors

__all__ = ["VECTOR_DIR", "load_vectors", "write_vectors", "render_vectors", "vector_sets"]

#: Where the committed vectors live (installed with the package).
VECTOR_DIR = Path(__file__).parent.parent / "vectors"  # the data stays at conformance/vectors/


def render_vectors(vectors: Mapping[str, list[Case]]) -> dict[str, str]:
    """File name → text of every vector file, ``index.json`` included."""
    files: dict[str, str] = {}
    for name, cases in vectors.items():
        lines = ",\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in cases)
        files[f"{name}.json"] = "[\n" + lines + "\n]\n"
    index = {
        "format": VECTOR_FORMAT,
        "seed": VECTOR_SEED,
        "note": "Generated from the reference engine by `turub vectors --regenerate`; do not edit.",
        "sets": {name: {"rules": OPTION_SETS[name].to_dict() if name in OPTION_SETS else None,
                        "file": f"{name}.json", "cases": len(vectors[name]),
                        "sha256": hashlib.sha256(files[f"{name}.json"].encode()).hexdigest()}
                 for name in vectors},
    }
    files["index.json"] = json.dumps(index, indent=1, ensure_ascii=False) + "\n"
    return files


def _write(text: str, f: Any) -> None:
    f.write(text)


def write_vectors(directory: Path = VECTOR_DIR) -> list[Path]:
    """Regenerate the vectors from the reference into ``directory``, each file written
    atomically (:func:`turub.user_files.write_atomically`: a failed write keeps the old
    file whole, a link planted in a sticky folder is never followed); a file that cannot be
    written is a :class:`~turub.user_files.ReportWriteError`."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportWriteError(f"cannot write the vectors to {directory}: {e.strerror or e}") from None
    written = []
    for name, text in render_vectors(build_vectors()).items():
        path = directory / name
        write_atomically(path, functools.partial(_write, text), "vectors")
        written.append(path)
    return written


def vector_sets(directory: Path = VECTOR_DIR) -> dict[str, Any]:
    """The index's sets: ``{name: {"rules": ..., "file": ..., "cases": n}}``."""
    path = directory / "index.json"
    if not path.exists():
        return {}
    index = json.loads(path.read_text(encoding="utf-8"))
    if index.get("format") != VECTOR_FORMAT:
        raise ValueError(f"{path}: format {index.get('format')!r}, the kit reads {VECTOR_FORMAT}")
    return index["sets"]


def load_vectors(rules: Rules, directory: Path = VECTOR_DIR) -> list[Case] | None:
    """The committed cases for ``rules``, or None when no committed set has these options."""
    for name, entry in vector_sets(directory).items():
        if entry.get("rules") == rules.to_dict():
            return json.loads((directory / entry["file"]).read_text(encoding="utf-8"))
    return None
