"""The examples in the engine's docstrings run and give what they say."""

import doctest
import importlib
import pkgutil

import pytest

import turub

MODULES = sorted(m.name for m in pkgutil.walk_packages(turub.__path__, "turub.")
                 if m.name.count(".") == 1 or m.name.startswith("turub.tools."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_examples_are_found():
    assert sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES) > 20
