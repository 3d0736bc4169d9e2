"""One run of requests over the protocol: send, read, match answers to requests, blame.

An :class:`Exchange` asks a stream of requests of a
:class:`~turub.conformance.programs.protocol.ProtocolTarget` and calls ``report(key, answer)``
once per request (and again, to amend it, for a request answered twice).  Each turn of
:meth:`Exchange.run` reads top to bottom:

1. :meth:`~Exchange.may_go_on`: nothing fatal, the whole-run deadline not reached, a program
   running (restarted if it died, within the limit);
2. :meth:`~Exchange.send`: fill the window of requests in flight;
3. :meth:`~Exchange.read`: the lines that came within the oldest request's deadline, each
   matched to its request (:meth:`~Exchange.take`);
4. :meth:`~Exchange.check_health`: an overlong line, an exit or a timeout blames the oldest
   request waiting and restarts the program.

How a line is read (:func:`answer_of`): the published schema decides its shape
(:func:`~turub.conformance.programs.messages.malformed`); the rest is routing by id.

:func:`ask_one` is the lock-step case (one request, wait for its answer: differential play
and the property suites): the first turn written out, sending the request and waiting for
the pipes at once, and when that turn brings exactly the one line that answers it, that
answer.  Anything else (nothing yet, several lines, noise, an exit) goes on as an
:class:`Exchange` in the state that turn left, so every line is judged the same way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from .messages import decode, malformed, overflowed, plain, request_line
from .pipes import Pipes, snippet
from . import run_clock
from .targets import NOT_RUN, UNSUPPORTED, Answer, Request, result_answer
from ..text import safe_text

if TYPE_CHECKING:
    from .protocol import ProtocolTarget

__all__ = ["Exchange", "Feed", "answer_of", "ask_one", "CRASH", "TIMEOUT", "PROTOCOL", "ERROR"]

CRASH, TIMEOUT, PROTOCOL, ERROR = "crash", "timeout", "protocol-violation", "error-reported"
#: Answered ids remembered, to blame a duplicate on its request.
RING: Final = 256

Report = Callable[[Any, Answer], None]


class Feed:
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

    def next(self) -> Request | None:
        """The next request, or None when there is none left."""
        return self.back.popleft() if self.back else next(self.source, None)

    def appendleft(self, request: Request) -> None:
        self.back.appendleft(request)

    def drain(self) -> Iterable[Request]:
        while self.back:
            yield self.back.popleft()
        yield from self.source


def answer_of(msg: dict, op: str, trusted: bool = False) -> Answer:
    """An answer object (its id already matched to a request for ``op``) as an
    :class:`Answer`: its shape is the schema's ``answer`` and, for a result, ``result_<op>``.
    ``trusted``: the kit's own shim, whose errors may say ``"kind": "crash"``.

    An object with a ``result``, no ``error`` and an integer id of a request (≥ 1) is one
    the schema's ``answer`` always accepts, so only its result is checked (the envelope's
    check raises and catches three exceptions per answer: the protocol's hot path); every
    other object is checked whole (tests/test_protocol_shape.py holds the two to agree)."""
    if "error" in msg or "result" not in msg or not (type(msg.get("id")) is int and msg["id"] >= 1):
        why = malformed("answer", msg, "answer")
        if why is not None:
            return Answer(PROTOCOL, None, f"malformed answer: {why}")
    if "result" in msg:  # a malformed result is kept too, for the report (``got``)
        answer = result_answer(op, msg["result"])
        return answer._replace(value=plain(answer.value)) if overflowed() else answer
    err = msg["error"]
    message = safe_text(err["message"], 2000)
    if err.get("unsupported") is True:
        return Answer(UNSUPPORTED, None, message)
    if trusted and err.get("kind") in (CRASH, PROTOCOL, TIMEOUT):
        return Answer(err["kind"], None, message)
    return Answer(ERROR, None, message or "(no message)")


def remember(target: ProtocolTarget, rid: int, key: Any, report: Report, serial: int) -> None:
    """Keep whose answer ``rid`` was (the last :data:`RING` of them), to blame a second one."""
    ring = target.ring
    ring[rid] = (key, report, serial)
    if len(ring) > RING:
        ring.popitem(False)


def _run_over(key: Any, answer: Answer) -> None:
    """Whose answers a lock-step request's id was, in the ring: a run already over, so never
    called (a second answer is noise once its run is over: :meth:`Exchange.again`)."""


def ask_one(target: ProtocolTarget, op: str, args: dict) -> Answer:
    """Ask one request (key None) and return its answer (the last word on it): what
    ``Exchange(target, Feed([it]), report).run()`` reports, its first turn written out (the
    module's description).  The run is counted (``target.serial``) by the caller."""
    pipes = target.proc
    deadline = target.deadline
    if (pipes is None or target.fatal is not None or op not in target.operations or pipes.held
            or pipes.writing or pipes.eof or pipes.overflow or pipes.stdin_closed
            or (deadline is not None and run_clock.past(deadline))):
        out: list[Answer] = []
        Exchange(target, Feed((Request(None, op, args),)), lambda key, answer: out.append(answer)).run()
        return out[-1]
    # the first turn of :meth:`Exchange.run`: send (the window is empty), read, take, health
    now = run_clock.now()
    target.next_id += 1  # :meth:`ProtocolTarget.new_id`
    rid = target.next_id
    variant = target.variant
    pipes.send(request_line(rid, op, {**args, "variant": variant} if variant else args))
    at = run_clock.now()  # :meth:`Exchange.read`
    wait = run_clock.clock_start(now) + target.timeout - at
    if deadline is not None and deadline - at < wait:
        wait = deadline - at
    lines = pipes.wait(wait)  # just asked: wait first (what is there already, poll says at once)
    if len(lines) == 1 and not pipes.overflow and not pipes.eof:
        try:
            msg = decode(lines[0])
        except (ValueError, RecursionError):
            msg = None
        if msg.__class__ is dict and msg.get("id") == rid and msg["id"].__class__ is int:  # type: ignore[union-attr]
            # answered, and the run is over: nothing in flight, nothing left to ask
            remember(target, rid, None, _run_over, target.serial)
            return answer_of(msg, op, target.trusted)  # type: ignore[arg-type]
    got: list[Answer] = []
    exchange = Exchange(target, Feed(()), lambda key, answer: got.append(answer))
    exchange.inflight[rid] = Request(None, op, args)
    exchange.sent[rid] = exchange.anchor = now
    for line in lines:
        exchange.take(line)
    exchange.check_health(pipes)
    exchange.run()
    return got[-1]


def _what_is_wrong(line: bytes, msg: Any) -> str:
    """Why a line that is no answer to anything is not one."""
    if not line.strip():
        return "a blank line"
    return "not JSON" if msg is None else "not an answer object with an integer id"


class Exchange:
    """The requests of one :meth:`ProtocolTarget.run`, in flight and still to ask."""

    def __init__(self, target: ProtocolTarget, queue: Feed, report: Report) -> None:
        self.target, self.queue, self.report = target, queue, report
        self.inflight: dict[int, Request] = {}  # in the order sent
        self.sent: dict[int, float] = {}
        self.anchor = 0.0  # when the oldest request's clock started (the module's description)
        self.serial = target.serial

    def run(self) -> None:
        """Ask every request of the queue, then return."""
        while self.queue or self.inflight:
            if not self.may_go_on():
                return
            pipes = self.target.proc
            if pipes is None:
                raise RuntimeError("no program running after may_go_on")
            if self.queue and len(self.inflight) < self.target.window:
                self.send(pipes)
                if not self.inflight:
                    continue
            self.read(pipes)
            self.check_health(pipes)

    # --- 1. whether to go on -----------------------------------------------------------------

    def may_go_on(self) -> bool:
        """False (every request left answered ``not-run``) when nothing more may be asked;
        a program is running when True."""
        target = self.target
        if target.fatal is not None:
            return self.finish_all(Answer(NOT_RUN, None, f"not asked: {target.fatal.detail}"))
        if target.past_deadline():
            target.cut = True
            target.drop()
            return self.finish_all(Answer(NOT_RUN, None, "not answered before the whole-run time limit "
                                              "(--time-limit raises it)"))
        if target.proc is None:
            if target.restarts >= target.max_restarts:
                return self.finish_all(Answer(NOT_RUN, None, f"not asked: the implementation failed and "
                                              f"was restarted {target.restarts} times, the limit"))
            failure = target.start()
            if failure is not None:
                target.fatal = Answer(NOT_RUN, None, f"the implementation could not be restarted: "
                                      f"{failure.detail}")
                return self.may_go_on()
        return True

    def finish_all(self, answer: Answer) -> bool:
        """Answer every request in flight and still queued with ``answer``; False."""
        for r in list(self.inflight.values()):
            self.report(r.key, answer)
        self.inflight.clear()
        for r in self.queue.drain():
            self.report(r.key, answer)
        return False

    # --- 2. sending ----------------------------------------------------------------------------

    def send(self, pipes: Pipes) -> None:
        """Fill the window: each request the program supports, as one write."""
        target, chunk = self.target, []
        inflight, sent, queue = self.inflight, self.sent, self.queue
        operations, variant = target.operations, target.variant
        now = run_clock.now()
        if not inflight:
            self.anchor = now
        room = target.window - len(inflight)
        while room > 0:
            r = queue.next()
            if r is None:
                break
            if r.op not in operations:
                self.report(r.key, Answer(UNSUPPORTED))
                continue
            target.next_id += 1  # :meth:`ProtocolTarget.new_id`
            rid = target.next_id
            inflight[rid] = r
            sent[rid] = now
            chunk.append(request_line(rid, r.op, {**r.args, "variant": variant} if variant else r.args))
            room -= 1
        if chunk:
            pipes.send(b"".join(chunk))

    # --- 3. reading ----------------------------------------------------------------------------

    def clock_of_oldest(self) -> float:
        """When the oldest request's time started: sent, or the answer before it came, or the
        kit went on after being stopped (:func:`~.run_clock.clock_start`); on the run's clock."""
        sent = self.sent[next(iter(self.inflight))]
        return run_clock.clock_start(sent if sent > self.anchor else self.anchor)

    def read(self, pipes: Pipes) -> None:
        """The lines that come before the oldest request's deadline, each taken in turn."""
        now = run_clock.now()
        wait = self.clock_of_oldest() + self.target.timeout - now  # (at least as long by the wall clock)
        deadline = self.target.deadline
        if deadline is not None and deadline - now < wait:
            wait = deadline - now
        for line in pipes.pump(wait):
            self.take(line)

    def take(self, line: bytes) -> None:
        """One line: the answer to a request in flight, a second answer, or noise."""
        try:
            msg = decode(line)
        except (ValueError, RecursionError):
            msg = None
        rid = msg.get("id") if msg.__class__ is dict else None
        if rid.__class__ is not int:
            self.stray(line, _what_is_wrong(line, msg))
            return
        request = self.inflight.pop(rid, None)
        if request is None:
            self.again(rid, line)
            return
        # the first answer to request ``rid``: judged by its shape, then reported
        sent = self.sent
        if rid == next(iter(sent)):
            self.anchor = run_clock.now()
        del sent[rid]
        target, key = self.target, request.key
        ring = target.ring  # :func:`remember`, written out
        ring[rid] = (key, self.report, self.serial)
        if len(ring) > RING:
            ring.popitem(False)
        self.report(key, answer_of(msg, request.op, target.trusted))  # type: ignore[arg-type]

    def again(self, rid: int, line: bytes) -> None:
        """An answer with an id no request in flight has."""
        target = self.target
        if rid in target.ring:
            key, owner, when = target.ring[rid]
            if when != self.serial:  # its run is over: the verdict was given
                target.note_noise(line, f"answered twice (id {rid}), after its request was judged")
            else:
                owner(key, Answer(PROTOCOL, None, f"answered twice (id {rid})"))
        elif 0 < rid <= target.next_id:
            target.note_noise(line, f"an answer to id {rid}, already answered or abandoned")
        elif self.inflight:
            self.blame_oldest(Answer(PROTOCOL, None, f"an answer with id {rid}, which was never asked "
                                     f"(oldest waiting: {next(iter(self.inflight))})"))
        else:
            target.note_noise(line, f"an answer with id {rid}, which was never asked")

    def stray(self, line: bytes, what: str) -> None:
        """A line that answers nothing: the oldest request's fault, or noise."""
        if self.inflight:
            self.blame_oldest(Answer(PROTOCOL, None, f"{what}: {snippet(line)}"))
        else:
            self.target.note_noise(line, what)

    def blame_oldest(self, answer: Answer) -> None:
        """``answer`` is the oldest request's; the next one's clock starts now."""
        rid = next(iter(self.inflight))
        request = self.inflight.pop(rid)
        del self.sent[rid]
        self.report(request.key, answer)
        self.anchor = run_clock.now()

    # --- 4. the program's health ---------------------------------------------------------------

    def check_health(self, pipes: Pipes) -> None:
        """An overlong line, an exit or the oldest request's timeout: blame and restart."""
        target = self.target
        if pipes.overflow:
            if self.inflight:
                self.blame_oldest(Answer(PROTOCOL, None, f"an answer line longer than {target.line_limit} bytes"))
            self.restart("an overlong line")
        elif pipes.eof:
            detail = target.ended()
            if self.inflight:
                self.blame_oldest(Answer(CRASH, None, f"the implementation exited: {detail}"))
            else:
                target.diagnose(f"the implementation exited between requests: {detail}")
            self.restart("it exited")
        elif self.inflight and run_clock.now() - self.clock_of_oldest() > target.timeout:
            oldest = next(iter(self.inflight))
            for line in pipes.pump(0.0):  # what came while the kit was not looking counts
                self.take(line)
            if oldest not in self.inflight or pipes.overflow or pipes.eof:
                return  # answered after all (or the next turn judges the line or the exit)
            self.blame_oldest(Answer(TIMEOUT, None, f"no answer within {target.timeout:g} s{target.partial()}"))
            self.restart("a timeout")

    def restart(self, why: str) -> None:
        """Stop the program; what was in flight is asked again of the next one."""
        self.target.diagnose(f"restarted the implementation after: {why}")
        self.target.drop()
        for r in reversed(list(self.inflight.values())):
            self.queue.appendleft(r)
        self.inflight.clear()
        self.sent.clear()
