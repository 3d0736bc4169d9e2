"""The property checks, as plain functions of an implementation and one case.

Each ``check_*(impl, ...)`` takes an implementation of the interface in
``turub.conformance.adapter`` (any object with its methods: the reference, an adapter
around another program, a deliberately wrong engine) and one case in the interface's
plain data, and raises :class:`Falsified` (an ``AssertionError``) saying what went wrong, or
returns ``None``.  No check rests on an ``assert`` statement, which ``python -O`` and
``PYTHONOPTIMIZE`` remove: a property judged with one would hold for any answer.
The expected answers come from :mod:`turub.properties.oracles`, never from the engine.

The property suites (``properties/test_*.py``) wrap these in ``@given`` tests; to run one
of those searches, examples included, against another implementation::

    from turub.properties import test_tricks
    from turub.properties.checks import search
    search(test_tricks.test_second_ace_never_beats_the_first, my_impl)

or every such property in turn (:func:`interface_properties`), or call a check on a case of
your own::

    from turub.properties.checks import check_trick_winner
    check_trick_winner(my_impl, ["AC", "AC", "6C", "KC"], "H")
"""

from __future__ import annotations

import random
import unittest
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import oracles as O

__all__ = [
    "check_trick_winner", "check_trick_winner_invariances", "check_identical_cards",
    "check_legal_plays", "check_no_obligation_to_overtake",
    "check_deal", "check_trump_call_sees_first_packet",
    "check_packets", "check_deal_result", "check_next_dealer", "check_dealer_sequence",
    "check_first_dealer", "check_first_dealer_ignores_suits",
    "check_contest", "check_contest_mark_holds", "check_contest_draws_and_short_wins_change_nothing",
    "check_contest_other_side_resets", "check_contest_decided_exactly_when_due",
    "check_contest_unbeatable_mark", "check_stake_per_deal",
    "check_referee", "check_referee_mirror",
    "requires", "search", "interface_properties", "INTERFACE_SUITES", "Falsified",
]


class Falsified(AssertionError):
    """A property does not hold for the implementation checked (the message says how).
    Raised, never asserted: the interpreter's flags cannot turn a check off."""


def _same_cards(got: Sequence[str], expected: Sequence[str]) -> bool:
    return Counter(map(O.canonical, got)) == Counter(map(O.canonical, expected))


# --- the trick ---------------------------------------------------------------------------

def check_trick_winner(impl, cards: list[str], trump: str) -> None:
    """Exactly one card wins; it is a trump or of the led suit; no other card outranks it;
    and it is the card the declarative rule picks."""
    got = impl.trick_winner(list(cards), trump)
    if not (isinstance(got, int) and not isinstance(got, bool) and 0 <= got < len(cards)):
        raise Falsified(f"trick {cards} trump {trump}: the winner must be one position 0..{len(cards) - 1}, got {got!r}")
    # The winner is a trump or of the led suit.
    if O.suit_of(cards[got]) not in (trump, O.suit_of(cards[0])):
        raise Falsified(f"trick {cards} trump {trump}: {cards[got]} (position {got}) is neither trump nor the led suit")
    # No other card in the trick outranks it.
    better = [j for j in range(len(cards)) if j != got and O.outranks(cards, trump, j, got)]
    if better:
        raise Falsified(f"trick {cards} trump {trump}: position {got} ({cards[got]}) won but "
                        f"position {better[0]} ({cards[better[0]]}) outranks it")
    expected = O.trick_winner(cards, trump)
    if got != expected:
        raise Falsified(f"trick {cards} trump {trump}: winner {got}, the rule says {expected}")


_SUIT_RENAMINGS_NOTE = "a renaming of suits maps each suit letter to another, one to one"


