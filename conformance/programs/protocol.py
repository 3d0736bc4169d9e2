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
* a program that never completes the handshake is a start-up failure
  (:attr:`ProtocolTarget.startup_failure`), never retried; one that crashes or hangs later
  is restarted at most ``max_restarts`` times, asking again what was in flight, and what
  was never asked after that is ``not-run``; so is what the whole-run ``deadline`` cut.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any, Final, cast

from . import process
from ..args import DEFAULT_LINE_LIMIT
from ..adapter import OPERATIONS
from .targets import NOT_RUN, RESULT, UNSUPPORTED, Answer, Request, Target
from ..text import needs_cleaning, safe_text, safe_value

__all__ = ["PROTOCOL_VERSION", "PROTOCOLS", "ProtocolTarget", "DEFAULT_LINE_LIMIT"]

#: The protocol version the kit speaks, and every version it accepts from a program.
PROTOCOL_VERSION: Final = 2
PROTOCOLS: Final = (1, 2)

CRASH, TIMEOUT, PROTOCOL, ERROR = "crash", "timeout", "protocol-violation", "error-reported"
_STDERR_KEEP: Final = 16_384
_RING: Final = 256  # answered ids remembered, to blame a duplicate on its request
_NOISE_EXAMPLES: Final = 5


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant)
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _decode(line: bytes) -> Any:
    """A line as JSON (strict UTF-8, no NaN or Infinity), every string in it made safe
    (ValueError if it is not JSON)."""
    msg = _DECODER.decode(line.decode("utf-8"))
    return safe_value(msg) if needs_cleaning(line) else msg


def _snippet(data: bytes | bytearray | str, limit: int = 80) -> str:
    """The start of a line, quoted and made safe."""
    head = data[:4 * limit + 8]
    text = bytes(head).decode("utf-8", "replace") if not isinstance(head, str) else head
    return safe_text(repr(text.rstrip("\r\n")), limit)


def stderr_lines(data: bytes, n: int = 5) -> list[str]:
    """The last ``n`` non-blank lines of a program's stderr, made safe."""
    lines = [x for x in data.decode("utf-8", "replace").splitlines() if x.strip()]
    return [safe_text(x, 300) for x in lines[-n:]]


