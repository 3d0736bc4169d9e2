"""The house's layout (issues 23, 29): the kit's rooms import in one direction, the rules never
import the tooling, no private name crosses a module of the kit, no import circle, no branch
on an operation's name outside its record (tests/structure.py), and no function outgrows a
screen, data tables aside (each exemption says why).

Read from the source with :mod:`ast`, so an import inside a function counts as much as one at
the top of a module.
"""

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The kit's rooms, in the one direction of imports: a module imports only from its own room
#: and the rooms before it (see turub.conformance's docstring).  Modules at the kit's top
#: level (operations, adapter, results, ruleset, option_checks, text, resources) are the
#: shared contract.
ROOMS = ("shared", "programs", "judging", "questions", "diagnosis", "reports", "commands")


def room_of(dotted: str) -> str:
    """The room of a module named relative to ``turub.conformance`` (``reports.report``)."""
    first = dotted.split(".")[0]
    return first if first in ROOMS else "shared"


def kit_imports(path: Path, folder: Path) -> list[tuple[int, str]]:
    """Every module of the kit that ``path`` imports, named relative to the kit, with its line."""
    package = list(path.relative_to(folder).with_suffix("").parts)[:-1]  # a/b.py, a/__init__.py: a
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - (node.level - 1)]
            if node.module:
                found.append((node.lineno, ".".join([*base, node.module])))
            else:  # from .. import option_checks: each name may be a module
                found += [(node.lineno, ".".join([*base, a.name])) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("turub.conformance."):
            found.append((node.lineno, node.module.removeprefix("turub.conformance.")))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name.removeprefix("turub.conformance.")) for a in node.names
                      if a.name.startswith("turub.conformance.")]
    return found


def upward_imports(folder: Path) -> list[str]:
    """Each import in ``folder`` (a copy of the kit) from a room after the importer's own."""
    wrong = []
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        own = room_of(".".join(parts)) if parts[0] != "__init__" else "shared"
        for line, module in kit_imports(path, folder):
            if ROOMS.index(room_of(module)) > ROOMS.index(own):
                wrong.append(f"{path.relative_to(folder)}:{line} ({own}) imports {module} "
                             f"({room_of(module)})")
    return wrong


def test_the_kits_rooms_import_in_one_direction():
    assert upward_imports(ROOT / "conformance") == []


@pytest.mark.parametrize("line", [
    "from ..commands.check import run_check",         # a room below, relative
    "from turub.conformance.reports import report",   # a room below, absolute
    "import turub.conformance.diagnosis.blame",
])
def test_an_upward_import_is_caught(tmp_path, line):
    kit = tmp_path / "conformance"
    for room in ROOMS[1:]:
        (kit / room).mkdir(parents=True)
        (kit / room / "__init__.py").write_text("")
    (kit / "judging" / "judge.py").write_text(f"def late():\n    {line}\n")  # inside a function
    (kit / "reports" / "report.py").write_text("from ..judging.judge import late\nfrom .. import text\n")
    assert [w.split(" imports ")[0] for w in upward_imports(kit)] == ["judging/judge.py:2 (judging)"]


