"""turub.conformance: the conformance kit.

Point it at an implementation of Arba'a Turub, in any language, and learn clause by clause
where it agrees with the specification, with the smallest game situation that shows each
disagreement.

* :mod:`~turub.conformance.adapter`: the operations and the Python adapter interface;
* :mod:`~turub.conformance.protocol`: the JSON-lines protocol client (``spec/protocol.schema.json``);
* :mod:`~turub.conformance.cases` and :mod:`~turub.conformance.vectors`: the cases, generated
  from the reference, and the committed vectors;
* :mod:`~turub.conformance.judge`: an answer against the expected one, with the outcome class;
* :mod:`~turub.conformance.differential`: differential play with shrinking (Hypothesis);
* :mod:`~turub.conformance.kit` and :mod:`~turub.conformance.report`: the run and its report;
* :mod:`~turub.conformance.lane`: a forked second process for the property suites of an
  in-process implementation (two cores, same report);
* :mod:`~turub.conformance.cli`: ``turub check``, ``turub vectors``, ``turub variants diff``.
"""
