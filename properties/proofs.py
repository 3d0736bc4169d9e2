"""Proofs of the rules: exhaustive enumeration over finite domains, and z3.

Two kinds of check, both returning a :class:`Verdict`:

* **enumerations** run a kernel of :mod:`turub.branch_free_rules` and the engine's public function
  side by side on every case of a finite domain and compare them: this ties each kernel to
  the engine;
* **z3 proofs** run the same kernel on symbolic terms and ask the solver for a case where it
  breaks a declarative statement of the rule: ``unsat`` is a proof, ``sat`` gives a
  counterexample (printed as cards, seats and deal results), ``unknown`` (the solver
  reached its resource limit, or gave up) is neither: it is reported as unknown, with the
  limit, never as proved and never as a broken rule.

The solver's budget is a resource limit (z3's ``rlimit``: a count of its basic steps), not
a wall-clock timeout, so a slow or loaded machine does not run out of it sooner; it is set
well above what each proof was seen to use.

Each check takes the function it checks as a keyword argument, so a test can hand it a
broken rule and watch it fail.  Run all of them with ``python -m turub.properties.proofs``
(add ``--deep`` to enumerate all 36⁴ tricks for each trump as well); it exits 0 when every
check is proved, 1 when one found a counterexample, 3 when some are only unknown.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import z3

from turub import branch_free_rules
from turub.cards import CARDS, Card, Rank, Suit, card_name
from turub.contest import Contest
from turub.contest import contest_step as engine_contest_step
from turub.errors import ContestDecidedError, ResultError
from turub.branch_free_rules import NOBODY, Logic
from turub.options import Rules
from turub.rules import deal_result as engine_deal_result
from turub.rules import is_legal_play as engine_is_legal_play
from turub.rules import legal_plays as engine_legal_plays
from turub.rules import next_dealer as engine_next_dealer
from turub.rules import trick_winner as engine_trick_winner
from turub.seats import Direction, Seat, Side

__all__ = ["Verdict", "Z3", "RLIMIT", "CHECKS", "DEEP_CHECKS", "run_all", "main"]

#: The kernels' connectives on z3 terms.
Z3: Final = Logic(z3.If, z3.And, z3.Or, z3.Not)
#: The solver's resource limit per proof (z3 ``rlimit``, counted from the start of each
#: check).  The costliest proof, the contest over 12 deals, used 15.6 million on an idle
#: machine and 27 to 43 million in ten runs at a load average of 13 to 15 (z3-solver 5.4:
#: the count grows somewhat with load, far less than the time does); the others under half
#: a million.  ``python -m turub.properties.proofs`` prints each proof's count.  Reaching
#: the limit gives ``unknown``.
RLIMIT: Final = 1_000_000_000
#: Deals unrolled in the bounded check of the contest.
CONTEST_DEALS: Final = 12


@dataclass(frozen=True)
class Verdict:
    """The outcome of one check: ``proved``, ``counterexample`` or ``unknown``;
    ``resources``, the z3 ``rlimit`` steps a proof used (0 for an enumeration)."""

    name: str
    status: str
    seconds: float
    detail: str
    resources: int = 0

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    def __str__(self) -> str:
        return f"{self.name}: {self.status} in {self.seconds:.2f} s — {self.detail}"


# --- readable names for counterexamples -------------------------------------------------

def _suit(s: int) -> str:
    return Suit(s).symbol if 0 <= s <= 3 else f"suit {s}"


def _card(s: int, r: int) -> str:
    try:
        return card_name(Card(s, r))
    except Exception:  # a value outside the domain: say so rather than crash
        return f"({s}, {r})"


def _side(x: int) -> str:
    return {NOBODY: "nobody", 0: "North-South", 1: "East-West"}.get(x, f"side {x}")


def _seat(x: int) -> str:
    return str(Seat(x)) if 0 <= x <= 3 else f"seat {x}"


def _outcome(x: int) -> str:
    return "a draw" if x == NOBODY else f"a win for {_side(x)}"


def _contest(holder: int, mark: int, winner: int) -> str:
    if winner != NOBODY:
        return f"decided for {_side(winner)}"
    if holder == NOBODY:
        return "open, no sequence running"
    return f"{_side(holder)} holds the mark {mark}"


# --- the solver ---------------------------------------------------------------------------

def _refute(name: str, domain: Iterable[z3.BoolRef], claim: z3.BoolRef,
            explain: Callable[[Callable[[z3.ExprRef], Any]], str]) -> Verdict:
    """Prove ``claim`` over ``domain`` by asking z3 for a case that breaks it."""
    start = time.perf_counter()
    solver = z3.Solver()
    solver.set("rlimit", RLIMIT)
    solver.add(*domain)
    solver.add(z3.Not(claim))
    before = _resource_count(solver)
    answer = solver.check()
    seconds = time.perf_counter() - start
    used = _resource_count(solver) - before
    if answer == z3.unsat:
        return Verdict(name, "proved", seconds, "no counterexample exists", used)
    if answer == z3.sat:
        model = solver.model()

        def value(term: z3.ExprRef) -> Any:
            v = model.eval(term, model_completion=True)
            return z3.is_true(v) if z3.is_bool(v) else v.as_long()

        return Verdict(name, "counterexample", seconds, explain(value), used)
    return Verdict(name, "unknown", seconds,
                   f"z3 stopped at {used:,} of its resource limit {RLIMIT:,} ({solver.reason_unknown()}): "
                   "neither proved nor refuted", used)


def _resource_count(solver: z3.Solver) -> int:
    """z3's resource counter (``rlimit`` steps), which runs on across solvers; the limit
    counts from the start of each check."""
    stats = solver.statistics()
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in stats.keys() else 0


def _pick(values: Sequence[Any], index: Any) -> Any:
    """``values[index]`` for a symbolic ``index``."""
    term = values[-1]
    for i in range(len(values) - 2, -1, -1):
        term = z3.If(index == i, values[i], term)
    return term


class _Trick:
    """A symbolic trick of ``n`` cards and a symbolic trump, duplicates allowed."""

    def __init__(self, n: int, tag: str = "") -> None:
        self.suits = [z3.Int(f"suit{i}{tag}") for i in range(n)]
        self.ranks = [z3.Int(f"rank{i}{tag}") for i in range(n)]
        self.trump = z3.Int(f"trump{tag}")
        self.cards = list(zip(self.suits, self.ranks))

    def domain(self) -> list[z3.BoolRef]:
        return [z3.And(0 <= self.trump, self.trump <= 3)] + [
            z3.And(0 <= s, s <= 3, int(Rank.SIX) <= r, r <= int(Rank.ACE)) for s, r in self.cards]

    def text(self, value: Callable[[z3.ExprRef], Any]) -> str:
        cards = " ".join(_card(value(s), value(r)) for s, r in self.cards)
        return f"trump {_suit(value(self.trump))}, trick {cards}"


# --- the trick ----------------------------------------------------------------------------

def _rule_picks(trick: _Trick, p: int) -> z3.BoolRef:
    """The declarative rule: position ``p`` holds the winning card of ``trick``.

    trick.highest-trump / trick.highest-led: the winning suit is trump if any trump was
    played, else the led suit; the winner is a card of that suit that no card of that suit
    outranks; trick.earliest-identical: and no identical card came before it.
    """
    s, r, t = trick.suits, trick.ranks, trick.trump
    winning_suit = z3.If(z3.Or([x == t for x in s]), t, s[0])
    return z3.And(
        s[p] == winning_suit,
        z3.And([z3.Implies(s[j] == winning_suit, r[j] <= r[p]) for j in range(len(s))]),
        z3.And([z3.Implies(s[j] == winning_suit, r[j] < r[p]) for j in range(p)]))


def prove_beats_is_a_strict_order(beats: Callable = branch_free_rules.beats) -> Verdict:
    """For a fixed trump, "beats" is irreflexive, asymmetric and transitive: a later copy
    never beats the card it copies, and no card both beats and is beaten by another."""
    t = _Trick(3)
    a, b, c = t.cards
    ab, ba, bc, ac = (beats(x, y, t.trump, Z3) for x, y in ((a, b), (b, a), (b, c), (a, c)))
    claim = z3.And(z3.Not(beats(a, a, t.trump, Z3)), z3.Not(z3.And(ab, ba)),
                   z3.Implies(z3.And(ab, bc), ac))

    def explain(v: Callable) -> str:
        x, y, z = (_card(v(s), v(r)) for s, r in t.cards)
        return (f"trump {_suit(v(t.trump))}: {x} beats {y}: {v(ab)}, {y} beats {x}: {v(ba)}, "
                f"{y} beats {z}: {v(bc)}, {x} beats {z}: {v(ac)}, {x} beats itself: "
                f"{v(beats(a, a, t.trump, Z3))}")

    return _refute("beats is a strict order", t.domain(), claim, explain)


def prove_trick_winner_is_the_rule(winner: Callable = branch_free_rules.trick_winner,
                                   sizes: Sequence[int] = (2, 3, 4)) -> Verdict:
    """The kernel's winner is the card the declarative rule picks, and the rule picks
    exactly one, for every trick of 2, 3 or 4 cards with any duplicates and any trump."""
    start = time.perf_counter()
    used = 0
    for n in sizes:
        t = _Trick(n)
        w = winner(t.cards, t.trump, Z3)
        claim = z3.And(
            z3.And(0 <= w, w < n),
            z3.And([z3.Implies(w == p, _rule_picks(t, p)) for p in range(n)]),
            z3.And([z3.Implies(_rule_picks(t, p), w == p) for p in range(n)]))

        def explain(v: Callable, t: _Trick = t, w: Any = w, n: int = n) -> str:
            picks = [p for p in range(n) if v(_rule_picks(t, p))]
            code = v(w)
            named = _card(v(t.suits[code]), v(t.ranks[code])) if 0 <= code < n else "nothing"
            rule = ", ".join(f"position {p} ({_card(v(t.suits[p]), v(t.ranks[p]))})" for p in picks)
            return f"{t.text(v)}: the code picks position {code} ({named}), the rule picks {rule or 'none'}"

        verdict = _refute("trick winner is the rule", t.domain(), claim, explain)
        if not verdict.proved:
            return verdict
        used = max(used, verdict.resources)
    return Verdict("trick winner is the rule", "proved", time.perf_counter() - start,
                   f"tricks of {', '.join(map(str, sizes))} cards, duplicates allowed", used)


_PERMUTATIONS: Final = [(0, *p) for p in itertools.permutations((1, 2, 3))]


def prove_first_copy_wins(winner: Callable = branch_free_rules.trick_winner) -> Verdict:
    """Duplicates are ordered by play, deterministically: the winning position never holds
    a later copy of an earlier card, and shuffling the three cards after the lead never
    changes which card wins (only which copy of it, the first)."""
    t = _Trick(4)
    w = winner(t.cards, t.trump, Z3)
    no_earlier_copy = z3.And([
        z3.Implies(w == j, z3.And([z3.Or(t.suits[i] != t.suits[j], t.ranks[i] != t.ranks[j])
                                   for i in range(j)])) for j in range(4)])
    won = (_pick(t.suits, w), _pick(t.ranks, w))
    same_card: list[z3.BoolRef] = []
    for perm in _PERMUTATIONS[1:]:
        cards = [t.cards[i] for i in perm]
        u = winner(cards, t.trump, Z3)
        same_card.append(z3.And(_pick([c[0] for c in cards], u) == won[0],
                                _pick([c[1] for c in cards], u) == won[1]))
    claim = z3.And(no_earlier_copy, *same_card)

    def explain(v: Callable) -> str:
        lines = [f"{t.text(v)}: the code picks position {v(w)}"]
        for perm in _PERMUTATIONS[1:]:
            cards = [t.cards[i] for i in perm]
            u = v(winner(cards, t.trump, Z3))
            lines.append(" ".join(_card(v(s), v(r)) for s, r in cards)
                         + f" -> position {u} ({_card(v(cards[u][0]), v(cards[u][1]))})")
        return "; ".join(lines)

    return _refute("first copy wins, whatever the order of the rest", t.domain(), claim, explain)


# --- legal play -----------------------------------------------------------------------------

_HAND: Final = 6  # symbolic hand slots: a card's legality depends on suits only


def _legal_play_case(may_play: Callable) -> tuple[list, list, z3.ArithRef, list, list, Callable]:
    held = [z3.Bool(f"held{i}") for i in range(_HAND)]
    suits = [z3.Int(f"suit{i}") for i in range(_HAND)]
    led = z3.Int("led")
    domain = [z3.And(NOBODY <= led, led <= 3)] + [z3.And(0 <= s, s <= 3) for s in suits]
    holds_led = z3.Or([z3.And(h, s == led) for h, s in zip(held, suits)])
    verdicts = [may_play(s, led, holds_led, Z3) for s in suits]

    def explain(v: Callable) -> str:
        hand = [_suit(v(s)) for h, s in zip(held, suits) if v(h)]
        lead = "leading" if v(led) == NOBODY else f"{_suit(v(led))} led"
        said = ", ".join(f"{_suit(v(s))}: {'legal' if v(k) else 'illegal'}"
                         for h, s, k in zip(held, suits, verdicts) if v(h))
        return f"{lead}, hand holds suits {' '.join(hand) or 'none'}; the code says {said}"

    return held, suits, led, domain, verdicts, explain


def _rule_allows(suit: Any, led: Any, held: list, suits: list) -> z3.BoolRef:
    """play.follow-suit, play.void-any-card, play.no-forced-trump, stated the rule's way:
    a card may be played unless a suit was led, the card is not of it, and the hand has
    a card of it."""
    has_led_suit = z3.Or([z3.And(h, s == led) for h, s in zip(held, suits)])
    return z3.Not(z3.And(led != NOBODY, suit != led, has_led_suit))


def prove_legal_play_is_sound(may_play: Callable = branch_free_rules.may_play) -> Verdict:
    """Every card the code allows, the rule allows."""
    held, suits, led, domain, verdicts, explain = _legal_play_case(may_play)
    claim = z3.And([z3.Implies(z3.And(h, k), _rule_allows(s, led, held, suits))
                    for h, s, k in zip(held, suits, verdicts)])
    return _refute("legal play is sound", domain, claim, explain)


def prove_legal_play_is_complete(may_play: Callable = branch_free_rules.may_play) -> Verdict:
    """Every card the rule allows, the code allows: no duty to trump or to overtake."""
    held, suits, led, domain, verdicts, explain = _legal_play_case(may_play)
    claim = z3.And([z3.Implies(z3.And(h, _rule_allows(s, led, held, suits)), k)
                    for h, s, k in zip(held, suits, verdicts)])
    return _refute("legal play is complete", domain, claim, explain)


def prove_a_hand_always_has_a_legal_card(may_play: Callable = branch_free_rules.may_play) -> Verdict:
    """A player with any card left can always play one: the rules never deadlock."""
    held, suits, led, domain, verdicts, explain = _legal_play_case(may_play)
    claim = z3.Implies(z3.Or(held), z3.Or([z3.And(h, k) for h, k in zip(held, verdicts)]))
    return _refute("a hand always has a legal card", domain, claim, explain)


# --- the deal's result and the next dealer ------------------------------------------------------

def _counts(tag: str = "") -> tuple[z3.ArithRef, z3.ArithRef, z3.BoolRef, list[z3.BoolRef]]:
    ns, ew, closed = z3.Int(f"ns{tag}"), z3.Int(f"ew{tag}"), z3.Bool(f"closed{tag}")
    domain = [ns >= 0, ew >= 0, z3.If(closed, ns + ew < 36, ns + ew == 36)]
    return ns, ew, closed, domain


def prove_deal_outcome_is_the_rule(outcome: Callable = branch_free_rules.deal_outcome) -> Verdict:
    """The side with more tricks wins a complete deal; 18-18 is a draw; a deal closed early
    is a draw, except under ``early-close=known-result`` when a side already has 19 tricks
    or more; so a winner always has at least 19 tricks."""
    ns, ew, closed, domain = _counts()
    known = z3.Bool("known_result")
    o = outcome(ns, ew, closed, Z3, known_result=known)
    past_half = z3.Or(ns >= 19, ew >= 19)
    claim = z3.And(
        (o == NOBODY) == z3.Or(ns == ew, z3.And(closed, z3.Not(z3.And(known, past_half)))),
        z3.Implies(o == 0, ns > ew), z3.Implies(o == 1, ew > ns),
        z3.Or(o == NOBODY, o == 0, o == 1),
        z3.Implies(o != NOBODY, z3.If(o == 0, ns, ew) >= 19))

    def explain(v: Callable) -> str:
        early = " (closed early)" if v(closed) else ""
        option = ", early-close=known-result" if z3.is_true(v(known)) else ""
        return f"{v(ns)}–{v(ew)}{early}{option}: the code says {_outcome(v(o))}"

    return _refute("deal outcome is the rule", domain, claim, explain)


#: The seat after each seat in each direction of play, written out (table.left-of-dealer).
_CLOCKWISE_NEXT: Final = {0: 1, 1: 2, 2: 3, 3: 0}
_COUNTER_NEXT: Final = {0: 3, 1: 0, 2: 1, 3: 2}


def prove_next_dealer_is_the_rule(next_dealer: Callable = branch_free_rules.next_dealer) -> Verdict:
    """Every case of dealer, outcome, direction and option: a draw keeps the dealer, a loss
    passes the deal to the partner, a win to the opponent whose turn follows the dealer's
    (or the other opponent under ``opponent-dealer=previous``); so the deal always goes to
    the side that lost."""
    dealer, outcome, direction = z3.Int("dealer"), z3.Int("outcome"), z3.Int("direction")
    previous = z3.Bool("previous")
    domain = [0 <= dealer, dealer <= 3, NOBODY <= outcome, outcome <= 1,
              z3.Or(direction == 1, direction == -1)]
    n = next_dealer(dealer, outcome, direction, previous, Z3)
    table = {d: {1: _CLOCKWISE_NEXT[d], -1: _COUNTER_NEXT[d]} for d in range(4)}
    following = _pick([z3.If(direction == 1, table[d][1], table[d][-1]) for d in range(4)], dealer)
    before = _pick([z3.If(direction == 1, table[d][-1], table[d][1]) for d in range(4)], dealer)
    partner = _pick([2, 3, 0, 1], dealer)
    side = _pick([0, 1, 0, 1], dealer)
    new_side = _pick([0, 1, 0, 1], n)
    claim = z3.And(
        0 <= n, n <= 3,
        z3.Implies(outcome == NOBODY, n == dealer),                        # dealer.after-draw
        z3.Implies(z3.And(outcome != NOBODY, outcome != side), n == partner),  # dealer.after-loss
        z3.Implies(outcome == side, n == z3.If(previous, before, following)),  # dealer.after-win
        z3.Implies(outcome != NOBODY, new_side != outcome))               # to the losing side

    def explain(v: Callable) -> str:
        direction_name = "clockwise" if v(direction) == 1 else "counter-clockwise"
        option = "previous" if v(previous) else "next"
        return (f"{_seat(v(dealer))} dealt, {_outcome(v(outcome))}, {direction_name}, "
                f"opponent-dealer={option}: the code names {_seat(v(n))}")

    return _refute("next dealer is the rule", domain, claim, explain)


# --- the contest ----------------------------------------------------------------------------

class _Contest:
    """A symbolic contest state satisfying the invariant, and one symbolic deal result."""

    def __init__(self, step: Callable, per_deal: bool = False) -> None:
        self.holder, self.mark, self.winner = z3.Ints("holder mark winner")
        self.ns, self.ew, self.closed, counts = _counts()
        self.known = z3.Bool("known_result")  # early-close=known-result, or not
        self.outcome = branch_free_rules.deal_outcome(self.ns, self.ew, self.closed, Z3, known_result=self.known)
        self.tricks = z3.If(self.outcome == 0, self.ns, self.ew)
        self.domain = [_invariant(self.holder, self.mark, self.winner), *counts]
        self.after = step(self.holder, self.mark, self.winner, self.outcome, self.tricks,
                          per_deal, Z3)

    def explain(self, v: Callable) -> str:
        early = " closed early" if v(self.closed) else ""
        before = _contest(v(self.holder), v(self.mark), v(self.winner))
        after = _contest(*(v(x) for x in self.after))
        return (f"contest {before}; the deal ends {v(self.ns)}–{v(self.ew)}{early}, "
                f"{_outcome(v(self.outcome))}; the code leaves the contest {after} "
                f"(holder {_side(v(self.after[0]))}, mark {v(self.after[1])})")


def _invariant(holder: Any, mark: Any, winner: Any) -> z3.BoolRef:
    """What every reachable contest state satisfies: a running sequence has a mark that a
    complete deal's winner can score (19 to 36); none has none; only the holder can have
    won."""
    return z3.And(
        z3.Or(holder == NOBODY, holder == 0, holder == 1),
        z3.If(holder == NOBODY, mark == NOBODY, z3.And(19 <= mark, mark <= 36)),
        z3.Or(winner == NOBODY, winner == holder))


def _contest_proof(name: str, claim: Callable[[_Contest], z3.BoolRef],
                   step: Callable, per_deal: bool = False) -> Verdict:
    c = _Contest(step, per_deal)
    return _refute(name, c.domain, claim(c), c.explain)


def prove_contest_invariant_holds(step: Callable = branch_free_rules.contest_step) -> Verdict:
    """Every step from a state satisfying the invariant gives one satisfying it: by
    induction, so does every state reached by any sequence of deals."""
    return _contest_proof("the contest's invariant is inductive",
                          lambda c: _invariant(*c.after), step)


def prove_mark_holds_while_the_sequence_lasts(step: Callable = branch_free_rules.contest_step) -> Verdict:
    """While the same side's sequence lasts the mark never moves, so it never goes down
    (contest.insufficient-win: a short win does not lower it)."""
    return _contest_proof(
        "the mark holds while the sequence lasts",
        lambda c: z3.Implies(z3.And(c.holder != NOBODY, c.after[0] == c.holder),
                             c.after[1] == c.mark), step)


def prove_draw_or_short_win_changes_nothing(step: Callable = branch_free_rules.contest_step) -> Verdict:
    """A draw, or a win by the holder that does not beat the mark, leaves the contest as
    it was (contest.draw-keeps-sequence, contest.insufficient-win)."""
    def claim(c: _Contest) -> z3.BoolRef:
        quiet = z3.Or(c.outcome == NOBODY, z3.And(c.outcome == c.holder, c.tricks <= c.mark))
        return z3.Implies(z3.And(c.winner == NOBODY, quiet),
                          z3.And(c.after[0] == c.holder, c.after[1] == c.mark,
                                 c.after[2] == NOBODY))
    return _contest_proof("a draw or a short win changes nothing", claim, step)


def prove_decided_exactly_when_the_mark_is_beaten(step: Callable = branch_free_rules.contest_step) -> Verdict:
    """An open contest is decided by a deal exactly when the holder wins it with more tricks
    than the mark, and then for the holder (contest.second-win-beats-mark); a decided
    contest never changes (contest.decided-is-final)."""
    def claim(c: _Contest) -> z3.BoolRef:
        beats_mark = z3.And(c.holder != NOBODY, c.outcome == c.holder, c.tricks > c.mark)
        return z3.And(
            z3.Implies(c.winner == NOBODY, (c.after[2] != NOBODY) == beats_mark),
            z3.Implies(c.after[2] != NOBODY, c.after[2] == z3.If(c.winner == NOBODY, c.outcome, c.winner)),
            z3.Implies(c.winner != NOBODY, z3.And(c.after[0] == c.holder, c.after[1] == c.mark,
                                                  c.after[2] == c.winner)))
    return _contest_proof("decided exactly when the mark is beaten", claim, step)


def prove_other_side_starts_its_own_sequence(step: Callable = branch_free_rules.contest_step) -> Verdict:
    """A win by a side without the running sequence ends it and starts that side's own,
    its tricks the new mark (contest.first-win-sets-mark, contest.other-side-resets)."""
    def claim(c: _Contest) -> z3.BoolRef:
        fresh = z3.And(c.winner == NOBODY, c.outcome != NOBODY, c.outcome != c.holder)
        return z3.Implies(fresh, z3.And(c.after[0] == c.outcome, c.after[1] == c.tricks,
                                        c.after[2] == NOBODY))
    return _contest_proof("the other side starts its own sequence", claim, step)


def prove_per_deal_stake_settles_every_win(step: Callable = branch_free_rules.contest_step) -> Verdict:
    """Under ``stake=per-deal`` every won deal decides the stake for its winner, and a draw
    decides nothing (stake.per-deal)."""
    def claim(c: _Contest) -> z3.BoolRef:
        return z3.Implies(c.winner == NOBODY, c.after[2] == c.outcome)
    return _contest_proof("the per-deal stake settles every win", claim, step, per_deal=True)


def prove_contest_unrolled(step: Callable = branch_free_rules.contest_step,
                           deals: int = CONTEST_DEALS) -> Verdict:
    """Bounded cross-check: ``deals`` symbolic deals from an open contest, each a draw or a
    win of 19 to 36 tricks.  The contest is decided exactly when, as the rule is written,
    some side won twice with no win by the other side between, the later win with more
    tricks than the first win of its run; it is decided for the side of the earliest such
    deal.  While open, the holder won the last won deal and the mark is the first win of
    the holder's run."""
    o = [z3.Int(f"outcome{k}") for k in range(deals)]
    t = [z3.Int(f"tricks{k}") for k in range(deals)]
    domain = [z3.And(NOBODY <= o[k], o[k] <= 1, 19 <= t[k], t[k] <= 36) for k in range(deals)]
    state: tuple[Any, Any, Any] = (NOBODY, NOBODY, NOBODY)
    for k in range(deals):
        state = step(*state, o[k], t[k], False, Z3)
    holder, mark, winner = state

    def other_won_between(x: Any, lo: int, hi: int) -> z3.BoolRef:
        return z3.Or([z3.And(o[m] != NOBODY, o[m] != x) for m in range(lo + 1, hi)])

    def starts_run(i: int) -> z3.BoolRef:
        # deal i is its side's first win since the other side last won (or ever)
        return z3.And([z3.Implies(o[k] == o[i], other_won_between(o[i], k, i)) for k in range(i)])

    def decides_at(j: int) -> z3.BoolRef:
        return z3.Or([z3.And(o[i] != NOBODY, o[j] == o[i], t[j] > t[i], starts_run(i),
                             z3.Not(other_won_between(o[i], i, j))) for i in range(j)])

    decided = [decides_at(j) for j in range(deals)]
    first = [z3.And(decided[j], z3.Not(z3.Or(decided[:j]))) for j in range(deals)]
    last_won = [z3.And(o[k] != NOBODY, z3.And([o[m] == NOBODY for m in range(k + 1, deals)]))
                for k in range(deals)]
    claim = z3.And(
        (winner != NOBODY) == z3.Or(decided),
        z3.And([z3.Implies(first[j], winner == o[j]) for j in range(deals)]),
        z3.Implies(z3.Not(z3.Or(decided)), z3.And(
            z3.Implies(z3.Not(z3.Or(last_won)), z3.And(holder == NOBODY, mark == NOBODY)),
            z3.And([z3.Implies(z3.And(last_won[k], starts_run(i), o[i] == o[k],
                                      z3.Not(other_won_between(o[k], i, k))),
                               z3.And(holder == o[k], mark == t[i]))
                    for k in range(deals) for i in range(k + 1)]))))

    def explain(v: Callable) -> str:
        played = ", ".join("draw" if v(o[k]) == NOBODY else
                           f"{('NS', 'EW')[v(o[k])]} {v(t[k])}" for k in range(deals))
        rule = [j for j in range(deals) if v(decided[j])]
        said = f"decided at deal {rule[0] + 1}" if rule else "open"
        return (f"deals: {played}; the code leaves the contest "
                f"{_contest(v(holder), v(mark), v(winner))}, the rule says {said}")

    return _refute(f"the contest over {deals} deals", domain, claim, explain)


