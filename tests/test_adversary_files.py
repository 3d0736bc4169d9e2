"""Files as an adversary gives them (issue 30, item 6).

Every input file a command reads (``--xfail``, ``--diff``, ``turub report``, a house rule's file,
``--variant``) is a regular file of bounded size, read with a limit: ``/dev/zero``, a FIFO with
no writer, a folder or a 50 MB file is one line and exit 2, never a hang, a ``MemoryError`` or a
traceback. A report's fields are checked by type before they are used; a house rule's TOML
values of the wrong type are refused, not coerced. Every output is written atomically and never
through a symbolic link another user could have planted.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pace import generous

TURUB = shutil.which("turub", path=str(Path(sys.executable).parent)) or "turub"
QUICK = ["--no-generated", "--examples", "0", "--properties", "0", "--quiet"]
HOUSE_RULE = 'name = "club"\nversion = "1"\n[options]\n'


def turub(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([TURUB, *argv], cwd=cwd, capture_output=True, text=True, errors="replace",
                          timeout=generous(30))


def one_line(run: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in run.stderr, run.stderr
    lines = [x for x in run.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, run.stderr
    return lines[0]


def hostile(kind: str, folder: Path, suffix: str) -> Path:
    """A path of ``kind`` named ``*suffix``: what a command is given in place of a file."""
    path = folder / f"given-{kind}{suffix}"
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)  # no writer: opening it for reading blocks
    elif kind == "folder":
        path.mkdir()
    elif kind == "50MB":
        with open(path, "wb") as f:
            f.truncate(50 * 2**20)
    elif kind == "dangling-link":
        path.symlink_to(folder / "no-such-file")
    elif kind == "link-loop":
        path.symlink_to(path.name)  # a link to itself
    elif kind == "link-to-fifo":
        os.mkfifo(folder / f"fifo-{kind}")
        path.symlink_to(folder / f"fifo-{kind}")
    return path


_REPORTS: list[Path] = []


def a_report(tmp_path: Path) -> Path:
    """A report of a conforming run (one run for the whole module)."""
    if not _REPORTS:
        path = tmp_path / "good.json"
        r = turub("check", *QUICK, "--json", str(path))
        assert r.returncode == 0, r.stderr
        _REPORTS.append(path)
    return _REPORTS[0]


COMMANDS = {
    "--xfail": (".json", lambda p, tmp: ["check", *QUICK, "--xfail", str(p)]),
    "--diff": (".json", lambda p, tmp: ["check", "--diff", str(a_report(tmp)), str(p)]),
    "turub report": (".json", lambda p, tmp: ["report", str(p)]),
    "--variant TOML": (".toml", lambda p, tmp: ["check", *QUICK, "--variant", str(p)]),
    "--variant JSON": (".json", lambda p, tmp: ["variants", "show", str(p)]),
    "--variant Python": (".py", lambda p, tmp: ["variants", "show", str(p)]),
    "--diff OLD": (".json", lambda p, tmp: ["check", "--diff", str(p), str(a_report(tmp))]),
    "turub report, second": (".json", lambda p, tmp: ["report", str(a_report(tmp)), str(p)]),
    "turub report --html": (".json", lambda p, tmp: ["report", "--html", str(tmp / "page"), str(p)]),
    "variants diff": (".toml", lambda p, tmp: ["variants", "diff", "standard", str(p)]),
    "play --variant": (".toml", lambda p, tmp: ["play", "--variant", str(p)]),
    "simulate --variant": (".py", lambda p, tmp: ["simulate", "--deals", "1", "--variant", f"{p}:club"]),
    "explain --variant": (".toml", lambda p, tmp: ["explain", "--variant", str(p), "--trump", "H", "AH", "KH", "QH", "JH"]),
    "vectors --variant": (".toml", lambda p, tmp: ["vectors", "--variant", str(p)]),
}
#: What a command may be given in place of a small regular file.
HOSTILE = ["dev-zero", "fifo", "folder", "50MB", "dangling-link", "link-loop", "link-to-fifo"]


@pytest.mark.parametrize("kind", HOSTILE)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_input_that_is_not_a_small_regular_file_is_one_line_and_exit_2(command, kind, tmp_path):
    suffix, argv = COMMANDS[command]
    path = hostile(kind, tmp_path, suffix)
    r = turub(*argv(path, tmp_path))
    assert r.returncode == 2, (r.returncode, r.stderr[-600:])
    line = one_line(r)
    assert path.name in line, line


@pytest.mark.parametrize("field, value", [
    ("verdict", ["CONFORMS"]), ("rules", ["standard"]), ("rules", "standard"), ("variant", [1]),
    ("variant", 3), ("clauses", {"play.turn": []}), ("clauses", {"play.turn": "passed"}),
    ("summary", []), ("implementation", "x"), ("kit", ["0.1"]),
])
def test_a_report_field_of_the_wrong_type_is_exit_2_naming_the_file_and_the_field(field, value, tmp_path):
    doc = json.loads(a_report(tmp_path).read_text(encoding="utf-8"))
    doc[field] = value
    bad = tmp_path / "bad-report.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    for argv in (["report", str(bad)], ["report", str(a_report(tmp_path)), str(bad)],
                 ["check", "--diff", str(a_report(tmp_path)), str(bad)]):
        r = turub(*argv)
        assert r.returncode == 2, (argv, r.returncode, r.stderr[-800:])
        line = one_line(r)
        assert bad.name in line and repr(field)[1:-1] in line, line


@pytest.mark.parametrize("clause, field", [
    ('replaces = "play.turn"', "replaces"), ('amends = "play.turn"', "amends"),
    ('title = 3', "title"), ('text = ["a"]', "text"), ('replaces = [1, 2]', "replaces"),
])
def test_a_house_rule_value_of_the_wrong_type_is_refused_not_coerced(clause, field, tmp_path):
    rule = tmp_path / "club.toml"
    lines = [f'id = "club.x"', clause if field == "title" else 'title = "t"']
    if field != "title":
        lines.append(clause)
    rule.write_text(HOUSE_RULE + "[[clauses]]\n" + "\n".join(lines) + "\n", encoding="utf-8")
    r = turub("variants", "show", str(rule))
    assert r.returncode == 2, (r.returncode, r.stdout[-400:], r.stderr[-400:])
    line = one_line(r)
    assert "club.toml" in line and field in line, line


@pytest.mark.parametrize("top, field", [('name = 3', "name"), ('version = ["1"]', "version"),
                                        ('options = "x"', "options"), ('description = 2', "description"),
                                        ('clauses = "club.x"', "clauses")])
def test_a_house_rule_table_of_the_wrong_type_is_refused(top, field, tmp_path):
    rule = tmp_path / "club.toml"
    base = {"name": 'name = "club"', "version": 'version = "1"'}
    base[field] = top
    text = "\n".join(base.values()) + "\n"
    rule.write_text(text, encoding="utf-8")
    r = turub("variants", "show", str(rule))
    assert r.returncode == 2, (r.returncode, r.stdout[-400:], r.stderr[-400:])
    line = one_line(r)
    assert "club.toml" in line and field in line, line


# --- outputs --------------------------------------------------------------------------------

def sticky_world_writable(tmp_path: Path) -> Path:
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o1777)
    return folder


@pytest.mark.parametrize("option", ["--json", "--junit", "--write-xfail"])
def test_a_link_planted_in_a_sticky_world_writable_folder_is_never_followed(option, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    shared = sticky_world_writable(tmp_path)
    planted = shared / "report.out"
    planted.symlink_to(victim)
    r = turub("check", *QUICK, option, str(planted))
    assert r.returncode == 2, (r.returncode, r.stderr[-600:])
    assert "symbolic link" in one_line(r)
    assert victim.read_text() == "precious\n" and planted.is_symlink()


def test_the_atomic_writer_refuses_a_link_planted_after_the_checks(tmp_path):
    from turub.conformance.reports.files import ReportWriteError, write_atomically
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    planted = sticky_world_writable(tmp_path) / "r.json"
    planted.symlink_to(victim)
    with pytest.raises(ReportWriteError, match="symbolic link"):
        write_atomically(str(planted), lambda f: f.write("{}"))
    assert victim.read_text() == "precious\n"


def test_the_html_report_and_its_badge_are_written_atomically(tmp_path, monkeypatch):
    """A write that fails half-way (a full disk) keeps the old page whole."""
    from turub.conformance.reports import html
    report = json.loads(a_report(tmp_path).read_text(encoding="utf-8"))
    out = tmp_path / "site"
    html.write_html(report, out)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    assert set(before) >= {"index.html", "badge.svg"}

    real_fdopen = os.fdopen

    def failing_fdopen(fd, *a, **k):
        f = real_fdopen(fd, *a, **k)
        original = f.write

        def write(text):
            original(text[: len(text) // 2])
            raise OSError(28, "No space left on device")
        f.write = write
        return f
    monkeypatch.setattr(os, "fdopen", failing_fdopen)
    with pytest.raises(OSError):
        html.write_html(report, out)
    monkeypatch.undo()
    after = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    assert after == before  # no page cut mid-tag, no temporary file left


@pytest.mark.parametrize("command", ["check", "report"])
def test_an_html_folder_planted_as_a_link_is_never_followed(command, tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    planted = sticky_world_writable(tmp_path) / "site"
    planted.symlink_to(victim)
    argv = ["check", *QUICK] if command == "check" else ["report", str(a_report(tmp_path))]
    r = turub(*argv, "--html", str(planted))
    assert r.returncode == 2, (r.returncode, r.stderr[-600:])
    assert "symbolic link" in one_line(r)
    assert list(victim.iterdir()) == []


def test_a_streamed_report_to_a_full_device_is_one_line_never_a_traceback(tmp_path):
    """``--jsonl /dev/full``: the lines cannot be written; the run says so and its status
    says a report was lost (5), never a traceback."""
    r = turub("check", *QUICK, "--jsonl", "/dev/full")
    assert r.returncode == 5, (r.returncode, r.stderr[-800:])
    assert "Traceback" not in r.stderr and "--jsonl /dev/full" in r.stderr


def test_a_streamed_report_is_never_written_through_a_planted_link(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    planted = sticky_world_writable(tmp_path) / "r.jsonl"
    planted.symlink_to(victim)
    r = turub("check", *QUICK, "--jsonl", str(planted))
    assert r.returncode == 2 and "symbolic link" in one_line(r)
    assert victim.read_text() == "precious\n"


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "folder", "50MB"])
def test_a_vectors_folder_holding_a_hostile_file_is_one_line_and_exit_2(kind, tmp_path):
    from turub.conformance.questions.vectors import VECTOR_DIR
    folder = tmp_path / "vectors"
    shutil.copytree(VECTOR_DIR, folder)
    (folder / "standard.json").unlink()
    hostile(kind, tmp_path, ".json").rename(folder / "standard.json")
    r = turub("vectors", "--check", "--dir", str(folder))
    assert r.returncode == 2, (r.returncode, r.stdout[-300:], r.stderr[-600:])
    assert "standard.json" in one_line(r)


def test_a_source_file_too_large_is_a_citation_that_does_not_resolve(tmp_path):
    """``turub clause --sources DIR``: a seed file of 50 MB is not read whole; the citation
    says why it does not resolve."""
    from turub.tools.sources import find_folder
    seeds = find_folder(None)
    if seeds is None:
        pytest.skip("the source files are not beside the project")
    folder = tmp_path / "seeds"
    shutil.copytree(seeds, folder)
    for f in folder.iterdir():
        f.unlink()
        with open(f, "wb") as big:
            big.truncate(50 * 2**20)
    r = turub("clause", "play.follow-suit", "--sources", str(folder))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-600:]
    assert "does not resolve" in r.stdout and "larger than" in r.stdout


def test_the_regenerated_vectors_are_written_atomically_never_through_a_planted_link(tmp_path):
    """``turub vectors --regenerate --dir D``: each file is a new file renamed over the old
    (a reader holding the old one, here a hard link, still reads it whole: nothing was
    truncated in place); a file of D that is a link planted in a sticky world-writable
    folder is refused, and the file it points to is left alone."""
    from turub.conformance.questions.vectors import VECTOR_DIR
    folder = sticky_world_writable(tmp_path)
    shutil.copytree(VECTOR_DIR, folder, dirs_exist_ok=True)
    folder.chmod(0o1777)  # (copytree copied the folder's mode too)
    old = (folder / "standard.json").read_bytes()
    (folder / "standard.json").write_bytes(b"[]\n")
    held = tmp_path / "held.json"
    os.link(folder / "standard.json", held)
    r = turub("vectors", "--regenerate", "--dir", str(folder))
    assert r.returncode == 0, r.stderr[-600:]
    assert (folder / "standard.json").read_bytes() == old
    assert held.read_bytes() == b"[]\n", "the old file was rewritten in place, not replaced"

    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (folder / "index.json").unlink()
    (folder / "index.json").symlink_to(victim)
    r = turub("vectors", "--regenerate", "--dir", str(folder))
    assert r.returncode != 0 and "symbolic link" in one_line(r), (r.returncode, r.stderr[-600:])
    assert victim.read_text() == "precious\n"


def test_a_vectors_folder_planted_as_a_link_is_never_followed(tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    planted = sticky_world_writable(tmp_path) / "vectors"
    planted.symlink_to(victim)
    r = turub("vectors", "--regenerate", "--dir", str(planted))
    assert r.returncode == 2 and "symbolic link" in one_line(r), (r.returncode, r.stderr[-600:])
    assert list(victim.iterdir()) == []


def test_a_frozen_release_and_its_digests_are_written_atomically(tmp_path):
    """A release's case file and the digests file are replaced, never rewritten in place."""
    from turub.conformance.questions import releases as rel
    sets = {"standard": rel.ReleaseCases({"direction": "counterclockwise"}, [{"id": "x", "op": "o"}])}
    digests = tmp_path / "digests.json"
    digests.write_text("{}\n")
    rel.release_path("1.0.0", tmp_path).write_bytes(b"old")
    held = {p: tmp_path / f"held-{p.name}" for p in (digests, rel.release_path("1.0.0", tmp_path))}
    for p, h in held.items():
        os.link(p, h)
    rel.write_release("1.0.0", sets, tmp_path, digests)
    assert [h.read_bytes() for h in held.values()] == [b"{}\n", b"old"]
    assert "1.0.0" in json.loads(digests.read_text())