def check_trick_winner_invariances(impl, cards: list[str], trump: str, renaming: Mapping[str, str],
                                   order: Sequence[int], rank_seed: int) -> None:
    """Renaming the suits, reordering the cards after the lead, or relabelling the ranks
    keeping their order changes nothing: the same card (the earliest copy of it) wins.

    ``renaming`` maps suit letters one to one (``pack.suits-equal``); ``order`` permutes the
    positions after the lead; ``rank_seed`` picks new ranks for the ranks in the trick,
    in the same order (the rule only compares ranks).
    """
    if not (sorted(renaming) == sorted(renaming.values()) == sorted(O.SUIT_LETTERS)):
        raise Falsified(_SUIT_RENAMINGS_NOTE)
    base = impl.trick_winner(list(cards), trump)

    renamed = [O.RANK_TEXTS[O.rank_of(c)] + renaming[O.suit_of(c)] for c in cards]
    got = impl.trick_winner(renamed, renaming[trump])
    if got != base:
        raise Falsified(f"renaming suits {renaming} changed the winner of {cards} (trump {trump}) "
                        f"from {base} to {got}")

    rest = [cards[1:][i] for i in order]
    reordered = [cards[0]] + rest
    got = impl.trick_winner(reordered, trump)
    if O.canonical(reordered[got]) != O.canonical(cards[base]):
        raise Falsified(f"reordering the cards after the lead changed the winning card: {cards} → {cards[base]}, "
                        f"{reordered} → {reordered[got]} (trump {trump})")
    first_copy = [O.canonical(c) for c in reordered].index(O.canonical(cards[base]))
    if got != first_copy:
        raise Falsified(f"{reordered} (trump {trump}): {reordered[got]} won at {got}, "
                        f"but an identical card was played earlier, at {first_copy}")

    present = sorted({O.rank_of(c) for c in cards})
    new = sorted(random.Random(rank_seed).sample(range(len(O.RANK_TEXTS)), len(present)))
    ranks = dict(zip(present, new))
    relabelled = [O.RANK_TEXTS[ranks[O.rank_of(c)]] + O.suit_of(c) for c in cards]
    got = impl.trick_winner(relabelled, trump)
    if got != base:
        raise Falsified(f"relabelling ranks in order changed the winner: {cards} → {base}, "
                        f"{relabelled} → {got} (trump {trump})")


def check_identical_cards(impl, cards: list[str], trump: str) -> None:
    """Of identical cards, the one played first ranks higher: a later copy never wins while
    an earlier copy is in the trick, whatever else is played, and adding a copy of the
    winning card after it changes nothing."""
    got = impl.trick_winner(list(cards), trump)
    earlier = [i for i in range(got) if O.canonical(cards[i]) == O.canonical(cards[got])]
    if earlier:
        raise Falsified(f"trick {cards} trump {trump}: the copy of {cards[got]} at {got} won, "
                        f"though the same card was played earlier at {earlier[0]}")
    if len(cards) < 4:
        more = list(cards) + [cards[got]]
        again = impl.trick_winner(more, trump)
        if again != got:
            raise Falsified(f"a later copy of the winning card took the trick: {cards} → {got}, "
                            f"{more} → {again} (trump {trump})")


# --- legal plays ----------------------------------------------------------------------------

def check_legal_plays(impl, hand: list[str], trick: list[str]) -> None:
    """The cards offered are exactly those the rule allows: each distinct card of the hand
    once; holding the led suit, only that suit; void in it (or leading), every card."""
    got = impl.legal_plays(list(hand), list(trick))
    names = [O.canonical(c) for c in got]
    if len(names) != len(set(names)):
        raise Falsified(f"hand {hand}, trick {trick}: a card offered twice in {got}")
    expected = O.legal_plays(hand, trick)
    missing, extra = expected - set(names), set(names) - expected
    if extra:
        raise Falsified(f"hand {hand}, trick {trick}: {sorted(extra)} offered, but "
                        + ("not held" if extra - {O.canonical(c) for c in hand} else
                           "the hand holds the led suit and must follow it"))
    if missing:
        raise Falsified(f"hand {hand}, trick {trick}: {sorted(missing)} refused, but "
                        + ("the player is void in the led suit and may play any card"
                           if trick and all(O.suit_of(c) != O.suit_of(trick[0]) for c in hand)
                           else "it follows suit (there is no duty to play higher)"))


def check_no_obligation_to_overtake(impl, hand: list[str], trick: list[str]) -> None:
    """Holding the led suit, even its lowest card may be played, though a higher one would
    take the trick: there is no duty to overtake."""
    if not trick:
        return
    led = O.suit_of(trick[0])
    following = [O.canonical(c) for c in hand if O.suit_of(c) == led]
    if not following:
        return
    lowest = min(following, key=O.rank_of)
    got = {O.canonical(c) for c in impl.legal_plays(list(hand), list(trick))}
    if lowest not in got:
        raise Falsified(f"hand {hand}, trick {trick}: the lowest card of the led suit, "
                        f"{lowest}, must be allowed (no duty to overtake); offered {sorted(got)}")


# --- dealing -----------------------------------------------------------------------------------

