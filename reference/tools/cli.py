# PYTHON_ARGCOMPLETE_OK  (argcomplete completes this entry point: turub[completion])
"""The ``turub`` command line.

``turub play``, ``turub simulate`` and ``turub explain`` are the engine's; other parts of
the project (the conformance kit) add their own sub-commands through :func:`register`.
Those are imported only when one of their commands runs (:data:`LAZY_COMMANDS`), so the
engine's commands and ``--help`` start without the kit and Hypothesis.
Bad arguments print one line and exit with status 2; a command that ran past its
``--time-limit`` prints one line naming what was running (a house rule: its variant, clause
and situation) and exits with status 4 (:data:`EXIT_TIME_LIMIT`).  A SIGINT, SIGTERM or
SIGHUP ends any command with one line and the signal's status, 128 + N (``turub check``
writes its reports first), a burst of them as one; from the console script's first line
(``turub_entry``), before the package is imported.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from .. import __version__
from ..cards import Suit, card_name, parse_cards, parse_suit, sort_hand
from ..clauses import clause
from ..contest import Contest
from ..deal import Phase
from ..decisions import HouseRuleError
from ..errors import OutOfTime, RuleError
from .exiting import whole_process
from .limits import EXIT_TIME_LIMIT, seconds, share, time_limit
from .progress import Progress
from ..seats import Seat, Side, parse_seat
from ..user_files import one_line

__all__ = ["main", "register", "LAZY_COMMANDS", "HOLDS_SIGNALS", "Interruption", "ignore_signal", "release_signals", "take_signals"]

_EXTENSIONS: list[Callable[[argparse._SubParsersAction], None]] = []

#: Sub-commands added by other parts of the project, by name: the module that registers
#: them (imported only when the command runs) and the one-line help ``turub --help`` shows.
#: A command not named here nor the engine's own also loads these modules before parsing.
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("turub.conformance.commands.cli", "check an implementation against the spec, clause by clause"),
    "vectors": ("turub.conformance.commands.cli", "export the conformance vectors (cases as JSON data)"),
    "variants": ("turub.conformance.commands.cli", "compare rule variants (option sets)"),
    "schema": ("turub.conformance.commands.cli", "print the protocol's JSON Schema (draft 2020-12)"),
    "report": ("turub.conformance.commands.cli", "compare the JSON reports of several implementations side by side"),
}
#: The commands ``turub`` itself defines (they never load the extensions).
_OWN_COMMANDS = frozenset({"play", "simulate", "explain", "clause"})


def register(add: Callable[[argparse._SubParsersAction], None]) -> None:
    """Let another part of the project add sub-commands to ``turub``."""
    _EXTENSIONS.append(add)


class _Help(argparse.ArgumentDefaultsHelpFormatter):
    """Every help shows each option's default, unless there is none to show (a flag, an
    option without a default) or the help already says it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default in (None, False, [], argparse.SUPPRESS) or "default" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs):
        if kwargs.get("help") is None and kwargs.get("default") not in (None, False, []):
            kwargs["help"] = "default: %(default)s"  # an option without help still shows it
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"turub: error: {message}\n")


def _rules_arg(parser: argparse.ArgumentParser) -> None:
    # One value per flag (repeat the flag, or separate with commas), so that the option never
    # takes the positional arguments that follow it.
    parser.add_argument("--rules", action="extend", type=_split_rules, default=[],
                        metavar="OPTION=VALUE",
                        help="rule options, one per flag or comma-separated, e.g. "
                             "--rules direction=counterclockwise --rules stake=per-deal, "
                             "or a variant's name (see `turub variants list`)")
    parser.add_argument("--variant", metavar="NAME",
                        help="play by a rule variant: a name of `turub variants list`, "
                             "path.py:NAME, path.toml or path.json")


def _time_limit_arg(parser: argparse.ArgumentParser) -> None:
    # Its own dest: turub check's --time-limit (the kit's, for the whole run) is another option.
    parser.add_argument("--time-limit", type=seconds, metavar="SECONDS", dest="command_time_limit",
                        help="stop after SECONDS (loading the variant and its house rules "
                             "included) with one line saying what was running, exit status 4")


def variant_of(args: argparse.Namespace):
    """The variant a command runs under (``--variant``, then ``--rules``): one table of names."""
    from ..variants import select
    return select(getattr(args, "variant", None), args.rules)


def _split_rules(text: str) -> list[str]:
    return [item for item in text.split(",") if item.strip()]


def _hand_text(cards: Sequence) -> str:
    return " ".join(str(c) for c in sort_hand(cards))


def _why(clauses: Sequence[str]) -> str:
    return "; ".join(f"{c} ({clause(c).title.lower()})" for c in clauses)


