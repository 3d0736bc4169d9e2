"""Sphinx configuration of the literate specification of Arba'a Turub.

Build (from the project's root):

    .venv/bin/python -m sphinx -W -n -b html docs docs/_build/html

``docs/spec`` is a link to the top-level ``spec/`` folder, where the clause pages live.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

from turub.clauses import NORMATIVE_KINDS, SPEC_DATE, SPEC_VERSION  # noqa: E402

project = "Arba'a Turub — the executable specification"
author = "the Arba'a Turub project"
copyright = "the Arba'a Turub project"
#: The specification's version (``turub.clauses.SPEC_VERSION``), shown on every page.
version = release = SPEC_VERSION
today = SPEC_DATE
root_doc = "index"
language = "en"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx_needs",
    "turub_spec",
    "turub_pictures",
    "turub_variants",
    "turub_addresses",
    "turub_changelog",
    "turub_examples",
    "turub_well_formed",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "**/__pycache__", "spec/conftest.py", "**/.pytest_cache"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Furo: responsive (navigation and search in a bar at the top of a phone's screen, in the
# side bar on a desktop), previous and next links at the foot of each page.
html_theme = "furo"
pygments_dark_style = "native"
html_static_path = ["_static"]
# Written as Sphinx normalises them: the raw form would differ from the pickled one and make
# every incremental build report a changed configuration.
html_css_files = [("turub.css", {"priority": 800})]
html_js_files = [("turub-clauses.js", {"priority": 790}),  # written by turub_addresses
                 ("turub.js", {"priority": 800, "defer": "defer"})]
html_title = f"Arba'a Turub spec, version {SPEC_VERSION}"
html_theme_options = {"navigation_with_keys": True, "top_of_page_buttons": []}
html_show_sourcelink = False

# Nitpicky mode: names that only exist in the standard library's documentation (no
# intersphinx: the build has no network).
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(typing|collections\.abc|enum|dataclasses|random|argparse)\..*"),
    (r"py:class", r"(Final|Any|Callable|Iterable|Iterator|Mapping|Sequence|TypeVar|F|T|"
                  r"NoReturn|TextIO|Literal)"),
    (r"py:class", r"(int|str|bool|float|tuple|list|dict|set|frozenset|object|type|None)"),
]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"

# --- sphinx-needs: clauses, code, checks and the links between them -------------------------

# Clause play.follow-suit is need play:follow-suit: sphinx-needs reads "ID.part" as a part.
needs_id_regex = r"^[a-z][A-Za-z0-9_:-]*$"
needs_id_required = True
needs_title_optional = False
needs_role_need_template = "{{ title }}"
needs_role_need_max_title_length = 80
needs_types = [
    {"directive": "clause", "title": "Clause", "prefix": "", "color": "#d6e4f0", "style": "node"},
    {"directive": "impl", "title": "Code", "prefix": "code.", "color": "#e8f0d6", "style": "node"},
    {"directive": "check", "title": "Check", "prefix": "check.", "color": "#f0e0d6", "style": "node"},
]
needs_fields = {
    "clause": {"description": "the clause ID of the registry (turub.clauses)", "nullable": True},
    "kind": {"description": "rule, convention, option, interpretation, score-sheet, advice, context",
             "nullable": True},
    "cites": {"description": "the source sections that state the clause", "nullable": True},
    "agreement": {"description": "agree, silent or disagree", "nullable": True},
    "option": {"description": "the rule option that controls the interpretation", "nullable": True},
}
needs_links = {
    "implements": {"incoming": "implemented by", "outgoing": "implements"},
    "verifies": {"incoming": "verified by", "outgoing": "verifies"},
    "rests_on": {"incoming": "advice resting on it", "outgoing": "rests on"},
}
needs_layouts = {
    "clause": {
        "grid": "simple",
        "layout": {
            "head": ['<<meta("clause")>>: **<<meta("title")>>**'],
            "meta": ['<<meta("kind", prefix="kind: ")>>', '<<meta("agreement", prefix="sources: ")>>',
                     '<<meta("option", prefix="rule option: ")>>'],
        },
    },
    "trace": {
        "grid": "simple",
        "layout": {
            "head": ['<<meta("type_name")>>: **<<meta("title")>>**'],
            "meta": ["<<meta_links_all()>>"],
        },
    },
}
needs_build_json = True

#: Citations the engine's docstrings are asked to carry and do not carry yet: the code does
#: what the clause says, but its docstring does not name the clause.  Each entry is logged in
#: the build; remove it once the docstring cites the clause (the entry is then ignored).
turub_pending_citations: dict[str, tuple[str, ...]] = {}
needs_table_style = "TABLE"

#: The folder holding the three source files, relative to this file.  Empty: the
#: ``TURUB_SOURCES`` environment variable, else ``../shared/seeds`` beside the project.  When
#: the files are found, each clause shows the sentences it cites, read at build time (never
#: stored in the project); without them the build still works and shows the locators.
turub_sources = ""

_NORMATIVE = sorted(NORMATIVE_KINDS)
_IS_NORMATIVE_CLAUSE = f'type == "clause" and kind in {_NORMATIVE!r}'

# The gate: each filter names the needs that break it; any hit fails the build (-W).
# (Unknown clause IDs cited by code or checks are dead links: sphinx-needs and turub_spec
# report those as warnings too.)
needs_warnings = {
    "normative clause without implementing code": _IS_NORMATIVE_CLAUSE + " and len(implements_back) == 0",
    "normative clause without a check": _IS_NORMATIVE_CLAUSE + " and len(verifies_back) == 0",
}
needs_warnings_always_warn = True


# --- guides written by other parts of the project ---------------------------------------------

#: Guides that other parts of the project write; the index lists them once they exist.
OPTIONAL_GUIDES = ("guides/proofs", "guides/implementers")


def _drop_missing_guides(app, docname, source) -> None:
    if docname != "index":
        return
    missing = [g for g in OPTIONAL_GUIDES if not (HERE / f"{g}.md").exists()]
    if missing:
        source[0] = "\n".join(line for line in source[0].splitlines()
                               if line.strip() not in missing)


def setup(app) -> None:
    app.connect("source-read", _drop_missing_guides)
    # Load the theme now rather than when the builder starts: its configuration value
    # (pygments_dark_style) is then known when Sphinx compares the configuration with the
    # last build's, so an incremental build does not re-read every page.  (Furo refuses to be
    # listed in ``extensions``; set up from here it is not.)
    app.setup_extension("furo")
