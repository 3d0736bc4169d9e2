"""The worker that runs a Python adapter behind the protocol (``turub check --python``).

    python -P -m turub.conformance.programs.shim module:Object

The kit starts it like any program under test, so an adapter gets everything a program
gets: its own process group, a per-request deadline (a hanging adapter is stopped and
restarted), bounded restarts.  The shim loads the adapter (:mod:`~turub.conformance.programs.loader`;
a load error is one line on stderr and exit status :data:`LOAD_ERROR`), answers the
handshake from what the adapter supports, and turns each call's outcome
(:class:`~turub.conformance.programs.targets.PythonTarget`) into an answer line; a crash, including
``SystemExit`` and ``KeyboardInterrupt``, and an answer that is not JSON data are sent as
errors of that kind, which the kit trusts from its own shim only.  Anything the adapter
prints goes to stderr: stdout carries only the protocol.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Final

LOAD_ERROR: Final = 2


def adapter_target(spec: str, **options: Any) -> Any:
    """The :class:`~turub.conformance.programs.protocol.ProtocolTarget` that runs the adapter
    ``spec`` (``module:Object``) in this worker: the one way ``turub check --python`` and the
    pytest plugin's ``--turub-python`` run user code, never in the judge's process (an adapter
    that calls ``os._exit``, aborts or calls ``exit()`` from C ends the worker: a crash)."""
    from .protocol import ProtocolTarget
    argv = [sys.executable, "-P", "-m", "turub.conformance.programs.shim", spec]
    return ProtocolTarget(argv, trusted=True, **options)


def _answer_line(rid, answer) -> bytes:
    from .targets import RESULT, UNSUPPORTED
    if answer.kind == RESULT:
        msg = {"id": rid, "result": answer.value}
    elif answer.kind == UNSUPPORTED:
        msg = {"id": rid, "error": {"message": answer.detail or "unsupported", "unsupported": True}}
    elif answer.kind == "error-reported":
        msg = {"id": rid, "error": {"message": answer.detail}}
    else:
        msg = {"id": rid, "error": {"message": answer.detail, "kind": answer.kind}}
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def main(argv: list[str]) -> int:
    # The protocol keeps private copies of stdin and stdout; the adapter's own prints and
    # reads go to stderr and /dev/null.
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    sys.stdout = sys.stderr
    from turub.options import OPTION_VALUES

    from .loader import AdapterLoadError, load_adapter
    from .targets import PythonTarget
    if len(argv) != 1:
        sys.stderr.write("usage: python -P -m turub.conformance.programs.shim module:Object\n")
        return LOAD_ERROR
    try:
        impl = load_adapter(argv[0])
    except AdapterLoadError as e:
        sys.stderr.write(f"{e}\n")
        return LOAD_ERROR
    target = PythonTarget(impl, timeout=float("inf"))
    for raw in proto_in:
        try:
            request = json.loads(raw)
            rid, op, args = request["id"], request["op"], request.get("args", {})
        except (ValueError, KeyError, TypeError):
            continue
        if op == "hello":
            hello = {"protocol": target.protocol, "name": target.name, "version": target.version,
                     "operations": sorted(target.operations)}
            # An adapter without ``rules_supported`` supports every option value; over the
            # protocol a hello that leaves an option out means its default only, so say all.
            rules = target.rules if target.rules is not None else OPTION_VALUES
            hello["rules"] = {str(k): [str(v) for v in vs] for k, vs in rules.items()}
            if target.variants is not None:
                hello["variants"] = list(target.variants)
            line = json.dumps({"id": rid, "result": hello}).encode() + b"\n"
        elif op == "bye":
            proto_out.write(json.dumps({"id": rid, "result": None}).encode() + b"\n")
            proto_out.flush()
            return 0
        else:
            args = dict(args) if isinstance(args, dict) else {}
            variant = args.pop("variant", None)  # passed on to the methods that take it
            target.variant = variant if isinstance(variant, str) else None
            line = _answer_line(rid, target.call(op, args))
        proto_out.write(line)
        proto_out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
