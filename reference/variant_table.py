"""The table of variant names every command reads: the built-ins, installed packages
(entry points), registered variants, and files (``path.py:NAME``, ``path.toml``,
``path.json``).  :mod:`turub.variants` re-exports everything here."""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from .errors import RuleError, RulesOptionError
from .options import Rules, rules_from_dict
from .variants import ENTRY_POINT_GROUP, Variant, VariantClause, VariantError

__all__ = ["BUILTIN", "register", "variant_names", "load_file", "from_data", "resolve", "select",
           "find"]


#: The built-in variants: the option presets, as variants.
BUILTIN: Final[dict[str, Variant]] = {}

_REGISTERED: dict[str, Variant] = {}
_ENTRY_POINTS_LOADED = [False]


def _builtin(name: str, description: str, **options: str) -> None:
    BUILTIN[name] = Variant(name, "1", None, options, description=description)


_builtin("standard", "The game as the guide plays it: every option at its default.")
_builtin("counterclockwise", "Play and deal run counter-clockwise (table.direction).",
         direction="counterclockwise")
_builtin("stake-per-deal", "Each won deal settles the stake on its own (stake.per-deal).",
         stake="per-deal")
_builtin("opponent-previous", "After the dealer's side wins, the other opponent deals "
         "(dealer.after-win).", **{"opponent-dealer": "previous"})
_builtin("signals-documented", "Only the two documented signals, the knock and the click "
         "(signal.kinds).", **{"signal-kinds": "documented"})
_builtin("early-close-known", "A deal closed with one side already past 18 tricks is that "
         "side's win (result.closed-early).", **{"early-close": "known-result"})


def register(variant: Variant) -> Variant:
    """Add ``variant`` to the table of names (a name already taken by another variant is refused)."""
    if not isinstance(variant, Variant):
        raise VariantError(f"{variant!r} is not a Variant")
    known = BUILTIN.get(variant.name) or _REGISTERED.get(variant.name)
    if known is not None and known != variant:
        raise VariantError(f"the name {variant.name!r} is taken by another variant")
    _REGISTERED.setdefault(variant.name, variant)
    return variant


def _load_entry_points() -> None:
    if _ENTRY_POINTS_LOADED[0]:
        return
    _ENTRY_POINTS_LOADED[0] = True
    from importlib.metadata import entry_points
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            v = ep.load()
            v = v() if callable(v) and not isinstance(v, Variant) else v
            register(replace(v, source=f"entry point {ep.value}") if isinstance(v, Variant) else v)
        except Exception as e:  # noqa: BLE001 - one broken package must not hide the others
            _BROKEN[ep.name] = f"entry point {ep.value}: {type(e).__name__}: {e}"


_BROKEN: dict[str, str] = {}


def variant_names() -> dict[str, Variant]:
    """Every variant known by name: the built-ins, then installed and registered ones."""
    _load_entry_points()
    return {**BUILTIN, **{k: v for k, v in _REGISTERED.items() if k not in BUILTIN}}


def load_file(path: str | Path, name: str | None = None) -> Variant:
    """The variant in a file: ``club.py`` (the Variant named ``name``, or its only one),
    ``club.toml`` or ``club.json`` (declarative: ``name``, ``version``, ``base``,
    ``options``, ``description`` and ``clauses`` without rules)."""
    p = Path(path)
    if not p.is_file():
        raise VariantError(f"no variant file {str(p)!r}")
    if p.suffix == ".py":
        spec = importlib.util.spec_from_file_location(f"turub_variant_{abs(hash(str(p.resolve())))}", p)
        if spec is None or spec.loader is None:
            raise VariantError(f"{p}: cannot be loaded as Python")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except RuleError:
            raise
        except Exception as e:  # noqa: BLE001 - the user's file: say what broke
            raise VariantError(f"{p}: {type(e).__name__}: {e}") from None
        found = {k: v for k, v in vars(module).items() if isinstance(v, Variant)}
        if name is not None:
            v = found.get(name) or next((x for x in found.values() if x.name == name), None)
            if v is None:
                raise VariantError(f"{p} has no variant {name!r} (it has: {', '.join(found) or 'none'})")
        else:
            own = [x for x in found.values() if x.name not in BUILTIN]
            if len(own) != 1:
                raise VariantError(f"{p} defines {len(own)} variants: name one ({p}:NAME)")
            v = own[0]
        return replace(v, source=str(p)) if not v.source else v
    if p.suffix in (".toml", ".json"):
        try:
            if p.suffix == ".toml":
                import tomllib
                data = tomllib.loads(p.read_text(encoding="utf-8"))
            else:
                data = json.loads(p.read_text(encoding="utf-8"))
        except (ValueError, OSError) as e:
            raise VariantError(f"{p}: {e}") from None
        return from_data(data, str(p))
    raise VariantError(f"{p}: a variant file is .py, .toml or .json")


