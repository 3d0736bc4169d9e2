"""Every clause ID the project cites is defined in the registry, and IDs are well formed."""

import re
from pathlib import Path

from turub.clauses import CLAUSES, KINDS

ROOT = Path(__file__).resolve().parent.parent
ID = re.compile(r"^[a-z]+(\.[a-z0-9]+(-[a-z0-9]+)*)+$")
PREFIXES = sorted({cid.split(".")[0] for cid in CLAUSES})
FILE_SUFFIXES = (".py", ".md", ".json", ".js", ".toml")
CITED = re.compile(r"""["'`]((?:%s)\.[a-z0-9-]+)["'`]""" % "|".join(PREFIXES))


def test_ids_are_readable_slugs_and_kinds_are_known():
    for cid, clause in CLAUSES.items():
        assert ID.match(cid), cid
        assert clause.kind in KINDS


def cited_ids():
    for folder in ("reference", "properties", "conformance", "tests", "spec", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path == Path(__file__).resolve():
                continue  # this file names the deliberately undefined IDs below
            if path.suffix in {".py", ".md", ".json", ".js"} and "_build" not in path.parts:
                for m in CITED.finditer(path.read_text(encoding="utf-8")):
                    if m.group(1).endswith(FILE_SUFFIXES):
                        continue  # a file's name ("deal.py"), not a clause
                    yield path.relative_to(ROOT), m.group(1)


#: IDs cited on purpose as undefined: the bad house-rule definitions whose refusal a test
#: expects (a house clause named inside a standard part, a replaced clause that does not exist).
DELIBERATELY_UNDEFINED = {
    ("tests/variants/test_user_code.py", "trick.nell"),
    ("tests/variants/test_user_code.py", "play.no-such-clause"),
    ("tests/variants/test_user_code.py", "dealer.x"),
    ("tests/variants/test_bad_definitions.py", "play.no-such"),
    ("tests/variants/test_bad_definitions.py", "trick.x"),
}


def test_every_cited_clause_exists():
    from turub.clauses import WITHDRAWN  # a withdrawn ID stays citable: its tombstone resolves

    unknown = {(str(p), cid) for p, cid in cited_ids()
               if cid not in CLAUSES and cid not in WITHDRAWN and not cid.endswith("-")}
    assert DELIBERATELY_UNDEFINED <= unknown, "no longer cited: drop it from the list"
    unknown -= DELIBERATELY_UNDEFINED
    assert not unknown, f"clause IDs cited but not defined: {sorted(unknown)}"


def test_the_scan_finds_citations():
    # The check above would pass vacuously if the scan found nothing.
    found = {cid for _, cid in cited_ids()}
    assert {"play.follow-suit", "trick.earliest-identical", "contest.insufficient-win"} <= found



def test_each_clause_belongs_to_the_part_whose_spec_page_places_it():
    # The spec places every clause on one page of spec/; turub.clauses.PARTS names that page
    # and its title (the kit's HTML report groups and links clauses by them).
    import re as _re
    from turub.clauses import PARTS, part_of
    placed = {}
    for part in PARTS:
        page = (ROOT / "spec" / f"{part.page}.md").read_text(encoding="utf-8")
        assert page.startswith(f"# {part.title}\n"), part.page
    for path in (ROOT / "spec").glob("*.md"):
        for cid in _re.findall(r"\{spec-clause\} ([a-z0-9.-]+)", path.read_text(encoding="utf-8")):
            placed[cid] = path.stem
    assert set(placed) == set(CLAUSES)
    wrong = {cid: (page, getattr(part_of(cid), "page", None)) for cid, page in placed.items()
             if getattr(part_of(cid), "page", None) != page}
    assert not wrong, f"clause: (page placing it, page of its part): {wrong}"
