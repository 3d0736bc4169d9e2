"""The implementation the property suites check: a Python adapter, in-process, or a program
in any language speaking the kit's protocol, one instance in each process.

Named on the command line (``pytest properties --impl module:Object`` or ``--impl-program
"node my-impl.js"``) or, for the fuzz targets that HypoFuzz runs
(:mod:`turub.properties.fuzz_targets`), by the environment: ``TURUB_IMPL=module:Object`` or
``TURUB_PROGRAM="node my-impl.js"``.  A program is started by the first property that asks
it something in each process (each pytest-xdist worker, each HypoFuzz process: a process
forked from one that had started it starts its own) and stopped when that process ends.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from typing import Any

from turub.conformance.adapter import OPERATIONS
from turub.conformance.programs.loader import load_adapter

__all__ = ["IMPL_VARIABLE", "PROGRAM_VARIABLE", "REFERENCE", "ProgramImplementation",
           "UnderTestError", "implementation_under_test"]

#: The environment variables naming the implementation (setting both is an error).
IMPL_VARIABLE, PROGRAM_VARIABLE = "TURUB_IMPL", "TURUB_PROGRAM"
#: The default: the reference engine.
REFERENCE = "turub.conformance.adapter:ReferenceImplementation"


class UnderTestError(ValueError):
    """The implementation under test cannot be named or started (a usage error)."""


class ProgramImplementation:
    """The implementation interface answered by a program speaking the protocol.

    The program starts on the first call in each process; a call it cannot answer (crash,
    timeout, broken protocol) raises :class:`turub.conformance.questions.properties.
    TargetFailure`, which fails the property with the reason.
    """

    def __init__(self, command: str, timeout: float = 5.0) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as e:  # unbalanced quotes
            raise UnderTestError(f"program {command!r}: {e}") from None
        if not self.argv:
            raise UnderTestError("the program's command is empty")
        self.command, self.timeout = command, timeout
        self._pid: int | None = None
        self._impl: Any = None

    def _here(self) -> Any:
        """This process's instance of the program, started now if it has none."""
        if self._pid != os.getpid():
            from turub.conformance.programs.protocol import ProtocolTarget
            from turub.conformance.questions.properties import TargetImplementation
            target = ProtocolTarget(self.argv, timeout=self.timeout)
            failure = target.start()
            if failure is not None:
                target.close()
                raise UnderTestError(f"program {self.command!r} did not start: {failure.kind}: "
                                     f"{failure.detail}")
            self._impl, self._pid = TargetImplementation(target), os.getpid()
        return self._impl

    def supports(self) -> list[str]:
        return self._here().supports()

    def __getattr__(self, op: str) -> Any:
        if op not in OPERATIONS:
            raise AttributeError(op)
        return getattr(self._here(), op)

    def __repr__(self) -> str:  # as Hypothesis shows it in a counterexample
        return f"<program {self.command}>"

    def close(self) -> None:
        if self._impl is not None and self._pid == os.getpid():
            self._impl.target.close()
        self._impl = self._pid = None


def implementation_under_test(impl: str | None = None, program: str | None = None,
                              environ: Mapping[str, str] = os.environ) -> Any:
    """The implementation named by ``program`` (a command) or ``impl`` (``module:Object``),
    else by ``$TURUB_PROGRAM`` or ``$TURUB_IMPL``, else the reference engine."""
    if impl and program:
        raise UnderTestError("name one implementation: a Python adapter or a program, not both")
    if not impl and not program:
        impl, program = environ.get(IMPL_VARIABLE) or None, environ.get(PROGRAM_VARIABLE) or None
        if impl and program:
            raise UnderTestError(f"set {IMPL_VARIABLE} or {PROGRAM_VARIABLE}, not both")
    if program:
        return ProgramImplementation(program)
    from turub.conformance.programs.loader import AdapterLoadError
    try:
        return load_adapter(impl or REFERENCE)
    except AdapterLoadError as e:
        raise UnderTestError(str(e)) from None
