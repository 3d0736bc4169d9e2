"""Why a program failed: the smallest situation of a failed case (situation), the known
misreadings of the rules (misreadings) and the clauses blamed (blame).

Imports: questions, judging, programs and the shared modules.
"""


def __getattr__(name: str):
    """``turub.conformance.diagnosis.attribute`` and the rest of the flat layout's module
    (now :mod:`.blame`), imported when first asked for."""
    import importlib
    if name.startswith("__") or name in ("blame", "situation", "misreadings"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    blame = importlib.import_module(f"{__name__}.blame")
    try:
        return getattr(blame, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
