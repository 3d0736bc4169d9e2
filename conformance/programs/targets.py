"""Targets: the implementation under test, however it is reached.

A target answers requests ``(key, op, args)`` with :class:`Answer` values.  Two kinds:

* :class:`PythonTarget` calls an object satisfying :class:`~turub.conformance.adapter.
  Implementation` in-process;
* :class:`~turub.conformance.programs.protocol.ProtocolTarget` talks to a program over the JSON-lines
  protocol (``spec/protocol.schema.json``).

An answer is one of: ``result`` (with a value), ``unsupported``, ``error`` (the
implementation reported an error), ``crash``, ``timeout``, ``protocol-violation``, or
``not-run`` (never asked, or not answered before the whole-run time limit: not the
implementation's fault, and not a pass either).

Whatever comes back is data: a value that is not plain JSON data (a ``set``, an object,
NaN) is a malformed answer, and every string is made safe (:mod:`~turub.conformance.text`).
"""

from __future__ import annotations

import inspect
import json
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from turub.decisions import HouseRuleError
from turub.errors import CommandInterrupted

from ..adapter import OPERATIONS, ImplementationError
from ..operations import REGISTRY
from ..text import safe_text
from .messages import loads, malformed, promised

__all__ = ["Answer", "Request", "Target", "PythonTarget", "Interrupted", "INTERRUPTION", "INTERRUPTIONS",
           "when_dropped", "stop_when_dropped", "as_json_data",
           "load_python", "result_answer", "RESULT", "UNSUPPORTED", "NOT_RUN"]

RESULT = "result"
UNSUPPORTED = "unsupported"
NOT_RUN = "not-run"


class Interrupted(CommandInterrupted):
    """The kit received a signal (SIGINT, SIGTERM, SIGHUP), or its time limit came: stop,
    report, exit (a house rule running then does not say it raised it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class KeptInterruption:
    """The interruption of this process's run, kept so that it is never lost.  A signal
    handler raises its exception at once, but CPython cannot raise an exception out of a
    garbage collector's callback (Hypothesis installs one) or a ``__del__``: it prints
    "Exception ignored in ..." and the code goes on as if no signal had come (a SIGINT landing
    there let a check run on for its whole budget and exit 0).  What raised an interruption
    keeps it (:meth:`keep`, directly or through :func:`when_dropped`); each request asks
    :meth:`check` first, which raises it again.  One instance per process: :data:`INTERRUPTION`."""

    def __init__(self) -> None:
        self.kept: BaseException | None = None

    def keep(self, e: BaseException) -> None:
        """Raise ``e`` again at the run's next request."""
        self.kept = e

    def check(self) -> None:
        """Raise the kept interruption, if one was kept (each request's first step)."""
        if self.kept is not None:
            raise self.kept.with_traceback(None)

    def clear(self) -> None:
        """The run is over: a later run in this process starts uninterrupted."""
        self.kept = None


#: This process's kept interruption (:class:`KeptInterruption`).
INTERRUPTION: Final = KeptInterruption()

#: What a signal handler of the kit raises: :func:`when_dropped` keeps these by default.
INTERRUPTIONS: Final = (Interrupted, KeyboardInterrupt)


def when_dropped(then: Callable[[BaseException], None], kinds: tuple[type[BaseException], ...] = INTERRUPTIONS) -> Any:
    """From now on, call ``then`` with each exception of ``kinds`` that Python drops
    (``sys.unraisablehook``); anything else goes to the hook below, as before.  Gives that
    hook, for :func:`stop_when_dropped` (calls nest: each puts back the one it found)."""
    import sys
    below = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, kinds):
            then(unraisable.exc_value)
        else:
            below(unraisable)
    sys.unraisablehook = hook
    return below


def stop_when_dropped(below: Any) -> None:
    """Put back the hook :func:`when_dropped` found."""
    import sys
    sys.unraisablehook = below


def as_json_data(value: Any) -> Answer:
    """``value`` (returned by in-process code) as an answer: a result if it is plain JSON
    data (read back as a line from a program is: strings made safe, integral numbers as
    ``int``), else a protocol violation naming what it is."""
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError) as e:
        return Answer("protocol-violation", None,
                      f"malformed answer: not JSON data ({safe_text(e, 200)})")
    return Answer(RESULT, loads(text))


def result_answer(op: str, value: Any) -> Answer:
    """A result to ``op`` as an answer, if it has the shape the published schema gives the
    results of ``op`` (``#/$defs/result_<op>``); else a protocol violation saying where not."""
    why = malformed("result_" + op, value)
    if why is not None:  # the value is kept for the report (``got``)
        return Answer("protocol-violation", value, f"malformed answer: {why}")
    return _new_answer(Answer, (RESULT, value, ""))


class Answer(NamedTuple):
    """What came back for one request (an immutable value; a tuple, so cheap to make on the
    protocol's hot path)."""

    kind: str  # result, unsupported, error-reported, crash, timeout, protocol-violation, not-run
    value: Any = None
    detail: str = ""


_new_answer = tuple.__new__  # ``Answer(RESULT, value)`` on the hot path: the tuple made at once


class Request(NamedTuple):
    """One request of a run: ``key`` (the caller's, handed back with its answer), the
    operation and its arguments (an immutable value; a tuple, as :class:`Answer` is)."""

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
    protocol: int = 1  # the protocol version agreed at the handshake
    startup_failure: dict | None = None  # set when it could not be started at all
    variants: list[str] | None = None  # the rule variants it declares; None: not declared
    variant: str | None = None  # the variant the run asks under, sent with each request
    # What a run reads of it as it goes (each target keeps its own; several instances, theirs):
    fatal: Answer | None = None  # the failure that ended it: nothing more is asked of it
    cut: bool = False  # the whole-run deadline stopped it
    noise: dict = field(default_factory=lambda: {"lines": 0, "examples": []})  # stray output

    def supports_variant(self, name: str) -> bool:
        """Whether it declares variant ``name`` (one that declares none is asked anyway)."""
        return self.variants is None or name in self.variants

    def with_variant(self, args: dict) -> dict:
        """``args`` with the run's variant named (``"variant": NAME``), if the run has one."""
        return {**args, "variant": self.variant} if self.variant else args

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

    def abort(self) -> None:
        """Stop at once, without a goodbye (an interrupted run); with nothing running, close."""
        self.close()


