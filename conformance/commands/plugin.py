"""The conformance kit as a pytest plugin (entry point ``pytest11``: ``turub``).

In any folder, test files or not::

    pytest --turub-program "node my-impl.js"          # a program speaking the protocol
    pytest --turub-python mypkg.engine:Engine         # a Python adapter, in-process
    pytest --turub-sample                             # the bundled JavaScript sample

adds every conformance case as a pytest item: the committed vectors and the cases
generated from ``--turub-seed`` (one item each, named by operation and case:
``turub/legal_plays/worked-void-any-card``), differential play over drawn deals and
sittings, and each property of the project's suites.  Each item carries a ``clauses``
marker and its clause IDs as keywords, so ``-k play.follow-suit``, ``-x``, ``-n 4``
(pytest-xdist: each worker starts its own instance of the program), ``--junitxml`` and
the usual reports work.  A failure shows the clause it breaks, the outcome class, what was
asked, what the rules expect, what came back, and the smallest game situation.

Without a ``--turub-*`` option the plugin adds nothing.  pytest is imported here only:
the rest of the kit runs without it.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

import pytest

from turub.clauses import clause
from turub.errors import RuleError
from turub.options import PRESETS, Rules, parse_rules

from ..questions.cases import RULED_OPS, Case, ask_args, generated_cases
from ..questions.differential import describe_deal, differential_deals, differential_sittings
from ..judging.judge import verdict_of
from .check import vector_cases
from ..programs.loader import AdapterLoadError, load_adapter
from ..programs.targets import Answer, PythonTarget, Target

__all__ = ["ConformanceFailure"]

_RUN = pytest.StashKey["_Run"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("turub", "Arba'a Turub conformance (turub.conformance.commands.plugin)")
    g.addoption("--turub-program", metavar="'CMD ARGS'",
                help="check this program, speaking the kit's protocol (split like a shell "
                     "command line, started without a shell)")
    g.addoption("--turub-python", metavar="MODULE:OBJECT",
                help="check a Python adapter in-process (module:Object or path/file.py:Object)")
    g.addoption("--turub-sample", action="store_true",
                help="check the bundled JavaScript sample (needs Node.js)")
    g.addoption("--turub-rules", metavar="OPTION=VALUE[,...]", default="standard",
                help="the rule options to check under, or a preset (default: %(default)s)")
    g.addoption("--turub-seed", type=int, default=1, metavar="N",
                help="seed of the generated cases and of differential play (default: %(default)s)")
    g.addoption("--turub-scale", type=float, default=1.0, metavar="X",
                help="multiply the number of generated cases (default: %(default)s)")
    g.addoption("--turub-examples", type=int, default=300, metavar="N",
                help="drawn deals and sittings in differential play, 0 to skip (default: %(default)s)")
    g.addoption("--turub-searches", type=int, default=1, metavar="K",
                help="split differential play into K searches of each kind, seeds from "
                     "--turub-seed on, so -n spreads them over cores (default: %(default)s)")
    g.addoption("--turub-properties", type=int, default=25, metavar="N",
                help="examples per property of the project's suites, 0 to skip (default: %(default)s)")
    g.addoption("--turub-timeout", type=float, default=5.0, metavar="SECONDS",
                help="seconds per request (default: %(default)s)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clauses(*ids): the clause IDs a check verifies")
    chosen = [o for o in ("turub_program", "turub_python", "turub_sample") if config.getoption(o)]
    if not chosen:
        return
    if len(chosen) > 1:
        raise pytest.UsageError("give one of --turub-program, --turub-python, --turub-sample")
    text = config.getoption("turub_rules")
    try:
        rules = PRESETS[text] if text in PRESETS else parse_rules([t for t in text.split(",") if t])
    except RuleError as e:
        raise pytest.UsageError(f"--turub-rules {text}: {e}") from None
    if config.getoption("turub_timeout") <= 0:
        raise pytest.UsageError("--turub-timeout must be positive")
    for name in ("turub_examples", "turub_properties"):
        if config.getoption(name) < 0:
            raise pytest.UsageError(f"--{name.replace('_', '-')} cannot be negative")
    if config.getoption("turub_searches") < 1:
        raise pytest.UsageError("--turub-searches must be at least 1")
    config.stash[_RUN] = _Run(config, rules)


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(_RUN, None)
    if run is not None:
        run.close()


def pytest_report_header(config: pytest.Config) -> str | None:
    run = config.stash.get(_RUN, None)
    return None if run is None else f"turub conformance: {run.describe()}"


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    run = config.stash.get(_RUN, None)
    if run is not None:
        items.extend(Conformance.from_parent(session, name="turub", nodeid="turub").items())


@dataclass
class _Run:
    """What to check and how; the target, started by the first item that needs it (under
    pytest-xdist, once in each worker) and stopped when pytest ends."""

    config: pytest.Config
    rules: Rules
    _target: Target | None = None
    _failure: Answer | None = None
    _rules_ok: bool = False
    closed: bool = field(default=False)

    def option(self, name: str) -> Any:
        return self.config.getoption(f"turub_{name}")

    def describe(self) -> str:
        what = (f"program {self.option('program')}" if self.option("program") else
                f"python {self.option('python')}" if self.option("python") else "the JavaScript sample")
        return f"{what}; rules {self.rules.to_dict()}; seed {self.option('seed')}"

    def target(self) -> Target:
        if self._target is None:
            self._target = self._make()
            self._failure = self._target.start()
            self._rules_ok = self._failure is None and self._target.supports_rules(self.rules.to_dict())
        return self._target

    def _make(self) -> Target:
        timeout = self.option("timeout")
        if self.option("python"):
            try:
                return PythonTarget(load_adapter(self.option("python")), timeout)
            except AdapterLoadError as e:
                raise pytest.UsageError(f"--turub-python: {e}") from None
        from ..programs.protocol import ProtocolTarget
        if self.option("sample"):
            from ..resources import sample_command
            command = sample_command()
            if command is None:
                raise pytest.UsageError("--turub-sample needs Node.js (node on the PATH)")
        else:
            command = shlex.split(self.option("program"))
            if not command:
                raise pytest.UsageError("--turub-program needs a command")
        return ProtocolTarget(command, timeout=timeout)

    def failure(self, target: Target) -> Answer | None:
        """Why nothing can be asked of ``target``: it never started, or it has died."""
        if self._failure is not None:
            return self._failure
        return getattr(target, "fatal", None)

    def ask(self, case: Case) -> Answer:
        """The target's answer to one case (``unsupported`` when it cannot be asked)."""
        target = self.target()
        failure = self.failure(target)
        if failure is not None:
            return failure
        if case["op"] not in target.operations or (case["op"] in RULED_OPS and not self._rules_ok):
            return Answer("unsupported")
        if case.get("protocol", 1) > getattr(target, "protocol", 1):  # not applicable to it
            return Answer("unsupported", None, f"needs protocol version {case['protocol']}")
        return target.call(case["op"], ask_args(case["op"], case["args"], self.rules))

    def close(self) -> None:
        if self._target is not None and not self.closed:
            self.closed = True
            self._target.close()


