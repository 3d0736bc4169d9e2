"""Benchmark: the kit's protocol client against a bare JSON-lines client, CPU per request.

Both clients talk to the same program (``bench_protocol.py``'s trivial implementation, one
process per client, started before the clock), in lock-step (one request, wait for its
answer: as differential play and the property suites ask over the protocol) and windowed
(``--window`` requests in flight).  The figure is the client's own CPU time per request
(``time.process_time``: user + system of this process, the program's CPU not counted), in
blocks of ``--requests`` requests alternating bare / kit for ``--rounds`` rounds in one
process, so a busy machine weighs on both alike; the median block is printed, with the ratio
kit / bare (#33 asks at most 1.3).

The bare clients are the least a client must do: write the request lines, read lines, parse
each as JSON, match it by id (lock-step: a blocking read, no deadline).  The kit's client
also checks every line (per-request deadlines, noise, duplicates, the size cap, unsafe text,
the answer's shape by the schema) and keeps the program in its own process group.

    .venv/bin/python benchmarks/bench_client_cpu.py [--requests 5000] [--rounds 5] [--window 64]

Also timed: the same bare client with its program in a session of its own, as the kit must
start one.  With Linux's autogroup scheduling a program in another session is scheduled
apart: under load the bare client's program preempts it on its own core and the answer is
there when it reads, while the kit sleeps in ``poll`` until the answer comes from the other
core (``getrusage``: about 2,900 involuntary context switches in 3,000 lock-step requests
against 2,700 voluntary ones), which costs the kit some 10-15% that no client code can save.

Before #33 part 3 (commit e445993's client, busy machine, ``--rounds 3``, four runs):
lock-step bare 7.8-9.2 µs, kit 12.5-26 µs a request (1.5-2.9×); windowed (64) bare 3.8-4.1
µs, kit 5.9-6.5 µs (1.53-1.63×).  After it (commit c1308f8: a lock-step fast path, one poll
object, request lines from a cached prefix, one scan a line, nothing kept alive a call),
``.venv/bin/python benchmarks/bench_client_cpu.py``, three runs, load average 0.3-0.8:
lock-step 0.99-1.07× (kit 77-106 µs, bare 78-104 µs: an idle machine wakes each process on
its own core), windowed 1.07-1.25× (kit 13.4-14.6 µs, bare 11.6-12.8 µs); at load 5-7 the
same day: lock-step 1.18-1.20×, windowed 1.20-1.28×.  Within #33's 1.3×.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_protocol import ARGS, TRIVIAL  # noqa: E402

from turub.conformance.programs.protocol import ProtocolTarget  # noqa: E402
from turub.conformance.programs.targets import Request  # noqa: E402


class Bare:
    """A bare windowed JSON-lines client (about twenty lines); ``session``: its program in a
    session of its own, as the kit starts one."""

    def __init__(self, argv: list[str], session: bool = False) -> None:
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                                  start_new_session=session)
        self.fin, self.fout, self.buf, self.rid = self.p.stdin.fileno(), self.p.stdout.fileno(), b"", 0  # type: ignore[union-attr]
        self.ask([("hello", {"protocol": 1})])

    def ask(self, requests: list[tuple[str, dict]]) -> dict[int, object]:
        ids = range(self.rid + 1, self.rid + 1 + len(requests))
        self.rid += len(requests)
        os.write(self.fin, b"".join((json.dumps({"id": i, "op": op, "args": args}) + "\n").encode()
                                    for i, (op, args) in zip(ids, requests)))
        answers: dict[int, object] = {}
        while len(answers) < len(requests):
            chunk = os.read(self.fout, 1 << 16)
            if not chunk:
                raise SystemExit("the program ended")
            *lines, self.buf = (self.buf + chunk).split(b"\n")
            for raw in lines:
                msg = json.loads(raw)
                answers[msg["id"]] = msg.get("result")
        return answers

    def close(self) -> None:
        self.ask([("bye", {})])
        self.p.stdin.close()  # type: ignore[union-attr]
        self.p.wait(5)
        self.p.stdout.close()  # type: ignore[union-attr]


def bare_lock_step(client: Bare, n: int, window: int) -> None:
    one = [("trick_winner", ARGS)]
    for _ in range(n):
        client.ask(one)


def bare_windowed(client: Bare, n: int, window: int) -> None:
    block = [("trick_winner", ARGS)] * window
    for _ in range(n // window):
        client.ask(block)


def kit_lock_step(target: ProtocolTarget, n: int, window: int) -> None:
    for _ in range(n):
        if target.call("trick_winner", ARGS).kind != "result":
            raise SystemExit("a call failed")


def kit_windowed(target: ProtocolTarget, n: int, window: int) -> None:
    got: list[object] = []
    target.run([Request(i, "trick_winner", ARGS) for i in range(n // window * window)],
               lambda k, a: got.append(a))
    if len(got) != n // window * window or any(a.kind != "result" for a in got):  # type: ignore[attr-defined]
        raise SystemExit("a request failed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--window", type=int, default=64)
    args = parser.parse_args()
    argv = [sys.executable, "-c", TRIVIAL]
    bare, apart = Bare(argv), Bare(argv, session=True)
    kit = ProtocolTarget(argv, timeout=10, window=args.window)
    if kit.start() is not None:
        raise SystemExit(f"could not start the program: {kit.fatal}")
    loops = {("lock-step", "bare"): (bare_lock_step, bare), ("lock-step", "kit"): (kit_lock_step, kit),
             ("lock-step", "apart"): (bare_lock_step, apart),
             ("windowed", "bare"): (bare_windowed, bare), ("windowed", "kit"): (kit_windowed, kit),
             ("windowed", "apart"): (bare_windowed, apart)}
    times: dict[tuple[str, str], list[float]] = {key: [] for key in loops}
    try:
        for _ in range(args.rounds):
            for key, (loop, client) in loops.items():
                start = time.process_time()
                loop(client, args.requests, args.window)  # type: ignore[operator]
                times[key].append((time.process_time() - start) / args.requests)
    finally:
        bare.close()
        apart.close()
        kit.close()
    print(f"{args.rounds} alternating rounds of {args.requests} requests, window {args.window}, "
          f"the client's CPU per request (median):")
    for mode in ("lock-step", "windowed"):
        b, k, a = (statistics.median(times[mode, who]) for who in ("bare", "kit", "apart"))
        print(f"  {mode:<9}  bare {b * 1e6:5.1f} µs, kit {k * 1e6:5.1f} µs: kit/bare {k / b:4.2f} "
              f"(bare, its program in a session of its own: {a * 1e6:5.1f} µs, kit/that {k / a:4.2f})")


if __name__ == "__main__":
    main()