def _defaults() -> dict[str, str]:
    from turub.options import Rules
    return Rules().to_dict(complete=True)


#: Each option at its default (from the engine's options: one statement of them).
_DEFAULTS: Final = _defaults()


class PythonTarget(Target):
    """An in-process implementation (the reference engine, or adapters in the kit's own
    tests: code that is trusted not to hang or exit).  ``NotImplementedError`` means
    unsupported, :class:`ImplementationError` an error it reports, any other exception
    (``SystemExit`` and ``KeyboardInterrupt`` included) a crash; an answer that is not JSON
    data a protocol violation.  From the ``trusted`` reference playing a variant, a
    :class:`~turub.decisions.HouseRuleError` is raised on: the variant's rule broke, and the
    run says so (not judged past it), never failing the reference for it.  A call that overruns the time limit is reported as a timeout
    (it cannot be interrupted: ``turub check --python`` runs adapters in a worker process)."""

    def __init__(self, impl: Any, timeout: float = 5.0, *, trusted: bool = False) -> None:
        super().__init__(name=safe_text(getattr(impl, "name", type(impl).__name__), 100),
                         version=safe_text(getattr(impl, "version", "?"), 100))
        self.impl = impl
        self.timeout = timeout
        self.trusted = trusted  # the reference: its answers are JSON data by construction
        try:
            ops = list(impl.supports()) if hasattr(impl, "supports") else list(OPERATIONS)
        except (Exception, SystemExit, KeyboardInterrupt) as e:  # noqa: BLE001 - its own failure
            self.diagnostics.append(f"supports() raised {type(e).__name__}: {safe_text(e, 300)}")
            ops = []
        self.operations = frozenset(o for o in ops if isinstance(o, str) and o in OPERATIONS
                                    and callable(getattr(impl, o, None)))
        rules = getattr(impl, "rules_supported", None)
        self.rules = dict(rules) if rules is not None else None
        variants = getattr(impl, "variants", None)
        self.variants = [str(v) for v in variants] if isinstance(variants, (list, tuple)) else None
        self._takes_variant: dict[str, bool] = {}
        self.protocol = 2 if _takes_version_2(impl) else 1

    def _variant_args(self, op: str, args: Mapping[str, Any]) -> Mapping[str, Any]:
        """The run's variant is passed to the methods that take a ``variant`` argument."""
        if not self.variant:
            return args
        takes = self._takes_variant.get(op)
        if takes is None:
            try:
                params = inspect.signature(getattr(self.impl, op)).parameters.values()
                takes = any(p.name == "variant" or p.kind is p.VAR_KEYWORD for p in params)
            except (TypeError, ValueError):
                takes = False
            self._takes_variant[op] = takes
        return self.with_variant(dict(args)) if takes else args

    def call(self, op: str, args: dict) -> Answer:
        INTERRUPTION.check()
        if op not in self.operations:
            return Answer(UNSUPPORTED)
        start = time.perf_counter()
        try:
            value = getattr(self.impl, op)(**self._variant_args(op, promised(args)))
        except NotImplementedError:
            return Answer(UNSUPPORTED)
        except ImplementationError as e:
            return Answer("error-reported", None, safe_text(e, 2000) or "(no message)")
        except RecursionError as e:
            return Answer("crash", None, f"RecursionError: {safe_text(e, 300)}")
        except Interrupted:
            raise
        except (Exception, SystemExit, KeyboardInterrupt) as e:  # noqa: BLE001 - a verdict
            if self.trusted and isinstance(e, HouseRuleError):
                raise  # the reference playing a variant: the house rule broke, not the program
            frames = traceback.extract_tb(e.__traceback__)
            where = f" (at {safe_text(frames[-1].filename, 200)}:{frames[-1].lineno})" if frames else ""
            return Answer("crash", None, f"{type(e).__name__}: {safe_text(e, 1000)}{where}")
        elapsed = time.perf_counter() - start
        if elapsed > self.timeout:
            return Answer("timeout", None, f"took {elapsed:.1f} s, the limit is {self.timeout} s")
        if self.trusted:
            return Answer(RESULT, value)
        answer = as_json_data(value)
        return result_answer(op, answer.value) if answer.kind == RESULT else answer


def _takes_version_2(impl: Any) -> bool:
    """Whether an adapter's methods take version 2's context (``trump``, ``dealer``)."""
    import inspect
    for op, arg in ((o.name, o.context) for o in REGISTRY.values() if o.context is not None):
        method = getattr(impl, op, None)
        if method is None:
            continue
        try:
            params = inspect.signature(method).parameters
        except (TypeError, ValueError):
            return False
        if arg not in params and not any(p.kind is p.VAR_KEYWORD for p in params.values()):
            return False
    return True


def load_python(spec: str) -> Any:
    """The object named by ``module:Object`` or ``path/file.py:Object``, loaded in this
    process (a class is instantiated); :class:`~turub.conformance.programs.loader.AdapterLoadError`
    (an ``ImportError``) says what went wrong.  ``turub check --python`` loads it in a worker
    process instead (:mod:`~turub.conformance.programs.shim`)."""
    from .loader import load_adapter
    return load_adapter(spec)
