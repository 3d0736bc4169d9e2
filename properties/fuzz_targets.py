"""The interface properties as fuzz targets for HypoFuzz (docs/guides/deep-campaign.md).

HypoFuzz runs ``@given`` tests collected by pytest, for hours, over many processes and
machines.  The property suites take the implementation under test as a pytest fixture
(``impl``); here each property is built again (:mod:`turub.properties.factory`) with the
implementation given as a fixed argument, so every target stands alone::

    TURUB_IMPL=my_engine.py:Engine hypothesis fuzz -- properties/fuzz_targets.py
    TURUB_PROGRAM="node my-impl.js" hypothesis fuzz -- properties/fuzz_targets.py

``TURUB_IMPL`` names a Python adapter as ``--impl`` does; ``TURUB_PROGRAM`` a program in any
language speaking the kit's protocol, started once in each fuzzing process
(:mod:`turub.properties.under_test`); neither: the reference.

The implementation reaches each target as a pytest parameter (``[impl]``), not as a fixture
(HypoFuzz sets up none) nor as a drawn constant: HypoFuzz keys what it saves in the example
database by the test's pytest node ID, which Hypothesis's own pytest plugin adds to the key
only for parametrized tests.  So a failure HypoFuzz saves is replayed first by the plain
run ``pytest properties/fuzz_targets.py`` from the repository's root, with the same
``TURUB_IMPL``/``TURUB_PROGRAM`` and the same database (``TURUB_DATABASE``,
:mod:`turub.properties.profiles`), in any folder or on any machine.  pytest does not
collect this file by itself (its name does not start with ``test_``): name it, as above.
"""

from __future__ import annotations

import pytest

from turub.properties import profiles
from turub.properties.checks import interface_properties
from turub.properties.under_test import implementation_under_test

profiles.load()

#: The implementation the targets check.
IMPL = implementation_under_test()

for _name, _test in interface_properties().items():
    if hasattr(_test, "build"):  # the @property_test ones (the others draw nothing)
        globals()["test_" + _name.replace(".test_", "__")] = pytest.mark.parametrize(
            "impl", [IMPL], ids=["impl"])(_test.build())
