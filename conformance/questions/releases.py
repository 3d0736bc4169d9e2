"""A frozen release's cases: the committed vectors as they were at that release (#28).

``conformance/releases/VERSION.jsonl.gz`` holds every committed case of release VERSION, one
JSON object a line: first a header (``{"format": ..., "release": ..., "sets": {name:
rules}}``), then each case with the option set it belongs to (``"set"``), in the committed
order.  The file is written without a time stamp, so the same cases give the same bytes;
``spec/digests/cases.json`` holds the SHA-256 of each release's lines, and a test refuses a
frozen release whose cases differ from it.

``turub check --spec VERSION`` and ``turub vectors --spec VERSION`` read these files.

Command line (``python -m turub.conformance.questions.releases``):

* ``write VERSION [--commit C]``: write release VERSION's cases from the committed vectors
  of git commit C (by ``properties/tools/release_from_commit.py``), or from the working
  tree's vectors, and record their digest;
* ``freeze``: write the open release's cases from the committed vectors (then set
  ``frozen=True`` on it in :mod:`turub.releases`);
* ``diff [VERSION]``: the cases that differ between release VERSION (default: the last
  frozen one) and the committed vectors, by clause, and which of them the open release's
  changelog does not name.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final, NamedTuple

from turub.releases import FROZEN_RELEASES, RELEASES, Release, release_named, releases_after
from turub.user_files import write_atomically

from .cases import Case
from .vectors import VECTOR_DIR, vector_sets

__all__ = ["RELEASE_DIR", "RELEASE_FORMAT", "CASE_DIGESTS", "ReleaseCases", "CaseDiff",
           "committed_sets", "release_lines", "write_release", "load_release", "release_cases",
           "case_digest", "diff_sets", "frozen_case_problems", "last_frozen", "unexplained_case_changes", "main"]

#: Where the frozen releases' cases live (installed with the package).
RELEASE_DIR: Final = Path(__file__).parent.parent / "releases"
RELEASE_FORMAT: Final = "turub-release-cases/1"
#: The digest of each frozen release's cases (beside the clause texts' digests).
CASE_DIGESTS: Final = Path(__file__).resolve().parents[2] / "spec" / "digests" / "cases.json"

#: What an implementation is judged by in a case: a change of any of these is a change of
#: the contract (the clauses and ``why`` a case carries only name what a failure blames).
JUDGED_FIELDS: Final = ("op", "args", "rules", "expected")


class ReleaseCases(NamedTuple):
    """One option set's cases in a release: its rules (as ``Rules.to_dict()``) and cases."""

    rules: dict[str, Any] | None
    cases: list[Case]


Sets = Mapping[str, ReleaseCases]


def committed_sets(directory: Path = VECTOR_DIR) -> dict[str, ReleaseCases]:
    """The committed vectors of ``directory``, by option set."""
    return {name: ReleaseCases(entry.get("rules"),
                               json.loads((directory / entry["file"]).read_text(encoding="utf-8")))
            for name, entry in vector_sets(directory).items()}


def release_lines(version: str, sets: Sets) -> bytes:
    """The text of a release's case file (before compression): a header, then one case a line."""
    lines = [json.dumps({"format": RELEASE_FORMAT, "release": version,
                         "sets": {name: s.rules for name, s in sets.items()}},
                        ensure_ascii=False, separators=(",", ":"))]
    for name, s in sets.items():
        lines.extend(json.dumps({"set": name, **case}, ensure_ascii=False, separators=(",", ":"))
                     for case in s.cases)
    return ("\n".join(lines) + "\n").encode("utf-8")


