"""The engine's structure (issue 29), read from its own code with :mod:`ast`: no private name
crosses a module of ``reference/``, no import circle (deferred imports included), and no branch
on an overridable decision's name outside the decisions' records (``turub.decisions``).

Imports under ``if TYPE_CHECKING:`` never run and are left out; every other import counts,
inside a function as much as at the top of a module.  Self-contained: the kit's own layout
checks are ``tests/test_layout.py``.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "reference"

#: The overridable decisions, by name (an independent list: the decisions' records must agree).
DECISION_NAMES = {"legal_plays", "trick_winner", "deal_result", "next_dealer", "contest_step"}


def modules(folder: Path) -> dict[str, ast.Module]:
    """Each module of the package in ``folder`` by its dotted name inside it (``deal``,
    ``tools.cli``; ``""`` for the package's ``__init__``)."""
    found = {}
    for path in sorted(folder.rglob("*.py")):
        parts = list(path.relative_to(folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:`` (they never run)."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return skipped


def imports(name: str, tree: ast.Module, known: set[str], package: str = "turub"
            ) -> list[tuple[int, str, list[str]]]:
    """Every import of a module of the package by module ``name``: ``(line, module imported,
    names taken from it)``, deferred ones included, ``TYPE_CHECKING`` ones left out."""
    here = name.split(".") if name else []
    # ``from . import x`` in a package's __init__ is inside the package; in a module, beside it
    is_package = name == "" or any(k.startswith(name + ".") for k in known)
    base_parts = here if is_package else here[:-1]
    skipped = _type_checking_only(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = base_parts[:len(base_parts) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "") == package or (node.module or "").startswith(package + "."):
                target = (node.module or "").removeprefix(package).lstrip(".")
            else:
                continue
            names = [a.name for a in node.names]
            submodules = [n for n in names if (f"{target}.{n}" if target else n) in known]
            if submodules:
                found += [(node.lineno, f"{target}.{n}" if target else n, []) for n in submodules]
            rest = [n for n in names if n not in submodules]
            if rest or not submodules:
                found.append((node.lineno, target, rest))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == package or alias.name.startswith(package + "."):
                    found.append((node.lineno, alias.name.removeprefix(package).lstrip("."), []))
    return [(line, target, names) for line, target, names in found if target in known]


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def defined_privates(tree: ast.Module) -> set[str]:
    """The private names a module defines: its functions, classes and globals, its classes'
    attributes and slots, and the attributes its methods set on ``self``."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                 for t in node.targets):
            names |= {e.value for e in ast.walk(node.value) if isinstance(e, ast.Constant)
                      and isinstance(e.value, str)}
    return {n for n in names if private(n)}


def private_crossings(folder: Path) -> list[str]:
    """Each private name a module of ``folder`` imports from another, or reads as an attribute
    while only another module defines it."""
    trees = modules(folder)
    known = set(trees)
    own = {name: defined_privates(tree) for name, tree in trees.items()}
    everyone = set().union(*own.values())
    wrong = []
    for name, tree in trees.items():
        for line, target, names in imports(name, tree, known):
            wrong += [f"{name or '__init__'}:{line} imports {target}.{n}" for n in names
                      if private(n) and target != name]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and private(node.attr) \
                    and node.attr in everyone and node.attr not in own[name]:
                wrong.append(f"{name or '__init__'}:{node.lineno} reads {ast.unparse(node)}")
    return wrong


def import_circles(folder: Path) -> list[list[str]]:
    """The import circles among the modules of ``folder`` (each as a path back to its start)."""
    trees = modules(folder)
    known = set(trees)
    graph = {name: sorted({t for _, t, _ in imports(name, tree, known) if t != name})
             for name, tree in trees.items()}
    circles, state = [], {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for nxt in graph.get(node, []):
            if state.get(nxt) == "open":
                circles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    return circles


def decision_branches(folder: Path, names: set[str]) -> list[str]:
    """Each comparison with a decision's name, and each dict keyed by one, in ``folder``."""
    wrong = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            texts: list[ast.expr] = []
            if isinstance(node, ast.Compare):
                texts = [node.left, *node.comparators]
                texts += [e for t in list(texts) if isinstance(t, (ast.Tuple, ast.List, ast.Set))
                          for e in t.elts]
            elif isinstance(node, ast.Dict):
                texts = [k for k in node.keys if k is not None]
            elif isinstance(node, ast.MatchValue):
                texts = [node.value]
            if any(isinstance(t, ast.Constant) and t.value in names for t in texts):
                wrong.append(f"{path.relative_to(folder)}:{node.lineno}: {ast.unparse(node)[:80]}")
    return wrong


# --- the engine ------------------------------------------------------------------------------

def test_no_private_name_crosses_a_module_of_the_engine():
    assert private_crossings(ENGINE) == []


def test_the_engine_has_no_import_circle_deferred_imports_included():
    assert import_circles(ENGINE) == []


def test_no_branch_on_a_decisions_name_outside_its_record():
    from turub.decisions import DECISION_TABLE
    assert set(DECISION_TABLE) == DECISION_NAMES
    assert decision_branches(ENGINE, DECISION_NAMES) == []


def test_every_decisions_record_names_hooks_the_engine_has():
    from turub.deal import Deal
    from turub.decisions import DECISION_TABLE
    from turub.sitting import HouseRuleSitting, Sitting
    from turub.house_rule_deal import HouseRuleDeal
    overriding = {Deal: HouseRuleDeal, Sitting: HouseRuleSitting}
    for decision in DECISION_TABLE.values():
        assert decision.hooks, decision.name
        for hook in decision.hooks:
            owner, method = hook.split(".")
            base = {"Deal": Deal, "Sitting": Sitting}[owner]
            # the standard engine has the hook, and the house rules' class overrides it
            assert callable(getattr(base, method)), hook
            assert method in vars(overriding[base]), hook


def test_the_tools_old_flat_names_are_gone():
    import importlib
    for old in ("cli", "clause_cli", "sources", "progress", "variant_table"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(f"turub.{old}")


# --- the checks catch what they look for --------------------------------------------------

def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_a_private_name_across_modules_is_caught(tmp_path):
    engine = write(tmp_path / "pkg", {
        "__init__.py": "",
        "deal.py": "class Deal:\n    __slots__ = ('_won',)\n\ndef _helper():\n    pass\n",
        "records.py": "def state(deal):\n    from .deal import _helper\n    return deal._won\n",
        "fine.py": "class A:\n    def f(self):\n        self._own = 1\n        return self._own\n"})
    assert private_crossings(engine) == ["records:2 imports deal._helper", "records:3 reads deal._won"]


def test_an_import_circle_is_caught_deferred_and_not_under_type_checking(tmp_path):
    engine = write(tmp_path / "pkg", {
        "__init__.py": "", "deal.py": "from . import records\n",
        "records.py": "def replay():\n    from .variants import find\n",
        "variants.py": "from .deal import Deal\n",
        "typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .deal import Deal\n",
        "deal_user.py": "from .typed import x\n"})
    assert import_circles(engine) == [["deal", "records", "variants", "deal"]]


def test_a_branch_on_a_decisions_name_is_caught(tmp_path):
    engine = write(tmp_path / "pkg", {
        "a.py": "def f(d):\n    if d == 'trick_winner':\n        return 1\n",
        "b.py": "TABLE = {'deal_result': 1}\n",
        "c.py": "def g(d):\n    return d in ('next_dealer', 'x')\n",
        "ok.py": "def h(v):\n    return v.decides('legal_plays')\n"})
    assert [w.split(":")[0] for w in decision_branches(engine, DECISION_NAMES)] == ["a.py", "b.py", "c.py"]
