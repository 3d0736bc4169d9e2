"""Deliberately broken implementations of the protocol, for the kit's own tests.

    python tests/broken/impl.py MODE [--once FLAGFILE]

Every mode answers from the reference engine, except for one thing it gets wrong: a rule
(``RULE_BREAKS``, each a wrong rule written out here) or the way it behaves on the wire
(``MISBEHAVIOURS``).  ``--once FLAGFILE`` misbehaves only in the first process (the flag
file records that it happened), to check that the kit restarts and goes on.
"""

from __future__ import annotations

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adapters import RULE_BREAKS  # noqa: E402

from turub.conformance.adapter import ReferenceImplementation  # noqa: E402

#: Misbehaviour → (request number it strikes at, what it does).  Request 0 is the handshake.
MISBEHAVIOURS = {
    "crash-at-start": "exits with status 3 before the handshake",
    "crash-mid-run": "exits with status 1 on request 10",
    "hang": "stops answering on request 10",
    "hang-at-start": "never answers the handshake",
    "garbage": "prints a line that is not JSON instead of the answer to request 10",
    "partial-line": "prints half an answer to request 10, then exits",
    "wrong-id": "answers request 10 with another id",
    "answer-twice": "answers request 10 twice",
    "huge-output": "answers request 10 with a 2 MB line",
    "old-protocol": "speaks protocol version 0",
    "stderr-noise": "writes to stderr on every request (and answers right)",
    "exit-early": "exits cleanly (status 0) after request 10",
    "error-reported": "reports an error for every deal it is asked to referee",
    "subset": "supports only trick_winner and legal_plays",
}


def main() -> None:
    mode = sys.argv[1]
    once = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--once" else None
    armed = True
    if once is not None:
        armed = not os.path.exists(once)
        if armed:
            open(once, "w").close()
    impl = RULE_BREAKS[mode]() if mode in RULE_BREAKS else ReferenceImplementation()
    if mode not in RULE_BREAKS and mode not in MISBEHAVIOURS and mode != "ok":
        sys.exit(f"unknown mode {mode}")
    bad = mode if armed else "ok"
    out = sys.stdout.buffer
    if bad == "crash-at-start":
        sys.stderr.write("cannot start: the deck is missing\n")
        sys.exit(3)
    n = 0
    for raw in sys.stdin.buffer:
        request = json.loads(raw)
        rid, op, args = request["id"], request["op"], request.get("args", {})
        if bad == "stderr-noise":
            sys.stderr.write(f"debug: request {rid} {op}\n")
        if op == "hello":
            if bad == "hang-at-start":
                time.sleep(3600)
            ops = ["trick_winner", "legal_plays"] if mode == "subset" else impl.supports()
            answer = {"id": rid, "result": {
                "protocol": 0 if bad == "old-protocol" else 1, "name": f"broken-{mode}",
                "version": "0", "operations": ops,
                "rules": {"direction": ["clockwise", "counterclockwise"],
                          "stake": ["contest", "per-deal"], "opponent-dealer": ["next", "previous"]}}}
        elif op == "bye":
            out.write(json.dumps({"id": rid, "result": None}).encode() + b"\n")
            out.flush()
            return
        elif op == "referee" and bad == "error-reported":
            answer = {"id": rid, "error": {"message": "the referee is on holiday"}}
        elif op not in impl.supports() or (mode == "subset" and op not in ("trick_winner", "legal_plays")):
            answer = {"id": rid, "error": {"message": f"no {op}", "unsupported": True}}
        else:
            answer = {"id": rid, "result": getattr(impl, op)(**args)}
        n += 1
        line = json.dumps(answer).encode() + b"\n"
        if n == 11:  # request 10 (the handshake was 0)
            if bad == "crash-mid-run":
                os._exit(1)
            if bad == "hang":
                time.sleep(3600)
            if bad == "garbage":
                line = b"Traceback? no, just chatter\n"
            if bad == "partial-line":
                out.write(line[: len(line) // 2])
                out.flush()
                os._exit(0)
            if bad == "wrong-id":
                line = json.dumps({**answer, "id": rid + 100000}).encode() + b"\n"
            if bad == "answer-twice":
                line = line + line
            if bad == "huge-output":
                line = json.dumps({"id": rid, "result": "x" * 2_000_000}).encode() + b"\n"
        out.write(line)
        out.flush()
        if n == 11 and bad == "exit-early":
            sys.exit(0)


if __name__ == "__main__":
    main()