def from_data(data: Mapping[str, Any], source: str = "") -> Variant:
    """A declarative variant: option values and clauses that override nothing."""
    if not isinstance(data, Mapping):
        raise VariantError(f"{source}: a variant is a table of name, version, options…")
    allowed = {"name", "version", "base", "options", "description", "clauses"}
    extra = set(data) - allowed
    if extra:
        raise VariantError(f"{source}: unknown key(s) {sorted(extra)}: use {sorted(allowed)}")
    if "name" not in data:
        raise VariantError(f"{source}: a variant needs a name")
    clauses = []
    for c in data.get("clauses", []):
        if not isinstance(c, Mapping) or "id" not in c or "title" not in c:
            raise VariantError(f"{source}: each clause has an id and a title: {c!r}")
        keys = set(c) - {"id", "title", "text", "replaces", "amends"}
        if keys:
            raise VariantError(f"{source}: clause {c['id']}: unknown key(s) {sorted(keys)} "
                               "(a rule needs a Python variant file)")
        clauses.append(VariantClause(c["id"], c["title"], c.get("text", ""),
                                     tuple(c.get("replaces", ())), tuple(c.get("amends", ()))))
    return Variant(str(data["name"]), str(data.get("version", "1")), data.get("base"),
                   dict(data.get("options", {})), tuple(clauses),
                   description=str(data.get("description", "")), source=source)


def resolve(text: str | Variant) -> Variant:
    """The variant ``text`` names: a name of the table, ``path.py[:NAME]``, ``path.toml``,
    ``path.json``, or ``OPTION=VALUE[,OPTION=VALUE]`` (an unnamed set of options)."""
    if isinstance(text, Variant):
        return text
    if not isinstance(text, str) or not text.strip():
        raise VariantError(f"{text!r} is not a variant name")
    text = text.strip()
    # A variant's name has no ':' or '/' (_NAME): a file path asks no installed package
    # (reading the entry points costs tens of milliseconds at each start).
    names = {} if re.search(r"[:/\\]", text) else variant_names()
    if text in names:
        return names[text]
    path, _, name = text.partition(":") if re.match(r"^[^:]+\.py:", text) else (text, "", "")
    if path.endswith((".py", ".toml", ".json")):
        v = load_file(path, name or None)
        return register(v) if v.name not in BUILTIN else v
    if "=" in text:
        try:
            rules = rules_from_dict(dict(item.split("=", 1) for item in text.split(",") if item))
        except RulesOptionError as e:
            raise VariantError(str(e)) from None
        for v in BUILTIN.values():
            if v.rules == rules:
                return v
        label = ",".join(f"{k}={mine}" for k, (mine, _standard) in rules.differences(Rules()).items())
        return Variant("custom", "1", None, rules.to_dict(), description=f"options {label}")
    hint = f"; {_BROKEN[text]}" if text in _BROKEN else ""
    raise VariantError(f"no variant {text!r}: the variants are {', '.join(names)} (or a file "
                       f"path.py:NAME, path.toml, or OPTION=VALUE){hint}")


def select(variant: str | Variant | None = None, rules: Iterable[str] = ()) -> Variant:
    """The variant a command runs under: ``--variant`` (default: standard), then each
    ``--rules`` item applied left to right (a variant name replaces it, ``OPTION=VALUE``
    changes one option).  Every command reads names through here: one table."""
    current = resolve(variant) if variant is not None else BUILTIN["standard"]
    options: dict[str, str] = {}
    for item in rules:
        if "=" not in item:
            current, options = resolve(item), {}
            continue
        key, _, value = item.partition("=")
        options[key] = value
    if not options:
        return current
    try:
        changed = rules_from_dict(options, current.rules)
    except RulesOptionError as e:
        raise VariantError(str(e)) from None
    if not current.has_rules:
        for v in BUILTIN.values():
            if v.rules == changed:
                return v
    label = ",".join(f"{k}={v[0]}" for k, v in changed.differences(current.rules).items())
    if not label:
        return current
    return Variant(f"{current.name}+{label}" if current.name != "standard" else "custom",
                   current.version, current, {k: v[0] for k, v in changed.differences(current.rules).items()},
                   description=f"{current.name} with {label}")


def find(name: str, version: str | None = None) -> Variant | None:
    """The variant of the table called ``name`` (and of ``version``, if given), or None."""
    v = variant_names().get(name)
    if v is None or (version is not None and v.version != version):
        return None
    return v
