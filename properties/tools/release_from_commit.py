"""A past release rebuilt from the project's own git history (#28).

A release's cases are the committed vectors (``conformance/vectors/``) of the commit at
which it was the current release; its clause texts are that commit's spec pages and
registry.  This tool reads both from git:

* :func:`sets_at`: the committed vectors of a commit, by option set (what that commit's kit
  ran: its own test compared them with its vector writer's output);
* :func:`text_digests_at`: the digests of that commit's clause texts, page prose and
  glossary, computed by today's :mod:`turub_changelog` on a ``git archive`` checkout of the
  commit, imported in a child process (its ``turub`` package, not this tree's).

Usage::

    python properties/tools/release_from_commit.py COMMIT VERSION   # cases + text digests

Each release is the main line's last commit (``git log --first-parent``) at which it was the
current release: 1.0.0 is 95d7cd0 (the merge before f046542 brought the releases in, with
1.1.0 open; its clause and text digests, ``spec/digests/1.0.0*.json``, are that commit's);
1.1.0 is 117b906 (62dca0e, the next, began the changes ac9ff7b then listed in 1.2.0).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The commit each past release was rebuilt from (see the module's docstring).
RELEASE_COMMITS = {"1.0.0": "95d7cd0", "1.1.0": "117b906"}


def _git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True,
                          capture_output=True).stdout


def sets_at(commit: str) -> dict:
    """The committed vectors of ``commit``, by option set (``ReleaseCases``)."""
    from turub.conformance.questions.releases import ReleaseCases

    index = json.loads(_git("show", f"{commit}:conformance/vectors/index.json"))
    return {name: ReleaseCases(entry.get("rules"),
                               json.loads(_git("show", f"{commit}:conformance/vectors/{entry['file']}")))
            for name, entry in index["sets"].items()}


_DIGESTS = """
import importlib.util, json, sys
from pathlib import Path
root, ext = Path(sys.argv[1]), sys.argv[2]
spec = importlib.util.spec_from_file_location("turub_changelog_now", ext)
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
from turub.clauses import CLAUSES, VOCABULARY
json.dump(mod.text_digests(CLAUSES, root, VOCABULARY), sys.stdout, sort_keys=True)
"""


def text_digests_at(commit: str) -> dict[str, str]:
    """The digests of ``commit``'s clause texts, pages' prose and glossary entries."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = Path(tmp) / "tree.tar"
        archive.write_bytes(_git("archive", "--format=tar", commit, "reference", "conformance",
                                 "properties", "spec"))
        with tarfile.open(archive) as tar:
            tar.extractall(tree, filter="data")
        # the package as pyproject maps it: turub = reference/, turub.conformance = conformance/
        pkg = Path(tmp) / "site" / "turub"
        pkg.parent.mkdir()
        pkg.symlink_to(tree / "reference")
        out = subprocess.run(
            [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(pkg.parent)!r});"
             + _DIGESTS, str(tree), str(ROOT / "docs" / "_ext" / "turub_changelog.py")],
            check=True, capture_output=True, text=True, cwd=tmp)
        return json.loads(out.stdout)


def write_texts(version: str, found: dict[str, str]) -> None:
    """Record a release's clause digests (``VERSION.json``) and the rest (``VERSION.texts.json``)."""
    digests = ROOT / "spec" / "digests"
    clauses = {k: v for k, v in found.items() if not k.startswith(("page:", "term:"))}
    texts = {k: v for k, v in found.items() if k.startswith(("page:", "term:"))}
    (digests / f"{version}.json").write_text(json.dumps(clauses, indent=1, sort_keys=True) + "\n",
                                             encoding="utf-8")
    (digests / f"{version}.texts.json").write_text(
        json.dumps(texts, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    commit, version = argv
    from turub.conformance.questions.releases import write_release
    print(write_release(version, sets_at(commit)))
    if not (ROOT / "spec" / "digests" / f"{version}.json").is_file():
        write_texts(version, text_digests_at(commit))
        print(ROOT / "spec" / "digests" / f"{version}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
