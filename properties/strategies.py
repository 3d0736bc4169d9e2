"""Shared Hypothesis strategies: cards, hands, packs, tricks, deals, results, contests, options.

Everything is plain data in the interface's form (cards as ASCII text ``"AC"``, seats as
``"N"``...), except :func:`deals_in_progress`, which builds engine deals for the checks that
need the engine's internals.

Two choices keep the search sharp and its failures short:

* a pack is derived from a drawn seed (:data:`pack_seeds`, :func:`pack_from_seed`), never
  drawn as a permutation of 144 cards: it shrinks to seed 0 and prints as one number; a
  whole refereed deal (:class:`DealCase`) prints as the few numbers that rebuild it;
* tricks and hands are drawn partly from a tiny pool of cards, so identical cards and
  suit collisions, which decide the interesting cases, come up often.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from hypothesis import note, settings
from hypothesis import strategies as st

from . import oracles as O

__all__ = [
    "suits", "cards", "seats", "sides", "outcomes", "card_pools", "tricks", "hands",
    "pack_from_seed", "pack_seeds", "packs", "DealCase", "cuts", "directions", "rules_dicts",
    "full_rules_dicts", "deal_results", "complete_results", "contest_results", "contest_sequences",
    "deal_in_progress", "deals_in_progress",
    "action_streams", "packet_sequences", "first_dealer_draws", "copies_of_one_card",
    "scaled",
]

# --- values --------------------------------------------------------------------------------

suits = st.sampled_from(O.SUIT_LETTERS)
cards = st.sampled_from(O.ALL_CARDS)
seats = st.sampled_from(O.SEAT_LETTERS)
sides = st.sampled_from(("NS", "EW"))
outcomes = st.sampled_from(("NS", "EW", "draw"))
directions = st.sampled_from(("clockwise", "counterclockwise"))


def card_pools(max_size: int = 3) -> st.SearchStrategy[list[str]]:
    """A handful of distinct cards to draw tricks and hands from."""
    return st.lists(cards, min_size=1, max_size=max_size, unique=True)


def tricks(min_size: int = 1, max_size: int = 4) -> st.SearchStrategy[list[str]]:
    """Tricks (cards in order of play): a third from a pool of one to three cards so that
    identical cards meet often, a third all of one suit, a third any cards."""
    pooled = card_pools().flatmap(
        lambda pool: st.lists(st.sampled_from(pool), min_size=min_size, max_size=max_size))
    same_suit = suits.flatmap(lambda s: st.lists(
        st.sampled_from([c for c in O.ALL_CARDS if c.endswith(s)]),
        min_size=min_size, max_size=max_size))
    return st.one_of(pooled, same_suit, st.lists(cards, min_size=min_size, max_size=max_size))


def copies_of_one_card(trick: list[str]) -> int:
    """The most copies of one card in ``trick`` (a target for ``hypothesis.target``)."""
    return max((trick.count(c) for c in trick), default=0)


def hands(min_size: int = 0, max_size: int = 36) -> st.SearchStrategy[list[str]]:
    """Hands (cards held, copies allowed up to four), often short in some suits."""
    few_suits = st.lists(suits, min_size=1, max_size=2, unique=True).flatmap(
        lambda held: st.lists(st.sampled_from([c for c in O.ALL_CARDS if c[-1] in held]),
                              min_size=min_size, max_size=max_size))
    return st.one_of(st.lists(cards, min_size=min_size, max_size=max_size), few_suits).filter(
        lambda h: all(h.count(c) <= 4 for c in h))


def pack_from_seed(seed: int) -> list[str]:
    """The 144-card pack (top first) shuffled from ``seed``: four copies of each card."""
    pack = [c for c in O.ALL_CARDS for _ in range(4)]
    random.Random(seed).shuffle(pack)
    return pack


#: Seeds for packs: they shrink to 0 and print as a number (see :func:`pack_from_seed`).
pack_seeds = st.integers(0, 2**32 - 1)
#: Packs, from a drawn seed.  A property that prints its pack on failure had better draw
#: the seed (:data:`pack_seeds`) and call :func:`pack_from_seed` itself.
packs = pack_seeds.map(pack_from_seed)
cuts = st.integers(0, 143)


@cache  # one strategy, built once: a strategy built inside a draw is built and checked again each time
def full_rules_dicts() -> st.SearchStrategy[dict[str, str]]:
    """Every option given explicitly, every value reachable."""
    return st.fixed_dictionaries({
        "direction": directions,
        "stake": st.sampled_from(("contest", "per-deal")),
        "opponent-dealer": st.sampled_from(("next", "previous")),
        "signal-kinds": st.sampled_from(("any", "documented")),
        "early-close": st.sampled_from(("draw", "known-result")),
    })


@cache
def rules_dicts() -> st.SearchStrategy[dict[str, str]]:
    """Rule options as the interface passes them; missing keys take their defaults."""
    return st.one_of(st.just({}), full_rules_dicts(),
                     full_rules_dicts().flatmap(lambda d: st.sets(st.sampled_from(sorted(d))).map(
                         lambda keep: {k: v for k, v in d.items() if k in keep})))


# --- results and contests -----------------------------------------------------------------------

def complete_results(near: tuple[int, ...] = ()) -> st.SearchStrategy[list]:
    """``[ns, ew, False]`` for a complete deal, often close to 18-18 or to ``near``."""
    counts = st.one_of(st.integers(0, 36), st.integers(15, 21), st.sampled_from((0, 18, 36) + near))
    return counts.map(lambda ns: [ns, 36 - ns, False])


def deal_results(valid_only: bool = True) -> st.SearchStrategy[list]:
    """``[ns, ew, closed_early]`` as the interface passes results: complete deals and deals
    closed early (fewer than 36 tricks); with ``valid_only=False`` impossible counts too."""
    closed = st.integers(0, 35).flatmap(lambda total: st.integers(0, total).map(
        lambda ns: [ns, total - ns, True]))
    valid = st.one_of(complete_results(), complete_results(), closed)
    if valid_only:
        return valid
    impossible = st.tuples(st.integers(-2, 40), st.integers(-2, 40), st.booleans()).map(list)
    return st.one_of(valid, impossible)


def contest_results() -> st.SearchStrategy[list]:
    """One deal's result for a contest: mostly wins by a few tricks either way, so that
    marks are met, beaten and missed by one; draws and early closes too, and now and then
    a result whose counts cannot happen (which the contest must refuse)."""
    win_counts = st.sampled_from((19, 20, 21, 22, 36, 24))
    close_win = st.tuples(sides, win_counts).map(
        lambda t: [t[1], 36 - t[1], False] if t[0] == "NS" else [36 - t[1], t[1], False])
    draw = st.sampled_from(([18, 18, False], [3, 5, True], [0, 0, True]))
    # closed with a side past 18: a draw, or that side's win under early-close=known-result
    known = st.sampled_from(([19, 3, True], [2, 20, True], [18, 10, True]))
    impossible = st.sampled_from(([20, 20, False], [30, 10, True]))  # refused, changes nothing
    return st.one_of(close_win, close_win, draw, deal_results(), close_win, draw, impossible, known)


def contest_sequences(min_size: int = 0, max_size: int = 12) -> st.SearchStrategy[list[list]]:
    """Sequences of deal results (see :func:`contest_results`)."""
    return st.lists(contest_results(), min_size=min_size, max_size=max_size)


# --- whole deals -----------------------------------------------------------------------------

def deal_in_progress(seed: int, dealer: str = "N", rules: Mapping[str, str] | None = None,
                     trump: str | None = "H", plays: int = 0) -> Any:
    """An engine deal (``turub.Deal``) from ``seed``, trump named (unless ``None``), then
    ``plays`` random legal plays chosen by ``random.Random(seed ^ plays)``."""
    from turub import Deal, parse_seat, parse_suit  # the engine, for the checks of its internals
    from turub.options import rules_from_dict

    deal = Deal.from_seed(seed, parse_seat(dealer), rules_from_dict(dict(rules or {})))
    if trump is None:
        return deal
    deal.name_trump(deal.caller, parse_suit(trump))
    rng = random.Random(seed ^ plays)
    for _ in range(plays):
        if deal.to_act is None:
            break
        deal.play(deal.to_act, rng.choice(deal.legal_plays()))
    return deal


def deals_in_progress(rules: st.SearchStrategy[Mapping[str, str]] | None = None,
                      max_plays: int = 144):
    """Engine deals partway through (see :func:`deal_in_progress`): the seed, dealer, rules,
    trump (or none yet) and number of plays are drawn, and noted for the failure report."""

    def build(seed, dealer, rules_dict, trump, plays):
        note(f"deal_in_progress({seed}, {dealer!r}, {dict(rules_dict)}, {trump!r}, {plays})")
        return deal_in_progress(seed, dealer, rules_dict, trump, plays)

    return st.builds(build, st.integers(0, 2**32 - 1), seats, rules or rules_dicts(),
                     st.one_of(st.none(), suits), st.integers(0, max_plays))


_POLICIES = ("random", "discard", "underplay")
_policies = st.sampled_from(_POLICIES)
_wrong_calls = st.none() | st.tuples(seats, suits)
_one_in_ten = st.integers(0, 9)


@cache
def _plays(max_plays: int) -> st.SearchStrategy[int]:
    return st.one_of(st.just(max_plays), st.integers(0, max_plays))


@cache
def _close_at(max_plays: int) -> st.SearchStrategy[int | None]:
    return st.one_of(st.none(), st.integers(0, max_plays))


class DealCase:
    """A deal and a stream of actions for a referee, rebuilt from a few numbers.

    It unpacks as ``(pack, dealer, cut, rules, actions)``; its ``repr`` is the call that
    rebuilds it, so a failing case prints in one line and can be pasted into an ``@example``.
    """

    __slots__ = ("params", "pack", "dealer", "cut", "rules", "actions")

    def __init__(self, pack_seed: int, dealer: str, cut: int, rules: Mapping[str, str],
                 policy: str = "random", wrong_call: tuple[str, str] | None = None,
                 early_play: bool = False, suit: str = "H", plays: int = 144,
                 close_at: int | None = None, play_seed: int = 0, mistakes: bool = True,
                 last_mistake: bool = False) -> None:
        self.params = dict(pack_seed=pack_seed, dealer=dealer, cut=cut, rules=dict(rules),
                           policy=policy, wrong_call=wrong_call, early_play=early_play,
                           suit=suit, plays=plays, close_at=close_at, play_seed=play_seed,
                           mistakes=mistakes, last_mistake=last_mistake)
        self.pack, self.dealer, self.cut, self.rules = pack_from_seed(pack_seed), dealer, cut, dict(rules)
        table = O.TableModel(self.pack, dealer, cut, rules)
        actions: list[dict[str, str]] = []
        if wrong_call is not None:
            actions.append({"act": "trump", "seat": wrong_call[0], "suit": wrong_call[1]})
            if wrong_call[0] == table.caller:
                table.apply(actions[-1])
        if table.phase == "calling":
            if early_play:
                actions.append({"act": "play", "seat": table.caller, "card": table.saw[0]})
            actions.append({"act": "trump", "seat": table.caller, "suit": suit})
            table.apply(actions[-1])
        rng = random.Random(play_seed)
        played = 0
        while table.phase == "playing" and played < plays:
            roll = rng.random() if mistakes else 1.0
            if played == close_at:
                actions.append({"act": "close", "seat": rng.choice(O.SEAT_LETTERS)})
            elif roll < 0.04:  # a mistake of some kind
                actions.append(_mistake(table, rng))
            elif roll < 0.08 and len(table.trick) == 1:
                actions.append({"act": "signal", "seat": rng.choice(O.SEAT_LETTERS),
                                "signal": rng.choice(("knock", "click", "knock", "wave"))})
            else:
                actions.append({"act": "play", "seat": table.to_act,
                                "card": _choose(table, policy, rng)})
                played += 1
            if not table.broken(actions[-1]):
                table.apply(actions[-1])
        if last_mistake:  # something after the end, or a second call
            actions.append(_mistake(table, rng))
        self.actions = actions

    def __iter__(self):
        return iter((self.pack, self.dealer, self.cut, self.rules, self.actions))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"DealCase({args})"


@st.composite
def action_streams(draw, policy: str | None = None, max_plays: int = 144,
                   mistakes: bool = True) -> DealCase:
    """A :class:`DealCase`: a deal and a stream of actions for a referee.

    The stream is steered by an independent model of the table (``oracles.TableModel``):
    mostly legal plays (by ``policy``: any legal card; a void player ``discard``-ing a
    non-trump though holding trump; or ``underplay``-ing the lowest card of the led suit),
    mixed with mistakes (a card out of turn, not held, not following suit, a wrong signal,
    a second trump call), signals, and now and then an early close.  Most streams play the
    deal out; some stop early.
    """
    return DealCase(
        pack_seed=draw(pack_seeds), dealer=draw(seats), cut=draw(cuts), rules=draw(rules_dicts()),
        policy=policy or draw(_policies),
        wrong_call=draw(_wrong_calls) if mistakes else None,
        early_play=mistakes and draw(_one_in_ten) == 0,
        suit=draw(suits),
        plays=draw(_plays(max_plays)),
        close_at=draw(_close_at(max_plays)) if mistakes else None,
        play_seed=draw(pack_seeds),
        mistakes=mistakes,
        last_mistake=mistakes and draw(st.booleans()))


def _choose(table: O.TableModel, policy: str, rng: random.Random) -> str:
    legal = sorted(table.legal_cards())
    if table.trick and policy != "random":
        led = O.suit_of(table.trick[0][1])
        following = [c for c in legal if O.suit_of(c) == led]
        discards = [c for c in legal if O.suit_of(c) not in (led, table.trump)]
        if policy == "underplay" and following:
            return min(following, key=O.rank_of)
        if policy == "discard" and not following and discards:
            return rng.choice(discards)
    return rng.choice(legal)


def _mistake(table: O.TableModel, rng: random.Random) -> dict[str, str]:
    kind = rng.randrange(5)
    seat = table.to_act or rng.choice(O.SEAT_LETTERS)
    if kind == 0:
        return {"act": "trump", "seat": table.caller, "suit": rng.choice(O.SUIT_LETTERS)}
    if kind == 1:  # out of turn
        other = rng.choice([s for s in O.SEAT_LETTERS if s != seat])
        held = sorted(+table.hands[other]) or list(O.ALL_CARDS)
        return {"act": "play", "seat": other, "card": rng.choice(held)}
    if kind == 2:  # a card not held
        missing = [c for c in O.ALL_CARDS if not table.hands[seat][c]]
        return {"act": "play", "seat": seat, "card": rng.choice(missing or list(O.ALL_CARDS))}
    if kind == 3 and table.trick:  # not following suit
        led = O.suit_of(table.trick[0][1])
        off = sorted(c for c in +table.hands[seat] if O.suit_of(c) != led)
        if off:
            return {"act": "play", "seat": seat, "card": rng.choice(off)}
    return {"act": "signal", "seat": rng.choice(O.SEAT_LETTERS),
            "signal": rng.choice(("knock", "click"))}


# --- the dealer's check and the first dealer -------------------------------------------------------

_packet_counts = st.one_of(st.just(48), st.integers(1, 48))
_packet_sizes = st.sampled_from((0, 1, 2, 4, 5))


@st.composite
def packet_sequences(draw) -> tuple[list[list], str]:
    """``(packets, dealer)``: packets of three round the table from the dealer's left, as a
    person deals them, sometimes with a slip (a packet of two or four, a seat missed)."""
    dealer, direction = draw(seats), draw(directions)
    order = O.seats_in_play_order(O.seat_after(dealer, direction), direction)
    n = draw(_packet_counts)
    packets = [[order[k % 4], 3] for k in range(n)]
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.integers(0, n - 1))
        packets[k][1] = draw(_packet_sizes)
    if draw(st.booleans()):
        del packets[draw(st.integers(0, len(packets) - 1))]
    return packets, dealer


_pools = st.lists(cards, min_size=1, max_size=4)


@cache
def _shown_from(pool: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.sampled_from(pool) | cards


@st.composite
def first_dealer_draws(draw) -> list[dict[str, str]]:
    """Rounds of cards shown for the first dealer, ties frequent (cards from a small pool);
    sometimes a round shown to the wrong players, or a draw left tied."""
    pool = tuple(draw(_pools))
    in_draw = list(O.SEAT_LETTERS)
    rounds: list[dict[str, str]] = []
    for _ in range(draw(st.integers(1, 5))):
        shown = {s: draw(_shown_from(pool)) for s in in_draw}
        if draw(st.integers(0, 9)) == 0:  # a slip: a card to someone out of the draw, or not
            seat = draw(seats)
            if seat in shown and len(shown) > 1:
                del shown[seat]
            else:
                shown[seat] = draw(cards)
        rounds.append(shown)
        top = max(O.rank_of(c) for c in shown.values())
        in_draw = [s for s, c in shown.items() if O.rank_of(c) == top]
        if len(in_draw) == 1:
            if draw(st.integers(0, 9)) == 0:  # a slip: one more round after the decision
                rounds.append({s: draw(cards) for s in O.SEAT_LETTERS})
            break
    return rounds


# --- budgets -----------------------------------------------------------------------------------

def scaled(fraction: float, **overrides: Any) -> settings:
    """Settings with ``fraction`` of the current profile's examples (at least 5), for the
    costlier properties: ``deep`` still runs many, the fast profiles stay fast."""
    base = settings()  # the profile loaded now
    return settings(base, max_examples=max(5, int(base.max_examples * fraction)), **overrides)