def case_digest(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()


def release_path(version: str, directory: Path = RELEASE_DIR) -> Path:
    return directory / f"{version}.jsonl.gz"


def write_release(version: str, sets: Sets, directory: Path = RELEASE_DIR,
                  digests: Path = CASE_DIGESTS) -> Path:
    """Write release ``version``'s cases (no time stamp: the same cases, the same bytes) and
    record their digest in ``digests``."""
    text = release_lines(version, sets)
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as f:
        f.write(text)
    directory.mkdir(parents=True, exist_ok=True)
    path = release_path(version, directory)
    write_atomically(path, lambda f: f.write(buffer.getvalue()), "release cases", binary=True)
    recorded = json.loads(digests.read_text(encoding="utf-8")) if digests.is_file() else {}
    recorded[version] = {"sha256": case_digest(text),
                         "cases": {name: len(s.cases) for name, s in sets.items()}}
    digests.parent.mkdir(parents=True, exist_ok=True)
    text_of_digests = json.dumps(dict(sorted(recorded.items())), indent=1) + "\n"
    write_atomically(digests, lambda f: f.write(text_of_digests), "release digests")
    return path


def read_release_text(version: str, directory: Path = RELEASE_DIR) -> bytes:
    """The uncompressed lines of release ``version``'s cases (ValueError: not frozen here)."""
    path = release_path(version, directory)
    if not path.is_file():
        known = sorted(p.name.removesuffix(".jsonl.gz") for p in directory.glob("*.jsonl.gz"))
        raise ValueError(f"release {version!r} has no frozen cases ({path}); frozen: "
                         f"{', '.join(known) or 'none'}")
    return gzip.decompress(path.read_bytes())


def load_release(version: str, directory: Path = RELEASE_DIR) -> dict[str, ReleaseCases]:
    """Release ``version``'s cases, by option set."""
    lines = read_release_text(version, directory).decode("utf-8").splitlines()
    header = json.loads(lines[0])
    if header.get("format") != RELEASE_FORMAT or header.get("release") != version:
        raise ValueError(f"{release_path(version, directory)}: not release {version}'s cases "
                         f"in {RELEASE_FORMAT}")
    sets = {name: ReleaseCases(rules, []) for name, rules in header["sets"].items()}
    for line in lines[1:]:
        case = json.loads(line)
        sets[case.pop("set")].cases.append(case)
    return sets


def release_cases(version: str, rules: Mapping[str, Any],
                  directory: Path = RELEASE_DIR) -> list[Case] | None:
    """Release ``version``'s cases for the option set ``rules`` (None: no such set in it)."""
    for s in load_release(version, directory).values():
        if s.rules == dict(rules):
            return s.cases
    return None


# --- what changed between two releases ----------------------------------------------------------

class CaseDiff(NamedTuple):
    """One case that differs between two releases: ``added``, ``removed`` or ``changed``
    (its question or its expected answer), with the clauses it exercises."""

    set: str
    id: str
    kind: str
    clauses: tuple[str, ...]


def diff_sets(before: Sets, after: Sets) -> list[CaseDiff]:
    """Every case whose judged fields (:data:`JUDGED_FIELDS`) differ between two releases."""
    found: list[CaseDiff] = []
    for name in sorted({*before, *after}):
        old = {c["id"]: c for c in (before[name].cases if name in before else [])}
        new = {c["id"]: c for c in (after[name].cases if name in after else [])}
        for cid in sorted({*old, *new}):
            a, b = old.get(cid), new.get(cid)
            kind = ("added" if a is None else "removed" if b is None else
                    "changed" if any(a.get(k) != b.get(k) for k in JUDGED_FIELDS) else "")
            if kind:
                clauses = {*(a or {}).get("clauses", ()), *(b or {}).get("clauses", ())}
                found.append(CaseDiff(name, cid, kind, tuple(sorted(clauses))))
    return found


def unexplained_case_changes(diffs: Iterable[CaseDiff], later: Iterable[Release]) -> list[str]:
    """The differing cases no :class:`~turub.releases.CaseChange` of a later release names
    (a case is explained when one of its clauses has a case change)."""
    named = {change.clause for release in later for change in release.cases}
    return [f"{d.set}: {d.id} ({d.kind}; clauses {', '.join(d.clauses) or 'none'}): no case "
            "change of a later release names one of its clauses (turub.releases)"
            for d in diffs if not named.intersection(d.clauses)]


def frozen_case_problems(releases: Iterable[Release] = RELEASES, directory: Path = RELEASE_DIR,
                         digests: Path = CASE_DIGESTS) -> list[str]:
    """What is wrong with the frozen releases' cases: a frozen release with no case file or
    no recorded digest, or whose cases differ from their digest (an expected answer of a
    frozen release changed)."""
    recorded = json.loads(digests.read_text(encoding="utf-8")) if digests.is_file() else {}
    problems = []
    for release in releases:
        if not release.frozen:
            continue
        if release.version not in recorded:
            problems.append(f"{release.version}: frozen, but its cases have no digest in {digests}")
            continue
        try:
            text = read_release_text(release.version, directory)
        except ValueError as e:
            problems.append(f"{release.version}: {e}")
            continue
        if case_digest(text) != recorded[release.version]["sha256"]:
            problems.append(f"{release.version}: its cases differ from the digest recorded when "
                            "it was frozen: a frozen release's expected answers cannot change "
                            "(make the change in the open release, with a CaseChange)")
    return problems


def last_frozen(directory: Path = RELEASE_DIR) -> Release | None:
    """The last frozen release whose cases are recorded in ``directory``."""
    for release in reversed(FROZEN_RELEASES):
        if release_path(release.version, directory).is_file():
            return release
    return None


# --- command line ---------------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    import argparse
    p = argparse.ArgumentParser(prog="python -m turub.conformance.questions.releases")
    sub = p.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write", help="write a release's cases and record their digest")
    w.add_argument("version")
    w.add_argument("--commit", help="the git commit whose committed vectors are the release's")
    sub.add_parser("freeze", help="write the open release's cases from the committed vectors")
    d = sub.add_parser("diff", help="cases that differ from a release (default: the last frozen)")
    d.add_argument("version", nargs="?")
    args = p.parse_args(argv)
    try:
        if args.command == "write":
            release_named(args.version)
            if args.commit:
                sys.path.insert(0, str(CASE_DIGESTS.parents[2] / "properties" / "tools"))
                from release_from_commit import sets_at  # type: ignore[import-not-found]
                sets = sets_at(args.commit)
            else:
                sets = committed_sets()
            print(write_release(args.version, sets))
            return 0
        if args.command == "freeze":
            open_release = RELEASES[-1]
            if open_release.frozen:
                raise ValueError(f"release {open_release.version} is frozen already: start a "
                                 "new release in turub.releases")
            print(write_release(open_release.version, committed_sets()))
            return 0
        base = release_named(args.version) if args.version else last_frozen()
        if base is None:
            raise ValueError("no release has frozen cases")
        diffs = diff_sets(load_release(base.version), committed_sets())
        by_clause: dict[str, int] = {}
        for diff in diffs:
            for clause in diff.clauses:
                by_clause[clause] = by_clause.get(clause, 0) + 1
        for diff in diffs:
            print(f"{diff.kind:8} {diff.set}: {diff.id}")
        for clause, n in sorted(by_clause.items()):
            print(f"{clause}: {n} case(s) differ")
        unexplained = unexplained_case_changes(diffs, releases_after(base.version))
        for line in unexplained:
            print("unexplained:", line)
        print(f"{len(diffs)} case(s) differ from release {base.version}; "
              f"{len(unexplained)} not named by a later release's case changes")
        return 1 if unexplained else 0
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
