"""The conformance kit as a pytest plugin (entry point ``pytest11``: ``turub``).

In any folder, test files or not::

    pytest --turub-program "node my-impl.js"          # a program speaking the protocol
    pytest --turub-python mypkg.engine:Engine         # a Python adapter, in a worker process
    pytest --turub-sample                             # the bundled JavaScript sample

adds every conformance case as a pytest item: the committed vectors and the cases
generated from ``--turub-seed`` (one item each, named by operation and case:
``turub/legal_plays/worked-void-any-card``), differential play over drawn deals and
sittings, and each property of the project's suites.  Each item carries a ``clauses``
marker and its clause IDs as keywords, so ``-k play.follow-suit``, ``-x``, ``-n 4``
(pytest-xdist: each worker starts its own instance of the program), ``--junitxml`` and
the usual reports work.  A failure shows the clause it breaks, the outcome class, what was
asked, what the rules expect, what came back, and the smallest game situation.

User code never runs in pytest's process: ``--turub-python`` runs the adapter in a worker
process, as ``turub check --python`` does, so an adapter that calls ``os._exit``, aborts or
calls ``exit()`` from C is a crash of the item it was answering, never pytest's exit.  A
program that cannot start (or may not be restarted again) is one failure with the reason,
the command and its last stderr lines; the items after it are not run (skipped).

Deep campaigns (docs/guides/deep-campaign.md): ``--turub-database DIR`` (or the
``TURUB_DATABASE`` variable) keeps every failure the searches find in a Hypothesis example
database, which the next run sharing that folder replays first; each search's random seed
comes from its item's name and ``--turub-seed`` alone, so an item draws the same examples
whatever else runs in the session; a failing item prints the one command that runs it
again (``--turub-item NAME`` keeps exactly that item).  SIGTERM and SIGHUP stop every
program the plugin started before pytest ends (SIGINT too, then pytest ends as on Ctrl-C),
and an xdist worker whose controller dies stops its program too.

Without a ``--turub-*`` option the plugin adds nothing.  pytest is imported here only:
the rest of the kit runs without it.
"""

from __future__ import annotations

import math
import os
import shlex
import signal
import sys

import pytest

from turub.errors import RuleError
from turub.options import PRESETS, parse_rules
from turub.tools.limits import seconds

# The session and the items moved to .items; their names are still importable from here.
from .items import (RUN_KEY, DATABASE_VARIABLE, CaseItem, Conformance, ConformanceFailure,
                    PropertyItem, SearchItem, KitItem, PluginRun, failure_text, item_seed,
                    reproduce_command)

__all__ = ["ConformanceFailure", "item_seed", "reproduce_command"]


