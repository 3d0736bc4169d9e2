"""Traceability by reading the source: which code implements a clause, which checks verify it.

Nothing here imports the engine's modules or the tests: the files are parsed with :mod:`ast`,
so a half-written test cannot break the scan and a check is found whether or not it runs.

* **Code** (``reference/*.py``): a function, class, method, module constant or module
  *implements* a clause when its docstring (or the ``#:`` comment above a constant) names the
  clause ID in double backquotes (````play.turn````; doctest examples and contract lines are
  code, not citations), or when its code cites the ID as a string (``cite("trick.highest-led")``,
  ``clause="play.turn"``, ``default_clause = "play.follow-suit"``).
* **Checks** (``tests/``, ``properties/``, ``conformance/``): a function or class decorated
  with ``@verifies("id", ...)`` (``turub.properties.tags``) *verifies* those clauses.
* **Spec** (``spec/*.md``): the clause items placed with the ``spec-clause`` directive.

Every ID found is kept, known or not, so the build can report a citation of a clause that
does not exist.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE_DIR = "reference"
CHECK_DIRS = ("tests", "properties", "conformance")
SPEC_DIR = "spec"


def clause_pattern(prefixes: set[str] | frozenset[str]) -> re.Pattern[str]:
    """A clause ID with one of ``prefixes``, not part of a longer dotted name."""
    alternatives = "|".join(sorted(map(re.escape, prefixes)))
    return re.compile(r"(?<![\w.-])((?:%s)\.[a-z0-9]+(?:-[a-z0-9]+)*)(?![\w(-])" % alternatives)


def cited_pattern(prefixes) -> re.Pattern[str]:
    """A clause ID as docstrings and ``#:`` comments cite it: in double backquotes."""
    alternatives = "|".join(sorted(map(re.escape, prefixes)))
    return re.compile(r"``((?:%s)\.[a-z0-9]+(?:-[a-z0-9]+)*)``" % alternatives)


def _prose(doc: str) -> str:
    """A docstring without its doctest examples (``>>> deal.view(...)`` is code, not a citation)."""
    out: list[str] = []
    in_example = False
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>"):
            in_example = True
        elif not stripped:
            in_example = False
        if not in_example:
            out.append(line)
    return "\n".join(out)


def _registry_prefixes() -> frozenset[str]:
    from turub.clauses import CLAUSES

    return frozenset(cid.split(".")[0] for cid in CLAUSES)


@dataclass(frozen=True)
class CodeItem:
    """A piece of the engine that cites clauses."""

    name: str  # turub.rules.trick_winner
    kind: str  # module, class, function, method, constant
    path: Path
    start: int  # first line (1-based), the def/class line or the constant's line
    end: int  # last line to show
    pyobject: str | None  # for literalinclude :pyobject:, else None (use lines)
    clauses: tuple[str, ...]
    summary: str

    @property
    def need_id(self) -> str:
        return "code:" + self.name.replace(".", ":")


@dataclass(frozen=True)
class CheckItem:
    """A test, property or proof tagged with ``@verifies``."""

    name: str  # tests.test_rules.test_next_dealer
    path: Path
    line: int
    clauses: tuple[str, ...]
    summary: str

    @property
    def need_id(self) -> str:
        return "check:" + self.name.replace(".", ":")

    @property
    def title(self) -> str:
        last = self.name.rsplit(".", 1)[-1]
        words = last.removeprefix("test_").replace("_", " ").strip()
        return words[:1].upper() + words[1:]


def _first_line(doc: str | None) -> str:
    if not doc:
        return ""
    for line in doc.strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def _unique(ids) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


def _literals(nodes, pattern: re.Pattern[str], skip: set[int]) -> list[str]:
    """Clause IDs written as whole string literals under ``nodes`` (not in nested defs)."""
    found: list[str] = []
    stack = list(nodes)
    while stack:
        node = stack.pop(0)
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if pattern.fullmatch(node.value):
                found.append(node.value)
            continue
        stack[:0] = list(ast.iter_child_nodes(node))
    return found


def _docstring_node(body: list[ast.stmt]) -> ast.AST | None:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[0].value
    return None


def _comment_above(lines: list[str], lineno: int) -> str:
    """The ``#:`` comment block right above line ``lineno`` (1-based)."""
    out: list[str] = []
    i = lineno - 2
    while i >= 0 and lines[i].lstrip().startswith("#:"):
        out.insert(0, lines[i].lstrip()[2:].strip())
        i -= 1
    return " ".join(out)


def _cached(cache: dict | None, key: tuple, path: Path, make):
    """``make()``, or its result kept in ``cache`` while ``path`` is unchanged (same
    modification time and size): an incremental docs build does not parse every file again."""
    if cache is None:
        return make()
    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    kept = cache.get(key)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    result = make()
    cache[key] = (stamp, result)
    return result