class ConformanceFailure(Exception):
    """A case the implementation under test got wrong; ``result`` is the report's entry."""

    def __init__(self, result: dict[str, Any]) -> None:
        super().__init__(result.get("detail", ""))
        self.result = result


class Conformance(pytest.Collector):
    """Every case, differential search and property the kit runs, as pytest items."""

    def items(self) -> list[pytest.Item]:
        return list(self.collect())

    def collect(self) -> list[pytest.Item]:
        run: _Run = self.config.stash[_RUN]
        cases = [("vector", c) for c in vector_cases(run.rules)]
        if run.option("scale") > 0:
            cases += [("generated", c) for c in generated_cases(run.option("seed"), run.rules,
                                                                  run.option("scale"))]
        out: list[pytest.Item] = []
        for kind, case in cases:
            out.append(CaseItem.from_parent(self, name=_item_name(case["op"], case["id"]),
                                            case=case, kind=kind, clauses=case["clauses"]))
        if run.option("examples") > 0:
            searches, seed = run.option("searches"), run.option("seed")
            for what, search in (("deal", differential_deals), ("sitting", differential_sittings)):
                for s in range(seed, seed + searches):
                    name = f"differential/{what}" + (f"/seed-{s}" if searches > 1 else "")
                    out.append(SearchItem.from_parent(self, name=name, search=search, seed=s,
                                                      clauses=_differential_clauses(what)))
        if run.option("properties") > 0:
            from turub.properties.checks import interface_properties
            for name, test in interface_properties().items():
                out.append(PropertyItem.from_parent(self, name=f"property/{name}", test=test,
                                                    clauses=sorted(getattr(test, "__verifies__", ()))))
        return out


def _item_name(op: str, case_id: str) -> str:
    """``legal_plays/worked-void-any-card``, ``trick_winner/generated-1-r000``."""
    rest = case_id.replace(f"{op}/", "", 1) if f"{op}/" in case_id else case_id
    return f"{op}/{rest.replace('/', '-')}"


