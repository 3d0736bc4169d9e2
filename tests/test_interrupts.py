"""Signals as documented, at every stage of a run (issue 30, item 5).

The implementers' guide's exit-status table: 130 for SIGINT, 143 for SIGTERM (129 for SIGHUP),
the verdict ``INTERRUPTED``, the reports written and marked, nothing left running: while the
variant file loads (in the kit's own process, before any program), while an adapter is
imported, while a program starts, during the handshake, while the cases are asked, during the
property suites, and when several signals come in a burst (three within 60 ms). Each stage is
reached by a real adapter, program or file that blocks at it (tests/faults/gated.py,
gated_load.py, gated_program.py) and says so in a file: the test waits for that file, never
for a time.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from pace import generous

TURUB = shutil.which("turub", path=str(Path(sys.executable).parent)) or "turub"
GATED = Path(__file__).resolve().parent / "faults" / "gated.py"
ONLY_PROPERTIES = ["--no-vectors", "--no-generated", "--examples", "0", "--properties", "3"]
ONLY_VECTORS = ["--no-generated", "--examples", "0", "--properties", "0"]
GATED_RULE = GATED.with_name("gated_rule.py")
GATED_LOAD = GATED.with_name("gated_load.py")
GATED_PROGRAM = GATED.with_name("gated_program.py")
#: Each stage: the arguments of a run that stops there (an adapter, a program, or a house
#: rule the reference plays in the kit's own processes).
STAGES = {
    "loading-the-variant": ["--variant", str(GATED_LOAD)],  # in the kit's process, before any program
    "importing-the-adapter": ["--python", f"{GATED_LOAD}:Adapter"],  # in the shim, before the hello
    "program-start": ["--", sys.executable, str(GATED_PROGRAM)],  # a program that blocks before its hello
    "handshake": ["--python", f"{GATED}:StopsInTheHandshake"],
    "cases": ["--python", f"{GATED}:StopsAtTheTenthCase", *ONLY_VECTORS],
    "properties": ["--python", f"{GATED}:StopsAtTheFirstProperty", *ONLY_PROPERTIES],
    "properties-in-process": ["--variant", str(GATED_RULE), *ONLY_PROPERTIES],
}
DOCUMENTED = {signal.SIGINT: 130, signal.SIGTERM: 143}


def running_with(marker: str) -> list[int]:
    """The pids of running processes whose environment carries ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if marker.encode() in f.read():
                    with open(f"/proc/{entry}/stat", "rb") as s:
                        if s.read().rsplit(b")", 1)[1].split()[0] != b"Z":
                            found.append(int(entry))
        except OSError:
            continue
    return found