# --- exhaustive enumeration against the engine -----------------------------------------------------

def _enumeration(name: str, cases: Iterable[Any], check: Callable[[Any], str | None]) -> Verdict:
    start = time.perf_counter()
    n = 0
    for case in cases:
        n += 1
        problem = check(case)
        if problem is not None:
            return Verdict(name, "counterexample", time.perf_counter() - start, problem)
    return Verdict(name, "proved", time.perf_counter() - start, f"all {n:,} cases agree")


#: Four ranks with the same order as any four ranks a trick can hold, the extremes included.
PATTERN_RANKS: Final = (Rank.SIX, Rank.TEN, Rank.KING, Rank.ACE)


def enumerate_trick_winner(engine: Callable = engine_trick_winner,
                           kernel: Callable = branch_free_rules.trick_winner,
                           cards: Sequence[Card] | None = None) -> Verdict:
    """The kernel and ``turub.rules.trick_winner`` agree on every trick of 1 to 4 cards
    drawn from ``cards``, for each trump.  By default the cards are 4 suits × 4 ranks: the
    rule only compares suits for equality and ranks for order, so every real trick has the
    same winner as one of these; ``cards=CARDS`` enumerates all 36⁴ real tricks."""
    pool = list(cards) if cards is not None else [
        Card(s, r) for s in Suit for r in PATTERN_RANKS]
    pairs = {c: (int(c.suit), int(c.rank)) for c in pool}

    def cases() -> Iterable[tuple[Suit, tuple[Card, ...]]]:
        for trump in Suit:
            for n in range(1, 5):
                for trick in itertools.product(pool, repeat=n):
                    yield trump, trick

    def check(case: tuple[Suit, tuple[Card, ...]]) -> str | None:
        trump, trick = case
        a = engine(trick, trump)
        b = kernel([pairs[c] for c in trick], int(trump))
        if a != b:
            return (f"trump {trump.symbol}, trick {' '.join(map(card_name, trick))}: "
                    f"turub.rules.trick_winner says {a}, the kernel {b}")
        return None

    size = "36" if cards is not None and len(pool) == 36 else str(len(pool))
    return _enumeration(f"trick winner, {size}⁴ tricks per trump", cases(), check)