def _differential_clauses(what: str) -> list[str]:
    from ..adapter import OPERATIONS
    ops = ("referee",) if what == "deal" else ("next_dealer", "contest")
    return sorted({c for op in ops for c in OPERATIONS[op]})


class _KitItem(pytest.Item):
    """An item of the kit: marked with its clauses, failing with the kit's verdict."""

    def __init__(self, *, clauses: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.clauses = list(clauses)
        self.add_marker(pytest.mark.clauses(*self.clauses))
        self.extra_keyword_matches.update(self.clauses)
        self.user_properties.append(("clauses", " ".join(self.clauses)))

    @property
    def run(self) -> _Run:
        return self.config.stash[_RUN]

    def finish(self, result: dict[str, Any]) -> None:
        """Pass, skip (unsupported) or fail with the report entry ``result``."""
        if result["status"] == "unsupported":
            pytest.skip(f"unsupported: {result.get('detail') or 'the implementation does not support it'}")
        if result["status"] == "failed":
            self.user_properties.append(("outcome", result.get("outcome", "")))
            self.user_properties.append(("failing_clauses", " ".join(result.get("failing_clauses", ()))))
            raise ConformanceFailure(result)

    def live_target(self) -> Target:
        """The run's target, or this item failed with the reason it cannot be asked."""
        target = self.run.target()
        failure = self.run.failure(target)
        if failure is not None:
            self.finish({"id": self.name, "status": "failed", "outcome": failure.kind,
                         "failing_clauses": self.clauses, "detail": failure.detail})
        return target

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> Any:
        if isinstance(excinfo.value, ConformanceFailure):
            return failure_text(excinfo.value.result)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"turub {self.name} [{', '.join(self.clauses)}]"


class CaseItem(_KitItem):
    """One case: a committed vector or a generated case."""

    def __init__(self, *, case: Case, kind: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case, self.kind = case, kind

    def runtest(self) -> None:
        case, rules = self.case, self.run.rules
        answer = self.run.ask(case)
        if answer.kind == "unsupported":
            self.finish({"status": "unsupported", "detail": f"{case['op']} or these rules"})
        verdict = verdict_of(case, answer)
        if verdict.passed:
            return
        result = {"id": case["id"], "op": case["op"], "status": "failed", "outcome": verdict.outcome,
                  "failing_clauses": list(verdict.clauses), "detail": verdict.detail,
                  "args": ask_args(case["op"], case["args"], rules), "expected": case["expected"]}
        if answer.kind == "result":
            result["got"] = answer.value
            if case["op"] == "referee":
                try:
                    result["minimal"] = describe_deal({**case, "rules": rules.to_dict()}, verdict,
                                                      answer.value)
                except Exception:  # noqa: BLE001 - a description is a nicety, never a crash
                    pass
        self.finish(result)


class SearchItem(_KitItem):
    """Differential play: drawn deals or sittings, refereed by both, shrunk on a difference."""

    def __init__(self, *, search: Any, seed: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.search, self.seed = search, seed

    def runtest(self) -> None:
        run = self.run
        self.finish(self.search(self.live_target(), run.rules, run.option("examples"), self.seed))


class PropertyItem(_KitItem):
    """One property of the project's suites, searched against the implementation."""

    def __init__(self, *, test: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.test = test

    def runtest(self) -> None:
        from ..questions.properties import property_result
        name = self.name.removeprefix("property/")
        self.finish(property_result(self.live_target(), name, self.test, self.run.option("properties")))


def _clause_line(cid: str) -> str:
    try:
        return f"{cid} ({clause(cid).title})"
    except KeyError:
        return cid


def _json(value: Any, limit: int = 600) -> str:
    import json
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def failure_text(result: dict[str, Any]) -> str:
    """A failed case as the terminal shows it: clause, outcome, question, answers, situation."""
    clauses = result.get("failing_clauses") or []
    lines = [f"breaks {', '.join(_clause_line(c) for c in clauses) or 'no single clause'}",
             f"outcome: {result.get('outcome', 'failed')}"]
    if "args" in result:
        lines.append(f"asked {result.get('op', '')} {_json(result['args'])}")
    if "expected" in result:
        lines.append(f"expected {_json(result['expected'])}")
    if "got" in result:
        lines.append(f"got      {_json(result['got'])}")
    if result.get("detail"):
        lines.append(str(result["detail"]))
    if result.get("minimal"):
        lines += ["smallest situation:", str(result["minimal"])]
    return "\n".join(lines)
