"""Settings for the property suites: Hypothesis profiles and the implementation under test.

Profiles (select with the ``HYPOTHESIS_PROFILE`` environment variable, no code edits):

* ``dev``: the default outside CI, a quick run while working;
* ``ci``: Hypothesis's own profile, which it loads by itself when ``CI`` is set
  (derandomized, no deadline, no example database, failures print a reproduce blob);
* ``deep``: tens of thousands of examples per property, for a long run.

The implementation under test is the ``impl`` fixture: the reference engine unless
``--impl module:Object`` names another (an object, a class or a factory with the methods
of ``turub.conformance.adapter.Implementation``)::

    pytest properties --impl mypkg.adapter:MyImplementation
"""

from __future__ import annotations

import importlib
import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "dev", max_examples=50, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "deep", max_examples=20_000, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
elif not os.environ.get("CI"):
    settings.load_profile("dev")
# With CI set and no profile named, Hypothesis has already loaded its "ci" profile.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--impl", default="turub.conformance.adapter:ReferenceImplementation",
        help="the implementation the property suites check, as module:Object "
             "(default: the reference engine)")


def load_implementation(spec: str):
    """The implementation named ``module:Object``; a class or factory is called once."""
    module_name, _, name = spec.partition(":")
    if not name:
        raise pytest.UsageError(f"--impl {spec!r}: write module:Object")
    obj = importlib.import_module(module_name)
    for part in name.split("."):
        obj = getattr(obj, part)
    if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "supports")):
        obj = obj()
    return obj


@pytest.fixture(scope="session")
def impl(request: pytest.FixtureRequest):
    """The implementation under test (``--impl``), shared by every property."""
    return load_implementation(request.config.getoption("--impl"))


def pytest_report_header(config: pytest.Config) -> str:
    return (f"turub properties: hypothesis profile {settings.get_current_profile_name()!r}, "
            f"implementation {config.getoption('--impl')}")