def test_a_variant_file_that_turns_into_a_fifo_as_it_loads_is_read_once(tmp_path):
    """A ``.py`` variant that replaces itself with a FIFO, then fails: the kit names the
    failure from the text it read, never opening the file again (which would wait forever
    on the FIFO)."""
    rule = tmp_path / "shifty.py"
    rule.write_text("import os\nfrom turub.variants import VariantError\n"
                    "os.unlink(__file__)\nos.mkfifo(__file__)\nraise VariantError('bad clause')\n")
    r = turub("variants", "show", str(rule))
    assert r.returncode == 2 and "shifty.py" in one_line(r), (r.returncode, r.stderr[-600:])


@pytest.mark.parametrize("field", ["cases"])
def test_a_report_whose_optional_list_is_null_is_compared_without_a_traceback(field, tmp_path):
    """``--diff`` reads any report object: a field it may lack (the cases), given as
    ``null``, is none (a needed one, the clauses, is refused as null: exit 2)."""
    doc = json.loads(a_report(tmp_path).read_text(encoding="utf-8"))
    doc[field] = None
    odd = tmp_path / "null-field.json"
    odd.write_text(json.dumps(doc), encoding="utf-8")
    r = turub("check", "--diff", str(a_report(tmp_path)), str(odd))
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, (r.returncode, r.stderr[-800:])


