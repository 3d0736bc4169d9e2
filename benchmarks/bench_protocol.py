"""Benchmark (pyperf): the kit's protocol client against a minimal JSON-lines client.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_protocol.py [--window 64] [pyperf options, e.g. --fast]

Both clients talk to the same trivial implementation (a Python program that answers every
request with 0, reading and writing in bulk).  Each pyperf value is the wall time of
``loops`` requests (20,000 unless ``--loops N``), the program started before the clock
starts; the figure is requests per second (the inverse of the median time per request) and
the ratio of the two (the kit's client must reach at least 0.9 of the minimal one).  The
minimal client does only what any client must: write requests in windows, read lines, parse
each as JSON, match it by id.  The kit's client also checks every line (per-request
deadlines, noise, duplicates, size cap, unsafe text), keeps the program in its own process
group, and restarts it if it fails.

Also timed: one-request round trips (``target.call``, as differential play and the property
suites use them), and, with Node.js present, the JavaScript sample, which really decides each
trick.  pyperf's own options apply (``--rigorous``, ``-o FILE`` for ``pyperf compare_to``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pyperf

from turub.conformance.programs.protocol import ProtocolTarget
from turub.conformance.programs.targets import Request

TRIVIAL = r"""
import json, os
pending = b""
while True:
    chunk = os.read(0, 1 << 16)   # whatever has arrived: answer it all, write once
    if not chunk:
        break
    *lines, pending = (pending + chunk).split(b"\n")
    out, bye = [], False
    for line in lines:
        msg = json.loads(line)
        if msg["op"] == "hello":
            res = json.dumps({"protocol": 1, "name": "trivial", "version": "0",
                              "operations": ["trick_winner"]}).encode()
        else:
            res, bye = (b"null", True) if msg["op"] == "bye" else (b"0", bye)
        out.append(b'{"id":%d,"result":%s}' % (msg["id"], res))
    os.write(1, b"\n".join(out) + b"\n")
    if bye:
        break
"""

ARGS = {"cards": ["AC", "AC", "6H", "KC"], "trump": "H"}


def kit_client(n: int, argv: list[str], window: int) -> float:
    """Seconds for ``n`` requests through :class:`ProtocolTarget`."""
    target = ProtocolTarget(argv, timeout=10, window=window)
    if target.start() is not None:
        raise SystemExit(f"could not start {argv}: {target.fatal}")
    requests = [Request(i, "trick_winner", ARGS) for i in range(n)]
    got = []
    started = time.perf_counter()
    target.run(requests, lambda k, a: got.append(a))
    elapsed = time.perf_counter() - started
    target.close()
    bad = [a for a in got if a.kind != "result"]
    if len(got) != n or bad:
        raise SystemExit(f"{len(got)} answers, {len(bad)} not results: {bad[:1]}")
    return elapsed


def minimal_client(n: int, argv: list[str], window: int) -> float:
    """Seconds for ``n`` requests through the least a JSON-lines client must do."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    fin, fout = p.stdin.fileno(), p.stdout.fileno()
    buf = b""

    def read_lines() -> list[bytes]:
        nonlocal buf
        while True:
            chunk = os.read(fout, 1 << 16)
            if not chunk:
                raise SystemExit("the program ended")
            buf += chunk
            if b"\n" in chunk:
                *lines, buf = buf.split(b"\n")
                return lines

    def line(rid: int, op: str, args: dict) -> bytes:  # json's fastest path: no keyword arguments
        return (json.dumps({"id": rid, "op": op, "args": args}) + "\n").encode()

    os.write(fin, line(0, "hello", {"protocol": 1}))
    read_lines()
    answers: dict[int, object] = {}
    started = time.perf_counter()
    sent = 0
    while len(answers) < n:
        if sent < n and sent - len(answers) < window:
            chunk = []
            while sent < n and sent - len(answers) < window:
                sent += 1
                chunk.append(line(sent, "trick_winner", ARGS))
            os.write(fin, b"".join(chunk))
        for raw in read_lines():
            msg = json.loads(raw)
            answers[msg["id"]] = msg.get("result")
    elapsed = time.perf_counter() - started
    os.write(fin, line(n + 1, "bye", {}))
    p.stdin.close()
    p.wait(5)
    p.stdout.close()
    return elapsed


def kit_calls(n: int, argv: list[str]) -> float:
    """Seconds for ``n`` one-request round trips (``target.call``)."""
    target = ProtocolTarget(argv, timeout=10)
    target.start()
    started = time.perf_counter()
    for _ in range(n):
        if target.call("trick_winner", ARGS).kind != "result":
            raise SystemExit("a call failed")
    elapsed = time.perf_counter() - started
    target.close()
    return elapsed


def main() -> None:
    runner = pyperf.Runner(processes=4, values=3, warmups=1, loops=20_000,
                           add_cmdline_args=lambda cmd, args: cmd.extend(["--window", str(args.window)]))
    runner.argparser.add_argument("--window", type=int, default=64,
                                  help="requests in flight at once (default: %(default)s)")
    args = runner.parse_args()
    runner.metadata["description"] = "the kit's protocol client against a minimal JSON-lines client"
    trivial = [sys.executable, "-c", TRIVIAL]
    minimal = runner.bench_time_func("minimal JSON-lines client", minimal_client, trivial, args.window)
    kit = runner.bench_time_func("kit's protocol client", kit_client, trivial, args.window)
    calls = runner.bench_time_func("kit, one request at a time", kit_calls, trivial)
    node = shutil.which("node")
    sample = Path(__file__).resolve().parent.parent / "examples" / "turub-sample.js"
    js = (runner.bench_time_func("kit's client, JavaScript sample", kit_client,
                                 [node, str(sample)], args.window)
          if node and sample.exists() else None)
    if minimal is None or kit is None or calls is None or runner.args.worker:  # a worker process
        return
    ratio = minimal.median() / kit.median()
    print(f"\ntrivial Python implementation, window {args.window}, load average {os.getloadavg()[0]:.1f}:")
    print(f"  minimal JSON-lines client: {1 / minimal.median():,.0f} requests/s")
    print(f"  kit's protocol client:     {1 / kit.median():,.0f} requests/s")
    print(f"  ratio kit/minimal: {ratio:.2f} (target >= 0.90: {'met' if ratio >= 0.9 else 'NOT met'})")
    print(f"  one request at a time (target.call): {1 / calls.median():,.0f} calls/s "
          f"({calls.median() * 1e6:.0f} µs per call)")
    if js is not None:
        print(f"JavaScript sample (decides each trick): {1 / js.median():,.0f} requests/s")


if __name__ == "__main__":
    main()
