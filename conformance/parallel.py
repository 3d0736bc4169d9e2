"""``-j N``: N instances of the implementation under test, answering one run together.

:class:`ParallelTarget` looks like one target to the kit.  A batch of requests is dealt
out in contiguous shares, one per instance, each sent by its own thread; every answer is
reported under its request's key, so the kit's report (built in the order of its cases,
not of the answers) has the same verdict and the same order as with one instance.  Single
calls (differential play, the property suites) go to the first instance.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
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
        self._sync()

    @property
    def first(self) -> Target:
        return self.targets[0]

    @property
    def fatal(self) -> Answer | None:
        return next((f for t in self.targets if (f := getattr(t, "fatal", None)) is not None), None)

    def _sync(self) -> None:
        first = self.first
        self.name, self.version = first.name, first.version
        self.operations, self.rules = first.operations, first.rules
        self.restarts = sum(t.restarts for t in self.targets)
        self.diagnostics = [f"instance {i + 1}: {d}" if len(self.targets) > 1 else d
                            for i, t in enumerate(self.targets) for d in t.diagnostics]

    def start(self) -> Answer | None:
        failure = None
        for t in self.targets:
            failure = failure or t.start()
        self._sync()
        if failure is None and any(t.operations != self.first.operations for t in self.targets):
            self.diagnostics.append("the instances announced different operations")
        return failure

    def supports_rules(self, rules: dict[str, str]) -> bool:
        return all(t.supports_rules(rules) for t in self.targets)

    def run(self, requests: Iterable[Request], report: Callable[[Any, Answer], None]) -> None:
        batch = list(requests)
        n = len(self.targets)
        size = -(-len(batch) // n) if batch else 0
        lock = threading.Lock()

        def locked(key: Any, answer: Answer) -> None:
            with lock:
                report(key, answer)

        errors: list[BaseException] = []

        def work(target: Target, share: list[Request]) -> None:
            try:
                target.run(share, locked)
            except BaseException as e:  # noqa: BLE001 - raised again in the caller's thread
                errors.append(e)

        threads = [threading.Thread(target=work, args=(t, batch[i * size:(i + 1) * size]), daemon=True)
                   for i, t in enumerate(self.targets) if batch[i * size:(i + 1) * size]]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        self._sync()
        if errors:
            raise errors[0]

    def call(self, op: str, args: dict) -> Answer:
        answer = self.first.call(op, args)
        self._sync()
        return answer

    def close(self) -> None:
        for t in self.targets:
            t.close()
        self._sync()