def test_the_badges_folder_planted_as_a_link_in_a_shared_html_folder_is_never_followed(tmp_path):
    """``turub report --html /tmp``: its ``badges`` folder there may be another user's link."""
    victim = tmp_path / "victim"
    victim.mkdir()
    shared = sticky_world_writable(tmp_path)
    (shared / "badges").symlink_to(victim)
    r = turub("report", str(a_report(tmp_path)), "--html", str(shared))
    assert r.returncode != 0 and "symbolic link" in one_line(r), (r.returncode, r.stderr[-600:])
    assert list(victim.iterdir()) == []


# --- every field of a report, of every wrong type --------------------------------------------
# The paths are generated from real reports (a conforming run and a failing one), not listed
# by hand: every field, every field of an object, the first item of a list and of a map of
# rows (the clauses), each given in turn a value of each other JSON type.

def _field_paths(value, path=()):
    yield path
    if isinstance(value, dict):
        rows = len(value) > 12 and all(isinstance(v, dict) for v in value.values())
        keys = list(value)[:1] if path and rows else list(value)  # a map of rows (the clauses): one row
        for key in keys:
            yield from _field_paths(value[key], (*path, key))
    elif isinstance(value, list) and value:
        yield from _field_paths(value[0], (*path, 0))


def _shown_path(path) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else (f".{k}" if n else k) for n, k in enumerate(path))


