"""Loading a user's Python adapter (``turub check --python module:Object``) by the name
the user gave, without shadowing.

``module:Object`` is looked up first in the current directory (as ``python -m`` would find
it), then among installed modules; ``path/to/file.py:Object`` loads that file.  A module
whose name is already taken by the kit (a user's ``turub.py``) is loaded under a private
alias, so neither hides the other.  Whatever goes wrong while loading (a syntax error, an
import error, ``SystemExit`` or ``KeyboardInterrupt`` raised at import, a missing
attribute, a constructor that fails) is one :class:`AdapterLoadError` with one line that
says what.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import sys
import traceback
from types import ModuleType
from typing import Any

from ..text import safe_text

__all__ = ["AdapterLoadError", "load_adapter", "split_spec"]

_ALIAS = "_turub_adapter_"


class AdapterLoadError(ImportError):
    """The adapter named on the command line could not be loaded (a usage error)."""


def split_spec(spec: str) -> tuple[str, str]:
    """``module:Object`` or ``path/file.py:Object`` split in two (AdapterLoadError if not)."""
    module_name, _, attr = spec.rpartition(":")
    if not module_name or not attr or not all(p.isidentifier() for p in attr.split(".")):
        raise AdapterLoadError(f"--python takes module:Object or path/file.py:Object, not {safe_text(spec, 200)!r}")
    return module_name, attr


def _free_name(name: str) -> str:
    return name if name not in sys.modules else _ALIAS + name


def _exec(spec: importlib.machinery.ModuleSpec, name: str) -> ModuleType:
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        if spec.loader is None:
            raise ImportError(f"cannot load {spec.origin}")
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def _import(module_name: str) -> ModuleType:
    if module_name.endswith(".py"):
        path = os.path.abspath(module_name)
        if not os.path.isfile(path):
            raise AdapterLoadError(f"no Python file {safe_text(module_name, 300)}")
        sys.path.insert(0, os.path.dirname(path))  # its neighbours import as they would when run
        stem = os.path.splitext(os.path.basename(path))[0]
        name = _free_name(stem)
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise AdapterLoadError(f"cannot load {safe_text(module_name, 300)} as Python")
        return _exec(spec, name)
    if not all(p.isidentifier() for p in module_name.split(".")):
        raise AdapterLoadError(f"{safe_text(module_name, 200)!r} is not a module name")
    top, _, rest = module_name.partition(".")
    cwd = os.getcwd()
    here = importlib.machinery.PathFinder.find_spec(top, [cwd])
    if here is None:
        return importlib.import_module(module_name)
    if cwd not in sys.path:
        sys.path.insert(0, cwd)  # as `python -m` would: its neighbours import
    name = _free_name(top)
    package = sys.modules.get(name) if name == top and top in sys.modules else None
    package = package or _exec(here, name)
    return importlib.import_module(f"{name}.{rest}") if rest else package


def _describe(e: BaseException) -> str:
    if isinstance(e, SyntaxError):
        return f"SyntaxError: {e.msg} ({e.filename}, line {e.lineno})"
    frames = traceback.extract_tb(e.__traceback__)
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(e).__name__}: {e}{where}"


def load_adapter(spec: str) -> Any:
    """The object named by ``spec``; a class is instantiated without arguments."""
    module_name, attr = split_spec(spec)
    try:
        obj: Any = _import(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj() if inspect.isclass(obj) else obj
    except AdapterLoadError:
        raise
    except BaseException as e:  # noqa: BLE001 - SystemExit and KeyboardInterrupt included
        raise AdapterLoadError(f"cannot load {safe_text(spec, 200)}: {safe_text(_describe(e), 500)}") from None
