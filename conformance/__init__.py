"""turub.conformance: the conformance kit.

Point it at an implementation of Arba'a Turub, in any language, and learn clause by clause
where it agrees with the specification, with the smallest game situation that shows each
disagreement.

The kit's rooms, by role, with imports in one direction (each room imports only the rooms
above it in this list):

* the shared contract: :mod:`~turub.conformance.operations` (each operation's record, its
  roles' parts attached), :mod:`~turub.conformance.adapter` (the Python adapter interface),
  :mod:`~turub.conformance.results` (a case's status and row), :mod:`~turub.conformance.ruleset`
  (the rules a check runs under), :mod:`~turub.conformance.option_checks` (the options checked, defaults and exit statuses),
  :mod:`~turub.conformance.text` (untrusted text made safe), :mod:`~turub.conformance.resources`
  (the bundled sample and schema);
* :mod:`~turub.conformance.programs`: talking to the program under test (the protocol client,
  processes, the Python shim, the second process, parallel instances);
* :mod:`~turub.conformance.judging`: the expected answer (variant_reference) and the verdict (judge);
* :mod:`~turub.conformance.questions`: what is asked (cases, vectors, selection, differential
  play, property suites);
* :mod:`~turub.conformance.diagnosis`: why it failed (situation, misreadings, blame);
* :mod:`~turub.conformance.reports`: what is written (terminal, JSON, JSONL, JUnit, HTML,
  comparisons, variant reports);
* :mod:`~turub.conformance.commands`: the entry points (one check run, ``turub check``,
  ``turub vectors``, ``turub variants``, the pytest plugin).
"""
from __future__ import annotations