def check_deal(impl, pack: list[str], dealer: str, cut: int, rules: dict[str, str]) -> None:
    """The seat after the dealer calls; each seat gets 36 cards by packets of three; every
    card of the pack is in exactly one hand."""
    got = impl.deal(list(pack), dealer, cut, dict(rules))
    caller, _, hands = O.dealing(pack, dealer, cut, O.rules_in_full(rules)["direction"])
    if got["caller"] != caller:
        raise Falsified(f"dealer {dealer}, {rules}: caller {got['caller']}, expected {caller}")
    if sorted(got["hands"]) != sorted(O.SEAT_LETTERS):
        raise Falsified(f"hands for {sorted(got['hands'])}")
    for seat in O.SEAT_LETTERS:
        if len(got["hands"][seat]) != 36:
            raise Falsified(f"{seat} holds {len(got['hands'][seat])} cards, not 36")
        if not (_same_cards(got["hands"][seat], hands[seat])):
            raise Falsified(f"{seat}'s hand is not the packets dealt to {seat} (dealer {dealer}, cut {cut}, {rules})")
    everything = Counter(O.canonical(c) for h in got["hands"].values() for c in h)
    if everything != Counter(map(O.canonical, pack)):
        raise Falsified("the hands together are not the pack")


def check_trump_call_sees_first_packet(impl, pack: list[str], dealer: str, cut: int,
                                       rules: dict[str, str]) -> None:
    """The caller names trump having seen exactly three cards: the first packet after the cut."""
    got = impl.deal(list(pack), dealer, cut, dict(rules))
    _, saw, _ = O.dealing(pack, dealer, cut, O.rules_in_full(rules)["direction"])
    if len(got["caller_saw"]) != 3:
        raise Falsified(f"the caller saw {len(got['caller_saw'])} cards, not 3")
    if not (_same_cards(got["caller_saw"], saw)):
        raise Falsified(f"the caller saw {got['caller_saw']}, but the first packet after a cut of {cut} is {saw}")


def check_packets(impl, packets: list[list], dealer: str) -> None:
    """The deal stands exactly when the dealer's last packet held three cards."""
    got = impl.check_packets([list(p) for p in packets], dealer)
    expected = O.packet_check_stands(packets, dealer)
    if got["stands"] is not expected:
        raise Falsified(f"dealer {dealer}, packets {packets}: stands={got['stands']}, "
                        f"the dealer's last packet says {expected}")


# --- results and dealers --------------------------------------------------------------------------

def check_deal_result(impl, ns: int, ew: int, closed_early: bool) -> None:
    """More tricks win, 18-18 is a draw, a deal closed early is a draw; counts that cannot
    happen are refused."""
    got = impl.deal_result(ns, ew, closed_early)
    expected = O.deal_outcome(ns, ew, closed_early)
    if expected is None:
        if "refused" not in got:
            raise Falsified(f"{ns}-{ew} (closed early: {closed_early}) is impossible, got {got}")
    else:
        if got.get("outcome") != expected:
            raise Falsified(f"{ns}-{ew} (closed early: {closed_early}): {got}, expected {expected}")


def check_next_dealer(impl, dealer: str, outcome: str, rules: dict[str, str]) -> None:
    """A draw: the same dealer.  The dealer's side lost: the partner.  It won: an opponent,
    the next in the direction of play (or the other one under ``opponent-dealer=previous``)."""
    got = impl.next_dealer(dealer, outcome, dict(rules))
    r = O.rules_in_full(rules)
    if outcome == "draw":
        if got != dealer:
            raise Falsified(f"after a draw {dealer} deals again, not {got}")
    elif outcome != O.side_of(dealer):
        if got != O.partner_of(dealer):
            raise Falsified(f"{dealer}'s side lost: the partner deals, not {got}")
    else:
        if O.side_of(got) == O.side_of(dealer):
            raise Falsified(f"{dealer}'s side won: an opponent deals, not {got}")
        following = O.seat_after(dealer, r["direction"])
        want = following if r["opponent-dealer"] == "next" else O.partner_of(following)
        if got != want:
            raise Falsified(f"{dealer}'s side won ({r['direction']}, opponent-dealer="
                            f"{r['opponent-dealer']}): {want} deals, not {got}")


