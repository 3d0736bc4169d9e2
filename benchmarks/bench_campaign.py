"""Benchmark: examples per core-second of each deep-campaign route, and how it scales with workers.

    .venv/bin/python benchmarks/bench_campaign.py                       # every route, both
    .venv/bin/python benchmarks/bench_campaign.py --impl reference --routes differential

The figures of docs/guides/deep-campaign.md, one command.  Each route runs as the guide
runs it, in an empty folder, as a child process; its examples are counted from the
campaign's own statistics, its cost is the CPU time of the whole process tree (pytest, its
xdist workers and the programs they start: ``RUSAGE_CHILDREN``), so the figure is examples
per core-second whatever the number of workers:

* ``differential``: the plugin's differential play, ``--turub-searches K`` searches of
  ``--turub-examples N`` each (K × N drawn deals and sittings: two thirds deals, one third
  sittings, :func:`turub.conformance.questions.differential.drawn`);
* ``properties``: the plugin's property items, ``--turub-properties P`` each (the examples
  each draws: :func:`turub.conformance.questions.properties.examples_for`);
* ``hypofuzz``: HypoFuzz on the fuzz targets, the guide's command in ``.venv-deep``
  (``turub[deep]``), for ``--fuzz-seconds``, the examples read from the reports it keeps
  in the database;
* ``suites``: the property suites as the fuzz targets (``properties/fuzz_targets.py``,
  ``TURUB_IMPL``/``TURUB_PROGRAM``), the ``dev`` profile, counted by Hypothesis's own
  ``--hypothesis-show-statistics``.

against the reference (in-process adapter) and the bundled JavaScript sample (a program
over the protocol; needs Node.js).  Then the scaling: the differential route on one xdist
worker and on two, in the same run, wall-clock throughput of two over one (the target: at
least 1.7 on two idle cores).  A shared machine disturbs wall time far more than CPU time:
run it on a quiet machine for the scaling figure, and read the CPU figures as the ones to
plan with.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = "turub.conformance.adapter:ReferenceImplementation"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(argv: list[str], env: dict | None = None) -> tuple[str, float, float]:
    """Run ``argv`` in an empty folder: its output, CPU seconds (whole tree) and wall seconds."""
    with tempfile.TemporaryDirectory() as folder:
        cpu, wall = _children_cpu(), time.perf_counter()
        done = subprocess.run(argv, cwd=folder, capture_output=True, text=True,
                              env={**os.environ, **(env or {})}, timeout=3600)
        cpu, wall = _children_cpu() - cpu, time.perf_counter() - wall
    if done.returncode not in (0,):
        sys.exit(f"bench_campaign: {' '.join(argv[:6])}... failed ({done.returncode}):\n"
                 f"{done.stdout[-1500:]}{done.stderr[-1500:]}")
    return done.stdout, cpu, wall


def _impl_options(impl: str) -> list[str]:
    return ["--turub-python", REFERENCE] if impl == "reference" else ["--turub-sample"]


def differential(impl: str, examples: int, searches: int, workers: int) -> tuple[int, float, float]:
    from turub.conformance.questions.differential import drawn
    out, cpu, wall = timed([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "-p", "no:randomly", "-n", str(workers), *_impl_options(impl),
                            "--turub-scale", "0", "--turub-properties", "0",
                            "--turub-examples", str(examples), "--turub-searches", str(searches),
                            "-k", "differential"])
    passed = int(re.search(r"(\d+) passed", out).group(1))
    assert passed == 2 * searches, out[-500:]
    return searches * (drawn(examples, 2) + drawn(examples, 1)), cpu, wall


def properties(impl: str, per_property: int, workers: int) -> tuple[int, float, float]:
    from turub.conformance.questions.properties import examples_for
    from turub.properties.checks import interface_properties
    drawing = [t for t in interface_properties().values() if hasattr(t, "build")]
    out, cpu, wall = timed([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "-p", "no:randomly", "-n", str(workers), *_impl_options(impl),
                            "--turub-scale", "0", "--turub-examples", "0",
                            "--turub-properties", str(per_property), "-k", "property/"])
    assert "failed" not in out.splitlines()[-1], out[-500:]
    return sum(examples_for(t, per_property) for t in drawing), cpu, wall


def suites(impl: str, workers: int) -> tuple[int, float, float]:
    env = {"HYPOTHESIS_PROFILE": "dev", "TURUB_IMPL": "", "TURUB_PROGRAM": "", "TURUB_DATABASE": ""}
    if impl == "reference":
        env["TURUB_IMPL"] = REFERENCE
    else:
        from turub.conformance.resources import sample_command
        env["TURUB_PROGRAM"] = " ".join(sample_command())
    out, cpu, wall = timed([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "-p", "no:randomly", "-n", str(workers), "--hypothesis-show-statistics",
                            str(ROOT / "properties" / "fuzz_targets.py")], env)
    counted = sum(int(n) for n in re.findall(r"(\d+) passing", out))
    return counted, cpu, wall


#: The reports HypoFuzz keeps in the example database, read back in its own environment:
#: each is a target's progress (examples run by status, fuzzing time), saved at each new
#: behaviour and each switch of target; the last of each worker and target counts, its
#: valid examples (passing or failing: what the pytest routes count), not the invalid ones.
_HYPOFUZZ_COUNT = """\
import pathlib, sys
from hypofuzz.database.models import Report, Status
last = {}
for f in pathlib.Path(sys.argv[1]).rglob("*"):
    r = Report.from_json(f.read_bytes()) if f.is_file() else None
    if r is not None and r.elapsed_time >= last.get((r.nodeid, r.worker_uuid), (0, None))[0]:
        last[(r.nodeid, r.worker_uuid)] = (r.elapsed_time, r.status_counts[Status.VALID]
                                           + r.status_counts[Status.INTERESTING])