#: Two cards of each suit: legality depends only on whether the card is held, its suit,
#: the led suit and whether the hand holds that suit, and every combination occurs here.
LEGAL_POOL: Final = tuple(Card(s, r) for s in Suit for r in (Rank.ACE, Rank.SIX))


def enumerate_legal_plays(legal: Callable = engine_legal_plays,
                          is_legal: Callable = engine_is_legal_play,
                          kernel: Callable = branch_free_rules.may_play) -> Verdict:
    """``turub.rules.legal_plays`` and ``is_legal_play`` agree with the kernel for every
    hand drawn from :data:`LEGAL_POOL`, every led suit (or none) and every card of the pool."""
    hands = [h for n in range(len(LEGAL_POOL) + 1) for h in itertools.combinations(LEGAL_POOL, n)]
    leds: list[Suit | None] = [None, *Suit]

    def check(case: tuple[tuple[Card, ...], Suit | None]) -> str | None:
        hand, led = case
        code = NOBODY if led is None else int(led)
        holds = any(c.suit == led for c in hand)
        expected = frozenset(c for c in hand if kernel(int(c.suit), code, holds))
        got = legal(hand, led)
        where = f"hand {' '.join(map(card_name, hand)) or '(empty)'}, " + (
            "leading" if led is None else f"{led.symbol} led")
        if got != expected:
            return (f"{where}: legal_plays gives {sorted(map(card_name, got))}, "
                    f"the kernel {sorted(map(card_name, expected))}")
        for card in LEGAL_POOL:
            ok, _ = is_legal(hand, led, card)
            if ok != (card in hand and kernel(int(card.suit), code, holds)):
                return f"{where}, playing {card_name(card)}: is_legal_play says {ok}"
        return None

    return _enumeration("legal plays", itertools.product(hands, leds), check)