def _played(deal, rng: random.Random):
    """``deal`` played to its end as ``turub play`` plays it: the caller names the suit its
    three cards support best, then each seat a card drawn from its legal plays."""
    seen = deal.view(deal.caller).hand
    trump = Counter(c.suit for c in seen).most_common(1)[0][0]  # the suit the three support best
    deal.name_trump(deal.caller, trump)
    while deal.phase is Phase.PLAYING:
        deal.play(deal.to_act, rng.choice(deal.legal_plays()))  # type: ignore[arg-type]
    return seen, trump


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    variant = variant_of(args)
    if args.sitting is not None:
        return _play_sitting(args, variant, out)
    rules = variant.rules
    rng = random.Random(args.seed)
    deal = variant.deal_from_seed(args.seed, parse_seat(args.dealer))
    caller = deal.caller
    seen, trump = _played(deal, rng)
    if args.json:
        json.dump(deal.to_record(), out, ensure_ascii=False, indent=1)
        out.write("\n")
        return 0
    w = out.write
    w(f"Deal of seed {args.seed} ({rules.direction}"
      + (f", variant {variant.name} {variant.version}" if variant.name != "standard" else "")
      + f"); dealer {deal.dealer}, cut {deal.cut}.\n")
    w(f"{caller} saw {' '.join(map(str, seen))} and named {trump.symbol} trump.\n\n")
    for seat in Seat:  # the hands as dealt: every card is played once
        dealt = [c for t in deal.tricks for s, c in zip(t.seats, t.cards) if s is seat]
        w(f"  {str(seat):<6} {_hand_text(dealt)}\n")
    w("\n")
    for n, trick in enumerate(deal.tricks, 1):
        plays = "  ".join(f"{s.letter} {str(c):>3}" for s, c in zip(trick.seats, trick.cards))
        d = trick.decision
        w(f"{n:>2}. {plays}   -> {trick.winner} with {d.card} ({', '.join(d.clauses)})\n")
    result = deal.result
    assert result is not None
    w(f"\nResult: North-South {result.tricks[0]}, East-West {result.tricks[1]}: "
      f"{'draw' if result.winner is None else str(result.winner) + ' win'} ({_why(result.clauses)}).\n")
    nd = variant.next_dealer(deal.dealer, result.winner)
    w(f"Next dealer: {nd.seat} ({_why(nd.clauses)}).\n")
    return 0


def _play_sitting(args: argparse.Namespace, variant, out: TextIO) -> int:
    """``turub play --sitting N``: the first dealer drawn from the seed (``dealer.first-draw``,
    or a house rule), then N deals on one score sheet, each with its dealer, its caller and
    trump, its result, the contest after it and the next dealer, every decision with its
    clauses."""
    if args.sitting < 1:
        raise _UsageError("--sitting must be at least 1")
    rng = random.Random(args.seed)
    first = variant.draw_first_dealer(args.seed)
    sheet = variant.sitting(first.seat)
    deals = []
    for _ in range(args.sitting):
        deal = variant.deal_from_seed(rng.randrange(2 ** 32), sheet.dealer)
        _seen, trump = _played(deal, rng)
        row = sheet.record(deal.result, trump)  # type: ignore[arg-type]
        deals.append((deal, row))
    if args.json:
        json.dump({"draw": {"seat": first.seat.letter, "clauses": list(first.clauses),
                                    "rounds": [{s.letter: card_name(c, ascii=True) for s, c in r} for r in first.rounds]},
                   "deals": [deal.to_record() for deal, _ in deals]}, out, ensure_ascii=False, indent=1)
        out.write("\n")
        return 0
    w = out.write
    w(f"Sitting of {args.sitting} deal{'s' if args.sitting > 1 else ''} from seed {args.seed} "
      f"({variant.rules.direction}"
      + (f", variant {variant.name} {variant.version}" if variant.name != "standard" else "") + ").\n")
    shown = " / ".join(" ".join(f"{s.letter} {c}" for s, c in r) for r in first.rounds)
    w(f"First dealer: {first.seat}, drawn {shown} ({_why(first.clauses)}).\n\n")
    for deal, row in deals:
        result = row.result
        w(f"{row.number:>3}. {deal.dealer} deals, {deal.caller} names {row.trump.symbol}"  # type: ignore[union-attr]
          + (f" ({deal.caller_clause})" if deal.caller_clause != "trump.caller" else "")
          + f": North-South {result.tricks[0]}, East-West {result.tricks[1]}, "
          f"{'a draw' if result.winner is None else result.winner.short + ' win'} ({', '.join(result.clauses)})\n")
        w(f"     contest {row.contest_number}: {_contest_state(row.contest)} ({', '.join(row.contest.clauses)}); "
          f"next dealer {row.next_dealer.seat} ({', '.join(row.next_dealer.clauses)})\n")
    return 0


