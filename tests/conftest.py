"""The tests' own helpers (``pace``, ``sitebuild``; ``variants/kind_checks``) importable by name
under ``--import-mode=importlib``; the signals the suite's programs are interrupted by; and the
project's byte-code, compiled once before the run."""
import compileall
import os
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
    if not hasattr(config, "workerinput"):  # once, in the process that starts the workers
        compile_the_project()
        # the files in the order pytest_collection_modifyitems gives them, not re-sorted by
        # their number of tests (pytest-xdist's default for --dist loadfile)
        config.option.loadscopereorder = False


#: The files that take longest (a whole docs build and the site in a browser, hundreds of kit
#: processes, runs that wait on the programs and time limits under test), each 25 to 60 s on a
#: quiet 2-core machine: handed out to the workers first, so that none of them is the last
#: thing running while the other workers wait (the longest first; the rest, as pytest-xdist
#: orders them, by their number of tests).
LONGEST_FIRST = ("tests/test_docs_build.py", "tests/variants/test_bad_definitions.py", "tests/test_plugin.py",
                 "tests/test_attribution.py", "tests/test_program_time.py", "tests/test_adversary_files.py",
                 "tests/test_fault_catalogue.py", "tests/test_outsiders.py", "tests/test_variants.py",
                 "tests/variants/test_kinds_of_play.py", "tests/test_interrupts.py", "tests/test_deep_campaign.py")


def pytest_collection_modifyitems(session, config, items):
    """The files of :data:`LONGEST_FIRST` first, then the others by their number of tests,
    most first; within a file, its own order (stable)."""
    root = Path(__file__).resolve().parent.parent
    paths = [item.path.resolve() for item in items]
    files = [str(p.relative_to(root)) if p.is_relative_to(root) else str(p) for p in paths]
    counts: dict[str, int] = {}
    for f in files:
        counts[f] = counts.get(f, 0) + 1
    rank = {f: i for i, f in enumerate(LONGEST_FIRST)}
    order = sorted(range(len(items)), key=lambda i: (rank.get(files[i], len(rank)), -counts[files[i]], files[i], i))
    items[:] = [items[i] for i in order]


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (the README's test command): half as many workers again as there are
    cores, 3 on 2 cores.  About a seventh of the suite's time waits (on programs that sleep,
    hang or are timed out, on the time limits under test), leaving a core idle; the extra
    worker fills it.  Measured with the whole suite at 2 and 3 workers: ``benchmarks/README.md``.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides where it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # (pytest-xdist reads it itself)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores + cores // 2)


#: The project's packages (``turub``, ``turub.conformance``, ``turub.properties``), by folder.
PACKAGES = ("reference", "conformance", "properties")


def compile_the_project():
    """Write the byte-code of the project's own modules before the run, as an install does.
    The suite starts over a thousand ``turub`` processes; where ``PYTHONDONTWRITEBYTECODE`` is
    set (this project's work machines set it) and nothing wrote the cache, each compiled every
    module it imports from source again, 0.06 to 0.12 s of CPU a process. Python reads a cache
    whatever that variable says, and checks it against its source (a stale one is compiled
    anew). A checkout it cannot write to is left as it is (``quiet=2``: no word of it)."""
    root = Path(__file__).resolve().parent.parent
    for folder in PACKAGES:
        compileall.compile_dir(str(root / folder), quiet=2)
    compileall.compile_file(str(root / "turub_entry.py"), quiet=2)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built once for the run, shared across files and xdist workers (``sitebuild.py``)."""
    return shared_build(tmp_path_factory)