def enumerate_deal_result(engine: Callable = engine_deal_result,
                          kernel: Callable = branch_free_rules.deal_outcome) -> Verdict:
    """``turub.rules.deal_result`` names the kernel's winner for every valid pair of counts
    (0 to 40 each, complete or closed early, under both ``early-close`` values), and refuses
    exactly the invalid ones."""
    def check(case: tuple[int, int, bool, str]) -> str | None:
        ns, ew, closed, early_close = case
        valid = ns + ew < 36 if closed else ns + ew == 36
        where = f"{ns}–{ew} closed_early={closed}, early-close={early_close}"
        try:
            got = engine(ns, ew, closed_early=closed, rules=Rules(early_close=early_close))
        except ResultError:
            return None if not valid else f"{where}: refused, but valid"
        if not valid:
            return f"{where}: accepted, but the counts are invalid"
        expected = kernel(ns, ew, closed, known_result=early_close == "known-result")
        winner = NOBODY if got.winner is None else int(got.winner)
        if winner != expected:
            return f"{where}: deal_result says {got}, the kernel {_outcome(expected)}"
        return None

    return _enumeration("deal result", itertools.product(
        range(41), range(41), (False, True), ("draw", "known-result")), check)


def enumerate_next_dealer(engine: Callable = engine_next_dealer,
                          kernel: Callable = branch_free_rules.next_dealer) -> Verdict:
    """``turub.rules.next_dealer`` and the kernel agree on all 48 cases."""
    def check(case: tuple[Seat, Side | None, Direction, str]) -> str | None:
        dealer, winner, direction, option = case
        got = engine(dealer, winner, Rules(direction=direction, opponent_dealer=option)).seat
        expected = kernel(int(dealer), NOBODY if winner is None else int(winner),
                          direction.value, option == "previous")
        if got != expected:
            return (f"{dealer} dealt, {_outcome(NOBODY if winner is None else int(winner))}, "
                    f"{direction}, opponent-dealer={option}: next_dealer says {got}, "
                    f"the kernel {_seat(expected)}")
        return None

    return _enumeration("next dealer", itertools.product(
        Seat, [None, *Side], Direction, ("next", "previous")), check)