def _contest_state(c: Contest) -> str:
    if c.winner is not None:
        return f"won by {c.winner}"
    return _contest_text(c)


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    """Play N random legal deals on one score sheet, streaming: memory stays flat in N."""
    variant = variant_of(args)
    rules = variant.rules
    if args.deals < 1:
        raise _UsageError("--deals must be at least 1")
    rng = random.Random(args.seed)  # one random source shuffles and plays every deal
    house = variant.tally() if variant.has_rules else None  # what the house rules decided
    sheet = variant.sitting(variant.draw_first_dealer(args.seed).seat, keep_rows=False)  # a first_dealer rule draws
    play = variant.play_random_deal
    margins: Counter[int] = Counter()
    wins: Counter[Side | None] = Counter()
    decided: Counter[Side] = Counter()
    decided_deals = 0
    record = sheet.record
    share = args.close_early
    closed = 0
    with Progress(args.deals, sys.stderr, label="turub simulate", unit="deals") as progress:
        for i in range(args.deals):
            if share and rng.random() < share:  # drawn only when asked: the standard run unchanged
                deal = _closed_early(variant, sheet.dealer, rng)
                closed += 1
            else:
                deal = play(sheet.dealer, rng)
            result = deal.result
            contest = record(result, deal.trump).contest  # type: ignore[arg-type]
            margins[result.tricks[0]] += 1  # type: ignore[union-attr]
            wins[result.winner] += 1  # type: ignore[union-attr]
            if contest.winner is not None:
                decided[contest.winner] += 1
                decided_deals += contest.deals
            if progress.active and not i & 15:
                progress.update(i + 1)  # a clock reading every 16 deals; drawn at most every 0.1 s
        progress.update(args.deals)
    w = out.write
    w(f"{args.deals} deals from seed {args.seed}, rules "
      + ", ".join(f"{k}={v}" for k, v in rules.to_dict().items())
      + (f", variant {variant.name} {variant.version}" if variant.name != "standard" else "") + "\n\n")
    w("North-South tricks per deal (East-West has the rest"
      + (" of the tricks played" if share else "") + "):\n")
    peak = max(margins.values())
    for tricks in range(min(margins), max(margins) + 1):
        n = margins.get(tricks, 0)
        w(f"  {tricks:>2} {'#' * max(1 if n else 0, round(40 * n / peak)):<40} {n}\n")
    w(f"\nWins: North-South {wins[Side.NORTH_SOUTH]}, East-West {wins[Side.EAST_WEST]}, "
      f"draws {wins[None]}\n")
    if share:
        w(f"Closed early: {closed} deals (--close-early {share:g}: each after a random number "
          "of tricks, 1 to 35, by a random seat)\n")
    n_decided = sum(decided.values())
    w(f"Contests decided: {n_decided} (North-South "
      f"{decided[Side.NORTH_SOUTH]}, East-West "
      f"{decided[Side.EAST_WEST]}); mean length "
      f"{(decided_deals / n_decided) if n_decided else 0:.2f} deals; "
      f"open at the end: {_contest_text(sheet.contest)}\n")
    if house is not None:
        variant.stop_tally()
        w(_house_text(variant, house))
    return 0


def _closed_early(variant, dealer: Seat, rng: random.Random):
    """A random deal closed early (``sheet.any-player-closes``): the trump drawn as
    :meth:`~turub.variants.Variant.play_random_deal` draws it, then card by card, each play
    drawn from the legal plays (as the variant decides them), for 1 to 35 tricks, then
    closed by a seat drawn at random; the result is the variant's (``result.closed-early``
    or a house rule deciding it)."""
    from ..cards import SUITS
    deal = variant.deal_class.shuffled(rng, dealer, variant.rules)
    deal.name_trump(deal.caller, SUITS[int(rng.random() * 4)])
    tricks = rng.randrange(1, 36)
    while len(deal.tricks) < tricks:
        deal.play(deal.to_act, rng.choice(deal.legal_plays()))
    deal.close(rng.choice(list(Seat)))
    return deal


def _house_text(variant, counts: dict[str, list[int]]) -> str:
    """How many decisions each house clause made, and how many differ from the standard rule."""
    from ..decisions import DECISION_TABLE
    lines = [f"\nHouse rules of variant {variant.name} at work (decisions made; of them, different "
             "from the standard rule):\n"]
    for vc in variant.all_clauses:
        if vc.decides is None:
            continue
        made, differ = counts.get(vc.id, [0, 0])
        what = DECISION_TABLE[vc.decides].title
        asked = f" (asked at {', '.join(vc.applies_to)} plays only)" if vc.applies_to else ""
        lines.append(f"  {vc.id}{asked}: {made} {what} decided, {differ} differently from "
                     f"{', '.join(vc.targets) or 'the standard rules'}\n")
    return "".join(lines)


