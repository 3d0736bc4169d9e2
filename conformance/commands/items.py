"""The pytest plugin's session and items: what one pytest session checks, and each case,
differential search and property as a pytest item.

:class:`PluginRun` holds the options, the rules and the program under test (started by the
first item that needs it, stopped when pytest ends) and the campaign's example database;
:class:`Conformance` collects the items, each marked with its clauses; a failure is a
:class:`ConformanceFailure` shown with its clause, its outcome class and the one command
that runs the item again (:func:`reproduce_command`).  Split out of
:mod:`~turub.conformance.commands.plugin` (its options and hooks), which re-exports these names.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis.database import ExampleDatabase

from turub.properties.databases import example_database

from turub.clauses import clause
from turub.options import Rules

from ..judging.judge import verdict_of
from ..operations import REGISTRY, SEARCHES, asked_with_rules
from ..programs.targets import NOT_RUN, Answer, Target
from ..questions.cases import Case, ask_args, generated_cases
from ..questions.differential import SEARCH_RUNS, describe_deal
from .check import vector_cases

__all__ = ["ConformanceFailure", "item_seed", "reproduce_command", "check_command", "Conformance",
           "failure_text"]

RUN_KEY = pytest.StashKey["PluginRun"]()
#: The environment variable naming the example database when ``--turub-database`` is not given.
DATABASE_VARIABLE = "TURUB_DATABASE"


@dataclass
class PluginRun:
    """What to check and how; the target, started by the first item that needs it (under
    pytest-xdist, once in each worker) and stopped when pytest ends."""

    config: pytest.Config
    rules: Rules
    _target: Target | None = None
    _failure: Answer | None = None
    _rules_ok: bool = False
    closed: bool = field(default=False)
    told_dead: bool = False  # an item has failed with why nothing can be asked

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
        if self.option("python"):  # in a worker process, as `turub check --python` runs it
            from ..programs.shim import adapter_target
            return adapter_target(self.option("python"), timeout=timeout)
        from ..programs.protocol import ProtocolTarget
        if self.option("sample"):
            from ..resources import sample_command
            command = sample_command()
            if command is None:
                raise pytest.UsageError("--turub-sample needs Node.js (node on the PATH)")
        else:
            command = shlex.split(self.option("program"))  # checked in pytest_configure
        return ProtocolTarget(command, timeout=timeout)

    def database_path(self) -> str | None:
        """The example database's value (a folder, ``redis://HOST:PORT/N``, ``readonly:X``,
        ``A + B``: :func:`turub.properties.databases.example_database`):
        ``--turub-database``, else ``$TURUB_DATABASE``."""
        return self.option("database") or os.environ.get(DATABASE_VARIABLE) or None

    def database(self, name: str) -> Any:
        """The example database for the search named ``name`` (None: keep nothing).  The
        keys are the search's kind, the rules and Hypothesis's own key, so what one search
        finds is replayed by every search of that kind, under those rules, whatever its seed."""
        path = self.database_path()
        if path is None:
            return None
        base = name.split("/seed-")[0]
        rules = json.dumps(self.rules.to_dict(), sort_keys=True)
        return _Namespaced(example_database(path), f"turub:{base}:{rules}:".encode())

    def failure(self, target: Target) -> Answer | None:
        """Why nothing can be asked of ``target``: it never started, or it has died."""
        if self._failure is not None:
            return self._failure
        return target.fatal

    def stop_if_dead(self, target: Target, item: "KitItem") -> None:
        """Nothing more for ``item`` if nothing can be asked of ``target``: the first item
        to find that fails with the reason (a program that could not start: its command, the
        reason and its last stderr lines, in one message), every later one is not run
        (skipped), so a dead program is one failure, never thousands of identical ones."""
        failure = self.failure(target)
        if failure is not None:
            self.stop(target, failure, item)

    def stop(self, target: Target, failure: Answer, item: "KitItem") -> None:
        """:meth:`stop_if_dead` with the reason known (also an answer ``not-run``: the
        program was restarted as often as it may be): every later item knows it."""
        if self._failure is None:
            self._failure = failure
        if self.told_dead:
            pytest.skip(f"not run: {failure.detail or failure.kind} (the first item that found it failed)")
        self.told_dead = True
        startup = getattr(target, "startup_failure", None)
        if startup:
            from ..reports.report import startup_message
            pytest.fail(startup_message(startup), pytrace=False)
        if failure.kind == NOT_RUN:
            item.finish({"id": item.name, "status": NOT_RUN, "detail": failure.detail})
        item.finish({"id": item.name, "status": "failed", "outcome": failure.kind,
                     "failing_clauses": item.clauses, "detail": failure.detail})

    def ask(self, case: Case) -> Answer:
        """The target's answer to one case (``unsupported`` when it cannot be asked)."""
        target = self.target()
        failure = self.failure(target)
        if failure is not None:
            return failure
        if case["op"] not in target.operations or (asked_with_rules(case["op"]) and not self._rules_ok):
            return Answer("unsupported")
        if case.get("protocol", 1) > target.protocol:  # not applicable to it
            return Answer("unsupported", None, f"needs protocol version {case['protocol']}")
        return target.call(case["op"], ask_args(case["op"], case["args"], self.rules))

    def close(self) -> None:
        if self._target is not None and not self.closed:
            self.closed = True
            self._target.close()


