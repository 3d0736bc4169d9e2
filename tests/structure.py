"""The code's structure, read from its own source with :mod:`ast` (issue 29): the helpers
``tests/test_engine_structure.py`` (the engine) and ``tests/test_layout.py`` (the kit) check
with.  Imports under ``if TYPE_CHECKING:`` never run and are left out; every other import
counts, inside a function as much as at the top of a module.

* :func:`private_imports`: a private name imported from another module of the package;
* :func:`private_reads`: a private attribute read where only another module defines it;
* :func:`import_cycles`: the import circles, deferred imports included;
* :func:`name_branches`: a comparison with (or a dict keyed by, or a set of) a kind's names outside its records.
"""

import ast
from pathlib import Path

__all__ = ["modules", "imports", "private_imports", "private_reads", "private_crossings",
           "import_cycles", "name_branches"]


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


def private_imports(folder: Path, package: str = "turub") -> list[str]:
    """Each private name a module of ``folder`` imports from another module of it."""
    trees = modules(folder)
    known = set(trees)
    return [f"{name or '__init__'}:{line} imports {target}.{n}"
            for name, tree in trees.items() for line, target, names in imports(name, tree, known, package)
            for n in names if private(n) and target != name]


def private_reads(folder: Path) -> list[str]:
    """Each private attribute a module of ``folder`` reads while only another module defines it."""
    trees = modules(folder)
    own = {name: defined_privates(tree) for name, tree in trees.items()}
    everyone = set().union(*own.values())
    return [f"{name or '__init__'}:{node.lineno} reads {ast.unparse(node)}"
            for name, tree in trees.items() for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and private(node.attr)
            and node.attr in everyone and node.attr not in own[name]]


def private_crossings(folder: Path, package: str = "turub") -> list[str]:
    """Each private name a module of ``folder`` imports from another, or reads as an attribute
    while only another module defines it."""
    return private_imports(folder, package) + private_reads(folder)


def import_cycles(folder: Path, package: str = "turub") -> list[list[str]]:
    """The import circles among the modules of ``folder`` (each as a path back to its start)."""
    trees = modules(folder)
    known = set(trees)
    graph = {name: sorted({t for _, t, _ in imports(name, tree, known, package) if t != name})
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


def name_branches(folder: Path, names: set[str], allowed: tuple[str, ...] = ()) -> list[str]:
    """Each comparison with one of ``names`` (an operation's or a decision's), each dict keyed
    by one, each set of them (a literal ``{...}``, or ``set``/``frozenset`` of a tuple or list:
    a name-keyed table of a kind's members) and each ``case`` on one, in ``folder`` (but the
    modules ``allowed``: the records)."""
    wrong = []
    for path in sorted(folder.rglob("*.py")):
        if path.relative_to(folder).as_posix() in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            texts: list[ast.expr] = []
            if isinstance(node, ast.Compare):
                texts = [node.left, *node.comparators]
                texts += [e for t in list(texts) if isinstance(t, (ast.Tuple, ast.List, ast.Set))
                          for e in t.elts]
            elif isinstance(node, ast.Dict):
                texts = [k for k in node.keys if k is not None]
            elif isinstance(node, ast.Set):
                texts = list(node.elts)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("set", "frozenset") and node.args and \
                    isinstance(node.args[0], (ast.Tuple, ast.List)):
                texts = list(node.args[0].elts)
            elif isinstance(node, ast.MatchValue):
                texts = [node.value]
            if any(isinstance(t, ast.Constant) and t.value in names for t in texts):
                wrong.append(f"{path.relative_to(folder)}:{node.lineno}: {ast.unparse(node)[:80]}")
    return wrong