def check_dealer_sequence(impl, first: str, outcomes: list[str], rules: dict[str, str]) -> None:
    """Over many deals the dealer follows the rule at every step."""
    seats = [first]
    for outcome in outcomes:
        seats.append(impl.next_dealer(seats[-1], outcome, dict(rules)))
    expected = O.dealers_over(first, outcomes, rules)
    if seats != expected:
        raise Falsified(f"dealers {seats} after {outcomes}, expected {expected} ({rules})")


def check_first_dealer(impl, rounds: list[dict[str, str]]) -> None:
    """The highest rank deals; those tied draw again among themselves; suits do not count."""
    got = impl.first_dealer([dict(r) for r in rounds])
    expected = O.first_dealer(rounds)
    if expected is None:
        if "refused" not in got:
            raise Falsified(f"draw {rounds}: no dealer can be chosen, got {got}")
    else:
        if got.get("dealer") != expected:
            raise Falsified(f"draw {rounds}: {got}, expected {expected}")


def check_first_dealer_ignores_suits(impl, rounds: list[dict[str, str]],
                                     renaming: Mapping[str, str]) -> None:
    """Changing the suits of the cards shown never changes who deals (``pack.suits-equal``)."""
    moved = [{s: O.RANK_TEXTS[O.rank_of(c)] + renaming[O.suit_of(c)] for s, c in r.items()}
             for r in rounds]
    a, b = impl.first_dealer([dict(r) for r in rounds]), impl.first_dealer(moved)
    if a.get("dealer") != b.get("dealer"):
        raise Falsified(f"suits changed the first dealer: {rounds} {a}, {moved} {b}")


# --- the contest --------------------------------------------------------------------------------

def _states(impl, results: list[list], rules: dict[str, str]) -> list[dict[str, Any]]:
    states = impl.contest([list(r) for r in results], dict(rules))
    if len(states) != len(results):
        raise Falsified(f"{len(states)} states for {len(results)} results")
    return states


def _fmt(results: Sequence[Sequence[Any]]) -> str:
    return ", ".join(f"{ns}-{ew}" + ("(closed)" if c else "") for ns, ew, c in results)


def check_contest(impl, results: list[list], rules: dict[str, str]) -> None:
    """After every deal, the contest is what the runs of wins say (see ``oracles.contest_states``)."""
    got = _states(impl, results, rules)
    expected = O.contest_states(results, rules)
    for k, (g, e) in enumerate(zip(got, expected)):
        where = f"after deal {k + 1} of [{_fmt(results)}] ({rules})"
        if "refused" in e:
            if g.get("refused") not in e["refused"]:
                raise Falsified(f"{where}: {g}, expected a refusal as {sorted(e['refused'])}")
        else:
            if g != e:
                raise Falsified(f"{where}: {g}, expected {e}")


def _open_steps(impl, results, rules):
    """``(before, result, after)`` for each result the contest took while open."""
    states = _states(impl, results, rules)
    before: dict[str, Any] = {"holder": None, "mark": None, "winner": None}
    for result, after in zip(results, states):
        if "refused" in after:
            continue
        yield before, result, after
        before = after
        if after["winner"] is not None:
            return


def check_contest_mark_holds(impl, results: list[list], rules: dict[str, str]) -> None:
    """While one side's sequence lasts the mark never moves: not up, and never down."""
    for before, result, after in _open_steps(impl, results, rules):
        if before["holder"] is not None and after["holder"] == before["holder"]:
            if after["mark"] != before["mark"]:
                raise Falsified(f"[{_fmt(results)}]: {result} moved {before['holder']}'s mark from "
                                f"{before['mark']} to {after['mark']} during its sequence")


def check_contest_draws_and_short_wins_change_nothing(impl, results: list[list],
                                                      rules: dict[str, str]) -> None:
    """A draw (18-18 or closed early) changes nothing; neither does a win by the side holding
    the mark that does not beat it (it counts as a draw)."""
    if O.rules_in_full(rules)["stake"] != "contest":
        return
    for before, result, after in _open_steps(impl, results, rules):
        outcome = O.deal_outcome(*result, rules)
        short = (outcome == before["holder"] and outcome is not None
                 and result[0 if outcome == "NS" else 1] <= before["mark"])
        if outcome == "draw" or short:
            if after != before:
                raise Falsified(f"[{_fmt(results)}]: {_fmt([result])} "
                                f"({'a draw' if outcome == 'draw' else 'a short win'}) "
                                f"changed the contest from {before} to {after}")


