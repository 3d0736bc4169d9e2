"""Every way a house-rule definition can be wrong, through every command that reads one
(issue 31): ``turub check``, ``play``, ``simulate``, ``explain`` and ``variants show``, each run
as a process with a timeout.  Each bad definition must end with one line on standard error naming the file, the
variant (where the file got as far as naming one) and the rule or field at fault, the status
the guides document (``docs/guides/house-rules.md``: 2 for a definition refused, 4 for a
command past its ``--time-limit``; ``docs/guides/implementers.md``: ``check`` says 2 for a
variant still loading at its time limit), no traceback, nothing on standard output, no hang.

The catalogue is by kind of mistake, not by example: a wrong type for each field of each
kind of file, unknown names, each way user code misbehaves (raises, loops, answers nonsense
or at random, changes what it is shown, prints, exits, fails to import) for several
decisions, each kind of path that is not a readable file, and names that collide."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from pace import generous

#: The statuses of docs/guides/house-rules.md (play, simulate, explain) and implementers.md (check).
REFUSED, PAST_TIME_LIMIT = 2, 4

HEAD = "from turub.variants import Variant, VariantClause\n"

COMMANDS = {
    "check": ["check", "--no-generated", "--examples", "0", "--properties", "0", "--quiet"],
    "play": ["play", "--seed", "3"],
    "simulate": ["simulate", "--deals", "3"],
    "explain": ["explain", "--trump", "S", "9S", "KS", "7D", "7D"],
    "variants": ["variants", "show"],  # reads a variant too: the path is its argument
}


def command_line(command: str, path: Path) -> list[str]:
    given = [str(path)] if command == "variants" else ["--variant", str(path)]
    return [sys.executable, "-m", "turub.tools.cli", *COMMANDS[command], *given]


@dataclass(frozen=True)
class Bad:
    """One bad definition: the file's name and text (``None``: made by ``make``), the words its
    one line must hold besides the file (the variant, the rule or field), and whether it runs
    past the time limit (``loops``)."""

    name: str
    file: str
    text: str | bytes | None
    says: tuple[str, ...]
    loops: bool = False


def rule(decides: str, body: str, name: str = "riverside-bad") -> str:
    """A file whose one variant has one clause ``riverside.bad`` deciding ``decides`` by ``r``."""
    return (HEAD + textwrap.dedent(body) + f'V = Variant("{name}", "1", clauses=[VariantClause('
            f'"riverside.bad", "Bad", decides="{decides}", rule=r)])\n')


def clause(**fields: str) -> str:
    given = ", ".join(f"{k}={v}" for k, v in fields.items())
    return HEAD + f'V = Variant("riverside", "1", clauses=[VariantClause("riverside.x", "X", {given})])\n'


RULE = ("variant riverside-bad 1", "house rule riverside.bad")
#: An exception whose text cannot be had: its ``__str__`` raises.
UNREADABLE = "class Unreadable(Exception):\n    def __str__(self):\n        raise RuntimeError('no text')\n"

CATALOGUE = [
    # --- a declarative file (.toml, .json): each field of the wrong type, unknown names -------
    Bad("toml-version-number", "club.toml", 'name = "riverside"\nversion = 2\n', ("variant riverside", "'version'")),
    Bad("toml-replaces-text", "club.toml", 'name = "riverside"\nversion = "1"\n[[clauses]]\nid = "riverside.x"\n'
        'title = "X"\nreplaces = "play.follow-suit"\n', ("variant riverside", "'replaces'")),
    Bad("toml-options-list", "club.toml", 'name = "riverside"\nversion = "1"\noptions = ["direction"]\n',
        ("variant riverside", "'options'")),
    Bad("toml-clauses-table", "club.toml", 'name = "riverside"\nversion = "1"\n[clauses]\nid = "riverside.x"\n'
        'title = "X"\n', ("variant riverside", "'clauses'")),
    Bad("toml-name-number", "club.toml", 'name = 7\nversion = "1"\n', ("'name'",)),
    Bad("toml-unknown-clause", "club.toml", 'name = "riverside"\nversion = "1"\n[[clauses]]\nid = "riverside.x"\n'
        'title = "X"\nreplaces = ["play.no-such"]\n', ("variant riverside", "'play.no-such'")),
    Bad("toml-standard-part", "club.toml", 'name = "riverside"\nversion = "1"\n[[clauses]]\nid = "trick.x"\n'
        'title = "X"\n', ("variant riverside", "'trick.x'")),
    Bad("toml-decides", "club.toml", 'name = "riverside"\nversion = "1"\n[[clauses]]\nid = "riverside.x"\n'
        'title = "X"\ndecides = "trick_winner"\n', ("variant riverside", "decides")),
    Bad("toml-unknown-option", "club.toml", 'name = "riverside"\nversion = "1"\n[options]\ncolour = "red"\n',
        ("variant riverside", "'colour'")),
    Bad("toml-option-value", "club.toml", 'name = "riverside"\nversion = "1"\n[options]\ndirection = "up"\n',
        ("variant riverside", "direction=up")),
    Bad("toml-syntax", "club.toml", 'name = "riverside\n', ("line 1",)),
    Bad("toml-collision", "club.toml", 'name = "standard"\nversion = "1"\n[options]\nstake = "per-deal"\n',
        ("variant standard", "built-in")),
    Bad("json-not-a-table", "club.json", "[1, 2]", ("a variant is a table",)),
    Bad("json-version-number", "club.json", '{"name": "riverside", "version": 1.5}',
        ("variant riverside", "'version'")),
    # --- a Python file: each field of the wrong type, unknown names ----------------------------
    Bad("py-version-number", "club.py", HEAD + 'V = Variant("riverside", 2)\n', ("variant riverside", "version 2")),
    Bad("py-replaces-text", "club.py", clause(replaces='"play.follow-suit"'), ("variant riverside", "replaces")),
    Bad("py-options-list", "club.py", HEAD + 'V = Variant("riverside", "1", options=["direction"])\n',
        ("variant riverside", "options")),
    Bad("py-clauses-table", "club.py", HEAD + 'V = Variant("riverside", "1", clauses={"riverside.x": 1})\n',
        ("variant riverside", "clauses")),
    Bad("py-title-number", "club.py", HEAD + 'V = Variant("riverside", "1", clauses=[VariantClause("riverside.x", 3)])\n',
        ("variant riverside", "riverside.x", "title")),
    Bad("py-unknown-clause", "club.py", clause(replaces='["play.no-such"]'), ("variant riverside", "'play.no-such'")),
    Bad("py-unknown-decision", "club.py", clause(decides='"no_such"', rule="lambda *a: None"),
        ("variant riverside", "riverside.x", "'no_such'")),
    Bad("py-rule-not-a-function", "club.py", clause(decides='"trick_winner"', rule="3"),
        ("variant riverside", "riverside.x", "rule")),
    Bad("py-wrong-arguments", "club.py", rule("trick_winner", "def r(cards):\n    return None\n"),
        RULE + ("takes (cards)",)),
    Bad("py-collision", "club.py", HEAD + 'V = Variant("standard", "1", options={"stake": "per-deal"})\n',
        ("variant standard", "built-in")),
    Bad("py-version-two-lines", "club.py", HEAD + 'V = Variant("riverside", "1\\n2")\n',
        ("variant riverside", "version '1\\n2'", "one line")),
    Bad("py-name-with-options", "club.py", HEAD + 'V = Variant("riverside+direction=x", "1")\n',
        ("variant riverside+direction=x", "'+'")),
    Bad("py-name-escape-code", "club.py", HEAD + 'V = Variant("riverside\\x1b[31m", "1")\n',
        ("variant riverside\\x1b[31m",)),
    Bad("py-twice", "club.py", HEAD + 'V = Variant("riverside", "1", clauses=[VariantClause("riverside.x", "X"), '
        'VariantClause("riverside.x", "Y")])\n', ("variant riverside", "given twice")),
    # --- a rule that misbehaves, for decisions no command above asks directly ----------------
    Bad("raises-trick", "club.py", rule("trick_winner", "def r(cards, trump):\n    raise KeyError('x')\n"),
        RULE + ("raised KeyError",)),
    Bad("raises-result", "club.py", rule("deal_result", "def r(ns, ew, closed_early):\n    return 1 / 0\n"),
        RULE + ("raised ZeroDivisionError",)),
    Bad("raises-signal", "club.py", rule("may_signal", "def r(seat, leader, kind):\n    raise BaseException('no')\n"),
        RULE + ("raised BaseException",)),
    Bad("exits-stands", "club.py", rule("deal_stands", "def r(packets, dealer, rules):\n    raise SystemExit(0)\n"),
        RULE + ("raised SystemExit",)),
    Bad("nonsense-legal", "club.py", rule("legal_plays", "def r(hand, trick, trump):\n    return 5\n"),
        RULE + ("returned 5",)),
    Bad("nonsense-next-dealer", "club.py", rule("next_dealer", "def r(dealer, winner, rules):\n    return 5\n"),
        RULE + ("returned 5",)),
    Bad("nonsense-first-dealer", "club.py", rule("first_dealer", "def r(rounds):\n    return 'nobody'\n"),
        RULE + ("returned the text",)),
    Bad("nonsense-caller", "club.py", rule("trump_caller", "def r(dealer, rules):\n    return 5.5\n"),
        RULE + ("returned 5.5",)),
    Bad("random-contest", "club.py", rule("contest_step", "import random\ndef r(contest, result, rules):\n"
        "    return contest if random.random() < 0.5 else None\n"), RULE + ("two ways",)),
    Bad("random-first-dealer", "club.py", rule("first_dealer", "import random\nfrom turub import Seat\n"
        "def r(rounds):\n    return random.choice(list(Seat))\n"), RULE + ("two ways",)),
    Bad("mutates-caller", "club.py", rule("trump_caller", "from turub import Direction\ndef r(dealer, rules):\n"
        "    object.__setattr__(rules, 'direction', Direction.COUNTERCLOCKWISE)\n    return None\n"),
        RULE + ("changed a value it was shown",)),
    Bad("prints-result", "club.py", rule("deal_result", "def r(ns, ew, closed_early):\n    print(ns)\n"
        "    return None\n"), RULE + ("printed",)),
    # an async rule gives a value to await, never its answer: refused as it is defined, and a
    # coroutine answered by a plain function is refused as an answer (closed: no warning printed)
    Bad("async-legal", "club.py", rule("legal_plays", "async def r(hand, trick, trump):\n    return None\n"),
        ("variant riverside-bad", "riverside.bad", "async")),
    Bad("async-callable-trick", "club.py", rule("trick_winner", "class R:\n    async def __call__(self, cards, trump):\n"
        "        return None\nr = R()\n"), ("variant riverside-bad", "riverside.bad", "async")),
    Bad("answers-a-coroutine", "club.py", rule("deal_result", "async def later():\n    return None\n"
        "def r(ns, ew, closed_early):\n    return later()\n"), RULE + ("returned a coroutine",)),
    Bad("loops-legal", "club.py", rule("legal_plays", "def r(hand, trick, trump):\n    while True:\n        pass\n"),
        RULE + ("still deciding",), loops=True),
    Bad("loops-signal", "club.py", rule("may_signal", "def r(seat, leader, kind):\n    while True:\n        pass\n"),
        RULE + ("still deciding",), loops=True),
    # --- a module that misbehaves as it loads --------------------------------------------------
    Bad("import-fails", "club.py", "import no_such_module_of_the_club\n", ("ModuleNotFoundError",)),
    Bad("syntax-error", "club.py", "def (:\n", ("SyntaxError",)),
    Bad("exits", "club.py", "import sys\nsys.exit(3)\n", ("exited",)),
    Bad("prints", "club.py", "print('hello')\n" + HEAD + 'V = Variant("riverside", "1")\n', ("printed 'hello'",)),
    Bad("starts-a-thread", "club.py", "import threading, time\nthreading.Thread(target=time.sleep, args=(600,))"
        ".start()\n" + HEAD + 'V = Variant("riverside", "1")\n', ("thread",)),
    Bad("prints-at-exit", "club.py", "import atexit\natexit.register(lambda: print('bye'))\n" + HEAD
        + 'V = Variant("riverside", "1")\n', ("atexit",)),
    # what a file may not change of the command that runs it, at import or in a rule: each put
    # back, then refused naming what changed
    Bad("changes-folder", "club.py", "import os\nos.chdir(os.path.dirname(os.getcwd()))\n" + HEAD
        + 'V = Variant("riverside", "1")\n', ("variant riverside", "working directory")),
    Bad("ignores-ctrl-c", "club.py", "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n" + HEAD
        + 'V = Variant("riverside", "1")\n', ("variant riverside", "SIGINT")),
    Bad("patches-the-engine", "club.py", "import turub.rules\nturub.rules.legal_plays = lambda *a, **k: ()\n"
        "from turub.deal import Deal\nDeal.play = lambda self, *a: None\n" + HEAD + 'V = Variant("riverside", "1")\n',
        ("variant riverside", "turub.rules.legal_plays", "turub.deal.Deal.play")),
    Bad("rule-patches-the-engine", "club.py", rule("trick_winner", "import turub.cards\ndef r(cards, trump):\n"
        "    turub.cards.CARDS = ()\n    return None\n"), RULE + ("turub.cards.CARDS",)),
    Bad("loops-at-import", "club.py", "while True:\n    pass\n", (), loops=True),
    Bad("raises-base-at-import", "club.py", "raise BaseException('base')\n", ("BaseException: base",)),
    Bad("raises-lines-at-import", "club.py", "raise ValueError('one\\ntwo\\nthree')\n", ("ValueError: one",)),
    Bad("raises-unreadable-at-import", "club.py", UNREADABLE + "raise Unreadable()\n", ("Unreadable",)),
    # what a rule gives that the checks cannot even read: one line all the same (naming the
    # rule too is test_probe_rule_answers.py's, an expected failure until turub.rule_checks can)
    Bad("raises-unreadable", "club.py", rule("trick_winner", UNREADABLE + "def r(cards, trump):\n"
        "    raise Unreadable()\n"), RULE[:1]),
    Bad("raises-own-base-exception", "club.py", rule("trick_winner", "class Odd(BaseException):\n    pass\n"
        "def r(cards, trump):\n    raise Odd('odd')\n"), RULE[:1] + ("Odd: odd",)),
    Bad("nonsense-unreadable", "club.py", rule("legal_plays", "class Cards:\n    def __iter__(self):\n"
        "        raise ValueError('no')\ndef r(hand, trick, trump):\n    return Cards()\n"), RULE[:1]),
    Bad("no-variant", "club.py", "X = 1\n", ("defines 0 variants",)),
    Bad("two-variants", "club.py", HEAD + 'A = Variant("riverside-a", "1")\nB = Variant("riverside-b", "1")\n',
        ("defines 2 variants",)),
    Bad("not-utf8", "club.toml", b'name = "riv\xffside"\n', ("utf-8",)),
    # --- a path that is not a readable file ----------------------------------------------------
    Bad("missing", "gone.py", None, ("no variant file",)),
    Bad("directory", "folder.py", None, ("a folder",)),
    Bad("fifo", "pipe.toml", None, ("FIFO",)),
    Bad("huge", "huge.toml", None, ("larger than",)),
]


def make(folder: Path, bad: Bad) -> Path:
    path = folder / bad.file
    if bad.name == "directory":
        path.mkdir()
    elif bad.name == "fifo":
        os.mkfifo(path)
    elif bad.name == "huge":
        with open(path, "wb") as f:
            f.truncate(40 * 2**20)  # sparse: costs no disk
    elif bad.text is not None:
        path.write_bytes(bad.text if isinstance(bad.text, bytes) else bad.text.encode("utf-8"))
    return path


def time_limit(bad: Bad) -> float:
    """The run's time limit: a definition that loops never ends, so it only waits out a short
    limit (what a loader must meet before reaching the rule: about 0.1 s on a quiet machine,
    made generous); every other one must be refused well within 3 s."""
    return generous(0.1) if bad.loops else 3


def expected_status(bad: Bad, command: str) -> int:
    return PAST_TIME_LIMIT if bad.loops and command != "check" else REFUSED


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("bad", CATALOGUE, ids=[b.name for b in CATALOGUE])
def test_a_bad_definition_is_one_line_naming_the_file_the_variant_and_the_rule(bad, command, tmp_path):
    path = make(tmp_path, bad)
    done = subprocess.run([*command_line(command, path), "--time-limit", f"{time_limit(bad):g}"], capture_output=True, text=True, errors="replace", timeout=60, cwd=tmp_path)
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    assert done.returncode == expected_status(bad, command), (done.returncode, done.stderr[-800:])
    assert len(lines) == 1 and done.stdout == "", (done.stdout[-400:], done.stderr[-800:])
    (line,) = lines
    assert line.startswith(f"turub {COMMANDS[command][0]}: error: ") and str(path) in line, line
    assert line.isprintable(), line  # what the file named is escaped: it cannot drive the terminal
    for words in bad.says:
        assert words in line, line
    assert "club.…" not in line


def test_the_catalogue_covers_every_decision_and_every_kind_of_file():
    # Each decision a rule may take has a misbehaving rule above, each kind of file a bad one.
    from turub.decisions import DECISION_TABLE
    decided = {b.text.split('decides="')[1].split('"')[0] for b in CATALOGUE
               if isinstance(b.text, str) and 'rule=r)' in b.text}
    assert set(DECISION_TABLE) <= decided, set(DECISION_TABLE) - decided
    assert {Path(b.file).suffix for b in CATALOGUE} == {".py", ".toml", ".json"}


def test_a_file_that_is_sound_runs_in_every_command(tmp_path):
    # The harness itself: a well-formed rule that defers passes through each command (status 0),
    # so the failures above are the definitions', not the harness's.
    path = tmp_path / "club.py"
    path.write_text(rule("trick_winner", "def r(cards, trump):\n    return None\n", name="riverside-ok"))
    for command in COMMANDS:
        done = subprocess.run(command_line(command, path), capture_output=True, text=True, timeout=120,
                              cwd=tmp_path)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (command, done.stderr[-800:])