def _contest_text(c: Contest) -> str:
    if c.holder is None:
        return "no sequence running"
    return f"{c.holder} to beat {c.mark}"


def cmd_explain(args: argparse.Namespace, out: TextIO) -> int:
    asked = [name for name in ("result", "dealt_after", "contest") if getattr(args, name) is not None]
    if len(asked) > 1 or (asked and (args.cards or args.trump)):
        raise _UsageError("explain one thing: a trick (--trump and its cards), --result, --next-dealer "
                          "or --contest")
    if asked:
        return {"result": _explain_result, "dealt_after": _explain_next_dealer,
                "contest": _explain_contest}[asked[0]](args, variant_of(args), out)
    if args.trump is None:
        raise _UsageError("a trick needs --trump (or explain --result, --next-dealer or --contest)")
    trump = parse_suit(args.trump)
    cards = parse_cards(args.cards)
    if not 1 <= len(cards) <= 4:
        raise _UsageError("a trick has one to four cards")
    leader = parse_seat(args.leader)
    variant = variant_of(args)
    d = variant.decide_trick(cards, trump, leader)
    out.write(f"Trump {trump.symbol}; led suit {cards[0].suit.symbol}; "
              f"{' '.join(map(str, cards))}\n")
    out.write(f"The {'first second third fourth'.split()[d.position]} card, {d.card} "
              f"played by {d.seat}, wins the trick.\n")
    for c in d.clauses:
        out.write(f"  {c}: {clause(c).title}.\n")
    return 0


def _tricks_text(text: str) -> tuple[int, int, bool]:
    """A deal's tricks as given on the command line: ``NS-EW``, ``:closed`` after a deal
    closed early (``12-5:closed``)."""
    counts, _, closed = text.partition(":")
    try:
        ns, ew = (int(n) for n in counts.split("-"))
    except ValueError:
        raise _UsageError(f"a deal's tricks are NS-EW, as 20-16 or 12-5:closed, not {text[:40]!r}") from None
    if closed not in ("", "closed"):
        raise _UsageError(f"after the tricks only ':closed' may follow, not {text[:40]!r}")
    return ns, ew, closed == "closed"


def _clauses_text(clauses) -> str:
    return "".join(f"  {c}: {clause(c).title}.\n" for c in clauses)


def _explain_result(args: argparse.Namespace, variant, out: TextIO) -> int:
    ns, ew, closed = _tricks_text(args.result)
    dealer = parse_seat(args.dealer) if args.dealer is not None else None
    r = variant.deal_result(ns, ew, closed_early=closed, dealer=dealer)
    out.write(f"North-South {ns}, East-West {ew}{', closed early' if closed else ''}"
              + (f", {dealer} dealt" if dealer is not None else "") + ": "
              + ("a draw" if r.winner is None else f"{r.winner} win") + ".\n")
    out.write(_clauses_text(r.clauses))
    return 0


def _explain_next_dealer(args: argparse.Namespace, variant, out: TextIO) -> int:
    outcome = {"ns": Side.NORTH_SOUTH, "ew": Side.EAST_WEST, "draw": None}.get(args.dealt_after.lower(), "?")
    if outcome == "?":
        raise _UsageError(f"--next-dealer takes NS, EW or draw, not {args.dealt_after[:40]!r}")
    dealer = parse_seat(args.dealer or "N")
    nd = variant.next_dealer(dealer, outcome)
    out.write(f"{dealer} dealt, " + ("a draw" if outcome is None else f"{outcome} won")
              + f": {nd.seat} deals next.\n")
    out.write(_clauses_text(nd.clauses))
    return 0


def _explain_contest(args: argparse.Namespace, variant, out: TextIO) -> int:
    sheet = variant.sitting(parse_seat(args.dealer or "N"))
    for text in args.contest:
        ns, ew, closed = _tricks_text(text)
        result = variant.deal_result(ns, ew, closed_early=closed, dealer=sheet.dealer)
        row = sheet.record(result)
        out.write(f"{row.number:>3}. {row.dealer} deals; North-South {ns}, East-West {ew}"
                  f"{', closed early' if closed else ''}: "
                  f"{'a draw' if result.winner is None else result.winner.short + ' win'} "
                  f"({', '.join(result.clauses)})\n"
                  f"     contest {row.contest_number}: {_contest_state(row.contest)} "
                  f"({', '.join(row.contest.clauses)}); next dealer {row.next_dealer.seat} "
                  f"({', '.join(row.next_dealer.clauses)})\n")
    return 0