class _Process:
    """One running program, with non-blocking pipes."""

    def __init__(self, argv: Sequence[str], cwd: str | None, env: dict | None, line_limit: int) -> None:
        self.popen = process.spawn(argv, cwd, env)
        self.line_limit = line_limit
        self.stdin, self.stdout, self.stderr = cast("tuple[IO[bytes], IO[bytes], IO[bytes]]", (  # pipes
            self.popen.stdin, self.popen.stdout, self.popen.stderr))
        self.fd_in, self.fd_out = self.stdin.fileno(), self.stdout.fileno()
        for f in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(f.fileno(), False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.stdout, selectors.EVENT_READ, "out")
        self.sel.register(self.stderr, selectors.EVENT_READ, "err")
        self.writing = False
        self.out = bytearray()  # to write
        self.buf = bytearray()  # read, not yet a whole line
        self.err = bytearray()
        self.err_total = 0
        self.eof = False
        self.overflow = False
        self.stdin_closed = False
        self.status: int | None = None

    def send(self, data: bytes) -> None:
        if self.stdin_closed:
            return
        if not self.out:  # the usual case: the pipe takes it all at once
            try:
                n = os.write(self.fd_in, data)
            except BlockingIOError:
                n = 0
            except OSError:
                self.stdin_closed = True
                return
            if n == len(data):
                return
            data = data[n:]
        self.out += data
        self._write()

    def _write(self) -> None:
        while self.out and not self.stdin_closed:
            try:
                n = os.write(self.stdin.fileno(), self.out[:1 << 16])
            except BlockingIOError:
                break
            except OSError:
                self.stdin_closed = True
                self.out.clear()
                break
            del self.out[:n]
        want = bool(self.out) and not self.stdin_closed
        if want != self.writing:
            if want:
                self.sel.register(self.stdin, selectors.EVENT_WRITE, "in")
            else:
                self.sel.unregister(self.stdin)
            self.writing = want

    def close_stdin(self) -> None:
        if self.writing:
            self.sel.unregister(self.stdin)
            self.writing = False
        self.stdin_closed = True
        try:
            self.stdin.close()
        except OSError:
            pass

    def pump(self, timeout: float) -> list[bytes]:
        """Whole lines read within ``timeout`` seconds (returns as soon as there is any)."""
        lines: list[bytes] = []
        if self.eof or self.overflow:
            return lines
        if not self.writing:  # answers already waiting: no need to ask the selector
            try:
                chunk = os.read(self.fd_out, 1 << 16)
            except BlockingIOError:
                chunk = None
            except OSError:
                chunk = b""
            if chunk is not None:
                self._take(chunk, lines)
                return lines
        for key, _ in self.sel.select(max(0.0, timeout)):
            data = key.data
            if data == "in":
                self._write()
            elif data == "err":
                self._read_err()
            else:
                try:
                    chunk = os.read(self.fd_out, 1 << 16)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                self._take(chunk, lines)
        return lines

    def _take(self, chunk: bytes, lines: list) -> None:
        """Add what was read to the partial line; whole lines go to ``lines``."""
        if not chunk:
            self.eof = True
            self._read_err()
            return
        if b"\n" in chunk:
            if self.buf:
                self.buf += chunk
                *whole, rest = self.buf.split(b"\n")
                self.buf = bytearray(rest)
            else:
                *whole, rest = chunk.split(b"\n")  # type: ignore[assignment]  # bytes lines, as from the buffer
                self.buf += rest
            for line in whole:
                if len(line) > self.line_limit:
                    self.overflow = True
                    break
                lines.append(line)
        else:
            self.buf += chunk
        if len(self.buf) > self.line_limit:
            self.overflow = True
            self.buf.clear()

    def _read_err(self) -> None:
        while True:
            try:
                chunk = os.read(self.stderr.fileno(), 1 << 16)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                try:
                    self.sel.unregister(self.stderr)
                except (KeyError, ValueError):
                    pass
                return
            self.err_total += len(chunk)
            self.err += chunk
            if len(self.err) > 2 * _STDERR_KEEP:
                del self.err[:-_STDERR_KEEP]

    def stop(self, gentle: bool = True) -> int | None:
        """Stop the program's whole process group; its exit status."""
        self.status = process.stop(self.popen, gentle=gentle)
        self._read_err()
        self.sel.close()
        for f in (self.stdin, self.stdout, self.stderr):
            try:
                f.close()
            except OSError:
                pass
        return self.status

    def exit_status(self, wait: float) -> int | None:
        try:
            return self.popen.wait(wait)
        except Exception:  # noqa: BLE001 - TimeoutExpired: still running
            return None


def _exit_text(status: int | None) -> str:
    if status is None:
        return "still running"
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exit status {status}"


class _Feed:
    """The requests still to ask: those put back (asked of a process that died) first, then
    the rest, drawn one at a time so that a long run is never held in memory."""

    __slots__ = ("source", "back")

    def __init__(self, requests: Iterable[Request]) -> None:
        self.source = iter(requests)
        self.back: deque[Request] = deque()

    def __bool__(self) -> bool:
        if not self.back:
            nxt = next(self.source, None)
            if nxt is None:
                return False
            self.back.append(nxt)
        return True

    def popleft(self) -> Request:
        return self.back.popleft() if self.back else next(self.source)

    def appendleft(self, request: Request) -> None:
        self.back.appendleft(request)

    def drain(self) -> Iterable[Request]:
        while self.back:
            yield self.back.popleft()
        yield from self.source


class _StartFailure(Exception):
    def __init__(self, answer: Answer) -> None:
        self.answer = answer


