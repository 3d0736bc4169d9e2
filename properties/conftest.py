"""Settings for the property suites: Hypothesis profiles and the implementation under test.

Profiles (``turub.properties.profiles``; select with the ``HYPOTHESIS_PROFILE`` environment
variable, no code edits): ``dev`` by default, ``ci`` when ``CI`` is set, ``deep`` for tens of
thousands of examples per property.

The implementation under test is the ``impl`` fixture: the reference engine unless
``--impl module:Object`` (or ``path/file.py:Object``) names another: an object or a class
with the methods of ``turub.conformance.adapter.Implementation``::

    pytest properties --impl mypkg.adapter:MyImplementation
"""

from __future__ import annotations

import pytest
from hypothesis import settings

from turub.conformance.programs.loader import AdapterLoadError, load_adapter
from turub.properties import profiles

profiles.load()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--impl", default="turub.conformance.adapter:ReferenceImplementation",
        help="the implementation the property suites check, as module:Object or "
             "path/file.py:Object (default: the reference engine)")


def load_implementation(spec: str):
    """The implementation named ``module:Object`` or ``path/file.py:Object`` (a class is
    instantiated), as ``turub check --python`` and ``pytest --turub-python`` read it."""
    try:
        return load_adapter(spec)
    except AdapterLoadError as e:
        raise pytest.UsageError(f"--impl: {e}") from None


@pytest.fixture(scope="session")
def impl(request: pytest.FixtureRequest):
    """The implementation under test (``--impl``), shared by every property."""
    return load_implementation(request.config.getoption("--impl"))


def pytest_report_header(config: pytest.Config) -> str:
    return (f"turub properties: hypothesis profile {settings.get_current_profile_name()!r}, "
            f"implementation {config.getoption('--impl')}")