def interrupt_at(stage: str, signals: list[signal.Signals], tmp_path: Path, *, gap: float = 0.0):
    run = STAGES[stage]
    ready, fifo = tmp_path / "ready", tmp_path / "gate.fifo"
    os.mkfifo(fifo)
    marker = f"turub-interrupt-{uuid.uuid4().hex}"
    js, xml = tmp_path / "r.json", tmp_path / "r.xml"
    env = {**os.environ, "TURUB_GATE": f"{ready}{os.pathsep}{fifo}", "TURUB_TEST_MARKER": marker}
    options = ["--json", str(js), "--junit", str(xml), "--jsonl", str(js.with_suffix(".jsonl")), "--quiet"]
    program = run[run.index("--"):] if "--" in run else []
    kit = subprocess.Popen([TURUB, "check", *run[:len(run) - len(program)], *options, *program],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        end = time.monotonic() + generous(30)
        while not ready.exists() and kit.poll() is None and time.monotonic() < end:
            time.sleep(0.02)
        assert ready.exists(), (kit.poll(), kit.stderr.read().decode() if kit.poll() is not None else "")
        for n, sig in enumerate(signals):
            if n:
                time.sleep(gap)
            kit.send_signal(sig)
        out, err = kit.communicate(timeout=generous(15))
    finally:
        if kit.poll() is None:
            kit.kill()
            kit.wait()
    return kit.returncode, err.decode(errors="replace"), js, xml, marker


def assert_interrupted(status, err, js, xml, marker, sig):
    assert status == DOCUMENTED[sig], (status, err[-1500:])
    assert "Traceback" not in err, err
    assert js.exists(), "no JSON report"
    report = json.loads(js.read_text(encoding="utf-8"))
    assert report["verdict"] == "INTERRUPTED" and report["interrupted"] == sig, report["verdict"]
    assert report["exit_status"] == DOCUMENTED[sig]
    assert xml.exists()
    last = json.loads(js.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()[-1])  # streamed
    assert last["type"] == "summary" and last["verdict"] == "INTERRUPTED", last
    assert running_with(marker) == []


@pytest.mark.parametrize("sig", sorted(DOCUMENTED), ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("stage", sorted(STAGES))
def test_a_signal_at_each_stage_gives_its_documented_status_and_the_reports(stage, sig, tmp_path):
    status, err, js, xml, marker = interrupt_at(stage, [sig], tmp_path)
    assert_interrupted(status, err, js, xml, marker, sig)


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_three_signals_within_60_ms_are_one_interruption_with_its_reports(stage, tmp_path):
    status, err, js, xml, marker = interrupt_at(stage, [signal.SIGTERM] * 3, tmp_path, gap=0.02)
    assert_interrupted(status, err, js, xml, marker, signal.SIGTERM)


def test_a_burst_of_mixed_signals_is_the_first_ones_status(tmp_path):
    status, err, js, xml, marker = interrupt_at("cases", [signal.SIGINT, signal.SIGTERM, signal.SIGINT],
                                                tmp_path, gap=0.02)
    assert_interrupted(status, err, js, xml, marker, signal.SIGINT)


def test_signals_until_the_kit_has_ended_are_one_interruption(tmp_path):
    """A signal every 10 ms until the kit is gone: some come while the reports are written,
    some after; the status is still the first one's, the reports whole."""
    ready, fifo = tmp_path / "ready", tmp_path / "gate.fifo"
    os.mkfifo(fifo)
    marker = f"turub-interrupt-{uuid.uuid4().hex}"
    js, xml = tmp_path / "r.json", tmp_path / "r.xml"
    env = {**os.environ, "TURUB_GATE": f"{ready}{os.pathsep}{fifo}", "TURUB_TEST_MARKER": marker}
    kit = subprocess.Popen([TURUB, "check", *STAGES["cases"], "--json", str(js), "--junit", str(xml),
                            "--jsonl", str(js.with_suffix(".jsonl")), "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    end = time.monotonic() + generous(30)
    while not ready.exists() and kit.poll() is None and time.monotonic() < end:
        time.sleep(0.02)
    while kit.poll() is None and time.monotonic() < end:
        kit.send_signal(signal.SIGTERM)
        time.sleep(0.01)
    out, err = kit.communicate(timeout=generous(15))
    assert_interrupted(kit.returncode, err.decode(errors="replace"), js, xml, marker, signal.SIGTERM)


#: ``turub check`` started as its console script does, with the signals sent to itself while
#: the kit's commands are being imported (before the run takes the signals over).
SIGNALLED_WHILE_LOADING = """
import importlib, os, signal, sys
real, signals = importlib.import_module, sys.argv[1].split(",")
def import_module(name, *args):
    if name == "turub.conformance.commands.cli":
        for s in signals:
            os.kill(os.getpid(), getattr(signal, s))
    return real(name, *args)
importlib.import_module = import_module
from turub.tools.cli import main
sys.argv = ["turub", *sys.argv[2:]]
sys.exit(main())
"""


@pytest.mark.parametrize("signals", ["SIGINT", "SIGTERM", "SIGTERM,SIGINT,SIGTERM"])
def test_a_signal_while_turub_loads_is_an_interruption_with_its_reports(signals, tmp_path):
    js, xml, jsonl = tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "r.jsonl"
    run = subprocess.run([sys.executable, "-c", SIGNALLED_WHILE_LOADING, signals, "check", "--json", str(js),
                          "--junit", str(xml), "--jsonl", str(jsonl), "--quiet"],
                         capture_output=True, text=True, timeout=generous(60))
    first = getattr(signal, signals.split(",")[0])
    assert_interrupted(run.returncode, run.stderr, js, xml, "no-such-marker", first)


@pytest.mark.parametrize("argv, status", [(["check", "--help"], 143), (["check", "--timeout", "nan"], 143)])
def test_a_signal_while_turub_loads_is_never_lost(argv, status):
    """A command that ends before the run takes the signals (its help, a usage error) still
    exits with the signal's status."""
    run = subprocess.run([sys.executable, "-c", SIGNALLED_WHILE_LOADING, "SIGTERM", *argv],
                         capture_output=True, text=True, timeout=generous(60))
    assert run.returncode == status, run.stderr[-600:]
    assert "Traceback" not in run.stderr


#: The installed ``turub`` console script, run as the shell runs it, with the signals sent
#: to itself the moment the package ``turub`` begins to import (its first tenths of a second,
#: before ``turub.tools.cli.main`` could take any signal over).
SIGNALLED_AS_TURUB_IMPORTS = """
import os, runpy, signal, sys
sys.argv.pop(0)  # "-c": then the script, the signals, turub's arguments
signals = sys.argv.pop(1).split(",")
class Signal:
    def find_spec(self, name, path=None, target=None):
        if name == "turub":
            sys.meta_path.remove(self)
            for s in signals:
                os.kill(os.getpid(), getattr(signal, s))
        return None
sys.meta_path.insert(0, Signal())
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def console_script() -> str:
    """The installed ``turub`` script, checked to be the one pyproject.toml declares."""
    import tomllib
    declared = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    module = declared["project"]["scripts"]["turub"].split(":")[0]
    text = Path(TURUB).read_text(encoding="utf-8")
    assert f"from {module} import" in text, (
        f"{TURUB} does not run {module} (pyproject.toml's [project.scripts]): reinstall the "
        f"project (pip install --no-deps -e .)")
    return TURUB


@pytest.mark.parametrize("signals", ["SIGINT", "SIGTERM", "SIGTERM,SIGINT,SIGTERM"])
def test_a_signal_while_the_package_turub_imports_is_an_interruption_with_its_reports(signals, tmp_path):
    js, xml, jsonl = tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "r.jsonl"
    run = subprocess.run([sys.executable, "-c", SIGNALLED_AS_TURUB_IMPORTS, console_script(), signals, "check",
                          "--json", str(js), "--junit", str(xml), "--jsonl", str(jsonl), "--quiet"],
                         capture_output=True, text=True, timeout=generous(60))
    first = getattr(signal, signals.split(",")[0])
    assert_interrupted(run.returncode, run.stderr, js, xml, "no-such-marker", first)


@pytest.mark.parametrize("argv", [["report", "--help"], ["vectors", "--check"], ["play", "--seed", "1"],
                                  ["check", "--diff", "/nonexistent", "/nonexistent"]])
def test_a_signal_while_the_package_turub_imports_ends_any_command_with_its_status(argv):
    run = subprocess.run([sys.executable, "-c", SIGNALLED_AS_TURUB_IMPORTS, console_script(), "SIGINT", *argv],
                         capture_output=True, text=True, timeout=generous(60))
    assert run.returncode == 130, (run.returncode, run.stderr[-800:])
    assert "Traceback" not in run.stderr and "interrupted by SIGINT" in run.stderr, run.stderr[-800:]


def caught_signals(pid: int) -> int:
    """The mask of signals the process ``pid`` has handlers for (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            return next(int(line.split()[1], 16) for line in f if line.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return 0


#: What CPython prints when a KeyboardInterrupt comes in its own start-up and it goes on.
CPYTHON_GOES_ON = ("Exception ignored", "Failed checking if argv[0] is an import path entry")


@pytest.mark.parametrize("sig", sorted(DOCUMENTED), ids=lambda s: signal.Signals(s).name)
def test_a_signal_in_turubs_first_tenths_of_a_second_is_never_a_traceback_nor_lost(sig, tmp_path):
    """Signals sent from the moment ``turub check`` is spawned to its fourth tenth of a
    second.  Once the console script holds the signals (SIGTERM caught: the interpreter
    alone never catches it), the run ends with the documented status and its report marked
    interrupted; one that came earlier, while the interpreter itself started, ended it by the
    signal (the shell's 128 + N), no report claiming anything."""
    script = console_script()
    held, delays = 0, [0, 0.002, 0.01, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.4]
    for n, delay in enumerate(delays):
        js = tmp_path / f"r{n}.json"
        kit = subprocess.Popen([script, "check", "--quick", "--quiet", "--json", str(js)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            time.sleep(delay)
            holding = bool(caught_signals(kit.pid) & (1 << (signal.SIGTERM - 1)))
            kit.send_signal(sig)
            err = kit.communicate(timeout=generous(30))[1].decode(errors="replace")
        finally:
            if kit.poll() is None:
                kit.kill()
                kit.wait()
        if holding:
            held += 1
            assert kit.returncode == DOCUMENTED[sig], (delay, kit.returncode, err[-800:])
            assert "Traceback" not in err, err
            report = json.loads(js.read_text(encoding="utf-8"))
            assert report["verdict"] == "INTERRUPTED" and report["interrupted"] == sig
        elif kit.returncode == 0:  # (a SIGINT before any of turub's code ran, raised by CPython
            # inside one of its import lock's weakref callbacks, or while it looks whether the
            # script's path is an import path entry, where it prints the exception and goes on:
            # then the run is a whole run and its verdict the program's)
            assert sig == signal.SIGINT and "KeyboardInterrupt" in err and any(
                notice in err for notice in CPYTHON_GOES_ON), err
            assert json.loads(js.read_text(encoding="utf-8"))["verdict"] == "CONFORMS"
        else:  # the interpreter's own start: the signal's default, or its KeyboardInterrupt
            assert kit.returncode in (-sig, 1, DOCUMENTED[sig]), (delay, kit.returncode, err[-800:])
            assert not js.exists() or json.loads(js.read_text())["verdict"] == "INTERRUPTED"
            if delay == delays[-1] and delay < generous(1):  # a slow machine: until one is held
                delays.append(2 * delay)
    assert held, "the console script never held the signals"


#: Commands that run for a while and report no interruption of their own: a signal ends
#: each with one line and its status, never a ``KeyboardInterrupt`` traceback.
LONG_COMMANDS = {
    "simulate": ["simulate", "--deals", "10000000"],
    "variants diff": ["variants", "diff", "standard", "counterclockwise", "--deals", "1000000"],
    "play --sitting": ["play", "--sitting", "10000000"],
    "vectors --check": ["vectors", "--check"],
}


@pytest.mark.parametrize("signals", ["SIGINT", "SIGTERM", "SIGINT,SIGTERM,SIGINT"])
@pytest.mark.parametrize("command", sorted(LONG_COMMANDS))
def test_every_command_interrupted_ends_with_the_signals_status_and_one_line(command, signals, tmp_path):
    sent = [getattr(signal, s) for s in signals.split(",")]
    kit = subprocess.Popen([console_script(), *LONG_COMMANDS[command]], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        # once turub's script holds the signals (before that the interpreter itself is starting,
        # which no code of turub's can reach): then loading or running, either way the same status
        ready = time.monotonic() + generous(10)
        while not caught_signals(kit.pid) & (1 << (signal.SIGTERM - 1)) and time.monotonic() < ready:
            time.sleep(0.005)
        time.sleep(0.3)
        for n, sig in enumerate(sent):
            if n:
                time.sleep(0.02)
            kit.send_signal(sig)
        err = kit.communicate(timeout=generous(15))[1].decode(errors="replace")
    finally:
        if kit.poll() is None:
            kit.kill()
            kit.wait()
    assert kit.returncode == 128 + sent[0], (kit.returncode, err[-800:])
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-800:]
    assert err.splitlines()[-1] == f"turub: interrupted by {signal.Signals(sent[0]).name}", err[-800:]


#: A ``turub clause`` run whose process sends itself a SIGTERM right after the N-th change of a
#: signal's disposition once the console script holds them, before the command runs: every
#: point of the hand-over from the script's hold to the command's own handlers.
SIGTERM_AT_THE_NTH_CHANGE = """
import os, signal, sys
real, at, changes, sent = signal.signal, int(sys.argv[1]), [0], []
def change_then_signal(s, h):
    done = real(s, h)
    if sys._getframe(1).f_globals.get("__name__") != "turub_entry" and not running:
        changes[0] += 1
        if changes[0] == at:
            sent.append(s)
            os.kill(os.getpid(), signal.SIGTERM)
    return done
signal.signal, running = change_then_signal, False
import importlib, turub_entry
module, name = sys.argv[2].split(":")  # where the command begins its work: no change counted after
module = importlib.import_module(module)
command = getattr(module, name)
def run_command(*args, **kwargs):
    global running
    running = True
    return command(*args, **kwargs)
setattr(module, name, run_command)
sys.argv = ["turub", *sys.argv[3:]]
status = turub_entry.main()
sys.stderr.write("sent\\n" if sent else "not sent\\n")
sys.exit(status)
"""


HAND_OVERS = {  # a command, where its work begins, the line its interruption ends with
    "clause": ("turub.tools.cli:_run_command", ["clause", "play.follow-suit"], "turub: interrupted by SIGTERM"),
    # (the committed cases only: the last run, past every change, is a whole run; the same
    # changes come before it as before a whole default check)
    "check": ("turub.conformance.commands.cli:_run", ["check", "--quiet", *ONLY_VECTORS],
              "turub check: interrupted by SIGTERM; the reports hold what was checked before"),
}


@pytest.mark.parametrize("command", sorted(HAND_OVERS))
def test_a_sigterm_at_any_point_of_the_hand_over_to_a_command_ends_it_with_143(command, tmp_path):
    """The held signals pass to the command's own handlers with none at its default
    disposition between (which would end turub by the signal), none dropped (exit 0) and no
    traceback."""
    begins, argv, line = HAND_OVERS[command]
    ends = []
    for at in range(1, 20):
        run = subprocess.run([sys.executable, "-c", SIGTERM_AT_THE_NTH_CHANGE, str(at), begins, *argv],
                             capture_output=True, text=True, timeout=generous(60), cwd=tmp_path)
        if run.stderr.endswith("not sent\n"):
            break
        ends.append((at, run.returncode, run.stderr.splitlines()[-2:]))
    assert ends, "no change of a signal's disposition before the command ran"
    assert all(rc == 143 and lines == [line, "sent"] for _, rc, lines in ends), ends


SLOW_TO_LOAD = """
import os, time
from turub.variants import Variant
open(os.environ["LOADING_MARK"], "w").close()
time.sleep(60)
SLOW = Variant("slow", "1", clauses=[])
"""

SLOW_TO_ANSWER = """
import os, time
from turub.variants import Variant, VariantClause

def slow(hand, trick, trump):
    open(os.environ["LOADING_MARK"], "w").close()
    time.sleep(60)

SLOW = Variant("slow", "1", clauses=[VariantClause("slow.rule", "asked as the file loads (its checks)",
                                                   decides="legal_plays", rule=slow)])
"""


@pytest.mark.parametrize("command", [["simulate", "--deals", "1", "--variant", "{}"],
                                     ["play", "--seed", "1", "--variant", "{}"],
                                     ["explain", "--variant", "{}", "--result", "18-18"],
                                     ["variants", "diff", "standard", "{}", "--deals", "1"]],
                         ids=lambda argv: " ".join(a for a in argv[:2] if not a.startswith("-")))
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("source", [SLOW_TO_LOAD, SLOW_TO_ANSWER], ids=["at import", "in its rule's checks"])
def test_a_signal_while_a_variant_file_loads_is_an_interruption_not_the_files_error(command, sig, source, tmp_path):
    """The command's own interruption (``turub.tools.cli.Interruption``) passes through the
    boundary around user code: the signal's status and line, never "KeyboardInterrupt while
    loading" (exit 2, the variant file blamed for the user's Ctrl-C)."""
    variant, mark = tmp_path / "slow.py", tmp_path / "loading"
    variant.write_text(source)
    argv = [a.format(f"{variant}:SLOW") for a in command]
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from turub.tools.cli import main; "
                             "sys.exit(main())", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path, env={**os.environ, "LOADING_MARK": str(mark)})
    try:
        waited = time.monotonic()
        while not mark.exists() and proc.poll() is None and time.monotonic() - waited < generous(10):
            time.sleep(0.02)
        assert mark.exists(), proc.communicate(timeout=generous(5))
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=generous(5))
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 128 + sig, (proc.returncode, err)
    assert "while loading" not in err and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == f"turub: interrupted by {signal.Signals(sig).name}", err
