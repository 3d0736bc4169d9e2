"""The JSON-lines protocol: the kit's side (the client of an implementation's program).

The implementation is one long-lived process, started from an argument list (never through
a shell) in a process group of its own (:mod:`~turub.conformance.programs.process`).  The kit writes
requests to its stdin and reads answers from its stdout, one JSON object per line; stderr
is kept as diagnostics and never judged.  See ``spec/protocol.schema.json`` and the
implementers' guide for the messages:

* handshake: ``{"id": 1, "op": "hello", "args": {"protocol": 2, "protocols": [1, 2], ...}}``
  → ``{"id": 1, "result": {"protocol": 1|2, "name": ..., "version": ..., "operations": [...],
  "rules": {"direction": [...], ...}}}`` (the program answers with the version it speaks;
  version 2 adds ``trump`` to ``legal_plays``, ``dealer`` to ``deal_result`` and ``contest``,
  and ``variant`` next to ``rules``);
* a request ``{"id": N, "op": OP, "args": {...}}`` → ``{"id": N, "result": ...}`` or
  ``{"id": N, "error": {"message": ..., "unsupported": true|false}}``;
* shutdown: ``{"id": N, "op": "bye", "args": {}}`` → ``{"id": N, "result": null}``, then the
  process exits.

The kit may send several requests before reading their answers (at most ``window``);
answers may come in any order, matched by id.  Every way a program can misbehave is turned
into an :class:`~turub.conformance.programs.targets.Answer` of the right kind, on the request it
belongs to:

* each request has its own deadline: ``timeout`` seconds from when it was sent, or from
  the genuine answer to the request sent before it if that came later (a program answering
  in order gets ``timeout`` for each request however many wait in its pipe); a line that
  answers nothing outstanding never moves a deadline;
* a line that is not an answer (not JSON, blank, no integer id, an id never asked) is a
  protocol violation of the oldest request waiting; an answer to a request already answered
  is a protocol violation of that request ("answered twice"); when nothing waits, such
  lines are collected as :attr:`ProtocolTarget.noise`, which the kit reports as a failure;
* every string the program sends is made safe (:mod:`~turub.conformance.text`) before
  anything else sees it; a line longer than ``line_limit`` bytes is a protocol violation;
* the published schema decides the shape of every answer and of the handshake
  (:mod:`~turub.conformance.programs.messages`): an answer that does not fit it is a
  protocol violation of its request ("malformed answer"), a handshake a start-up failure;
* a program that never completes the handshake is a start-up failure
  (:attr:`ProtocolTarget.startup_failure`), never retried; one that crashes or hangs later
  is restarted at most ``max_restarts`` times, asking again what was in flight, and what
  was never asked after that is ``not-run``; so is what the whole-run ``deadline`` cut.

The parts: :mod:`.pipes` (the process and its pipes), :mod:`.messages` (reading, writing and
the schema), :mod:`.handshake` (``hello``), :mod:`.exchange` (one run of requests); this module
holds the target's life cycle.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from ..option_checks import DEFAULT_LINE_LIMIT
from .exchange import CRASH, PROTOCOL, TIMEOUT, Exchange, Feed, ask_one
from .handshake import PROTOCOL_VERSION, PROTOCOLS, BadHandshake, hello_args, read_hello
from .messages import decode, request_line
from .pipes import STDERR_KEEP, Pipes, exit_text, snippet, stderr_lines
from . import run_clock
from .targets import INTERRUPTION, NOT_RUN, Answer, Request, Target
from ..text import safe_text

__all__ = ["PROTOCOL_VERSION", "PROTOCOLS", "ProtocolTarget", "DEFAULT_LINE_LIMIT"]

_NOISE_EXAMPLES: Final = 5
_decode = decode  # the line reader under its earlier name (tests/test_hostile_output.py)


class _StartFailure(Exception):
    def __init__(self, answer: Answer) -> None:
        self.answer = answer


class ProtocolTarget(Target):
    """A program speaking the protocol.

    ``timeout``: seconds each answer may take (see the module's description);
    ``start_timeout``: for the handshake (default twice ``timeout``, at least 2 s);
    ``max_restarts``: how many times a program that crashed or hung after a good handshake
    is started again; ``deadline``: a reading of the run's clock (:func:`.run_clock.now`) after which nothing more is asked
    (``not-run``); ``window``: requests in flight; ``line_limit``: the longest line accepted
    in bytes; ``trusted``: the kit's own adapter shim, whose errors may say ``"kind": "crash"``.
    """

    def __init__(self, argv: Sequence[str], *, timeout: float = 5.0, start_timeout: float | None = None,
                 max_restarts: int = 3, window: int = 64, line_limit: int = DEFAULT_LINE_LIMIT,
                 deadline: float | None = None, cwd: str | None = None, env: dict | None = None,
                 trusted: bool = False) -> None:
        if not argv:
            raise ValueError("no command to run")
        super().__init__(name=safe_text(os.path.basename(argv[0]), 80))
        self.argv = list(argv)
        self.timeout = timeout
        self.start_timeout = start_timeout if start_timeout is not None else max(2 * timeout, 2.0)
        self.max_restarts, self.window, self.line_limit = max_restarts, window, line_limit
        self.deadline = deadline
        self.cwd, self.env, self.trusted = cwd, env, trusted
        self.proc: Pipes | None = None
        self.next_id = 0
        self.fatal: Answer | None = None
        self.startup_failure: dict | None = None
        self.stderr_total = 0
        self.stderr_tail = b""
        self.starts = 0
        self.hello: dict | None = None
        self.noise: dict = {"lines": 0, "examples": []}
        self.cut = False  # the whole-run deadline stopped it
        self.last_status: int | None = None  # exit status of the last process that ended
        self.ring: OrderedDict[int, tuple[Any, Callable, int]] = OrderedDict()
        self.serial = 0  # runs so far: answers remembered from an earlier run are final

    # --- life cycle ----------------------------------------------------------------------------

    def start(self) -> Answer | None:
        """Start the program and shake hands; an Answer (failure) if it could not."""
        try:
            self._spawn()
            return None
        except _StartFailure as f:
            self.fatal = f.answer
            if self.starts == 1:
                self.startup_failure = {"command": [safe_text(a, 300) for a in self.argv],
                                        "reason": f.answer.detail, "status": self.last_status,
                                        "stderr": stderr_lines(self.stderr_tail)}
            return f.answer

    def past_deadline(self) -> bool:
        """Whether the whole-run deadline has come."""
        return self.deadline is not None and run_clock.past(self.deadline)

    def _spawn(self) -> None:
        """Start a process and send ``hello`` (a :class:`_StartFailure` if it could not)."""
        self.starts += 1
        self.restarts = self.starts - 1
        try:
            self.proc = Pipes(self.argv, self.cwd, self.env, self.line_limit)
        except (OSError, ValueError) as e:
            self.proc = None
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise _StartFailure(Answer(CRASH, None, f"could not start {safe_text(self.argv[0], 200)!r}: "
                                       f"{safe_text(why, 200)}")) from None
        hid = self.new_id()
        self.proc.send(request_line(hid, "hello", hello_args()))
        self._handshake(hid, self._hello_line())

    def _hello_line(self) -> bytes:
        """The first line the program writes, within the start time and the whole-run deadline.
        The lines that came with it are held for the requests (:meth:`Pipes.hold`): a second
        answer to ``hello`` is judged, never dropped.  The start time counts only the time
        the run had (:func:`~.run_clock.clock_start`), and what is already in the pipe when it
        is over is read before the program is said not to have answered."""
        began = run_clock.now()
        while True:
            if self.proc is None:
                raise RuntimeError("no program to read the handshake of")
            limit = run_clock.clock_start(began) + self.start_timeout
            if self.deadline is not None:
                limit = min(limit, self.deadline)
            left = limit - run_clock.now()  # (at least as long by the wall clock)
            if left <= 0 and (lines := self.proc.pump(0.0)):
                self.proc.hold(lines[1:])
                return lines[0]
            if left <= 0:
                partial = self.partial()
                self.drop()
                cut = self.past_deadline() and limit == self.deadline
                raise _StartFailure(Answer(NOT_RUN, None, "the whole-run time limit came before the handshake "
                                                                 "(--time-limit raises it)")
                                    if cut else Answer(TIMEOUT, None, f"the handshake got no answer within "
                                                       f"{self.start_timeout:g} s{partial}"))
            lines = self.proc.pump(left)
            if lines:
                self.proc.hold(lines[1:])
                return lines[0]
            if self.proc.overflow:
                self.drop()
                raise _StartFailure(Answer(PROTOCOL, None, f"handshake line longer than {self.line_limit} bytes"))
            if self.proc.eof:
                raise _StartFailure(Answer(CRASH, None, f"exited before the handshake: {self.ended()}"))

    def _handshake(self, hid: int, line: bytes) -> None:
        """Take what the program said of itself, or stop it (a bad handshake)."""
        try:
            hello = read_hello(line, hid)
        except BadHandshake as e:
            self.drop()
            raise _StartFailure(Answer(PROTOCOL, None, f"bad handshake: {e}")) from None
        if hello.unknown_operations:
            self.diagnose(f"handshake lists unknown operations "
                          f"{safe_text(list(hello.unknown_operations), 200)} (ignored)")
        self.hello = hello.message
        self.protocol = hello.protocol  # version 2: per-request context (trump, dealer, variant)
        self.name, self.version = hello.name, hello.version
        self.operations, self.rules, self.variants = hello.operations, hello.rules, hello.variants

    def diagnose(self, text: str) -> None:
        """Keep a diagnostic line (at most 20)."""
        if len(self.diagnostics) < 20:
            self.diagnostics.append(text)

    def new_id(self) -> int:
        """The id of the next request."""
        self.next_id += 1
        return self.next_id

    def partial(self) -> str:
        """The partial line pending, as a clause for a detail ('' if none)."""
        if self.proc is not None and self.proc.buf:
            return f"; a partial line was pending: {snippet(bytes(self.proc.buf))}"
        return ""

    def ended(self) -> str:
        """The program has exited: stop what is left of it; how it ended, in words."""
        if self.proc is None:
            raise RuntimeError("no program has ended")
        # its output is closed, so it is on its way out: a loaded machine may take a while to
        # reap it, and its status decides the verdict (a shim that could not load: usage, 2)
        status = self.proc.exit_status(2.0)
        partial = self.partial()
        self.drop()
        self.last_status = status
        return exit_text(status) + partial + self._stderr_hint()

    def _stderr_hint(self) -> str:
        tail = stderr_lines(self.stderr_tail, 1)
        return f"; last stderr line: {tail[0][:200]}" if tail else ""

    def drop(self, gentle: bool = True) -> None:
        """Stop the current process group (keeping its stderr)."""
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        proc.stop(gentle)
        self.stderr_total += proc.err_total
        self.stderr_tail = (self.stderr_tail + bytes(proc.err))[-STDERR_KEEP:]
        self.ring.clear()

    def abort(self) -> None:
        """Stop at once, without the goodbye (an interrupted run)."""
        self.drop(gentle=False)

    def close(self) -> None:
        """Say goodbye (``bye``, at most a second for its answer and the exit), then stop."""
        proc = self.proc
        if proc is not None and not proc.eof and not proc.stdin_closed:
            clean = self._goodbye(proc)
            proc.close_stdin()
            end = time.monotonic() + 1.0
            self._read_to_the_end(proc, end)
            status = proc.exit_status(max(0.05, end - time.monotonic()))
            if not clean:
                self.diagnose("shutdown: no answer to 'bye' within 1 s")
            if status is None:
                self.diagnose("shutdown: still running 1 s after 'bye'; stopped")
            elif status != 0:
                self.diagnose(f"shutdown: {exit_text(status)}")
        self.drop()
        self._finish_diagnostics()

    def _goodbye(self, proc: Pipes) -> bool:
        """Send ``bye``; whether it was answered within a second (other lines are noise)."""
        bid = self.new_id()
        proc.send(request_line(bid, "bye", {}))
        limit, answered = time.monotonic() + 1.0, False
        while time.monotonic() < limit and not proc.eof and not proc.overflow and not answered:
            for line in proc.pump(limit - time.monotonic()):
                try:
                    msg = decode(line)
                except (ValueError, RecursionError):
                    msg = None
                if isinstance(msg, dict) and msg.get("id") == bid:
                    answered = True
                else:
                    self.note_noise(line, "after the last request")
        return answered

    def _read_to_the_end(self, proc: Pipes, limit: float) -> None:
        """What the program writes after its answer to ``bye``, until it closes its output
        (``limit`` at most): each line is noise, judged as any other, never dropped unread."""
        while time.monotonic() < limit and not proc.eof and not proc.overflow:
            for line in proc.pump(limit - time.monotonic()):
                self.note_noise(line, "after the answer to 'bye'")

    def _finish_diagnostics(self) -> None:
        if self.stderr_total:
            tail = self.stderr_tail.decode("utf-8", "replace")[-2000:]
            self.diagnostics.append(f"stderr: {self.stderr_total} bytes (diagnostics only); "
                                    f"last part:\n{safe_text(tail, keep_lines=True)}")

    def note_noise(self, line: bytes, why: str) -> None:
        """A line that belongs to no request still waiting: counted, a few kept."""
        self.noise["lines"] += 1
        if len(self.noise["examples"]) < _NOISE_EXAMPLES:
            self.noise["examples"].append(f"{why}: {snippet(line)}")

    # --- requests ---------------------------------------------------------------------------------

    def call(self, op: str, args: dict) -> Answer:
        """One request, lock-step (:func:`~.exchange.ask_one`): its answer (the last one
        reported, should it be amended)."""
        INTERRUPTION.check()
        self.serial += 1  # a run, as :meth:`run` counts them
        return ask_one(self, op, args)

    def run(self, requests: Iterable[Request], report: Callable[[Any, Answer], None]) -> None:
        """Ask every request, calling ``report(key, answer)`` once per request (and again, to
        amend it, for a request answered twice): a :class:`~.exchange.Exchange`."""
        INTERRUPTION.check()
        self.serial += 1  # answers remembered from earlier runs can no longer be amended
        Exchange(self, Feed(requests), report).run()