print(sum(n for _, n in last.values()), len({k[0] for k in last}))
"""


def _group_cpu(pgid: int) -> float | None:
    """CPU seconds of every process of group ``pgid`` still running, with their reaped
    children (Linux ``/proc``; None elsewhere).  Read before HypoFuzz is stopped: its
    workers, orphaned when it is, are never reaped by this process (``RUSAGE_CHILDREN``)."""
    tick, total, seen = os.sysconf("SC_CLK_TCK"), 0, False
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after the name: state, ppid, pgrp, ...
            seen = True
            total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return total / tick if seen else None


def hypofuzz(impl: str, seconds: float, workers: int, until_reported: bool = False
             ) -> tuple[int, float, float] | None:
    """HypoFuzz on the fuzz targets (the guide's command, ``turub[deep]``'s environment in
    ``.venv-deep``) for ``seconds`` (``until_reported``: at most, stopped as soon as a target's
    report is saved), then stopped as Ctrl-C stops it; examples from the reports it saved in
    the database, CPU time of the whole process tree."""
    deep = ROOT / ".venv-deep" / "bin"
    if not (deep / "hypothesis").exists():
        print("bench_campaign: no .venv-deep (python3 -m venv .venv-deep && .venv-deep/bin/pip "
              "install -e '.[deep]'): the HypoFuzz route is left out")
        return None
    env = {**os.environ, "HYPOTHESIS_PROFILE": "deep", "TURUB_IMPL": "", "TURUB_PROGRAM": ""}
    env.pop("CI", None)
    if impl == "reference":
        env["TURUB_IMPL"] = REFERENCE
    else:
        from turub.conformance.resources import sample_command
        env["TURUB_PROGRAM"] = " ".join(sample_command())
    with tempfile.TemporaryDirectory() as db:
        env["TURUB_DATABASE"] = db
        cpu, wall = _children_cpu(), time.perf_counter()
        fuzz = subprocess.Popen([str(deep / "hypothesis"), "fuzz", "--no-dashboard", "-n", str(workers),
                                 "--", "properties/fuzz_targets.py"], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        until = time.monotonic() + seconds
        while True:
            try:  # the whole time, or (until_reported) until the first report is saved
                fuzz.wait(max(0.0, min(until - time.monotonic(), 2.0 if until_reported else seconds)))
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() >= until or (until_reported and _reported(deep, db)[0] > 0):
                    break
        group = _group_cpu(fuzz.pid)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
            if fuzz.poll() is not None:
                break
            os.killpg(fuzz.pid, sig)
            try:
                fuzz.wait(15)
            except subprocess.TimeoutExpired:
                continue
        cpu, wall = _children_cpu() - cpu, time.perf_counter() - wall
        cpu = max(cpu, group or 0.0)
        n, targets = _reported(deep, db)
    print(f"hypofuzz: {targets} targets reported", flush=True)
    return n, cpu, wall


def _reported(deep: Path, db: str) -> tuple[int, int]:
    """The examples and the targets of the reports HypoFuzz saved in ``db`` so far."""
    counted = subprocess.run([str(deep / "python"), "-c", _HYPOFUZZ_COUNT, db],
                             capture_output=True, text=True, check=True).stdout.split()
    return int(counted[0]), int(counted[1])


def line(route: str, impl: str, workers: int, result: tuple[int, float, float]) -> float:
    n, cpu, wall = result
    rate = n / cpu if cpu > 0 else float("nan")
    print(f"{route:<13} {impl:<9} -n {workers}: {n:>7} examples, {cpu:7.1f} s CPU, {wall:7.1f} s wall: "
          f"{rate:8.0f} examples per core-second, {n / wall:8.0f} per wall second", flush=True)
    return n / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--impl", choices=["reference", "sample", "both"], default="both")
    parser.add_argument("--routes", default="differential,properties,suites,hypofuzz,scaling",
                        help="comma-separated: differential, properties, suites, hypofuzz, scaling")
    parser.add_argument("--examples", type=int, default=3000, help="--turub-examples of each search")
    parser.add_argument("--searches", type=int, default=4, help="--turub-searches")
    parser.add_argument("--properties", type=int, default=200, help="--turub-properties")
    parser.add_argument("--fuzz-seconds", type=float, default=180.0,
                        help="how long the HypoFuzz route runs (default: %(default)s)")
    parser.add_argument("--fuzz-until-reported", action="store_true",
                        help="stop the HypoFuzz route as soon as a target's report is saved (--fuzz-seconds "
                             "at the latest): the route checked, not measured")
    args = parser.parse_args()
    routes = set(args.routes.split(","))
    impls = ["reference", "sample"] if args.impl == "both" else [args.impl]
    if "sample" in impls:
        from turub.conformance.resources import sample_command
        if sample_command() is None:
            print("bench_campaign: no Node.js: the sample is left out")
            impls.remove("sample")
    print(f"bench_campaign: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the start")
    for impl in impls:
        if "differential" in routes:
            line("differential", impl, 2, differential(impl, args.examples, args.searches, 2))
        if "properties" in routes:
            line("properties", impl, 2, properties(impl, args.properties, 2))
        if "suites" in routes:
            line("suites", impl, 2, suites(impl, 2))
        if "hypofuzz" in routes and (fuzzed := hypofuzz(impl, args.fuzz_seconds, 2, args.fuzz_until_reported)) is not None:
            line("hypofuzz", impl, 2, fuzzed)
    if "scaling" in routes:
        impl = impls[0]
        one = line("differential", impl, 1, differential(impl, args.examples, args.searches, 1))
        two = line("differential", impl, 2, differential(impl, args.examples, args.searches, 2))
        print(f"scaling: two workers / one = {two / one:.2f} (wall throughput; target at least 1.7); "
              f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
