"""The interface properties as fuzz targets for HypoFuzz (docs/guides/deep-campaign.md).

HypoFuzz runs ``@given`` tests collected by pytest, for hours, over many processes and
machines.  The property suites take the implementation under test as a pytest fixture
(``impl``); here each property is built again (:mod:`turub.properties.factory`) with the
implementation given as a fixed argument, so every target stands alone::

    TURUB_IMPL=my_engine.py:Engine hypothesis fuzz -- properties/fuzz_targets.py

``TURUB_IMPL`` names the implementation as ``--impl`` does (default: the reference).  A
target keeps its property's identity in the example database, so a failure HypoFuzz
saves is replayed first by a plain ``pytest properties --impl ...`` that reads the same
database.  pytest does not collect this file by itself (its name does not start with
``test_``): name it, as above.
"""

from __future__ import annotations

import os

from turub.conformance.programs.loader import load_adapter
from turub.properties import profiles
from turub.properties.checks import interface_properties

profiles.load()

#: The implementation the targets check.
IMPL = load_adapter(os.environ.get("TURUB_IMPL", "turub.conformance.adapter:ReferenceImplementation"))

for _name, _test in interface_properties().items():
    if hasattr(_test, "build"):  # the @property_test ones (the others draw nothing)
        globals()["test_" + _name.replace(".test_", "__")] = _test.build(fixed={"impl": IMPL})