def check_contest_other_side_resets(impl, results: list[list], rules: dict[str, str]) -> None:
    """A win by the side not holding the mark starts its own sequence, its count the mark."""
    if O.rules_in_full(rules)["stake"] != "contest":
        return
    for before, result, after in _open_steps(impl, results, rules):
        outcome = O.deal_outcome(*result, rules)
        if outcome in ("NS", "EW") and outcome != before["holder"]:
            count = result[0 if outcome == "NS" else 1]
            if (after["holder"], after["mark"], after["winner"]) != (outcome, count, None):
                raise Falsified(f"[{_fmt(results)}]: {_fmt([result])} won by {outcome} should start its sequence "
                                f"with mark {count}, got {after}")


def check_contest_decided_exactly_when_due(impl, results: list[list], rules: dict[str, str]) -> None:
    """The contest is decided at the deal the rule says, never earlier, and a decided
    contest takes no more results: the next result opens a new contest."""
    states = _states(impl, results, rules)
    due = O.contest_decided_at(results, rules)
    for k, state in enumerate(states):
        if due is None or k < due:
            if state.get("winner") is not None:
                raise Falsified(f"[{_fmt(results)}] ({rules}): decided at deal {k + 1}, "
                                + ("but no deal wins it" if due is None else f"but the rule decides it at deal {due + 1}"))
        elif k == due:
            winner = O.deal_outcome(*results[k], rules)
            if state.get("winner") != winner:
                raise Falsified(f"[{_fmt(results)}] ({rules}): deal {k + 1} decides the contest for {winner}, got {state}")
        else:
            fresh = O.contest_states(results[due + 1:k + 1], rules)[-1]
            if "refused" in fresh:
                if state.get("refused") not in fresh["refused"]:
                    raise Falsified(f"[{_fmt(results)}]: deal {k + 1}: {state}")
                continue
            if state != fresh:
                raise Falsified(f"[{_fmt(results)}]: the contest was decided at deal {due + 1}; "
                                f"deal {k + 1} belongs to a new contest ({fresh}), got {state}")


def check_contest_unbeatable_mark(impl, results: list[list], rules: dict[str, str]) -> None:
    """A first win of 36 can never be beaten: only the other side can end that sequence."""
    for before, result, after in _open_steps(impl, results, rules):
        if before["mark"] == 36 and after["winner"] is not None:
            if after["winner"] == before["holder"]:
                raise Falsified(f"[{_fmt(results)}]: {before['holder']} won the contest over a mark of 36")


def check_stake_per_deal(impl, results: list[list]) -> None:
    """Under ``stake=per-deal`` each won deal settles a stake of its own, with no sequence
    and no mark; draws settle nothing."""
    rules = {"stake": "per-deal"}
    states = _states(impl, results, rules)
    for k, (result, state) in enumerate(zip(results, states)):
        outcome = O.deal_outcome(*result)
        if outcome is None:
            continue
        want = None if outcome == "draw" else outcome
        if state != {"holder": None, "mark": None, "winner": want}:
            raise Falsified(f"[{_fmt(results)}] per deal: deal {k + 1} ({outcome}) settles "
                            f"{'nothing' if want is None else 'a stake for ' + want}, with no sequence and no mark; got {state}")


# --- the referee ---------------------------------------------------------------------------------

def _describe(actions: Sequence[Mapping[str, str]], upto: int) -> str:
    def one(a):
        return a["act"] + " " + a["seat"] + " " + a.get("card", a.get("suit", a.get("signal", "")))
    tail = actions[max(0, upto - 5):upto + 1]
    return " | ".join(one(a) for a in tail)


