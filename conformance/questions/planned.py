"""The planned cases of the default check, shipped as data: the clause-directed cases and the
generated cases of the default seed under the standard rules, with the reference's answers.

They depend on nothing a program answers, only on the kit's generators and the reference, so
``turub check`` with its defaults reads them (about 0.02 s) instead of working them out again
(about 0.14 s of CPU, a tenth of the default check).  Any other seed, scale or rules works
them out as ever.  ``conformance/planned/standard.json`` holds them, one case per line as the
committed vectors do; ``turub vectors --regenerate`` rewrites it with the vectors, ``turub
vectors --check`` compares, and a test regenerates it in memory and compares with the
committed file, so a change of a generator or of an expected answer cannot go unseen.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from turub import Rules
from turub.user_files import ReportWriteError, write_atomically

from .cases import Case, iter_generated_cases
from .directed import directed_cases

__all__ = ["PLANNED_DIR", "PLANNED_FORMAT", "PLANNED_SEED", "Planned", "planned_cases",
           "render_planned", "write_planned"]

#: Where the shipped planned cases live (installed with the package).
PLANNED_DIR = Path(__file__).parent.parent / "planned"
PLANNED_FORMAT: Final = "turub-planned/1"
#: The seed and scale they are planned for: ``turub check``'s defaults.
PLANNED_SEED: Final = 1
PLANNED_SCALE: Final = 1.0
_FILE: Final = "standard.json"


@dataclass(frozen=True)
class Planned:
    """The clause-directed cases and the generated cases of one seed, in the order asked."""

    directed: list[Case]
    generated: list[Case]


def _build() -> Planned:
    rules = Rules()
    return Planned(directed_cases(rules), list(iter_generated_cases(PLANNED_SEED, rules, PLANNED_SCALE)))


def render_planned(planned: Planned | None = None) -> dict[str, str]:
    """File name → text of the shipped planned cases (worked out now unless given)."""
    planned = _build() if planned is None else planned

    def lines(cases: list[Case]) -> str:
        return ",\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in cases)
    head = json.dumps({"format": PLANNED_FORMAT, "seed": PLANNED_SEED, "scale": PLANNED_SCALE,
                       "rules": Rules().to_dict(),
                       "note": "Generated from the reference engine by `turub vectors --regenerate`; "
                               "do not edit."}, ensure_ascii=False)
    return {_FILE: head[:-1] + ',\n"directed":[\n' + lines(planned.directed) + '\n],\n"generated":[\n'
            + lines(planned.generated) + "\n]}\n"}


def _write(text: str, f: Any) -> None:
    f.write(text)


def write_planned(directory: Path = PLANNED_DIR) -> list[Path]:
    """Work the planned cases out from the reference into ``directory``, written atomically
    (as :func:`.vectors.write_vectors` writes the vectors)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportWriteError(f"cannot write the planned cases to {directory}: {e.strerror or e}") from None
    written = []
    for name, text in render_planned().items():
        write_atomically(directory / name, functools.partial(_write, text), "planned cases")
        written.append(directory / name)
    return written


def planned_cases(rules: Rules, seed: int | None, scale: float,
                  directory: Path | None = None) -> Planned | None:
    """The shipped planned cases when the check asks for exactly what they were planned for
    (the standard rules, no variant, seed :data:`PLANNED_SEED`, scale :data:`PLANNED_SCALE`);
    None otherwise, or when the file is missing or of another format: then they are worked
    out as ever.  ``directory``: :data:`PLANNED_DIR` unless given."""
    from ..ruleset import variant_of
    if seed != PLANNED_SEED or scale != PLANNED_SCALE or variant_of(rules) is not None \
            or rules.to_dict() != Rules().to_dict():
        return None
    try:
        data = json.loads(((PLANNED_DIR if directory is None else directory) / _FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    if data.get("format") != PLANNED_FORMAT or data.get("seed") != seed or data.get("scale") != scale \
            or data.get("rules") != rules.to_dict():
        return None
    return Planned(data["directed"], data["generated"])
