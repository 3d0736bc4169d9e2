"""The tests' own helpers (``pace``, ``sitebuild``; ``variants/kind_checks``) importable by name
under ``--import-mode=importlib``."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent / "variants"))

import pytest  # noqa: E402

from sitebuild import shared_build  # noqa: E402


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built once for the run, shared across files and xdist workers (``sitebuild.py``)."""
    return shared_build(tmp_path_factory)
