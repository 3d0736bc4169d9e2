"""A program under test that leaves helpers behind which change their pid quickly.

    python escapees.py MODE HEARTBEAT UNTIL

It answers the handshake (protocol 1, no operations) and ``bye``; at the handshake it starts
helpers that try to outlive it.  Every helper appends to the file HEARTBEAT while it runs
(a test sees that something still runs by the file growing, with no race against pids that
come and go) and gives up by itself at time UNTIL (``time.time()``), so that a kit that
fails to stop them leaves nothing running for long.  MODE:

* ``chain``: a fork-and-exit chain: a helper forks and exits at once, again and again, each
  new one in a new session (``setsid``): its pid, group and session change all the time;
* ``daemon-chain``: the classic double fork and ``setsid``, then ``exec`` with an empty
  environment (no marker of the kit's), then the chain.
"""

from __future__ import annotations

import json
import os
import sys
import time


def chain(beat: int, until: float) -> None:
    """Fork and exit, over and over, each child in a session of its own."""
    while time.time() < until:
        if os.fork():
            os._exit(0)
        try:
            os.setsid()
        except OSError:
            pass
        os.write(beat, b".")
    os._exit(0)


def daemonize() -> bool:
    """Double fork + setsid: True in the daemon, False in the caller."""
    if os.fork():
        return False
    os.setsid()
    if os.fork():
        os._exit(0)
    return True


def helpers(mode: str, heartbeat: str, until: float) -> None:
    """Start the helpers of ``mode``; the caller goes on answering."""
    if mode == "chain":
        if os.fork() == 0:
            chain(os.open(heartbeat, os.O_WRONLY | os.O_APPEND), until)
    elif mode == "daemon-chain":
        if daemonize():
            os.execve(sys.executable, [sys.executable, __file__, "run-chain", heartbeat, str(until)], {})
    else:
        raise SystemExit(f"unknown mode {mode}")


def main() -> None:
    mode, heartbeat, until = sys.argv[1], sys.argv[2], float(sys.argv[3])
    if mode == "run-chain":  # the daemon, after exec
        chain(os.open(heartbeat, os.O_WRONLY | os.O_APPEND), until)
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "hello":
            helpers(mode, heartbeat, until)
            result = {"protocol": 1, "name": "escapees", "version": "1", "operations": []}
        else:
            result = None
        print(json.dumps({"id": request["id"], "result": result}), flush=True)
        if request["op"] == "bye":
            return


if __name__ == "__main__":
    main()
