"""Settings for the property suites: Hypothesis profiles and the implementation under test.

Profiles (``turub.properties.profiles``; select with the ``HYPOTHESIS_PROFILE`` environment
variable, no code edits): ``dev`` by default, ``ci`` when ``CI`` is set, ``deep`` for tens of
thousands of examples per property; ``TURUB_DATABASE=DIR`` points their example database at
a folder of your choice (the deep campaign's shared one).

The implementation under test is the ``impl`` fixture: the reference engine unless
``--impl module:Object`` (or ``path/file.py:Object``) names another, an object or a class
with the methods of ``turub.conformance.adapter.Implementation``, or ``--impl-program``
names a program in any language speaking the kit's protocol (each pytest-xdist worker
starts its own instance)::

    pytest properties --impl mypkg.adapter:MyImplementation
    pytest properties -n 2 --impl-program "node my-impl.js"

Without either option, ``TURUB_IMPL`` or ``TURUB_PROGRAM`` name it, as for the fuzz targets.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

from turub.properties import profiles
from turub.properties.under_test import UnderTestError, implementation_under_test

profiles.load()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--impl", default=None,
        help="the implementation the property suites check, as module:Object or "
             "path/file.py:Object (default: $TURUB_IMPL, else the reference engine)")
    parser.addoption(
        "--impl-program", default=None, metavar="'CMD ARGS'",
        help="check a program speaking the kit's protocol instead (split like a shell command "
             "line, started without a shell, one instance per worker; default: $TURUB_PROGRAM)")


def pytest_configure(config: pytest.Config) -> None:
    try:
        config._turub_impl = implementation_under_test(  # type: ignore[attr-defined]
            config.getoption("--impl"), config.getoption("--impl-program"))
    except UnderTestError as e:
        raise pytest.UsageError(f"--impl/--impl-program: {e}") from None


def pytest_unconfigure(config: pytest.Config) -> None:
    close = getattr(getattr(config, "_turub_impl", None), "close", None)
    if callable(close) and hasattr(config._turub_impl, "command"):  # type: ignore[attr-defined]
        close()


@pytest.fixture(scope="session")
def impl(request: pytest.FixtureRequest):
    """The implementation under test (``--impl``, ``--impl-program``), shared by every property."""
    return request.config._turub_impl  # type: ignore[attr-defined]


def pytest_report_header(config: pytest.Config) -> str:
    what = config.getoption("--impl-program") or config.getoption("--impl")
    return (f"turub properties: hypothesis profile {settings.get_current_profile_name()!r}, "
            f"implementation {what or 'from the environment or the reference'}")
