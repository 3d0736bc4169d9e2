"""The subject of the kit's mutation campaign: ``tests/broken/independent.py`` with its bug
switches folded away.

``independent.py`` is a correct implementation with one rule wrong on demand
(``Independent(bug)``).  For the campaign only the correct program counts, and the switches
get in mutmut's way twice over: its lines that name a bug would be mutated into bugs the
kit is already tested against (or had to be kept out of mutation, with the rule on the same
line), and mutmut leaves every decorated function alone, so the ``@_in_bug`` operations
(``contest``, ``next_dealer``, ``first_dealer``, ``check_packets``...) were never mutated.

:func:`correct_source` reads the file, evaluates each switch as the correct program does
(``bug`` is ``None``: ``self.bug == "x"`` is false, ``self.bug != "x"`` true, ``STRICT``
false, ``RANK_BUG is not None`` false), removes the branches that can no longer run and the
``@_in_bug`` decorators (with ``bug`` ``None`` the wrapper only calls the method), and
writes the program back as plain Python: the same answers to every question, and every
line of it open to mutation.  ``tests/test_kit_mutants.py`` checks that the folded program
conforms and names no bug.
"""

from __future__ import annotations

import ast
from pathlib import Path

#: Names whose value in the correct program is known: the module-level switches.
_KNOWN = {"STRICT": False, "RANK_BUG": None}
#: What the correct program no longer needs once the switches are folded.
_DROPPED = {"_in_bug", "STRICT", "RANK_BUG", "BUGS", "bug"}


def _is_bug(node: ast.AST) -> bool:
    """``self.bug``, ``impl.bug``, ``self.impl.bug``: the bug switch, ``None`` here."""
    return isinstance(node, ast.Attribute) and node.attr == "bug"


def _known(node: ast.AST) -> tuple[bool, object]:
    """(True, its value) if ``node`` is a constant in the correct program."""
    if isinstance(node, ast.Constant):
        return True, node.value
    if _is_bug(node):
        return True, None
    if isinstance(node, ast.Name) and node.id in _KNOWN:
        return True, _KNOWN[node.id]
    return False, None


class _Fold(ast.NodeTransformer):
    """Constant-fold the switches and drop the branches they shut."""

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1:
            return node
        (left_known, left), (right_known, right) = _known(node.left), _known(node.comparators[0])
        if not (left_known and right_known) or not (_is_bug(node.left) or _is_bug(node.comparators[0])
                                                   or isinstance(node.left, ast.Name)):
            return node
        op = node.ops[0]
        value = {ast.Eq: left == right, ast.NotEq: left != right,
                 ast.Is: left is right, ast.IsNot: left is not right}.get(type(op))
        return node if value is None else ast.Constant(value)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == "STRICT" and isinstance(node.ctx, ast.Load):
            return ast.Constant(False)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        absorbing = isinstance(node.op, ast.Or)  # True absorbs an `or`, False an `and`
        kept = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, bool):
                if value.value is absorbing:
                    return ast.Constant(absorbing)
                continue  # the neutral element
            kept.append(value)
        if not kept:
            return ast.Constant(not absorbing)
        return kept[0] if len(kept) == 1 else ast.BoolOp(op=node.op, values=kept)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant) \
                and isinstance(node.operand.value, bool):
            return ast.Constant(not node.operand.value)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant) and isinstance(node.test.value, bool):
            return node.body if node.test.value else node.orelse
        return node

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant) and isinstance(node.test.value, bool):
            return (node.body if node.test.value else node.orelse) or [ast.Pass()]  # tidied later
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST | None:
        if node.name in _DROPPED:
            return None
        node.decorator_list = [d for d in node.decorator_list
                               if not (isinstance(d, ast.Name) and d.id == "_in_bug")]
        self.generic_visit(node)
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.AST | None:
        if any(isinstance(t, ast.Name) and t.id in _DROPPED for t in node.targets):
            return None
        self.generic_visit(node)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST | None:
        if isinstance(node.target, ast.Name) and node.target.id in _DROPPED:
            return None
        return node


def _tidy(tree: ast.AST) -> None:
    """What folding leaves behind, removed so that it breeds no mutants that change nothing:
    a ``pass`` beside other statements or as a whole ``else``, a ``try`` whose only handler
    re-raises, a store to a name never read (a value without calls), and an ``if`` right
    after one with the same test that always leaves (``raise``, ``return``)."""
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list) and body:
                setattr(node, field, _tidy_body(body, keep_one=field == "body"))
        if isinstance(node, ast.FunctionDef):
            read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            for inner in ast.walk(node):
                for field in ("body", "orelse"):
                    body = getattr(inner, field, None)
                    if isinstance(body, list):
                        setattr(inner, field, [s for s in body if not _dead_store(s, read)] or body[:1])


def _tidy_body(body: list, keep_one: bool) -> list:
    out: list = []
    for s in body:
        if isinstance(s, ast.Try) and not s.orelse and not s.finalbody and len(s.handlers) == 1 \
                and len(s.handlers[0].body) == 1 and isinstance(s.handlers[0].body[0], ast.Raise) \
                and s.handlers[0].body[0].exc is None:
            out.extend(s.body)
            continue
        if out and isinstance(s, ast.If) and isinstance(out[-1], ast.If) and not out[-1].orelse \
                and ast.dump(s.test) == ast.dump(out[-1].test) \
                and isinstance(out[-1].body[-1], (ast.Raise, ast.Return)):
            continue  # never reached
        out.append(s)
    if len(out) > 1 or not keep_one:
        out = [s for s in out if not isinstance(s, ast.Pass)]
    return out if out or not keep_one else [ast.Pass()]


def _dead_store(statement: ast.stmt, read: set[str]) -> bool:
    return isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
        and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id not in read \
        and not any(isinstance(n, ast.Call) for n in ast.walk(statement.value))


def correct_source(path: Path) -> str:
    """The correct program of ``path`` (``tests/broken/independent.py``), switches folded."""
    tree = _Fold().visit(ast.parse(path.read_text(encoding="utf-8")))
    while True:  # to a fixed point: one removal can open another
        before = ast.dump(tree)
        _tidy(tree)
        if ast.dump(tree) == before:
            break
    init = _init_without_bug()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Independent":
            node.body = [init if isinstance(s, ast.FunctionDef) and s.name == "__init__" else s
                         for s in node.body]
    ast.fix_missing_locations(tree)
    return ast.unparse(tree) + "\n"


def _init_without_bug() -> ast.FunctionDef:
    """``Independent()``: the correct program, which takes no bug."""
    tree = ast.parse('def __init__(self) -> None:\n    self.name = "independent-correct"\n')
    return tree.body[0]  # type: ignore[return-value]
