"""turub.conformance: the conformance kit.

Point it at an implementation of Arba'a Turub, in any language, and learn clause by clause
where it agrees with the specification, with the smallest game situation that shows each
disagreement.

The kit's rooms, by role, with imports in one direction (each room imports only the rooms
above it in this list):

* the shared contract: :mod:`~turub.conformance.adapter` (the operations and the Python adapter
  interface), :mod:`~turub.conformance.args` (defaults and exit statuses),
  :mod:`~turub.conformance.text` (untrusted text made safe), :mod:`~turub.conformance.resources`
  (the bundled sample and schema);
* :mod:`~turub.conformance.programs`: talking to the program under test (the protocol client,
  processes, the Python shim, the second process, parallel instances);
* :mod:`~turub.conformance.judging`: the expected answer (oracle) and the verdict (judge);
* :mod:`~turub.conformance.questions`: what is asked (cases, vectors, selection, differential
  play, property suites);
* :mod:`~turub.conformance.diagnosis`: why it failed (situation, misreadings, blame);
* :mod:`~turub.conformance.reports`: what is written (terminal, JSON, JSONL, JUnit, HTML,
  comparisons, variant reports);
* :mod:`~turub.conformance.commands`: the entry points (one check run, ``turub check``,
  ``turub vectors``, ``turub variants``, the pytest plugin).

The modules' earlier flat names (``turub.conformance.kit``, ``turub.conformance.protocol``, ...)
still import, as aliases of the modules in their rooms (:data:`MOVED`).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

# Where each module of the flat layout lives now (old name -> new dotted name).
MOVED = {
    "process": "programs.process", "protocol": "programs.protocol", "shim": "programs.shim",
    "loader": "programs.loader", "lane": "programs.lane", "parallel": "programs.parallel",
    "targets": "programs.targets",
    "oracle": "judging.oracle", "judge": "judging.judge",
    "cases": "questions.cases", "vectors": "questions.vectors", "select": "questions.select",
    "differential": "questions.differential", "properties": "questions.properties",
    "situation": "diagnosis.situation", "misreadings": "diagnosis.misreadings",
    "diagnosis": "diagnosis.blame",
    "report": "reports.report", "spool": "reports.spool", "jsonl": "reports.jsonl",
    "junit": "reports.junit", "html_report": "reports.html", "compare": "reports.compare",
    "badge": "reports.badge", "baseline": "reports.baseline", "variants": "reports.variants",
    "kit": "commands.check", "listing": "commands.listing", "cli": "commands.cli",
    "plugin": "commands.plugin",
}


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``turub.conformance.<old>`` as the module now in its room (one module, two names)."""

    def find_spec(self, fullname, path=None, target=None):
        prefix, _, leaf = fullname.rpartition(".")
        if prefix != __name__ or leaf not in MOVED or leaf == "diagnosis":
            return None  # turub.conformance.diagnosis is the room itself now
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return importlib.import_module(f"{__name__}.{MOVED[spec.name.rpartition('.')[2]]}")

    def exec_module(self, module):
        pass


if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
    sys.meta_path.append(_MovedFinder())
