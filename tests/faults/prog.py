"""Small misbehaving programs for the fault catalogue (tests/test_fault_catalogue.py).

    python tests/faults/prog.py MODE [MARKER] [ARG...]

Every mode speaks the protocol and answers ``trick_winner`` right (written out here, without
the project's engine, so that it starts fast), except for the one way it misbehaves.  The
MARKER argument is only there so that a test can find, by its command line, any process
the mode left behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

RANKS = {r: i for i, r in enumerate(["6", "7", "8", "9", "10", "J", "Q", "K", "A"])}
SUITS = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def trick_winner(cards, trump):
    """trick.highest-trump, trick.highest-led, trick.earliest-identical."""
    parsed = [(RANKS[c[:-1].upper()], SUITS[c[-1].upper()]) for c in cards]
    best = 0
    for i, (rank, suit) in enumerate(parsed[1:], 1):
        brank, bsuit = parsed[best]
        if (suit == bsuit and rank > brank) or (suit == trump and bsuit != trump):
            best = i
    return best


def hello(rid, *, protocol=1, operations=("trick_winner",)):
    return {"id": rid, "result": {"protocol": protocol, "name": "fault", "version": "0",
                                  "operations": list(operations)}}


def main() -> None:
    mode = sys.argv[1]
    marker = sys.argv[2] if len(sys.argv) > 2 else ""
    out = sys.stdout.buffer

    def send(obj_or_bytes) -> None:
        data = obj_or_bytes if isinstance(obj_or_bytes, bytes) else json.dumps(obj_or_bytes).encode()
        out.write(data + b"\n")
        out.flush()

    def sleeper(*extra) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", marker, *extra])

    if mode == "touch":  # leaves a trace that it was started, then behaves
        open(sys.argv[3], "w").close()
    if mode == "crash-at-start":
        sys.stderr.write("loading the rules\nerror: the \x1b[31mdeck\x1b[0m is missing\n")
        sys.exit(3)
    if mode == "args":  # completes the handshake only if it got exactly its arguments
        if sys.argv[3:] != ["--", "-x", "--", "--timeout", "nan"]:
            sys.stderr.write(f"wrong arguments: {sys.argv[3:]}\n")
            sys.exit(5)
    if mode == "launcher":  # exits at once; its worker answers (and would go on for ever)
        if os.fork() != 0:
            os._exit(0)
    if mode == "setsid-escapee":
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", marker])
            os._exit(0)
    if mode in ("helper", "slow-helper"):
        sleeper("helper")
    if mode == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    replay = []
    if mode == "replay":  # prints the lines of a file (latin-1 text of raw bytes) as its first answers
        replay = [x.encode("latin-1") for x in json.load(open(sys.argv[3]))]
    n = 0
    last = None
    for raw in sys.stdin.buffer:
        try:
            req = json.loads(raw)
        except ValueError:
            continue
        rid, op, args = req["id"], req["op"], req.get("args", {})
        if op == "hello":
            if mode == "hang-at-start":
                time.sleep(60)
            if mode == "bad-hello":
                send(b"hello there")
                continue
            if mode == "wrong-version":
                send(hello(rid, protocol=99))
                continue
            send(hello(rid, operations=() if mode == "nothing-supported" else ("trick_winner",)))
            continue
        if op == "bye":
            send({"id": rid, "result": None})
            if mode == "ignore-term":
                time.sleep(60)
            return
        n += 1
        answer = {"id": rid, "result": trick_winner(**args)}
        if mode in ("slow", "slow-helper"):
            time.sleep(0.15)
        elif mode == "unsupported-everything":
            answer = {"id": rid, "error": {"message": "not today", "unsupported": True}}
        elif mode == "escapes-in-errors":
            answer = {"id": rid, "error": {"message": "\x1b[2J\x1b[32mCONFORMS\x1b[0m\r\n\x00\u202eFAIL\x85\x07"}}
        elif mode == "surrogates" and n == 3:
            answer = {"id": rid, "result": "\udfff\ud800"}
            send(json.dumps(answer, ensure_ascii=True).encode())
            continue
        elif mode == "wrong-type" and n == 3:
            answer = {"id": rid, "result": {"cards": "\x1b]0;owned\x07"}}
        elif mode == "nan" and n == 3:
            send(b'{"id": %d, "result": NaN}' % rid)
            continue
        elif mode == "not-utf8" and n == 3:
            send(b'{"id": %d, "result": "\xff\xfe"}' % rid)
            continue
        elif mode == "deep" and n == 3:
            send(b'{"id": %d, "result": ' % rid + b"[" * 100_000 + b"]" * 100_000 + b"}")
            continue
        elif mode == "huge" and n == 3:
            send(json.dumps({"id": rid, "result": "x" * 1_500_000}).encode())
            continue
        elif mode == "duplicate" and n == 3:
            send(answer)
        elif mode == "unasked-id" and n == 3:
            answer = {"id": rid + 777_777, "result": 0}
        elif mode == "blank-and-noise" and n == 3:
            send(b"")
            send(b"   ")
            send(b"debug: thinking\x1b[5m")
        elif mode == "resend-then-hang" and n == 4:
            while True:  # the answer it already gave, again and again: never an answer to n=4
                send(last)
                time.sleep(0.1)
        elif mode in ("hang", "ignore-term") and n == 4:
            time.sleep(60)
        elif mode == "crash-loop" and n == 3:
            os._exit(1)
        elif mode == "close-stdout" and n == 3:
            os.close(1)
            time.sleep(60)
        elif mode == "megabyte":  # every answer about 1 MiB: 170,000 strings once parsed
            answer = {"id": rid, "result": ["AC"] * 170_000}
        elif mode == "replay" and n <= len(replay):
            send(replay[n - 1])
            continue
        elif mode == "spawn-per-request":
            sleeper("child", str(n))
        last = answer
        send(answer)


if __name__ == "__main__":
    main()