def _replaced(doc, path, value):
    doc = json.loads(json.dumps(doc))
    inner = doc
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return doc


#: A value of each JSON type: each field is given every one that is not of its own type.
WRONG = {"an object": {"x": 1}, "a list": [1], "text": "x", "a number": 3, "a boolean": True, "null": None}


def _kind(value) -> str:
    return next(k for k, w in WRONG.items() if type(w) is type(value) or (k == "a number" and type(value) is float))


def _failing_report(tmp_path) -> Path:
    path = tmp_path / "failing.json"
    broken = str(Path(__file__).parent / "broken" / "adapters.py") + ":NoFollowSuit"
    r = turub("check", *QUICK, "--python", broken, "--json", str(path))
    assert r.returncode == 1, r.stderr
    return path


@pytest.fixture(scope="module")
def real_reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    good, failing = a_report(folder), _failing_report(folder)
    docs = {name: json.loads(p.read_text(encoding="utf-8")) for name, p in (("conforming", good), ("failing", failing))}
    for doc in docs.values():  # a few cases, the failing ones first: every field of a case, at a fraction of the cost
        doc["cases"] = sorted(doc["cases"], key=lambda c: c["status"] == "passed")[:4]
    return docs


@pytest.mark.parametrize("which", ["conforming", "failing"])
def test_every_field_of_a_report_of_every_wrong_type_is_exit_2_naming_it_or_read_as_absent(which, real_reports, tmp_path, capsys):
    """``turub report`` (alone, beside a good report, with --html) and ``turub check --diff``
    (either side), given a report whose one field is of another type: exit 2 and one line
    naming the file and a field on the path to it, or (a field the command does not read, or
    may be null) the command's usual status; never a traceback, never a status of its own."""
    from turub.tools.cli import main
    doc = real_reports[which]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(doc), encoding="utf-8")
    bad = tmp_path / "bad-report.json"
    paths = [p for p in _field_paths(doc) if p and p[0] != "format"]
    assert len(paths) > 60 and ("cases", 0, "status") in paths, len(paths)
    commands = {"report": (["report", str(bad)], {0, 2}), "report, second": (["report", str(good), str(bad)], {0, 2}),
                "report --html": (["report", "--html", str(tmp_path / "page"), str(good), str(bad)], {0, 2}),
                "--diff NEW": (["check", "--diff", str(good), str(bad)], {0, 1, 2}),
                "--diff OLD": (["check", "--diff", str(bad), str(good)], {0, 1, 2})}
    tried = refused = 0
    for path in paths:
        inner = doc
        for key in path:
            inner = inner[key]
        for kind, value in WRONG.items():
            if kind == _kind(inner):
                continue
            bad.write_text(json.dumps(_replaced(doc, path, value)), encoding="utf-8")
            for name, (argv, allowed) in commands.items():
                if name == "report --html" and len(path) > 1:
                    continue  # (the page is drawn from what the text is: its fields are those above)
                out = io.StringIO()
                try:
                    status = main(argv, out)
                except SystemExit as e:  # (argparse's own; never expected here)
                    status = e.code
                err = capsys.readouterr().err
                where = f"{name}: {_shown_path(path)} as {kind}"
                tried += 1
                assert status in allowed, (where, status, err[-600:])
                assert "Traceback" not in err, (where, err)
                if status == 2:
                    refused += 1
                    lines = [x for x in err.splitlines() if x.strip() and "warning:" not in x]
                    assert len(lines) == 1 and bad.name in lines[0], (where, err)
                    named = [k for k in path if isinstance(k, str) and k in lines[0].split(bad.name, 1)[1]]
                    assert named or "not a turub report" in lines[0], (where, lines[0])
    assert refused > tried // 10, (refused, tried)