def scan_code(root: Path = ROOT, prefixes: frozenset[str] | None = None,
              cache: dict | None = None) -> list[CodeItem]:
    """Every module, class, function, method and constant in ``reference/`` citing a clause.

    ``cache`` (any dict kept between calls) spares parsing files that did not change."""
    prefixes = prefixes or _registry_prefixes()
    pattern = clause_pattern(prefixes)
    cited = cited_pattern(prefixes)
    items: list[CodeItem] = []
    for path in sorted((root / CODE_DIR).glob("*.py")):
        items += _cached(cache, ("code", str(path), tuple(sorted(prefixes))), path,
                         lambda path=path: _code_in(path, pattern, cited))
    return items


def _code_in(path: Path, pattern: re.Pattern[str], cited: re.Pattern[str]) -> list[CodeItem]:
    """The items of one engine file that cite a clause."""
    items: list[CodeItem] = []
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source, filename=str(path))
    module = "turub" if path.stem == "__init__" else "turub." + path.stem
    # The registry's own table names every clause: it defines them, it implements none.
    literal_pattern = pattern if path.name != "clauses.py" else re.compile(r"(?!)")
    doc = ast.get_docstring(tree, clean=False)
    if doc:
        ids = _unique(cited.findall(_prose(doc)))
        if ids:
            end = tree.body[0].end_lineno or 1
            items.append(CodeItem(module, "module", path, 1, end, None, ids, _first_line(doc)))

    def visit(node: ast.AST, prefix: str, in_class: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            qual = prefix + node.name
            doc = ast.get_docstring(node, clean=False) or ""
            docnode = _docstring_node(node.body)
            nested = [n for n in node.body
                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
            skip = {id(n) for n in nested} | ({id(docnode)} if docnode else set())
            skip |= {id(d) for d in node.decorator_list}
            ids = _unique(cited.findall(_prose(doc)) + _literals(node.body, literal_pattern, skip))
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if isinstance(node, ast.ClassDef):
                kind = "class"
                methods = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
                end = (min(m.lineno for m in methods) - 1) if methods else (node.end_lineno or node.lineno)
                while end > node.lineno and not lines[end - 1].strip():
                    end -= 1
                # methods are their own items
                for child in nested:
                    visit(child, qual + ".", True)
                pyobject = None
            else:
                kind = "method" if in_class else "function"
                end = node.end_lineno or node.lineno
                pyobject = qual
                # nested functions count as part of this one
                ids = _unique(ids + tuple(_literals(nested, literal_pattern, set())))
            if ids:
                items.append(CodeItem(f"{module}.{qual}", kind, path, start, end, pyobject,
                                      ids, _first_line(doc)))

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            visit(node, "", False)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if not names:
                continue
            comment = _comment_above(lines, node.lineno)
            ids = _unique(cited.findall(comment) + _literals([node.value] if node.value else [],
                                                               literal_pattern, set()))
            if ids:
                start = node.lineno
                while start > 1 and lines[start - 2].lstrip().startswith("#:"):
                    start -= 1
                items.append(CodeItem(f"{module}.{names[0]}", "constant", path, start,
                                      node.end_lineno or node.lineno, None, ids, comment))
    return items


def _verifies_args(decorator: ast.expr) -> list[str] | None:
    if not isinstance(decorator, ast.Call):
        return None
    func = decorator.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name != "verifies":
        return None
    return [a.value for a in decorator.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def scan_checks(root: Path = ROOT, folders: tuple[str, ...] = CHECK_DIRS,
                cache: dict | None = None) -> list[CheckItem]:
    """Every function or class decorated with ``@verifies(...)`` under ``folders``.

    ``cache`` (any dict kept between calls) spares parsing files that did not change."""
    items: list[CheckItem] = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            if "__pycache__" in path.parts or "_build" in path.parts:
                continue
            items += _cached(cache, ("checks", str(path)), path,
                             lambda path=path: _checks_in(root, path))
    return items


def _checks_in(root: Path, path: Path) -> list[CheckItem]:
    """The checks of one file."""
    items: list[CheckItem] = []
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError:
        return []  # a file being written; its checks appear once it parses
    dotted = ".".join(path.relative_to(root).with_suffix("").parts)

    def visit(body, prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                ids: list[str] = []
                for d in node.decorator_list:
                    args = _verifies_args(d)
                    if args:
                        ids += args
                qual = prefix + node.name
                if ids:
                    items.append(CheckItem(f"{dotted}.{qual}", path, node.lineno,
                                           _unique(ids), _first_line(ast.get_docstring(node))))
                if isinstance(node, ast.ClassDef):
                    visit(node.body, qual + ".")

    visit(tree.body, "")
    return items


SPEC_CLAUSE = re.compile(r"^\s*(?:`{3,}|:{3,})\{spec-clause\}\s+(\S+)", re.MULTILINE)


def scan_spec(root: Path = ROOT) -> dict[str, list[str]]:
    """The clause IDs placed in each ``spec/*.md`` page, in order."""
    return {p.name: SPEC_CLAUSE.findall(p.read_text(encoding="utf-8"))
            for p in sorted((root / SPEC_DIR).glob("*.md"))}


_RESTS_ON = re.compile(r"^(?::{3,}|`{3,})\{spec-clause\}\s+(\S+)\n((?::[\w-]+:[^\n]*\n)*)", re.M)


def scan_rests_on(root: Path = ROOT) -> dict[str, list[str]]:
    """Each advice clause's ``:rests-on:`` clauses, read from ``spec/*.md``."""
    found: dict[str, list[str]] = {}
    for page in sorted((root / SPEC_DIR).glob("*.md")):
        for m in _RESTS_ON.finditer(page.read_text(encoding="utf-8")):
            for field in re.findall(r"^:rests-on:\s*(.*)$", m.group(2), re.M):
                found[m.group(1)] = [r.strip() for r in field.split(",") if r.strip()]
    return found


def scan_spec_fields(root: Path = ROOT) -> dict[str, dict[str, str]]:
    """Each clause item's fields (``agreement``, ``option``, ``rests-on``) in ``spec/*.md``."""
    found: dict[str, dict[str, str]] = {}
    for page in sorted((root / SPEC_DIR).glob("*.md")):
        for m in _RESTS_ON.finditer(page.read_text(encoding="utf-8")):
            found[m.group(1)] = dict(re.findall(r"^:([\w-]+):\s*(.*)$", m.group(2), re.M))
    return found


_ITEM_BODY = re.compile(r"^(:{3,})\{spec-clause\}[ ]+(\S+)\n(.*?)^\1[ ]*$", re.M | re.S)
_NOTE = re.compile(r"^:{3,}\{interpretation\}[ ]*(.*)$", re.M)


def beyond_the_sources(clauses: dict, root: Path = ROOT) -> dict[str, tuple[str, ...]]:
    """Every clause whose text goes beyond the sources, with the titles of its notes: a clause
    of kind ``interpretation``, one whose sources are silent or disagree, and one that carries
    an interpretation note (a reading of a source's wording, or the project's addition to a
    rule the sources agree on).  In the order of the spec's pages."""
    found: dict[str, tuple[str, ...]] = {}
    for name in spec_order(root):
        page = root / SPEC_DIR / name
        if not page.is_file():
            continue
        for m in _ITEM_BODY.finditer(page.read_text(encoding="utf-8")):
            cid, body = m.group(2), m.group(3)
            agreement = dict(re.findall(r"^:([\w-]+):\s*(.*)$", body, re.M)).get("agreement")
            notes = tuple(t.strip() or "Interpretation" for t in _NOTE.findall(body))
            kind = clauses[cid].kind if cid in clauses else ""
            if notes or kind == "interpretation" or agreement in ("silent", "disagree"):
                found[cid] = notes
    return found


def spec_order(root: Path = ROOT) -> list[str]:
    """The spec's pages (``NAME.md``) in the order of its table of contents, then any others."""
    index = (root / SPEC_DIR / "index.md").read_text(encoding="utf-8")
    toc = re.search(r"```\{toctree\}\n(.*?)```", index, re.S)
    listed = [f"{line.strip()}.md" for line in (toc.group(1) if toc else "").splitlines()
              if line.strip() and not line.startswith(":")]
    others = sorted(p.name for p in (root / SPEC_DIR).glob("*.md") if p.name not in listed)
    return listed + others


def page_title(name: str, root: Path = ROOT) -> str:
    """The first heading of ``spec/NAME``."""
    for line in (root / SPEC_DIR / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return name


def need_id(clause_id: str) -> str:
    """The sphinx-needs ID of a clause: ``play.follow-suit`` → ``play:follow-suit``.

    sphinx-needs reads ``ID.part`` as a part of a need, so a need ID cannot hold a dot.
    """
    return clause_id.replace(".", ":")


def citation_section(citation: str) -> str:
    """The source and section of a citation: ``000 §01 ¶1 s2`` → ``000 §01`` (see turub.tools.sources)."""
    return re.sub(r" ¶\d.*$", "", citation)


def citation_label(citation: str) -> str:
    """The label of a citation's section on the sources page: ``000 §01 ¶1 s2`` → ``src-000-01``."""
    section = citation_section(citation)
    return "src-" + re.sub(r"[^a-z0-9]+", "-", section.lower().replace("§", "")).strip("-")
