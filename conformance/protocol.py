"""The JSON-lines protocol: the kit's side (the client of an implementation's program).

The implementation is one long-lived process, started from an argument list (never through
a shell).  The kit writes requests to its stdin and reads answers from its stdout, one JSON
object per line; stderr is kept as diagnostics and never judged.  See
``spec/protocol.schema.json`` and the implementers' guide for the messages:

* handshake: ``{"id": 0, "op": "hello", "args": {"protocol": 1, ...}}`` →
  ``{"id": 0, "result": {"protocol": 1, "name": ..., "version": ..., "operations": [...],
  "rules": {"direction": [...], ...}}}``;
* a request ``{"id": N, "op": OP, "args": {...}}`` → ``{"id": N, "result": ...}`` or
  ``{"id": N, "error": {"message": ..., "unsupported": true|false}}``;
* shutdown: ``{"id": N, "op": "bye", "args": {}}`` → ``{"id": N, "result": null}``, then the
  process exits.

The kit may send several requests before reading their answers (at most ``window``);
answers may come in any order, matched by id.  Every way a program can misbehave is turned
into an :class:`~turub.conformance.targets.Answer` of the right kind; the kit never waits
longer than its time limits and restarts a crashed or hung program a bounded number of
times, asking again what was in flight.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from .adapter import OPERATIONS
from .targets import RESULT, UNSUPPORTED, Answer, Request, Target

__all__ = ["PROTOCOL_VERSION", "ProtocolTarget"]

#: The protocol version the kit speaks.
PROTOCOL_VERSION: Final = 1

CRASH, TIMEOUT, PROTOCOL, ERROR = "crash", "timeout", "protocol-violation", "error-reported"
_STDERR_KEEP: Final = 16_384


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _loads(line: bytes) -> Any:
    return json.loads(line, parse_constant=_reject_constant)


def _snippet(data: bytes | str, limit: int = 80) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = text.rstrip("\r\n")
    return repr(text if len(text) <= limit else text[:limit] + "…")


class _Process:
    """One running program, with non-blocking pipes."""

    def __init__(self, argv: Sequence[str], cwd: str | None, env: dict | None, line_limit: int) -> None:
        self.popen = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, bufsize=0, cwd=cwd, env=env,
                                      close_fds=True, start_new_session=True)
        self.line_limit = line_limit
        self.stdin, self.stdout, self.stderr = self.popen.stdin, self.popen.stdout, self.popen.stderr
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

    def send(self, data: bytes) -> None:
        if self.stdin_closed:
            return
        self.out += data
        self._write()

    def _write(self) -> None:
        while self.out and not self.stdin_closed:
            try:
                n = os.write(self.stdin.fileno(), self.out[:1 << 16])
            except BlockingIOError:
                break
            except (BrokenPipeError, OSError):
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
        if self.eof:
            return lines
        for key, _ in self.sel.select(max(0.0, timeout)):
            if key.data == "in":
                self._write()
            elif key.data == "err":
                self._read_err()
            else:
                try:
                    chunk = os.read(self.stdout.fileno(), 1 << 16)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    self.eof = True
                    self._read_err()
                    continue
                self.buf += chunk
                if b"\n" in chunk:
                    *whole, rest = self.buf.split(b"\n")
                    self.buf = bytearray(rest)
                    for line in whole:
                        if len(line) > self.line_limit:
                            self.overflow = True
                            break
                        lines.append(bytes(line))
                if len(self.buf) > self.line_limit:
                    self.overflow = True
        return lines

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

    def exit_status(self, wait: float) -> int | None:
        try:
            return self.popen.wait(wait)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        if self.popen.poll() is None:
            try:
                os.killpg(self.popen.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                try:
                    self.popen.kill()
                except ProcessLookupError:
                    pass
            try:
                self.popen.wait(2)
            except subprocess.TimeoutExpired:
                pass
        self._read_err()
        self.sel.close()
        for f in (self.stdin, self.stdout, self.stderr):
            try:
                f.close()
            except OSError:
                pass


def _exit_text(status: int | None) -> str:
    if status is None:
        return "still running"
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exit status {status}"


class _Fatal(Exception):
    def __init__(self, answer: Answer, permanent: bool = False) -> None:
        self.answer = answer
        self.permanent = permanent


class ProtocolTarget(Target):
    """A program speaking the protocol.

    ``timeout``: seconds an answer may take (counted from the later of the request and the
    previous answer); ``start_timeout``: for the handshake (default twice ``timeout``); ``max_restarts``: how many times
    a crashed or hung program is started again; ``deadline``: a ``time.monotonic()`` after
    which everything unanswered is a timeout; ``window``: requests in flight.
    """

    def __init__(self, argv: Sequence[str], *, timeout: float = 5.0, start_timeout: float | None = None,
                 max_restarts: int = 3, window: int = 64, line_limit: int = 1 << 20,
                 deadline: float | None = None, cwd: str | None = None, env: dict | None = None) -> None:
        super().__init__(name=os.path.basename(argv[0]) if argv else "?")
        if not argv:
            raise ValueError("no command to run")
        self.argv = list(argv)
        self.timeout = timeout
        self.start_timeout = start_timeout if start_timeout is not None else max(2 * timeout, 2.0)
        self.max_restarts, self.window, self.line_limit = max_restarts, window, line_limit
        self.deadline = deadline
        self.cwd, self.env = cwd, env
        self.proc: _Process | None = None
        self.next_id = 0
        self.fatal: Answer | None = None
        self.stderr_total = 0
        self.stderr_tail = b""
        self.starts = 0
        self.hello: dict | None = None

    # --- life cycle ----------------------------------------------------------------------------

    def start(self) -> Answer | None:
        while True:
            try:
                self._spawn()
                return None
            except _Fatal as f:
                if f.answer.kind in (CRASH, TIMEOUT) and not f.permanent \
                        and self.restarts < self.max_restarts and not self._past_deadline():
                    self.restarts += 1
                    self.diagnostics.append(f"failed to start ({f.answer.detail}); starting again")
                    continue
                self.fatal = f.answer
                return f.answer

    def _past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _spawn(self) -> None:
        self.starts += 1
        try:
            self.proc = _Process(self.argv, self.cwd, self.env, self.line_limit)
        except OSError as e:
            self.proc = None
            raise _Fatal(Answer(CRASH, None, f"could not start {self.argv[0]!r}: {e.strerror or e}"), True) from None
        hid = self._new_id()
        self.proc.send(self._line(hid, "hello", {"protocol": PROTOCOL_VERSION, "kit": "turub",
                                                 "operations": list(OPERATIONS)}))
        limit = time.monotonic() + self.start_timeout
        if self.deadline is not None:
            limit = min(limit, self.deadline)
        while True:
            left = limit - time.monotonic()
            if left <= 0:
                self._drop(f"no handshake answer within {self.start_timeout:g} s")
                raise _Fatal(Answer(TIMEOUT, None, f"the handshake got no answer within "
                                    f"{self.start_timeout:g} s{self._partial()}"))
            lines = self.proc.pump(left)
            for line in lines:
                if not line.strip():
                    continue
                self._handshake(hid, line)
                return
            if self.proc.overflow:
                self._drop("overlong handshake line")
                raise _Fatal(Answer(PROTOCOL, None, f"handshake line longer than {self.line_limit} bytes"))
            if self.proc.eof:
                detail = self._ended()
                raise _Fatal(Answer(CRASH, None, f"exited before the handshake: {detail}"))

    def _handshake(self, hid: int, line: bytes) -> None:
        def bad(why: str) -> _Fatal:
            self._drop("bad handshake")
            return _Fatal(Answer(PROTOCOL, None, f"handshake: {why}"))
        try:
            msg = _loads(line)
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
        if version != PROTOCOL_VERSION:
            raise bad(f"it speaks protocol version {version!r}; the kit speaks {PROTOCOL_VERSION}")
        ops = hello.get("operations")
        if not isinstance(ops, list) or not all(isinstance(o, str) for o in ops):
            raise bad("'operations' must be a list of operation names")
        rules = hello.get("rules", {})
        if not isinstance(rules, dict) or not all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in rules.values()):
            raise bad("'rules' must map each option to a list of values")
        unknown = sorted(set(ops) - set(OPERATIONS))
        if unknown:
            self.diagnostics.append(f"handshake lists unknown operations {unknown} (ignored)")
        self.hello = hello
        self.name = str(hello.get("name", self.name))
        self.version = str(hello.get("version", "?"))
        self.operations = frozenset(o for o in ops if o in OPERATIONS)
        self.rules = {str(k): list(v) for k, v in rules.items()}

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    @staticmethod
    def _line(rid: int, op: str, args: dict) -> bytes:
        return (json.dumps({"id": rid, "op": op, "args": args}, ensure_ascii=False,
                           separators=(",", ":")) + "\n").encode()

    def _partial(self) -> str:
        if self.proc is not None and self.proc.buf:
            return f"; a partial line was pending: {_snippet(bytes(self.proc.buf))}"
        return ""

    def _ended(self) -> str:
        assert self.proc is not None
        status = self.proc.exit_status(1.0)
        partial = self._partial()
        self._drop("")
        return _exit_text(status) + partial + self._stderr_hint()

    def _stderr_hint(self) -> str:
        tail = self.stderr_tail.decode("utf-8", "replace").strip().splitlines()[-1:]
        return f"; last stderr line: {tail[0][:200]!r}" if tail else ""

    def _drop(self, why: str) -> None:
        """Stop the current process (keeping its stderr) ."""
        if self.proc is None:
            return
        self.proc.kill()
        self.stderr_total += self.proc.err_total
        self.stderr_tail = (self.stderr_tail + bytes(self.proc.err))[-_STDERR_KEEP:]
        self.proc = None

    def close(self) -> None:
        proc = self.proc
        if proc is None:
            self._finish_diagnostics()
            return
        clean = False
        if not proc.eof and not proc.stdin_closed:
            bid = self._new_id()
            proc.send(self._line(bid, "bye", {}))
            limit = time.monotonic() + 1.0
            while time.monotonic() < limit and not proc.eof:
                for line in proc.pump(limit - time.monotonic()):
                    try:
                        is_bye = _loads(line).get("id") == bid
                    except (ValueError, AttributeError, RecursionError):
                        is_bye = False
                    clean = clean or is_bye
                    if not is_bye and line.strip() and len(self.diagnostics) < 20:
                        self.diagnostics.append(f"shutdown: unsolicited output {_snippet(line)}")
                if clean:
                    break
            proc.close_stdin()
            status = proc.exit_status(1.0)
            if not clean:
                self.diagnostics.append("shutdown: no answer to 'bye' within 1 s")
            if status is None:
                self.diagnostics.append("shutdown: still running 1 s after 'bye'; killed")
            elif status != 0:
                self.diagnostics.append(f"shutdown: {_exit_text(status)}")
        self._drop("")
        self._finish_diagnostics()

    def _finish_diagnostics(self) -> None:
        if self.stderr_total:
            tail = self.stderr_tail.decode("utf-8", "replace")[-2000:]
            self.diagnostics.append(f"stderr: {self.stderr_total} bytes (diagnostics only); "
                                    f"last part:\n{tail}")

    # --- requests ---------------------------------------------------------------------------------

    def call(self, op: str, args: dict) -> Answer:
        out: list[Answer] = []
        self.run([Request(None, op, args)], lambda k, a: out.append(a))
        return out[-1]

    def run(self, requests: Iterable[Request], report: Callable[[Any, Answer], None]) -> None:
        """Ask every request, calling ``report(key, answer)`` once per request (and again, to
        amend it, for a request answered twice)."""
        queue = deque(requests)
        inflight: dict[int, Request] = {}
        answered: dict[int, Any] = {}
        last = time.monotonic()

        def give_up(answer: Answer) -> None:
            for r in list(inflight.values()) + list(queue):
                report(r.key, answer)
            inflight.clear()
            queue.clear()

        def oldest(answer: Answer) -> None:
            rid = next(iter(inflight))
            r = inflight.pop(rid)
            answered[rid] = r.key
            report(r.key, answer)

        def restart(why: str) -> None:
            if len(self.diagnostics) < 20:
                self.diagnostics.append(f"restarted the implementation after: {why}")
            self._drop(why)
            for r in reversed(list(inflight.values())):
                queue.appendleft(r)
            inflight.clear()

        while queue or inflight:
            if self.fatal is not None:
                give_up(self.fatal)
                return
            if self._past_deadline():
                self._drop("whole-run time limit")
                give_up(Answer(TIMEOUT, None, "not answered before the whole-run time limit"))
                return
            if self.proc is None:
                if self.restarts >= self.max_restarts:
                    give_up(Answer(CRASH, None, f"not asked: the implementation failed and was "
                                   f"restarted {self.restarts} times, the limit"))
                    return
                self.restarts += 1
                if self.start() is not None:
                    give_up(self.fatal)  # type: ignore[arg-type]
                    return
                last = time.monotonic()
            proc = self.proc
            assert proc is not None
            if queue and len(inflight) < self.window:
                chunk = []
                while queue and len(inflight) < self.window:
                    r = queue.popleft()
                    if r.op not in self.operations:
                        report(r.key, Answer(UNSUPPORTED))
                        continue
                    rid = self._new_id()
                    inflight[rid] = r
                    chunk.append(self._line(rid, r.op, r.args))
                if chunk:
                    if not inflight or len(inflight) == len(chunk):
                        last = time.monotonic()
                    proc.send(b"".join(chunk))
                if not inflight:
                    continue
            now = time.monotonic()
            wait = last + self.timeout - now
            if self.deadline is not None:
                wait = min(wait, self.deadline - now)
            for line in proc.pump(wait):
                if not line.strip():
                    continue
                self._receive(line, inflight, answered, report, oldest)
                last = time.monotonic()
            if proc.overflow:
                if inflight:
                    oldest(Answer(PROTOCOL, None, f"an answer line longer than {self.line_limit} bytes"))
                restart("overlong line")
            elif proc.eof:
                detail = self._ended()
                if inflight:
                    oldest(Answer(CRASH, None, f"the implementation exited: {detail}"))
                elif len(self.diagnostics) < 20:
                    self.diagnostics.append(f"the implementation exited between requests: {detail}")
                restart("exited")
            elif inflight and time.monotonic() - last > self.timeout:
                oldest(Answer(TIMEOUT, None, f"no answer within {self.timeout:g} s{self._partial()}"))
                restart("timeout")

    def _receive(self, line: bytes, inflight: dict, answered: dict, report, oldest) -> None:
        try:
            msg = _loads(line)
        except (ValueError, RecursionError):
            msg = None
        rid = msg.get("id") if isinstance(msg, dict) else None
        if not isinstance(rid, int) or isinstance(rid, bool):
            what = "not JSON" if msg is None else "not an answer object with an integer id"
            if inflight:
                oldest(Answer(PROTOCOL, None, f"{what}: {_snippet(line)}"))
            elif len(self.diagnostics) < 20:
                self.diagnostics.append(f"unsolicited output: {_snippet(line)}")
            return
        if rid in inflight:
            r = inflight.pop(rid)
            answered[rid] = r.key
            report(r.key, _answer(msg))
        elif rid in answered:
            report(answered[rid], Answer(PROTOCOL, None, f"answered twice (id {rid})"))
        elif inflight:
            want = next(iter(inflight))
            oldest(Answer(PROTOCOL, None, f"an answer with id {rid}, which was not asked "
                          f"(oldest waiting: {want})"))
        elif len(self.diagnostics) < 20:
            self.diagnostics.append(f"unsolicited answer: {_snippet(line)}")


def _answer(msg: dict) -> Answer:
    has_result, has_error = "result" in msg, "error" in msg
    if has_result == has_error:
        return Answer(PROTOCOL, None, "an answer holds exactly one of 'result' and 'error'")
    if has_result:
        return Answer(RESULT, msg["result"])
    err = msg["error"]
    if not isinstance(err, dict) or not isinstance(err.get("message", ""), str):
        return Answer(PROTOCOL, None, f"'error' must be an object with a 'message': {_snippet(json.dumps(err))}")
    if err.get("unsupported") is True:
        return Answer(UNSUPPORTED, None, err.get("message", ""))
    return Answer(ERROR, None, err.get("message", "") or "(no message)")