class _UsageError(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="turub", description="Arba'a Turub, the executable specification.")
    parser.add_argument("--version", action="version", version=f"turub {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("play", help="play one seeded deal and show it trick by trick")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dealer", default="N", help="N, E, S or W (default N)")
    p.add_argument("--json", action="store_true", help="print the deal's JSON record")
    p.add_argument("--sitting", type=int, metavar="N",
                   help="play a sitting of N deals: the first dealer drawn, then each deal's dealer, "
                        "caller, result, contest and next dealer")
    _rules_arg(p)
    _time_limit_arg(p)
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("simulate", help="play many random legal deals and summarise them")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--close-early", type=share, default=0.0, metavar="P",
                   help="close a share P of the deals (0 to 1) early, each after a random "
                        "number of tricks, by a random seat: a closing rule is asked (default: none)")
    _rules_arg(p)
    _time_limit_arg(p)
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("explain", help="which card wins a trick, who wins a deal, who deals next, "
                                       "the contest: each with the clauses that decide it")
    p.add_argument("--trump", help="a trick's trump suit: ♥, H or hearts")
    p.add_argument("--leader", default="N", help="the seat that led the trick (default N)")
    p.add_argument("--result", metavar="NS-EW", help="who wins a deal of these tricks (12-5:closed: closed early)")
    p.add_argument("--next-dealer", metavar="OUTCOME", dest="dealt_after",
                   help="who deals after --dealer's deal ended NS, EW or draw")
    p.add_argument("--contest", nargs="+", metavar="NS-EW",
                   help="the contest and the dealers after each of these deals, from --dealer's deal")
    p.add_argument("--dealer", help="who dealt (for --result, --next-dealer, --contest; default N)")
    p.add_argument("cards", nargs="*", help="a trick's cards in the order played, e.g. A♣ A♣ 6♥ K♣")
    _rules_arg(p)
    _time_limit_arg(p)
    p.set_defaults(run=cmd_explain)

    from .clause_cli import add_commands as _add_clause; _add_clause(sub)  # turub clause ID
    for add in _EXTENSIONS:
        add(sub)
    for name, (module, text) in LAZY_COMMANDS.items():
        if name not in sub.choices:  # not loaded: a stub that says why it cannot run
            p = sub.add_parser(name, help=text, add_help=False, prefix_chars="\0")
            p.add_argument("rest", nargs=argparse.REMAINDER)
            p.set_defaults(run=_unavailable(name, module))
    return parser


@functools.lru_cache(maxsize=4)
def _parser(extensions: tuple[Callable[[argparse._SubParsersAction], None], ...]) -> argparse.ArgumentParser:
    """The parser of :func:`build_parser`, built once for each set of registered extensions
    (a parse keeps nothing in it: each call of :func:`main` in one process, a test's or a
    program's, no longer builds every sub-command's options again, about 20 ms)."""
    return build_parser()


def _unavailable(name: str, module: str) -> Callable[[argparse.Namespace, TextIO], int]:
    def run(args: argparse.Namespace, out: TextIO) -> int:
        raise _UsageError(f"'{name}' needs {module}, which could not be imported")
    return run


def _complete(parser: argparse.ArgumentParser) -> None:
    """Shell completion with argcomplete (``pip install 'turub[completion]'``, then
    ``eval "$(register-python-argcomplete turub)"``): it prints the completions and exits.
    Without argcomplete installed, nothing: the command runs as typed."""
    try:
        import argcomplete
    except ImportError:
        return
    argcomplete.autocomplete(parser)


def _command_of(argv: Sequence[str]) -> str | None:
    """The sub-command named in ``argv``: its first argument that is not an option."""
    return next((a for a in argv if not a.startswith("-")), None)


def _load_extensions(command: str | None) -> None:
    """Import the modules that add sub-commands, unless ``command`` is the engine's own."""
    if command is None or command in _OWN_COMMANDS:
        return
    modules = ([LAZY_COMMANDS[command][0]] if command in LAZY_COMMANDS
               else dict.fromkeys(module for module, _ in LAZY_COMMANDS.values()))
    for module in modules:
        try:
            importlib.import_module(module)  # registers its commands
        except ImportError:
            pass


#: Characters the commands print that a narrow encoding (cp1252, ASCII under LANG=C) may
#: lack, and their ASCII notation: the suits' symbols become their letters (``10♥`` is
#: ``10H``, as every command also reads it).
_ASCII_NOTATION = {ord(s.symbol): s.letter for s in Suit} | {ord("…"): "...", ord("—"): "--",
                                                          ord("←"): "<-", ord("→"): "->"}


