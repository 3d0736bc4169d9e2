"""Targets: the implementation under test, however it is reached.

A target answers requests ``(key, op, args)`` with :class:`Answer` values.  Two kinds:

* :class:`PythonTarget` calls an object satisfying :class:`~turub.conformance.adapter.
  Implementation` in-process;
* :class:`~turub.conformance.protocol.ProtocolTarget` talks to a program over the JSON-lines
  protocol (``spec/protocol.schema.json``).

An answer is one of: ``result`` (with a value), ``unsupported``, ``error`` (the
implementation reported an error), ``crash``, ``timeout``, ``protocol-violation``.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .adapter import OPERATIONS, ImplementationError

__all__ = ["Answer", "Request", "Target", "PythonTarget", "load_python"]

RESULT = "result"
UNSUPPORTED = "unsupported"


@dataclass(frozen=True, slots=True)
class Answer:
    """What came back for one request."""

    kind: str  # result, unsupported, error-reported, crash, timeout, protocol-violation
    value: Any = None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Request:
    key: Any
    op: str
    args: dict


@dataclass
class Target:
    """The common part: identity, what it supports, diagnostics."""

    name: str = "?"
    version: str = "?"
    operations: frozenset[str] = frozenset()
    rules: dict[str, list[str]] | None = None  # supported values per option; None: all
    diagnostics: list[str] = field(default_factory=list)
    restarts: int = 0

    def start(self) -> Answer | None:
        """Start it; an Answer (failure) if it could not be started."""
        return None

    def supports_rules(self, rules: dict[str, str]) -> bool:
        if self.rules is None:
            return True
        return all(v in self.rules.get(k, [_DEFAULTS[k]]) for k, v in rules.items())

    def run(self, requests: Iterable[Request], report: Callable[[Any, Answer], None]) -> None:
        for r in requests:
            report(r.key, self.call(r.op, r.args))

    def call(self, op: str, args: dict) -> Answer:
        raise NotImplementedError

    def close(self) -> None:
        pass


_DEFAULTS = {"direction": "clockwise", "stake": "contest", "opponent-dealer": "next"}


class PythonTarget(Target):
    """An in-process implementation.  ``NotImplementedError`` means unsupported,
    :class:`ImplementationError` an error it reports, any other exception a crash.  A call
    that overruns the time limit is reported as a timeout (it cannot be interrupted)."""

    def __init__(self, impl: Any, timeout: float = 5.0) -> None:
        super().__init__(name=str(getattr(impl, "name", type(impl).__name__)),
                         version=str(getattr(impl, "version", "?")))
        self.impl = impl
        self.timeout = timeout
        try:
            ops = impl.supports() if hasattr(impl, "supports") else OPERATIONS
        except Exception as e:  # noqa: BLE001 - the implementation's own failure
            self.diagnostics.append(f"supports() raised {type(e).__name__}: {e}")
            ops = ()
        self.operations = frozenset(o for o in ops if o in OPERATIONS and callable(getattr(impl, o, None)))
        rules = getattr(impl, "rules_supported", None)
        self.rules = dict(rules) if rules is not None else None

    def call(self, op: str, args: dict) -> Answer:
        if op not in self.operations:
            return Answer(UNSUPPORTED)
        start = time.perf_counter()
        try:
            value = getattr(self.impl, op)(**args)
        except NotImplementedError:
            return Answer(UNSUPPORTED)
        except ImplementationError as e:
            return Answer("error-reported", None, str(e))
        except RecursionError as e:
            return Answer("crash", None, f"RecursionError: {e}")
        except Exception as e:  # noqa: BLE001 - any failure of the implementation is a verdict
            frame = traceback.extract_tb(e.__traceback__)[-1]
            return Answer("crash", None, f"{type(e).__name__}: {e} (at {frame.filename}:{frame.lineno})")
        elapsed = time.perf_counter() - start
        if elapsed > self.timeout:
            return Answer("timeout", None, f"took {elapsed:.1f} s, the limit is {self.timeout} s")
        return Answer(RESULT, value)


def load_python(spec: str) -> Any:
    """The object named by ``module:Object`` (a class is instantiated without arguments)."""
    module_name, _, attr = spec.rpartition(":")
    if not module_name or not attr:
        raise ValueError(f"--python takes module:Object or path/file.py:Object, not {spec!r}")
    if module_name.endswith(".py"):
        path = os.path.abspath(module_name)
        sys.path.insert(0, os.path.dirname(path))  # its neighbours import as they would when run
        name = os.path.splitext(os.path.basename(path))[0]
        loaded = importlib.util.spec_from_file_location(name, path)
        if loaded is None or loaded.loader is None or not os.path.exists(path):
            raise ImportError(f"no Python file {module_name}")
        module = importlib.util.module_from_spec(loaded)
        sys.modules[name] = module
        loaded.loader.exec_module(module)
    else:
        if os.getcwd() not in sys.path and "" not in sys.path:
            sys.path.insert(0, os.getcwd())  # as `python -m` would find it
        module = importlib.import_module(module_name)
    obj = module
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj() if inspect.isclass(obj) else obj