def enumerate_contest_step(engine: Callable = engine_contest_step,
                           kernel: Callable = branch_free_rules.contest_step) -> Verdict:
    """``turub.contest.contest_step`` and the kernel agree on every state (holder, mark 0
    to 36, winner) and every valid deal result, under both stakes; a decided contest is
    refused by the engine and left unchanged by the kernel."""
    results = [engine_deal_result(ns, 36 - ns) for ns in range(37)] + [
        engine_deal_result(ns, ew, closed_early=True, rules=Rules(early_close=early))
        for early in ("draw", "known-result") for ns in range(36) for ew in range(36 - ns)]
    sides: list[Side | None] = [None, *Side]
    states = [Contest(h, m, w, 3) for h in sides
              for m in ([None] if h is None else range(37))
              for w in ([None] if h is None else [None, h])]
    stakes = (Rules(), Rules(stake="per-deal"))

    def code(x: Side | int | None) -> int:
        return NOBODY if x is None else int(x)

    def check(case: tuple[Contest, Any, Rules]) -> str | None:
        state, result, rules = case
        outcome = code(result.winner)
        tricks = result.tricks[result.winner] if result.winner is not None else 0
        expected = kernel(code(state.holder), code(state.mark), code(state.winner), outcome,
                          tricks, rules.stake == "per-deal")
        where = (f"contest {_contest(code(state.holder), code(state.mark), code(state.winner))}, "
                 f"deal {result}, stake={rules.stake}")
        try:
            after = engine(state, result, rules)
        except ContestDecidedError:
            if state.winner is None or expected != (code(state.holder), code(state.mark), code(state.winner)):
                return f"{where}: the engine refused the result"
            return None
        got = (code(after.holder), code(after.mark), code(after.winner))
        if state.winner is not None:
            return f"{where}: the engine took a result after the decision"
        if got != expected or after.deals != state.deals + 1:
            return f"{where}: contest_step gives {got}, the kernel {expected}"
        return None

    return _enumeration("contest step", itertools.product(states, results, stakes), check)