class ProtocolTarget(Target):
    """A program speaking the protocol.

    ``timeout``: seconds each answer may take (see the module's description);
    ``start_timeout``: for the handshake (default twice ``timeout``, at least 2 s);
    ``max_restarts``: how many times a program that crashed or hung after a good handshake
    is started again; ``deadline``: a ``time.monotonic()`` after which nothing more is asked
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
        self.proc: _Process | None = None
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
        self._ring: OrderedDict[int, tuple[Any, Callable, int]] = OrderedDict()
        self._serial = 0

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

    def _past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _spawn(self) -> None:
        self.starts += 1
        self.restarts = self.starts - 1
        try:
            self.proc = _Process(self.argv, self.cwd, self.env, self.line_limit)
        except (OSError, ValueError) as e:
            self.proc = None
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise _StartFailure(Answer(CRASH, None, f"could not start {safe_text(self.argv[0], 200)!r}: "
                                       f"{safe_text(why, 200)}")) from None
        hid = self._new_id()
        self.proc.send(self._line(hid, "hello", {"protocol": PROTOCOL_VERSION, "protocols": list(PROTOCOLS),
                                                 "kit": "turub", "operations": list(OPERATIONS)}))
        limit = time.monotonic() + self.start_timeout
        if self.deadline is not None:
            limit = min(limit, self.deadline)
        while True:
            left = limit - time.monotonic()
            if left <= 0:
                partial = self._partial()
                self._drop()
                cut = self._past_deadline() and limit == self.deadline
                raise _StartFailure(Answer(NOT_RUN if cut else TIMEOUT, None,
                                           "the whole-run time limit came before the handshake" if cut else
                                           f"the handshake got no answer within {self.start_timeout:g} s"
                                           f"{partial}"))
            lines = self.proc.pump(left)
            for line in lines:
                self._handshake(hid, line)
                return
            if self.proc.overflow:
                self._drop()
                raise _StartFailure(Answer(PROTOCOL, None, f"handshake line longer than {self.line_limit} bytes"))
            if self.proc.eof:
                detail = self._ended()
                raise _StartFailure(Answer(CRASH, None, f"exited before the handshake: {detail}"))

    def _handshake(self, hid: int, line: bytes) -> None:
        def bad(why: str) -> _StartFailure:
            self._drop()
            return _StartFailure(Answer(PROTOCOL, None, f"bad handshake: {why}"))
        try:
            msg = _decode(line)
        except (ValueError, RecursionError):
            raise bad(f"not JSON: {_snippet(line)}") from None
        if not isinstance(msg, dict) or msg.get("id") != hid:
            raise bad(f"expected an answer with id {hid}, got {_snippet(line)}")
        if "error" in msg:
            raise bad(f"the implementation refused the handshake: {_snippet(json.dumps(msg['error']))}")
        hello = msg.get("result")
        if not isinstance(hello, dict):
            raise bad(f"expected a result object, got {_snippet(line)}")
        version = hello.get("protocol")
        if not isinstance(version, int) or isinstance(version, bool) or version not in PROTOCOLS:
            raise bad(f"it speaks protocol version {safe_text(repr(version), 40)}; the kit speaks "
                      f"{' or '.join(map(str, PROTOCOLS))}")
        ops = hello.get("operations")
        if not isinstance(ops, list) or not all(isinstance(o, str) for o in ops):
            raise bad("'operations' must be a list of operation names")
        rules = hello.get("rules", {})
        if not isinstance(rules, dict) or not all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in rules.values()):
            raise bad("'rules' must map each option to a list of values")
        unknown = sorted(set(ops) - set(OPERATIONS))
        if unknown:
            self._diagnose(f"handshake lists unknown operations {safe_text(unknown, 200)} (ignored)")
        self.hello = hello
        self.protocol = version  # version 2: per-request context (trump, dealer, variant)
        self.name = safe_text(hello.get("name", self.name), 100)
        self.version = safe_text(hello.get("version", "?"), 100)
        self.operations = frozenset(o for o in ops if o in OPERATIONS)
        self.rules = {str(k): list(v) for k, v in rules.items()}
        variants = hello.get("variants")
        if variants is not None and not (isinstance(variants, list) and all(isinstance(v, str) for v in variants)):
            raise bad("'variants' must be a list of variant names")
        self.variants = variants

    def _diagnose(self, text: str) -> None:
        if len(self.diagnostics) < 20:
            self.diagnostics.append(text)

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    @staticmethod
    def _line(rid: int, op: str, args: dict) -> bytes:
        return (_ENCODER.encode({"id": rid, "op": op, "args": args}) + "\n").encode()

    def _partial(self) -> str:
        if self.proc is not None and self.proc.buf:
            return f"; a partial line was pending: {_snippet(bytes(self.proc.buf))}"
        return ""

    def _ended(self) -> str:
        assert self.proc is not None
        status = self.proc.exit_status(0.3)
        partial = self._partial()
        self._drop()
        self.last_status = status
        return _exit_text(status) + partial + self._stderr_hint()

    def _stderr_hint(self) -> str:
        tail = stderr_lines(self.stderr_tail, 1)
        return f"; last stderr line: {tail[0][:200]}" if tail else ""

    def _drop(self, gentle: bool = True) -> None:
        """Stop the current process group (keeping its stderr)."""
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        proc.stop(gentle)
        self.stderr_total += proc.err_total
        self.stderr_tail = (self.stderr_tail + bytes(proc.err))[-_STDERR_KEEP:]
        self._ring.clear()

    def abort(self) -> None:
        """Stop at once, without the goodbye (an interrupted run)."""
        self._drop(gentle=False)

    def close(self) -> None:
        proc = self.proc
        if proc is None:
            self._finish_diagnostics()
            return
        if not proc.eof and not proc.stdin_closed:
            bid = self._new_id()
            proc.send(self._line(bid, "bye", {}))
            clean = False
            limit = time.monotonic() + 1.0
            while time.monotonic() < limit and not proc.eof and not proc.overflow:
                for line in proc.pump(limit - time.monotonic()):
                    try:
                        msg = _decode(line)
                        is_bye = isinstance(msg, dict) and msg.get("id") == bid
                    except (ValueError, RecursionError):
                        is_bye = False
                    if is_bye:
                        clean = True
                    else:
                        self._noise(line, "after the last request")
                if clean:
                    break
            proc.close_stdin()
            status = proc.exit_status(1.0)
            if not clean:
                self._diagnose("shutdown: no answer to 'bye' within 1 s")
            if status is None:
                self._diagnose("shutdown: still running 1 s after 'bye'; stopped")
            elif status != 0:
                self._diagnose(f"shutdown: {_exit_text(status)}")
        self._drop()
        self._finish_diagnostics()

    def _finish_diagnostics(self) -> None:
        if self.stderr_total:
            tail = self.stderr_tail.decode("utf-8", "replace")[-2000:]
            self.diagnostics.append(f"stderr: {self.stderr_total} bytes (diagnostics only); "
                                    f"last part:\n{safe_text(tail, keep_lines=True)}")

    def _noise(self, line: bytes, why: str) -> None:
        """A line that belongs to no request still waiting: counted, a few kept."""
        self.noise["lines"] += 1
        if len(self.noise["examples"]) < _NOISE_EXAMPLES:
            self.noise["examples"].append(f"{why}: {_snippet(line)}")

    # --- requests ---------------------------------------------------------------------------------

    def call(self, op: str, args: dict) -> Answer:
        out: list[Answer] = []
        self.run([Request(None, op, args)], lambda k, a: out.append(a))
        return out[-1]

    def run(self, requests: Iterable[Request], report: Callable[[Any, Answer], None]) -> None:
        """Ask every request, calling ``report(key, answer)`` once per request (and again, to
        amend it, for a request answered twice)."""
        self._serial += 1  # answers remembered from earlier runs can no longer be amended
        self._ask(_Feed(requests), report)

    def _ask(self, queue: _Feed, report: Callable[[Any, Answer], None]) -> None:
        inflight: dict[int, Request] = {}  # in the order sent
        sent: dict[int, float] = {}
        ring = self._ring
        serial = self._serial
        monotonic = time.monotonic
        anchor = 0.0  # when the oldest request's clock started (see the module's description)

        def finish_all(answer: Answer) -> None:
            for r in list(inflight.values()):
                report(r.key, answer)
            inflight.clear()
            for r in queue.drain():
                report(r.key, answer)

        def blame_oldest(answer: Answer) -> None:
            nonlocal anchor
            rid = next(iter(inflight))
            r = inflight.pop(rid)
            del sent[rid]
            report(r.key, answer)
            anchor = time.monotonic()

        def restart(why: str) -> None:
            self._diagnose(f"restarted the implementation after: {why}")
            self._drop()
            for r in reversed(list(inflight.values())):
                queue.appendleft(r)
            inflight.clear()
            sent.clear()

        while queue or inflight:
            if self.fatal is not None:
                finish_all(Answer(NOT_RUN, None, f"not asked: {self.fatal.detail}"))
                return
            if self._past_deadline():
                self.cut = True
                self._drop()
                finish_all(Answer(NOT_RUN, None, "not answered before the whole-run time limit"))
                return
            if self.proc is None:
                if self.restarts >= self.max_restarts:
                    finish_all(Answer(NOT_RUN, None, f"not asked: the implementation failed and was "
                                      f"restarted {self.restarts} times, the limit"))
                    return
                failure = self.start()
                if failure is not None:
                    self.fatal = Answer(NOT_RUN, None, f"the implementation could not be restarted: "
                                        f"{failure.detail}")
                    continue
            proc = self.proc
            assert proc is not None
            if queue and len(inflight) < self.window:
                chunk = []
                now = time.monotonic()
                if not inflight:
                    anchor = now
                while queue and len(inflight) < self.window:
                    r = queue.popleft()
                    if r.op not in self.operations:
                        report(r.key, Answer(UNSUPPORTED))
                        continue
                    rid = self._new_id()
                    inflight[rid] = r
                    sent[rid] = now
                    chunk.append(self._line(rid, r.op, self.with_variant(r.args)))
                if chunk:
                    proc.send(b"".join(chunk))
                if not inflight:
                    continue
            oldest = next(iter(inflight))
            start = sent[oldest] if sent[oldest] > anchor else anchor
            now = time.monotonic()
            wait = start + self.timeout - now
            if self.deadline is not None and self.deadline - now < wait:
                wait = self.deadline - now
            for line in proc.pump(wait):
                try:
                    msg = _decode(line)
                except (ValueError, RecursionError):
                    msg = None
                rid = msg.get("id") if msg.__class__ is dict else None  # type: ignore[assignment]  # checked just below
                if rid.__class__ is not int:
                    what = ("a blank line" if not line.strip() else "not JSON" if msg is None
                            else "not an answer object with an integer id")
                    if inflight:
                        blame_oldest(Answer(PROTOCOL, None, f"{what}: {_snippet(line)}"))
                    else:
                        self._noise(line, what)
                    continue
                r = inflight.pop(rid, None)  # type: ignore[arg-type]
                if r is not None:
                    del sent[rid]
                    if rid == oldest:
                        anchor = monotonic()
                        oldest = next(iter(inflight), None)  # type: ignore[assignment]
                    ring[rid] = (r.key, report, serial)
                    if len(ring) > _RING:
                        ring.popitem(False)
                    if "result" in msg and "error" not in msg:
                        report(r.key, Answer(RESULT, msg["result"]))
                    else:
                        report(r.key, self._answer(msg))
                elif rid in ring:
                    key, owner, when = ring[rid]
                    if when != serial:  # its run is over: the verdict was given
                        self._noise(line, f"answered twice (id {rid}), after its request was judged")
                    else:
                        owner(key, Answer(PROTOCOL, None, f"answered twice (id {rid})"))
                elif 0 < rid <= self.next_id:
                    self._noise(line, f"an answer to id {rid}, already answered or abandoned")
                elif inflight:
                    want = next(iter(inflight))
                    blame_oldest(Answer(PROTOCOL, None, f"an answer with id {rid}, which was never "
                                        f"asked (oldest waiting: {want})"))
                else:
                    self._noise(line, f"an answer with id {rid}, which was never asked")
            if proc.overflow:
                if inflight:
                    blame_oldest(Answer(PROTOCOL, None, f"an answer line longer than {self.line_limit} bytes"))
                restart("an overlong line")
            elif proc.eof:
                detail = self._ended()
                if inflight:
                    blame_oldest(Answer(CRASH, None, f"the implementation exited: {detail}"))
                else:
                    self._diagnose(f"the implementation exited between requests: {detail}")
                restart("it exited")
            elif inflight:
                oldest = next(iter(inflight))
                start = sent[oldest] if sent[oldest] > anchor else anchor
                if time.monotonic() - start > self.timeout:
                    blame_oldest(Answer(TIMEOUT, None, f"no answer within {self.timeout:g} s{self._partial()}"))
                    restart("a timeout")

    def _answer(self, msg: dict) -> Answer:
        has_result, has_error = "result" in msg, "error" in msg
        if has_result == has_error:
            return Answer(PROTOCOL, None, "an answer holds exactly one of 'result' and 'error'")
        if has_result:
            return Answer(RESULT, msg["result"])
        err = msg["error"]
        if not isinstance(err, dict) or not isinstance(err.get("message", ""), str):
            return Answer(PROTOCOL, None, f"'error' must be an object with a 'message': "
                          f"{_snippet(json.dumps(err, ensure_ascii=False))}")
        message = safe_text(err.get("message", ""), 2000)
        if err.get("unsupported") is True:
            return Answer(UNSUPPORTED, None, message)
        if self.trusted and err.get("kind") in (CRASH, PROTOCOL, TIMEOUT):
            return Answer(err["kind"], None, message)
        return Answer(ERROR, None, message or "(no message)")