def _share(text: str) -> float:
    """A finite share, zero or more."""
    import argparse
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number, zero or more, not {text}")
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("turub", "Arba'a Turub conformance (turub.conformance.commands.plugin)")
    g.addoption("--turub-program", metavar="'CMD ARGS'",
                help="check this program, speaking the kit's protocol (split like a shell "
                     "command line, started without a shell)")
    g.addoption("--turub-python", metavar="MODULE:OBJECT",
                help="check a Python adapter, run in a worker process as turub check --python runs it "
                     "(module:Object or path/file.py:Object)")
    g.addoption("--turub-sample", action="store_true",
                help="check the bundled JavaScript sample (needs Node.js)")
    g.addoption("--turub-rules", metavar="OPTION=VALUE[,...]", default="standard",
                help="the rule options to check under, or a preset (default: %(default)s)")
    g.addoption("--turub-seed", type=int, default=1, metavar="N",
                help="seed of the generated cases and of differential play (default: %(default)s)")
    g.addoption("--turub-scale", type=_share, default=1.0, metavar="X",
                help="multiply the number of generated cases (default: %(default)s)")
    g.addoption("--turub-examples", type=int, default=300, metavar="N",
                help="drawn deals and sittings in differential play, 0 to skip (default: %(default)s)")
    g.addoption("--turub-searches", type=int, default=1, metavar="K",
                help="split differential play into K searches of each kind, seeds from "
                     "--turub-seed on, so -n spreads them over cores (default: %(default)s)")
    g.addoption("--turub-properties", type=int, default=25, metavar="N",
                help="examples per property of the project's suites, 0 to skip (default: %(default)s)")
    g.addoption("--turub-timeout", type=seconds, default=5.0, metavar="SECONDS",
                help="seconds per request (default: %(default)s)")
    g.addoption("--turub-database", metavar="DB", default=None,
                help="keep what the searches find in this Hypothesis example database and replay "
                     "it first: a folder, redis://HOST:PORT/N (turub[redis]), readonly:DB, or "
                     f"DB + DB; default: ${DATABASE_VARIABLE}, else none")
    g.addoption("--turub-item", action="append", default=[], metavar="NAME",
                help="run exactly this item of the kit (its name, e.g. differential/deal/seed-3), "
                     "and nothing else; repeatable")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clauses(*ids): the clause IDs a check verifies")
    chosen = [o for o in ("turub_program", "turub_python", "turub_sample") if config.getoption(o)]
    if not chosen:
        return
    if len(chosen) > 1:
        raise pytest.UsageError("give one of --turub-program, --turub-python, --turub-sample")
    text = config.getoption("turub_rules")
    try:
        rules = PRESETS[text] if text in PRESETS else parse_rules([t for t in text.split(",") if t])
    except RuleError as e:
        raise pytest.UsageError(f"--turub-rules {text}: {e}") from None
    program = config.getoption("turub_program")
    if program is not None:
        try:
            command = shlex.split(program)
        except ValueError as e:  # unbalanced quotes: one usage line, not a traceback per item
            raise pytest.UsageError(f"--turub-program {program}: {e}") from None
        if not command:
            raise pytest.UsageError("--turub-program needs a command")
    for name in ("turub_examples", "turub_properties"):
        if config.getoption(name) < 0:
            raise pytest.UsageError(f"--{name.replace('_', '-')} cannot be negative")
    if config.getoption("turub_searches") < 1:
        raise pytest.UsageError("--turub-searches must be at least 1")
    database = config.getoption("turub_database") or os.environ.get(DATABASE_VARIABLE)
    if database:
        from turub.properties.databases import DatabaseError, example_database
        try:  # a bad value is one usage line now, never a folder named after a URL
            example_database(database)
        except DatabaseError as e:
            option = "--turub-database" if config.getoption("turub_database") else DATABASE_VARIABLE
            raise pytest.UsageError(f"{option}: {e}") from None
    config.stash[RUN_KEY] = PluginRun(config, rules)
    _stop_programs_on_signals(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(RUN_KEY, None)
    if run is not None:
        run.close()


_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def _stop_programs_on_signals(config: pytest.Config) -> None:
    """Nothing left running (issue 19, item 5): SIGTERM and SIGHUP stop every program this
    process started, then end it as the signal would have; an xdist worker also gets SIGTERM
    when its controller dies (Linux), so its program is stopped even if the controller was
    killed outright.  SIGINT stops them too, then ends the session as pytest does on Ctrl-C."""
    import threading
    if threading.current_thread() is not threading.main_thread():
        return

    def stop_and_end(signum, frame):
        for s in _SIGNALS:
            signal.signal(s, signal.SIG_IGN)
        run = config.stash.get(RUN_KEY, None)
        try:
            if run is not None:
                run.close()
        finally:
            from ..programs.process import stop_all
            stop_all()
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    for s in _SIGNALS:
        if signal.getsignal(s) in (signal.SIG_DFL, None):
            signal.signal(s, stop_and_end)
    previous_int = signal.getsignal(signal.SIGINT)

    def stop_then_interrupt(signum, frame):
        """SIGINT: stop the programs now, then let pytest end as it does on Ctrl-C."""
        from ..programs.process import stop_all
        from ..programs.targets import INTERRUPTION
        run = config.stash.get(RUN_KEY, None)
        try:
            if run is not None:
                run.close()
            stop_all()
        finally:
            INTERRUPTION.keep(KeyboardInterrupt())  # raised again at the next request, if dropped
            if callable(previous_int):
                previous_int(signum, frame)
            raise KeyboardInterrupt

    if previous_int is signal.default_int_handler:
        signal.signal(signal.SIGINT, stop_then_interrupt)
    if hasattr(config, "workerinput") and sys.platform.startswith("linux"):
        try:
            import ctypes
            PR_SET_PDEATHSIG = 1
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass


def pytest_report_header(config: pytest.Config) -> str | None:
    run = config.stash.get(RUN_KEY, None)
    return None if run is None else f"turub conformance: {run.describe()}"


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    run = config.stash.get(RUN_KEY, None)
    if run is None:
        return
    kit = Conformance.from_parent(session, name="turub", nodeid="turub").items()
    items.extend(kit)
    # the terminal counts what collection reports: report the kit's items too, so that
    # "N tests collected" (and --collect-only's count) includes them
    config.hook.pytest_collectreport(report=pytest.CollectReport(
        "turub", "passed", None, list(kit)))
    only = set(run.option("item"))
    if only:  # exactly the named items: the project's own tests or others in the folder too
        kept = [i for i in items if isinstance(i, KitItem) and i.name in only]
        missing = only - {i.name for i in kept}
        if missing:
            raise pytest.UsageError(f"--turub-item: no such item: {', '.join(sorted(missing))}")
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