def enumerate_all_real_tricks() -> Verdict:
    """The deep enumeration: every sequence of 1 to 4 of the 36 cards, for each trump."""
    return enumerate_trick_winner(cards=CARDS)


# --- running them ---------------------------------------------------------------------------------

#: The checks run by the test suite (and by ``python -m turub.properties.proofs``).
CHECKS: Final[tuple[Callable[[], Verdict], ...]] = (
    enumerate_trick_winner, enumerate_legal_plays, enumerate_deal_result,
    enumerate_next_dealer, enumerate_contest_step,
    prove_beats_is_a_strict_order, prove_trick_winner_is_the_rule, prove_first_copy_wins,
    prove_legal_play_is_sound, prove_legal_play_is_complete,
    prove_a_hand_always_has_a_legal_card, prove_deal_outcome_is_the_rule,
    prove_next_dealer_is_the_rule, prove_contest_invariant_holds,
    prove_mark_holds_while_the_sequence_lasts, prove_draw_or_short_win_changes_nothing,
    prove_decided_exactly_when_the_mark_is_beaten, prove_other_side_starts_its_own_sequence,
    prove_per_deal_stake_settles_every_win, prove_contest_unrolled,
)
#: Checks too slow for the test suite, run with ``--deep``.
DEEP_CHECKS: Final[tuple[Callable[[], Verdict], ...]] = (enumerate_all_real_tricks,)