class _AsciiFallback:
    """A text stream whose encoding cannot show the card symbols: the cards are written in
    ASCII notation and anything else it cannot encode as a visible escape (``\\u2588``)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._encoding = getattr(stream, "encoding", None) or "ascii"

    def write(self, text: str) -> int:
        text = text.translate(_ASCII_NOTATION).encode(self._encoding, "backslashreplace").decode(self._encoding)
        return self._stream.write(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def printable(stream: TextIO) -> TextIO:
    """``stream``, or :class:`_AsciiFallback` around it if its encoding lacks the card symbols."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return stream
    try:
        "".join(map(chr, _ASCII_NOTATION)).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return _AsciiFallback(stream)  # type: ignore[return-value]
    return stream


#: The exit status of a command interrupted by Ctrl-C (SIGINT's: 128 + 2).
EXIT_INTERRUPTED = 130

#: The exit status when standard output was closed before everything was written (SIGPIPE's).
EXIT_BROKEN_PIPE = 141


def _stdout_gone() -> int:
    """Standard output is closed (``turub ... | head``): point it at the null device, so that
    the interpreter's last flush cannot fail again, and return SIGPIPE's status, never 0."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return EXIT_BROKEN_PIPE


def _closed_streams_to_null() -> None:
    """A standard stream the caller closed (``>&-``, ``2>&-``) is the null device: what would
    be written there is discarded as asked, never an error that changes the exit status, and
    no file the command opens takes its descriptor."""
    for fd, name, mode in ((0, "stdin", os.O_RDONLY), (1, "stdout", os.O_WRONLY), (2, "stderr", os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, mode)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                continue
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", closefd=False, encoding="utf-8",
                                    errors="backslashreplace"))


def _output_lost(stream: TextIO) -> bool:
    """Whether ``stream`` is a pipe whose reader went away before the end of the output
    (``| head -1``): it stopped reading before it could see the end, so what it did not
    take was lost.  Writes that fit the pipe's buffer raise nothing, so without this look
    the command would say 0 for a short output cut the same way as a long one."""
    try:
        import select
        import stat
        fd = stream.fileno()
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return False
        poll = select.poll()
        poll.register(fd, 0)  # POLLERR is always reported: the pipe has no reader left
        return any(events & select.POLLERR for _, events in poll.poll(0))
    except (OSError, ValueError, AttributeError, ImportError):
        return False


#: The commands that report an interruption themselves (``turub check`` writes its reports,
#: marked interrupted, and exits with the signal's status): a SIGINT, SIGTERM or SIGHUP that
#: comes while such a command loads and reads its arguments is held, and handed to it when it
#: takes over the signals (:func:`release_signals`); one it never takes still ends ``turub``
#: with the signal's status (128 + its number), never as if nothing came.
HOLDS_SIGNALS: frozenset[str] = frozenset({"check"})

_HELD_SIGNALS: list[int] = []  # the first signal held (a later one of a burst is the same interruption)
_HOLDERS: dict[int, object] = {}  # each signal's handler from before the hold, while it lasts


def _hold_signals(early: tuple[list[int], dict[int, object]] | None = None) -> None:
    """Hold SIGINT, SIGTERM and SIGHUP; ``early`` is a hold begun before ``turub`` was
    imported (``turub_entry``, the console script): its first signal, held in the very list
    its handler keeps writing to, and the handlers from before it become this hold's."""
    import signal
    import threading
    global _HELD_SIGNALS
    if early is not None:
        _HELD_SIGNALS, before = early
        _HOLDERS.update(before)
        return
    if threading.current_thread() is not threading.main_thread():
        return

    def hold(signum: int, frame: object) -> None:
        if not _HELD_SIGNALS:
            _HELD_SIGNALS.append(signum)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        previous = signal.getsignal(s)
        if previous is not signal.SIG_IGN:  # (a signal ignored when turub started stays ignored)
            _HOLDERS[s] = previous
            signal.signal(s, hold)


def release_signals() -> int | None:
    """End the hold of :data:`HOLDS_SIGNALS`: the first signal that came meanwhile (None if
    none did, or nothing was held).  If none did, each signal's handler from before the hold
    is back; if one did, the process is ending with its status, and the signals stay ignored
    (the rest of a burst is the same interruption, never an end by the signal)."""
    import signal
    held = _HELD_SIGNALS.pop() if _HELD_SIGNALS else None
    for s, previous in _HOLDERS.items():
        if held is not None:
            signal.signal(s, ignore_signal)
        else:
            signal.signal(s, previous if previous is not None else signal.SIG_DFL)  # type: ignore[arg-type]
    _HOLDERS.clear()
    return held


