"""``-j N``: N instances of the implementation under test, answering one run together.

:class:`ParallelTarget` looks like one target to the kit.  Each instance has a thread that
draws the next requests from the run's one (lazy) stream of requests, so the cases are
handed out in order; answers are passed on in the order of their requests, whichever
instance answered first, so the kit sees what one instance would show it and the report
has the same verdict and the same order as with one instance.  Single calls (differential
play, the property suites) go to the first instance.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .targets import Answer, Request, Target

__all__ = ["ParallelTarget"]


class ParallelTarget(Target):
    """Several instances of one implementation (``targets``, not yet started) as one."""

    def __init__(self, targets: Sequence[Target]) -> None:
        if not targets:
            raise ValueError("ParallelTarget needs at least one target")
        super().__init__()
        self.targets = list(targets)
        self._theirs: list[str] = []  # the instances' notes as last synced (the kit's are kept)
        self._sync()

    @property
    def first(self) -> Target:
        return self.targets[0]

    # The run's view of several instances is theirs together; Target's own fields (set once,
    # at construction, before the instances are known) are not kept.
    @property  # type: ignore[override]
    def fatal(self) -> Answer | None:
        return next((t.fatal for t in self.targets if t.fatal is not None), None)

    @fatal.setter
    def fatal(self, value: Answer | None) -> None:
        for t in getattr(self, "targets", ()):
            t.fatal = value

    @property  # type: ignore[override]
    def cut(self) -> bool:
        return any(t.cut for t in self.targets)

    @cut.setter
    def cut(self, value: bool) -> None:
        for t in getattr(self, "targets", ()):
            t.cut = value

    @property  # type: ignore[override]
    def noise(self) -> dict:
        parts = [t.noise for t in self.targets]
        return {"lines": sum(p["lines"] for p in parts),
                "examples": [e for p in parts for e in p["examples"]]}

    @noise.setter
    def noise(self, value: dict) -> None:
        pass  # each instance counts its own

    def _sync(self) -> None:
        first = self.first
        self.name, self.version, self.protocol = first.name, first.version, first.protocol
        self.operations, self.rules = first.operations, first.rules
        self.startup_failure = next((t.startup_failure for t in self.targets if t.startup_failure), None)
        self.restarts = sum(t.restarts for t in self.targets)
        # the instances' own notes, numbered, then those the kit added to this target
        # (``not judged past this point: ...``), which a later sync must not drop
        theirs = [f"instance {i + 1}: {d}" for i, t in enumerate(self.targets) for d in t.diagnostics]
        earlier = set(self._theirs)
        self.diagnostics = theirs + [d for d in self.diagnostics if d not in earlier]
        self._theirs = theirs

    def start(self) -> Answer | None:
        failure = None
        for t in self.targets:
            failure = t.start()
            if failure is not None:
                break
        self._sync()
        if failure is None and any(t.operations != self.first.operations for t in self.targets):
            self.diagnostics.append("the instances announced different operations")
        return failure

    def supports_rules(self, rules: dict[str, str]) -> bool:
        return all(t.supports_rules(rules) for t in self.targets)

    def run(self, requests: Iterable[Request], report: Callable[[Any, Answer], None]) -> None:
        source = iter(requests)
        lock = threading.Lock()  # one lock: drawing requests may record answers too
        order: deque[Any] = deque()  # keys handed out, not yet passed on
        ready: dict[Any, Answer] = {}
        passed: set[Any] = set()

        def draw() -> Iterator[Request]:
            while True:
                with lock:
                    request = next(source, None)
                    if request is None:
                        return
                    order.append(request.key)
                yield request

        def deliver(key: Any, answer: Answer) -> None:
            with lock:
                if key in passed:  # a second answer to a request: the kit amends it
                    report(key, answer)
                    return
                ready[key] = answer
                while order and order[0] in ready:
                    done = order.popleft()
                    passed.add(done)
                    report(done, ready.pop(done))

        errors: list[BaseException] = []

        def work(target: Target) -> None:
            try:
                target.run(draw(), deliver)
            except BaseException as e:  # noqa: BLE001 - raised again in the caller's thread
                errors.append(e)

        threads = [threading.Thread(target=work, args=(t,), daemon=True) for t in self.targets]
        for th in threads:
            th.start()
        for th in threads:
            while th.is_alive():
                th.join(0.1)  # wakes up for signals (the kit's Interrupted)
        with lock:  # answers held behind a request that got none: passed on all the same
            for key in list(order):
                if key in ready:
                    report(key, ready.pop(key))
        self._sync()
        if errors:
            raise errors[0]

    def call(self, op: str, args: dict) -> Answer:
        answer = self.first.call(op, args)
        self._sync()
        return answer

    def abort(self) -> None:
        for t in self.targets:
            if hasattr(t, "abort"):
                t.abort()
            else:
                t.close()
        self._sync()

    def close(self) -> None:
        for t in self.targets:
            t.close()
        self._sync()