def run_all(deep: bool = False) -> list[Verdict]:
    return [check() for check in CHECKS + (DEEP_CHECKS if deep else ())]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the checks; exit 0 all proved, 1 a counterexample, 3 some only unknown."""
    parser = argparse.ArgumentParser(
        prog="python -m turub.properties.proofs",
        description="The z3 proofs and exhaustive enumerations of the rules.  Exit status: 0 "
                    "every check proved, 1 a counterexample found, 3 some checks unknown "
                    "(z3 reached its resource limit), 2 usage error.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--deep", action="store_true",
                        help="also enumerate all 36⁴ real tricks for each trump")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    verdicts = run_all(deep=args.deep)
    for v in verdicts:
        used = f"  rlimit {v.resources:>11,}" if v.resources else " " * 19
        print(f"{v.status:>14}  {v.seconds:6.2f} s{used}  {v.name}: {v.detail}")
    counts = {status: sum(v.status == status for v in verdicts)
              for status in ("proved", "counterexample", "unknown")}
    print(f"{counts['proved']} proved, {counts['counterexample']} refuted by a counterexample, "
          f"{counts['unknown']} unknown (resource limit {RLIMIT:,}), "
          f"{time.perf_counter() - start:.1f} s in all")
    if counts["counterexample"]:
        return 1
    return 3 if counts["unknown"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