def take_signals(handler: Callable[[int, object], None], *,
                 over_defaults_only: bool = False) -> tuple[int | None, dict[int, object]]:
    """End the hold as ``handler`` takes SIGINT, SIGTERM and SIGHUP over, each straight from
    the hold's handler (never at its default disposition between, when a signal would end
    ``turub`` by itself, and none that comes meanwhile dropped): the first signal held (None
    if none came), and each signal's handler from before the hold, to put back afterwards.
    ``over_defaults_only``: take only the signals whose handler was the default (or Python's
    own ``KeyboardInterrupt``); one ignored, or given a handler by the caller, gets it back."""
    import signal
    before: dict[int, object] = {}
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        previous = _HOLDERS.pop(s) if s in _HOLDERS else signal.getsignal(s)
        if over_defaults_only and previous not in (None, signal.SIG_DFL, signal.default_int_handler):
            if signal.getsignal(s) is not previous:  # (one ignored stays ignored)
                signal.signal(s, previous)  # type: ignore[arg-type]
            continue
        before[s] = signal.SIG_DFL if previous is None else previous
        signal.signal(s, handler)  # type: ignore[arg-type]
    return (_HELD_SIGNALS.pop() if _HELD_SIGNALS else None), before


def ignore_signal(signum: int, frame: object) -> None:
    """A later signal of an interruption already under way: nothing.  A Python handler in
    place of ``SIG_IGN``: a signal already on its way when the handler changes reaches it,
    where with ``SIG_IGN`` CPython prints "Signal 15 ignored due to race condition" with a
    traceback (seen on a loaded machine, in a burst of mixed signals)."""


class Interruption(KeyboardInterrupt):
    """What a command's own handler raises when SIGINT, SIGTERM or SIGHUP comes (all but
    :data:`HOLDS_SIGNALS`, whose signals raise the kit's ``Interrupted``): the command is being
    stopped, never an error of the user code it came in (a variant file as it loads, a house
    rule as it runs), which keeps it an interruption however it catches what user code raises."""


def _ended_by(held: int) -> int:
    import signal
    sys.stderr.write(f"turub: interrupted by {signal.Signals(held).name}\n")
    return 128 + held


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, *,
         early_hold: tuple[list[int], dict[int, object]] | None = None) -> int:
    """Run ``turub``; returns the exit status (0 ok, 1 failure reported, 2 usage error, 4
    past ``--time-limit``, 141 standard output closed early, the kit's own for ``turub check``,
    128 + N when signal N came while it loaded).  ``early_hold``: the signals held since
    before ``turub`` was imported, and the handlers from before (``turub_entry``).  Called with
    neither argument (the ``turub`` script), the command is the process's whole work: its
    garbage is left to the exit (:mod:`turub.tools.exiting`)."""
    whole = argv is None and out is None  # the command itself, not a call from Python
    with whole_process(whole):
        status = _run_held(list(sys.argv[1:] if argv is None else argv), out, early_hold)
    if whole:
        _ignored_through_the_exit()
    return _leaving_no_thread(status) if whole else status


def _ignored_through_the_exit() -> None:
    """The signals an interruption left to :func:`ignore_signal` stay ignored through the
    interpreter's exit: as it finalises, CPython puts each Python handler back to the default
    (a late signal of a burst would then end the process by the signal), never ``SIG_IGN``.
    Blocked first, so that none comes between (setting a handler runs the handler of any that already came)."""
    import signal
    signals = [s for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP) if signal.getsignal(s) is ignore_signal]
    if not signals:
        return
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    for s in signals:
        signal.signal(s, signal.SIG_IGN)


def _leaving_no_thread(status: int) -> int:
    """``status``, after which the interpreter would wait for a thread user code left running
    (a variant file's, refused as it loaded): with one alive, the streams are flushed and the
    process ends here with ``status``, never hanging at its exit."""
    from ..variants import THREADS_LEFT
    if any(t.is_alive() and not t.daemon for t in THREADS_LEFT):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        os._exit(status)
    return status


def _run_held(argv: list[str], out: TextIO | None,
              early_hold: tuple[list[int], dict[int, object]] | None) -> int:
    """The command of ``argv``, the signals held while it loads if it is one that takes them over."""
    holds = out is None and _command_of(argv) in HOLDS_SIGNALS
    if early_hold is not None or holds:
        _hold_signals(early_hold)
    if not holds:  # (the hold ends as the command's own handlers take over: no signal is ever at its default between)
        return _run_interruptible(argv, out)
    try:
        status = _run_command(argv, out)
    except SystemExit:  # argparse: --help, a usage error
        if not _HELD_SIGNALS:
            release_signals()
            raise
        status = 0
    held = release_signals()  # None once the command took the signals over
    return _ended_by(held) if held is not None else status


