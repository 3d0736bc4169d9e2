"""The tests' own helpers (``pace``, ``sitebuild``; ``variants/kind_checks``) importable by name
under ``--import-mode=importlib``; and the signals the suite's programs are interrupted by."""
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent / "variants"))

import pytest  # noqa: E402

from sitebuild import shared_build  # noqa: E402


def pytest_configure(config):
    """A suite started in the background of a shell without job control (``cmd &`` in a
    script, ``nohup``) inherits SIGINT ignored, and so would every program it starts: the
    tests that interrupt a program with SIGINT would then see it go on, as the kit rightly
    leaves an ignored signal ignored. Python's own SIGINT handler is put back for the run, so
    the programs it starts get SIGINT at its default, as from a terminal."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built once for the run, shared across files and xdist workers (``sitebuild.py``)."""
    return shared_build(tmp_path_factory)
