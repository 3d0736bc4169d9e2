"""The engine's structure (issue 29), read from its own code with :mod:`ast`: no private name
crosses a module of ``reference/``, no import circle (deferred imports included), and no branch
on an overridable decision's name outside the decisions' records (``turub.decisions``).

Imports under ``if TYPE_CHECKING:`` never run and are left out; every other import counts,
inside a function as much as at the top of a module.  Self-contained: the kit's own layout
checks are ``tests/test_layout.py``.
"""

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "reference"

#: The overridable decisions, by name (an independent list: the decisions' records must agree).
DECISION_NAMES = {"legal_plays", "trick_winner", "deal_result", "next_dealer", "contest_step", "may_signal",
                  "first_dealer", "deal_stands", "trump_caller"}


_spec = importlib.util.spec_from_file_location("structure", Path(__file__).with_name("structure.py"))
structure = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(structure)
private_crossings, import_circles = structure.private_crossings, structure.import_cycles
decision_branches = structure.name_branches


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