def _run_interruptible(argv: list[str], out: TextIO | None) -> int:
    """A command that does not report an interruption itself (all but :data:`HOLDS_SIGNALS`):
    a SIGINT, SIGTERM or SIGHUP ends it with one line and the signal's status (128 + N),
    never a ``KeyboardInterrupt`` traceback; the rest of a burst is the same interruption.
    What it was writing is not left half-written (outputs are written atomically)."""
    import signal
    import threading
    if out is not None or threading.current_thread() is not threading.main_thread():
        held = release_signals()
        return _ended_by(held) if held is not None else _run_command(argv, out)
    came: list[int] = []
    taken: dict[int, object] = {}

    def interrupt(signum: int, frame: object) -> None:
        if not came:
            came.append(signum)
            for s in taken:
                signal.signal(s, ignore_signal)
            raise Interruption(signum)
    try:
        held, before = take_signals(interrupt, over_defaults_only=True)
        taken.update(before)
        if held is not None:  # one came while the command loaded: the run ends with its status
            interrupt(held, None)
        status = _run_command(argv, out)
    except KeyboardInterrupt:
        came.append(signal.SIGINT)  # (the first one counts: a signal's, or the interpreter's own)
    if came:
        return _ended_by(came[0])
    for s, handler in taken.items():
        signal.signal(s, handler)  # type: ignore[arg-type]
    return status


def _run_command(argv: list[str], out: TextIO | None) -> int:
    to_stdout = out is None
    if to_stdout:
        _closed_streams_to_null()
    completing = "_ARGCOMPLETE" in os.environ  # the shell asks for completions (argcomplete)
    _load_extensions("every command" if completing else _command_of(argv))
    out = printable(out or sys.stdout)
    stderr, sys.stderr = sys.stderr, printable(sys.stderr)
    try:
        parser = _parser(tuple(_EXTENSIONS))
        if completing:
            _complete(parser)
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:  # --help, --version: printed; a usage error: said on stderr
            if e.code in (0, None):
                try:
                    out.flush()
                    sys.stdout.flush()  # (where argparse prints)
                except BrokenPipeError:
                    return _stdout_gone()
                if to_stdout and _output_lost(sys.stdout):
                    return _stdout_gone()
            raise
        try:
            try:
                with time_limit(getattr(args, "command_time_limit", None)):
                    status = int(args.run(args, out) or 0)
            except OutOfTime as e:
                given = getattr(args, "variant", None)
                _say_error(args.command, f"time limit reached (--time-limit {args.command_time_limit:g} s)"
                           + (f": {e}" if str(e) else "") + (f" (--variant {given})" if given else ""))
                return EXIT_TIME_LIMIT
            out.flush()  # a closed pipe shows here, not in the interpreter's last flush
            if to_stdout and _output_lost(sys.stdout):
                return _stdout_gone()
            return status
        except (HouseRuleError, KeyboardInterrupt) as e:  # a rule broke, or Ctrl-C: name the file too
            return _user_code_stopped(args, e)
        except (RuleError, _UsageError) as e:
            _say_error(args.command, str(e))
            return 2
        except RecursionError:  # an argument nested thousands deep
            _say_error(args.command, "an argument is nested too deep")
            return 2
        except SystemExit as e:  # raised by user code (a variant file), not by a command
            _say_error(args.command, f"user code exited (SystemExit: {str(e.code)[:200]!r}) while the command ran")
            return 2
    except BrokenPipeError:
        return _stdout_gone()
    finally:
        sys.stderr = stderr


def _say_error(command: str, text: str) -> None:
    """The command's one line of error on standard error: what a user's file named in it (a
    variant's name, a rule's exception) cannot break the line or drive the terminal."""
    sys.stderr.write(f"turub {command}: error: {one_line(text)}\n")


def _user_code_stopped(args: argparse.Namespace, e: BaseException) -> int:
    """One line for a house rule that broke (status 2) or a Ctrl-C (user code raising
    ``KeyboardInterrupt`` included: SIGINT's status), naming the rule and the variant file."""
    given = getattr(args, "variant", None)
    interrupted = isinstance(e, KeyboardInterrupt)
    said = f"interrupted{': ' + str(e) if str(e) else ''}" if interrupted else str(e)
    _say_error(args.command, said + (f" (--variant {given})" if given else ""))
    return EXIT_INTERRUPTED if interrupted else 2


if __name__ == "__main__":  # pragma: no cover
    # Run the imported module's main, the one the kit registers its commands with.
    from turub.tools.cli import main as _main
    sys.exit(_main())