class _Namespaced(ExampleDatabase):
    """Another database's entries under a prefix of our own (Hypothesis's public
    ``ExampleDatabase`` interface): the kit's searches never read each other's examples,
    nor those of the project's property suites sharing the folder."""

    def __init__(self, db: ExampleDatabase, prefix: bytes) -> None:
        super().__init__()
        self.db, self.prefix = db, prefix

    def save(self, key: bytes, value: bytes) -> None:
        self.db.save(self.prefix + key, value)

    def fetch(self, key: bytes) -> Any:
        return self.db.fetch(self.prefix + key)

    def delete(self, key: bytes, value: bytes) -> None:
        self.db.delete(self.prefix + key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self.db.move(self.prefix + src, self.prefix + dest, value)


def item_seed(name: str, seed: int) -> int:
    """The random seed of the search ``name`` under ``--turub-seed seed``: from these two
    alone, so the item draws the same examples whatever ran before it in the session.
    A differential search's seed is its own (``differential/deal/seed-S``: S)."""
    if "/seed-" in name:
        return int(name.rsplit("/seed-", 1)[1])
    if name.startswith("differential/"):
        return seed
    return int.from_bytes(hashlib.sha256(f"{name}|{seed}".encode()).digest()[:8], "big")


def reproduce_command(config: pytest.Config, name: str) -> str:
    """The one command that runs the item ``name`` again, alone, on the same terms."""
    o = lambda n: config.getoption(f"turub_{n}")  # noqa: E731
    parts = [sys.executable, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider"]
    if o("program"):
        parts += ["--turub-program", o("program")]
    elif o("python"):
        parts += ["--turub-python", o("python")]
    else:
        parts += ["--turub-sample"]
    parts += ["--turub-rules", o("rules"), "--turub-seed", str(o("seed")),
              "--turub-scale", str(o("scale")), "--turub-examples", str(o("examples")),
              "--turub-searches", str(o("searches")), "--turub-properties", str(o("properties")),
              "--turub-timeout", str(o("timeout"))]
    run = config.stash.get(RUN_KEY, None)
    database = run.database_path() if run is not None else None
    if database:
        parts += ["--turub-database", os.path.abspath(database)]
    parts += ["--turub-item", name]
    return shlex.join(parts)


def check_command(config: pytest.Config, name: str, case_id: str, seed: int) -> str:
    """The ``turub check`` command that asks the item's check alone, the same line as
    ``turub check``'s own report prints (one builder: :func:`turub.conformance.reports.rerun.rerun_command`),
    from the run's rules and the program under test.  ``seed`` is the item's: a differential
    search ``differential/deal/seed-S`` is ``turub check --seed S --case differential/deal``."""
    from ..reports.baseline import run_variant
    from ..reports.rerun import rerun_command
    run: PluginRun = config.stash[RUN_KEY]
    if run.option("python"):
        implementation: dict[str, Any] = {"python": run.option("python")}
    elif run.option("sample"):
        from ..resources import sample_command
        implementation = {"command": sample_command() or []}
    else:
        implementation = {"command": shlex.split(run.option("program"))}
    report = {"seed": seed, "rules": run.rules.to_dict(), "variant": run_variant(run.rules),
              "implementation": implementation}
    return rerun_command(report, case_id)


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
        run: PluginRun = self.config.stash[RUN_KEY]
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
            for search in SEARCHES:
                for s in range(seed, seed + searches):
                    name = search.check_id + (f"/seed-{s}" if searches > 1 else "")
                    out.append(SearchItem.from_parent(self, name=name, search=SEARCH_RUNS[search], seed=s,
                                                      clauses=list(search.clauses())))
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


class KitItem(pytest.Item):
    """An item of the kit: marked with its clauses, failing with the kit's verdict."""

    def __init__(self, *, clauses: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.clauses = list(clauses)
        self.add_marker(pytest.mark.clauses(*self.clauses))
        self.extra_keyword_matches.update(self.clauses)
        self.user_properties.append(("clauses", " ".join(self.clauses)))

    @property
    def run(self) -> PluginRun:
        return self.config.stash[RUN_KEY]

    def finish(self, result: dict[str, Any]) -> None:
        """Pass, skip (unsupported) or fail with the report entry ``result``; a check that
        was not run to its end (``not-run``: the kit failed, a house rule broke) fails with
        its reason, never a pass."""
        if result["status"] == "unsupported":
            pytest.skip(f"unsupported: {result.get('detail') or 'the implementation does not support it'}")
        if result["status"] == "not-run":
            pytest.fail(f"not run: {result.get('detail') or 'the check did not run to its end'}", pytrace=False)
        if result["status"] == "failed":
            _explained(result, self.run.rules)
            self.user_properties.append(("outcome", result.get("outcome", "")))
            self.user_properties.append(("failing_clauses", " ".join(result.get("failing_clauses", ()))))
            raise ConformanceFailure(result)

    def live_target(self) -> Target:
        """The run's target, or this item failed with the reason it cannot be asked."""
        target = self.run.target()
        self.run.stop_if_dead(target, self)
        return target

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> Any:
        if isinstance(excinfo.value, ConformanceFailure):
            return (failure_text(excinfo.value.result)
                    + f"\nreproduce: {reproduce_command(self.config, self.name)}"
                    + f"\nreproduce with turub check: {self.check_command()}")
        return super().repr_failure(excinfo, style=style)

    def check_command(self) -> str:
        """``turub check --seed S --case ID -- PROGRAM`` for this item."""
        return check_command(self.config, self.name, self.check_id(), self.check_seed())

    def check_id(self) -> str:
        """The ID ``turub check`` gives this check (``--case ID``)."""
        return self.name

    def check_seed(self) -> int:
        return int(self.run.option("seed"))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"turub {self.name} [{', '.join(self.clauses)}]"


class CaseItem(KitItem):
    """One case: a committed vector or a generated case."""

    def __init__(self, *, case: Case, kind: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case, self.kind = case, kind

    def check_id(self) -> str:
        return str(self.case["id"])

    def runtest(self) -> None:
        case, rules = self.case, self.run.rules
        target = self.live_target()
        answer = self.run.ask(case)
        if answer.kind == NOT_RUN:  # the program may not be restarted again
            self.run.stop(target, answer, self)
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
            record = REGISTRY.get(case["op"])
            if record is not None and record.drawn_under_rules:  # a refereed deal
                try:
                    result["minimal"] = describe_deal({**case, "rules": rules.to_dict()}, verdict,
                                                      answer.value)
                except Exception:  # noqa: BLE001 - a description is a nicety, never a crash
                    pass
        self.finish(result)


class SearchItem(KitItem):
    """Differential play: drawn deals or sittings, refereed by both, shrunk on a difference."""

    def __init__(self, *, search: Any, seed: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.search, self.seed = search, seed

    def check_id(self) -> str:
        return self.name.split("/seed-")[0]

    def check_seed(self) -> int:
        return self.seed

    def runtest(self) -> None:
        run = self.run
        self.finish(self.search(self.live_target(), run.rules, run.option("examples"), self.seed,
                                database=run.database(self.name)))


class PropertyItem(KitItem):
    """One property of the project's suites, searched against the implementation."""

    def __init__(self, *, test: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.test = test

    def runtest(self) -> None:
        from ..questions.properties import property_result
        name = self.name.removeprefix("property/")
        run = self.run
        self.finish(property_result(self.live_target(), name, self.test, run.option("properties"),
                                    seed=item_seed(self.name, run.option("seed")),
                                    database=run.database(self.name)))


def _explained(result: dict[str, Any], rules: Any) -> None:
    """One item's failure re-blamed by a known misreading, only where its answer settles it
    alone (a whole deal given exactly as the misreading deals it:
    :attr:`~turub.conformance.operations.Operation.decisive`); a run's other answers,
    which ``turub check`` weighs, are not at hand in one item."""
    from ..diagnosis.misreadings import explain
    from ..diagnosis.situation import question_of
    try:
        question = question_of(result)
        if question is not None and REGISTRY[question["op"]].decisive:
            explain([result], rules.to_dict())
    except Exception:  # noqa: BLE001 - a diagnosis is a nicety: the judge's blame stands
        pass


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
