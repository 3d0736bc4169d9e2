"""Benchmark: requests per second through the JSON-lines protocol (a benchmark, not a test).

    .venv/bin/python benchmarks/bench_protocol.py [--requests 100000] [--window 64]

Against a trivial implementation (a Python program that answers every request with 0,
reading and writing in bulk), the kit's client sends, reads and parses N ``trick_winner``
requests with their answers matched by id.  The target is at least 20,000 requests per
second.  With Node.js present it also measures the JavaScript sample, which really
decides each trick.
"""

from __future__ import annotations

import argparse
import shutil
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


def measure(argv: list[str], n: int, window: int) -> float:
    target = ProtocolTarget(argv, timeout=10, window=window)
    if target.start() is not None:
        raise SystemExit(f"could not start {argv}: {target.fatal}")
    args = {"cards": ["AC", "AC", "6H", "KC"], "trump": "H"}
    requests = [Request(i, "trick_winner", args) for i in range(n)]
    got = []
    started = time.perf_counter()
    target.run(requests, lambda k, a: got.append(a))
    elapsed = time.perf_counter() - started
    target.close()
    bad = [a for a in got if a.kind != "result"]
    if len(got) != n or bad:
        raise SystemExit(f"{len(got)} answers, {len(bad)} not results: {bad[:1]}")
    return n / elapsed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--requests", type=int, default=100_000)
    p.add_argument("--window", type=int, default=64)
    a = p.parse_args()
    rate = measure([sys.executable, "-c", TRIVIAL], a.requests, a.window)
    print(f"trivial Python implementation: {a.requests} requests, {rate:,.0f} requests/s "
          f"(window {a.window}; target ≥ 20,000/s: {'met' if rate >= 20_000 else 'NOT met'})")
    node = shutil.which("node")
    sample = Path(__file__).resolve().parent.parent / "examples" / "turub-sample.js"
    if node and sample.exists():
        rate = measure([node, str(sample)], a.requests, a.window)
        print(f"JavaScript sample (decides each trick): {a.requests} requests, {rate:,.0f} requests/s")


if __name__ == "__main__":
    main()