def check_referee(impl, pack: list[str], dealer: str, cut: int, rules: dict[str, str],
                  actions: list[dict[str, str]]) -> None:
    """A referee accepts exactly the actions the rules allow, refuses the others naming a
    broken clause (and changes nothing), gives each trick to the right seat, and ends the
    deal with the right count (36 tricks in all unless closed early) and outcome."""
    got = impl.referee(list(pack), dealer, cut, dict(rules), [dict(a) for a in actions])
    want = O.TableModel(pack, dealer, cut, rules).referee(actions)
    if len(got["responses"]) != len(actions):
        raise Falsified("one response per action")
    for k, (g, w) in enumerate(zip(got["responses"], want["responses"])):
        if g == w == {"ok": True}:
            continue  # accepted, as the rules allow
        where = f"action {k} ({_describe(actions, k)}), dealer {dealer}, cut {cut}, {rules}"
        if w == {"ok": True}:
            if g != {"ok": True}:
                raise Falsified(f"{where}: refused with {g}, but the rules allow it")
        else:
            if "refused" not in g:
                raise Falsified(f"{where}: accepted, but it breaks {sorted(w)}")
            if g["refused"] not in w:
                raise Falsified(f"{where}: refused as {g['refused']}, but it breaks {sorted(w)}")
    if got["winners"] != want["winners"]:
        raise Falsified(_first_difference(got["winners"], want["winners"]))
    if list(got["tricks"]) != want["tricks"]:
        raise Falsified(f"tricks {got['tricks']}, expected {want['tricks']}")
    if not (sum(got["tricks"]) == len(got["winners"]) <= 36):
        raise Falsified(f"tricks {got['tricks']} do not add up to the {len(got['winners'])} tricks won")
    if want["outcome"] is not None and sum(want["tricks"]) == 36:
        if len(got["winners"]) != 36:
            raise Falsified("a deal played out has 36 tricks")
    if got["outcome"] != want["outcome"]:
        raise Falsified(f"outcome {got['outcome']}, expected {want['outcome']}")


def _first_difference(got: list[str], want: list[str]) -> str:
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            return f"trick {i + 1} went to {g}, the rules give it to {w}"
    return f"{len(got)} tricks completed, expected {len(want)}"


def check_referee_mirror(impl, pack: list[str], dealer: str, cut: int, rules: dict[str, str],
                         actions: list[dict[str, str]]) -> None:
    """Reflecting the table (East and West swap seats) and reversing the direction of play
    gives the mirror image of the same deal: the same answers, seats reflected."""
    r = O.rules_in_full(rules)
    flipped = r | {"direction": "counterclockwise" if r["direction"] == "clockwise" else "clockwise"}
    mirrored = [dict(a, seat=O.mirror_seat(a["seat"])) for a in actions]
    a = impl.referee(list(pack), dealer, cut, dict(r), [dict(x) for x in actions])
    b = impl.referee(list(pack), O.mirror_seat(dealer), cut, flipped, mirrored)
    if a["responses"] != b["responses"]:
        raise Falsified("mirroring the table changed what is accepted")
    if [O.mirror_seat(s) for s in a["winners"]] != b["winners"]:
        raise Falsified("mirroring changed who won tricks")
    if (a["tricks"], a["outcome"]) != (b["tricks"], b["outcome"]):
        raise Falsified("mirroring changed the result")


def requires(impl, *operations: str) -> None:
    """Skip the current test unless ``impl`` supports ``operations`` (see ``supports()``).

    It raises :class:`unittest.SkipTest`, which pytest reports as a skip, Hypothesis lets
    through at once (no shrinking), and the conformance kit reports as unsupported; so
    running a property needs no test runner."""
    supported = set(impl.supports()) if hasattr(impl, "supports") else set(operations)
    missing = [op for op in operations if op not in supported]
    if missing:
        raise unittest.SkipTest(f"{getattr(impl, 'name', impl)} does not support {', '.join(missing)}")


# --- running a property search against another implementation --------------------------------------

#: The suites whose properties take an implementation (the ``impl`` argument).
INTERFACE_SUITES = ("test_tricks", "test_play", "test_dealing", "test_dealers", "test_contest",
                    "test_referee", "test_options")


def interface_properties() -> dict[str, Callable[..., None]]:
    """Every property of the suites that checks an implementation through the interface,
    as ``{"suite.test_name": test}``; run one with :func:`search` (or call it with
    ``impl=``).  Each skips itself when the implementation lacks an operation it needs."""
    import importlib
    import inspect

    found: dict[str, Callable[..., None]] = {}
    for suite in INTERFACE_SUITES:
        module = importlib.import_module(f"turub.properties.{suite}")
        for name, test in vars(module).items():
            if name.startswith("test_") and callable(test) and \
                    list(inspect.signature(test).parameters) == ["impl"]:
                found[f"{suite}.{name}"] = test
    return found


def search(test: Callable[..., None], impl, **overrides: Any) -> None:
    """Run the property ``test`` (one of ``turub.properties.test_*``) with its strategies
    and worked examples against ``impl``; a counterexample raises.

    ``overrides`` are Hypothesis settings for this run only (``max_examples=1000``,
    ``derandomize=True``, ``phases=...``): the property is built again with them
    (:mod:`turub.properties.factory`); a property without strategies just runs.
    """
    build = getattr(test, "build", None)
    run = build(**overrides) if overrides and build is not None else test
    run(impl=impl)