def test_the_rules_never_import_the_tooling():
    # reference/ holds the rules; reference/tools/ the command line, the sources reader and
    # the progress bar, which may import the rules but not the reverse.
    wrong = []
    for path in sorted((ROOT / "reference").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
                if (node.level == 1 and ("tools" in names or (node.module or "").startswith("tools"))) \
                        or (node.module or "").startswith("turub.tools"):
                    wrong.append(f"{path.name}:{node.lineno}")
    assert wrong == []


# --- size and structure ------------------------------------------------------------------
# A module is the size of its job (no line cap); a function fits a screen.  What keeps the
# house readable is its structure, read by tests/structure.py: no private name crosses a
# module, no import circle, no branch on an operation's name outside its record.

FUNCTION_LINES = 60

#: Functions allowed past FUNCTION_LINES, and why.
LONG_FUNCTIONS = {
    "reference/house_rule_deal.py:_plays_by": "the house rules' playout, one loop: a helper called at "
                                               "each play costs a rule asked at every play a tenth more",
    "conformance/commands/cli.py:_add_check": "the options of turub check, one add_argument "
                                              "per option (a table in code)",
    "conformance/questions/offences.py:all_offences": "the table of offences, one row per way a "
                                                      "clause can be broken (a table in code)",
    "reference/deal.py:play_turn": "the one-call-per-card path: play's checks inline, in order, "
                                   "for speed (benchmarks/bench_card_by_card.py, #33)",
    "conformance/questions/streams.py:play_stream": "the referee's stream, its injections and plays "
                                                    "inline for speed (12% of its time, #33)",
}


def sizes() -> tuple[dict[str, int], dict[str, int]]:
    """Lines per module and per function (methods and nested functions each on their own)."""
    modules, functions = {}, {}
    for folder in ("reference", "conformance"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            text = path.read_text(encoding="utf-8")
            modules[name] = text.count("\n")
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    key = f"{name}:{node.name}"
                    functions[key] = max(functions.get(key, 0), node.end_lineno - node.lineno + 1)
    return modules, functions


_spec = importlib.util.spec_from_file_location("structure", Path(__file__).with_name("structure.py"))
structure = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(structure)
KIT, KIT_PACKAGE = ROOT / "conformance", "turub.conformance"

#: The protocol's operations by name (an independent list: spec/protocol.schema.json's).
OPERATION_NAMES = {"trick_winner", "legal_plays", "deal", "check_packets", "referee", "deal_result",
                   "next_dealer", "first_dealer", "contest"}


def test_no_private_name_is_imported_across_the_kits_modules():
    assert structure.private_imports(KIT, KIT_PACKAGE) == []


def test_no_private_attribute_of_another_kit_module_is_read():
    assert structure.private_reads(KIT) == []


def test_the_kit_has_no_import_circle_deferred_imports_included():
    assert structure.import_cycles(KIT, KIT_PACKAGE) == []


def test_operation_names_are_branched_on_only_in_their_records():
    assert structure.name_branches(KIT, OPERATION_NAMES, ("operations.py",)) == [], \
        "a branch on an operation's name: make it a part (or a field) of the operation's record"


@pytest.mark.parametrize("files, caught", [
    ({"a.py": "from .b import _hidden\n", "b.py": "_hidden = 1\n"}, "private_imports"),
    ({"a.py": "import turub.conformance.b as b\nx = b._hidden\n", "b.py": "_hidden = 1\n"}, "private_reads"),
    ({"a.py": "def f():\n    from turub.conformance import b\n", "b.py": "from . import a\n"}, "import_cycles"),
    ({"a.py": "def f(op):\n    return op == 'referee'\n", "b.py": ""}, "name_branches"),
    ({"a.py": "DECISIVE = frozenset({'deal'})\n", "b.py": ""}, "name_branches"),
    ({"a.py": "RULED = frozenset(('deal', 'referee'))\n", "b.py": ""}, "name_branches"),
])
def test_each_structure_rule_catches_its_breach_in_the_kit(tmp_path, files, caught):
    kit = tmp_path / "conformance"
    kit.mkdir()
    (kit / "__init__.py").write_text("")
    for name, text in files.items():
        (kit / name).write_text(text)
    found = {"private_imports": structure.private_imports(kit, KIT_PACKAGE),
             "private_reads": structure.private_reads(kit),
             "import_cycles": structure.import_cycles(kit, KIT_PACKAGE),
             "name_branches": structure.name_branches(kit, OPERATION_NAMES)}
    assert [rule for rule, wrong in found.items() if wrong] == [caught]


def test_no_function_outgrows_a_screen_but_the_listed_ones():
    _, functions = sizes()
    long = {name for name, n in functions.items() if n > FUNCTION_LINES}
    assert long - set(LONG_FUNCTIONS) == set(), "over 60 lines: split it, or list it with a reason"
    assert set(LONG_FUNCTIONS) - long == set(), "no longer long: drop it from LONG_FUNCTIONS"


# --- the developers' and implementers' guides show the rooms -----------------------------------------------

def kit_rooms() -> dict[str, set[str]]:
    """Each room of the kit (``conformance/`` for the top) and the modules in it."""
    kit = ROOT / "conformance"
    rooms = {"conformance/": {p.stem for p in kit.glob("*.py")} - {"__init__"}}
    for folder in sorted(p.parent for p in kit.glob("*/__init__.py")):
        rooms[f"{folder.name}/"] = {p.stem for p in folder.glob("*.py")} - {"__init__"}
    return rooms


DEVELOPERS = ROOT / "docs" / "guides" / "developers.md"


def test_the_developers_guide_shows_each_room_of_the_kit_with_its_modules():
    readme = DEVELOPERS.read_text(encoding="utf-8")
    shown = {}
    for row in re.findall(r"^\| `([a-z]+/)`[^|]*\| ([^|]*) \|", readme, flags=re.M):
        room, modules = row
        if room in kit_rooms() or room == "conformance/":
            shown[room] = set(re.findall(r"`(\w+)`", modules))
    # the layout table's own conformance/ row has no module list: the room table's does
    assert shown == kit_rooms()
    assert list(shown) == ["conformance/", *(f"{r}/" for r in ROOMS[1:])], "the rooms, in order"


#: The words for what the kit checks (issue 29): each defined once, in one guide's table.
CHECKED_WORDS = ("program", "implementation", "adapter", "target")


def test_each_word_for_what_the_kit_checks_is_defined_once_and_names_real_code():
    guides = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "guides").glob("*.md")}
    rows = {w: [(name, line) for name, text in guides.items() for line in text.splitlines()
                if line.startswith(f"| **{w}** |")] for w in CHECKED_WORDS}
    assert {w: [name for name, _ in found] for w, found in rows.items()} == \
        dict.fromkeys(CHECKED_WORDS, ["developers.md"]), "one defining row per word, in the developers' guide"
    for word, [(_, line)] in rows.items():
        for dotted in re.findall(r"`(turub(?:\.\w+)+)`", line.rsplit("|", 2)[1]):
            module, _, name = dotted.rpartition(".")
            assert hasattr(importlib.import_module(module), name), f"{word}: {dotted} does not exist"


def test_the_implementers_guide_lists_each_room_of_the_kit():
    guide = (ROOT / "docs" / "guides" / "implementers.md").read_text(encoding="utf-8")
    section = guide.split("## The kit's modules", 1)[1].split("\n## ", 1)[0]
    items = re.split(r"\n- ", section)[1:]
    listed = {}
    for item in items:
        room = re.match(r"`(\w+/)`", item)
        listed[room.group(1) if room else "conformance/"] = set(re.findall(r"`(\w+)`", item))
    assert {room: listed.get(room, set()) >= modules for room, modules in kit_rooms().items()} \
        == dict.fromkeys(kit_rooms(), True)


def test_the_developers_guide_names_every_module_of_the_engine():
    readme = DEVELOPERS.read_text(encoding="utf-8")
    named = set(re.findall(r"`turub\.(\w+)`", readme)) | {
        f"tools.{m}" for m in re.findall(r"`tools\.(\w+)`", readme)}
    modules = {p.stem for p in (ROOT / "reference").glob("*.py")} - {"__init__"}
    modules |= {f"tools.{p.stem}" for p in (ROOT / "reference" / "tools").glob("*.py")} - {"tools.__init__"}
    assert modules - named == set()
