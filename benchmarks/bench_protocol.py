"""Benchmark: the kit's protocol client against a minimal JSON-lines client, side by side
(a benchmark, not a test).

    .venv/bin/python benchmarks/bench_protocol.py [--requests 100000] [--window 64] [--rounds 5]

Both clients talk to the same trivial implementation (a Python program that answers every
request with 0, reading and writing in bulk) in the same process, alternately, ``--rounds``
times each; the figure is the best round of each and their ratio (the kit's client must
reach at least 0.9 of the minimal one).  The minimal client does only what any client must:
write requests in windows, read lines, parse each as JSON, match it by id.  The kit's
client also checks every line (per-request deadlines, noise, duplicates, size cap, unsafe
text), keeps the program in its own process group, and restarts it if it fails.

``--calls N`` also measures one-request round trips (``target.call``), as differential play
and the property suites use them.  With Node.js present the JavaScript sample, which really
decides each trick, is measured as well.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from turub.conformance.protocol import ProtocolTarget
from turub.conformance.targets import Request

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


def kit_client(argv: list[str], n: int, window: int) -> float:
    """Requests per second through :class:`ProtocolTarget`."""
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
    return n / elapsed


def minimal_client(argv: list[str], n: int, window: int) -> float:
    """Requests per second through the least a JSON-lines client must do."""
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
    return n / elapsed


def kit_calls(argv: list[str], n: int) -> float:
    target = ProtocolTarget(argv, timeout=10)
    target.start()
    started = time.perf_counter()
    for _ in range(n):
        if target.call("trick_winner", ARGS).kind != "result":
            raise SystemExit("a call failed")
    elapsed = time.perf_counter() - started
    target.close()
    return n / elapsed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--requests", type=int, default=100_000)
    p.add_argument("--window", type=int, default=64)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--calls", type=int, default=5_000)
    a = p.parse_args()
    trivial = [sys.executable, "-c", TRIVIAL]
    kit, minimal = [], []
    for _ in range(a.rounds):  # alternate, so that a change in the machine's load hits both
        minimal.append(minimal_client(trivial, a.requests, a.window))
        kit.append(kit_client(trivial, a.requests, a.window))
    best_kit, best_min = max(kit), max(minimal)
    ratio = best_kit / best_min
    print(f"trivial Python implementation, {a.requests} requests, window {a.window}, best of {a.rounds}:")
    print(f"  minimal JSON-lines client: {best_min:,.0f} requests/s")
    print(f"  kit's protocol client:     {best_kit:,.0f} requests/s")
    print(f"  ratio kit/minimal: {ratio:.2f} (target >= 0.90: {'met' if ratio >= 0.9 else 'NOT met'})")
    if a.calls:
        rate = kit_calls(trivial, a.calls)
        print(f"  one request at a time (target.call): {rate:,.0f} calls/s ({1e6 / rate:.0f} µs per call)")
    node = shutil.which("node")
    sample = Path(__file__).resolve().parent.parent / "examples" / "turub-sample.js"
    if node and sample.exists():
        rate = kit_client([node, str(sample)], a.requests, a.window)
        print(f"JavaScript sample (decides each trick): {a.requests} requests, {rate:,.0f} requests/s")


if __name__ == "__main__":
    main()
