"""The engine's public API under bad arguments: a catalogue.

Every public function and method is called with hostile values in one argument at a time
(Hypothesis draws them: None, bools, floats, complex numbers, huge and negative ints, text,
bytes, lists, tuples, dicts, sets, other enums, plain objects, and values of the wrong engine
type).  Each call must either return, for a value that is in fact a valid argument (judged by
an independent statement of what the argument may be, not by the engine), or raise a
``RuleError`` naming a registered clause; and a refused call leaves the deal or the sheet
exactly as it was.  Never a ``TypeError``, ``IndexError``, ``AttributeError`` or a silent
acceptance of a bad value.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import turub
from turub import (CARDS, PACK, Card, Contest, Deal, Direction, Phase, Rank, RuleError, Rules,
                   Seat, Side, Sitting, Suit, card_name, check_packets, contest_of, contest_step,
                   deal_result, decide_trick, draw_first_dealer, first_dealer, is_legal_play,
                   legal_plays, next_dealer, next_seat, parse_card, parse_cards, parse_rules,
                   parse_seat, parse_suit, play_random_deal, seats_from, sort_hand, suit_name,
                   trick_winner)
from turub.clauses import CLAUSES
from turub.options import rules_from_dict
from turub.properties.tags import verifies

N, E = Seat.NORTH, Seat.EAST
AC = parse_card("AC")

#: Values no engine argument should choke on.
HOSTILE = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True, allow_infinity=True), st.complex_numbers(),
    st.integers(min_value=-(10 ** 20), max_value=10 ** 20), st.integers(min_value=-2, max_value=40),
    st.text(max_size=6), st.sampled_from(["N", "H", "AC", "10H", "NT", "knock", "", " ", "ccw",
                                          "direction=ccw", "wink", "S", "♠", "north"]),
    st.binary(max_size=4), st.lists(st.integers(-3, 40), max_size=5),
    st.tuples(st.integers(-3, 40)), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sets(st.integers(), max_size=2), st.frozensets(st.text(max_size=1), max_size=2),
    st.sampled_from([*Seat, *Side, *Suit, *Direction, *Rank, Phase.PLAYING]),
    st.builds(object), st.just(AC), st.just(Rules()), st.just(deal_result(18, 18)),
    st.just(Contest()), st.lists(st.sampled_from(CARDS), max_size=6), st.just(random.Random(1)),
    st.just(PACK), st.just([AC] * 5), st.just([(N, 3)]), st.just([("N", 3)]),
)


# --- what each argument may be, stated independently of the engine --------------------------------

def is_seat(v: Any) -> bool:
    return type(v) is Seat or (type(v) is int and 0 <= v < 4)


def is_card(v: Any) -> bool:
    if type(v) is Card:
        return True
    if not isinstance(v, str):
        return False
    t = v.strip().upper().replace("T", "10") if v.strip()[:1].upper() == "T" else v.strip().upper()
    return (t[:-1] in {"A", "K", "Q", "J", "10", "9", "8", "7", "6"}
            and t[-1:] in set("SHDC♠♥♦♣♤♡♢♧"))


def is_suit_text(v: Any) -> bool:
    return isinstance(v, str) and v.strip().upper() in {
        *"SHDC", *"♠♥♦♣♤♡♢♧", "SPADES", "HEARTS", "DIAMONDS", "CLUBS", "SPADE", "HEART", "DIAMOND", "CLUB"}


def is_suit(v: Any) -> bool:
    return type(v) is Suit or is_suit_text(v)


def is_cards(v: Any, lo: int = 0, hi: int = 10 ** 6) -> bool:
    return isinstance(v, (list, tuple)) and lo <= len(v) <= hi and all(type(c) is Card for c in v)


def is_whole(v: Any, lo: int = 0) -> bool:
    return type(v) is int and v >= lo


def never(v: Any) -> bool:
    return False


# --- the catalogue: (name, call with the value, is the value valid?, what must not change) ---------

def calling_deal() -> Deal:
    return Deal.from_seed(3)


def playing_deal(trump: Suit) -> Deal:
    deal = Deal.from_seed(3)
    deal.name_trump(deal.caller, trump)
    deal.play(deal.to_act, deal.legal_plays()[0])  # a trick begun: the leader may signal
    return deal


DEAL_CALLS: list[tuple[str, str, Callable[[Deal, Any], Any], Callable[[Any], bool]]] = [
    # (name, phase, call, valid)
    ("name_trump seat", "calling", lambda d, v: d.name_trump(v, Suit.HEARTS), lambda v: is_seat(v) and Seat(v) is E),
    ("name_trump suit", "calling", lambda d, v: d.name_trump(d.caller, v), is_suit),
    ("play seat", "playing", lambda d, v: d.play(v, d.legal_plays()[0]),
     lambda v: is_seat(v) and Seat(v) is Seat.SOUTH),
    ("play card", "playing", lambda d, v: d.play(d.to_act, v), never),  # only a held card of the suit
    ("play_turn card", "playing", lambda d, v: d.play_turn(v), never),  # as play card
    ("signal seat", "playing", lambda d, v: d.signal(v, "knock"), lambda v: is_seat(v) and Seat(v) is E),
    ("signal kind", "playing", lambda d, v: d.signal(d.leader, v),
     lambda v: isinstance(v, str) and v.strip() != ""),
    ("close", "playing", lambda d, v: d.close(v), is_seat),
    ("hand", "playing", lambda d, v: d.hand(v), is_seat),
    ("holds seat", "playing", lambda d, v: d.holds(v, AC), is_seat),
    ("holds card", "playing", lambda d, v: d.holds(N, v), is_card),
    ("legal_plays", "playing", lambda d, v: d.legal_plays(v), lambda v: v is None or is_seat(v)),
    ("view", "playing", lambda d, v: d.view(v), is_seat),
    ("play_out", "playing", lambda d, v: d.play_out(v), lambda v: v is None or isinstance(v, random.Random)),
    ("apply", "playing", lambda d, v: d.apply(v), never),
]


def snapshot(deal: Deal) -> str:
    return json.dumps(deal.state(), sort_keys=True)


@verifies("table.partnerships", "pack.card-notation", "trump.any-suit", "signal.kinds",
          "play.order-of-actions")
@pytest.mark.parametrize("name,phase,call,valid", DEAL_CALLS, ids=[c[0] for c in DEAL_CALLS])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=HOSTILE, trump=st.sampled_from(Suit))
def test_a_deal_refuses_a_bad_argument_by_its_clause_and_stays_as_it_was(name, phase, call, valid,
                                                                          value, trump):
    deal = calling_deal() if phase == "calling" else playing_deal(trump)
    before = snapshot(deal)
    try:
        call(deal, value)
    except RuleError as e:
        assert e.clause in CLAUSES, e
        assert snapshot(deal) == before
        if phase == "playing":  # spades too: the state reports the trump named
            assert deal.state()["trump"] == trump.letter
        return
    assert valid(value), f"{name} accepted {value!r}"


FUNCTION_CALLS: list[tuple[str, Callable[[Any], Any], Callable[[Any], bool]]] = [
    ("Deal pack", lambda v: Deal(v), lambda v: is_cards(v) and sorted(v, key=CARDS.index) == sorted(PACK, key=CARDS.index)),
    ("Deal dealer", lambda v: Deal(PACK, v), is_seat),
    ("Deal rules", lambda v: Deal(PACK, N, v), lambda v: isinstance(v, Rules)),
    ("Deal cut", lambda v: Deal(PACK, N, Rules(), v), lambda v: is_whole(v) and v < 144),
    ("Deal.from_seed seed", lambda v: Deal.from_seed(v), lambda v: type(v) is int),
    ("Deal.from_seed dealer", lambda v: Deal.from_seed(1, v), is_seat),
    ("Deal.from_seed rules", lambda v: Deal.from_seed(1, N, v), lambda v: isinstance(v, Rules)),
    ("Deal.replay", lambda v: Deal.replay(v), never),
    ("play_random_deal seed", lambda v: play_random_deal(v), lambda v: type(v) is int),
    ("play_random_deal dealer", lambda v: play_random_deal(1, v), is_seat),
    ("play_random_deal rules", lambda v: play_random_deal(1, N, v), lambda v: isinstance(v, Rules)),
    ("play_random_deal rng", lambda v: play_random_deal(1, N, Rules(), v),
     lambda v: v is None or isinstance(v, random.Random)),
    ("trick_winner cards", lambda v: trick_winner(v, Suit.HEARTS), lambda v: is_cards(v, 1, 4)),
    ("trick_winner trump", lambda v: trick_winner([AC], v), lambda v: type(v) is Suit),
    ("decide_trick cards", lambda v: decide_trick(v, Suit.HEARTS, N), lambda v: is_cards(v, 1, 4)),
    ("decide_trick trump", lambda v: decide_trick([AC], v, N), lambda v: type(v) is Suit),
    ("decide_trick leader", lambda v: decide_trick([AC], Suit.HEARTS, v), is_seat),
    ("decide_trick direction", lambda v: decide_trick([AC], Suit.HEARTS, N, v),
     lambda v: type(v) is Direction),
    ("legal_plays hand", lambda v: legal_plays(v, None), is_cards),
    ("legal_plays led", lambda v: legal_plays([AC], v), lambda v: v is None or type(v) is Suit),
    ("is_legal_play card", lambda v: is_legal_play([AC], None, v), is_card),
    ("deal_result north-south", lambda v: deal_result(v, 18),
     lambda v: type(v) is int and v == 18),  # only 18 makes 36
    ("deal_result rules", lambda v: deal_result(20, 3, closed_early=True, rules=v),
     lambda v: isinstance(v, Rules)),
    ("deal_result closed_early", lambda v: deal_result(18, 18, closed_early=v), lambda v: v is False),
    ("next_dealer dealer", lambda v: next_dealer(v, None), is_seat),
    ("next_dealer winner", lambda v: next_dealer(N, v), lambda v: v is None or type(v) is Side),
    ("next_dealer rules", lambda v: next_dealer(N, None, v), lambda v: isinstance(v, Rules)),
    ("first_dealer", lambda v: first_dealer(v), never),
    ("check_packets packets", lambda v: check_packets(v, N),
     lambda v: isinstance(v, (list, tuple)) and all(
         isinstance(p, (list, tuple)) and len(p) == 2 and is_seat(p[0]) and is_whole(p[1]) for p in v)),
    ("check_packets dealer", lambda v: check_packets([(E, 3)], v), is_seat),
    ("contest_step contest", lambda v: contest_step(v, deal_result(20, 16)), lambda v: isinstance(v, Contest)),
    ("contest_step result", lambda v: contest_step(Contest(), v),
     lambda v: type(v).__name__ == "DealResult"),
    ("contest_step rules", lambda v: contest_step(Contest(), deal_result(20, 16), v),
     lambda v: isinstance(v, Rules)),
    ("contest_of", lambda v: contest_of(v),
     lambda v: isinstance(v, (list, tuple)) and all(type(r).__name__ == "DealResult" for r in v)),
    ("Contest.record", lambda v: Contest().record(v), lambda v: type(v).__name__ == "DealResult"),
    ("Sitting first dealer", lambda v: Sitting(v), is_seat),
    ("Sitting rules", lambda v: Sitting(N, v), lambda v: isinstance(v, Rules)),
    ("Sitting results", lambda v: Sitting(N, Rules(), v),
     lambda v: isinstance(v, (list, tuple)) and all(type(r).__name__ == "DealResult" for r in v)),
    ("Sitting keep_rows", lambda v: Sitting(N, keep_rows=v), lambda v: type(v) is bool),
    ("draw_first_dealer seed", lambda v: draw_first_dealer(v), lambda v: type(v) is int),
    ("draw_first_dealer rules", lambda v: draw_first_dealer(1, v), lambda v: isinstance(v, Rules)),
    ("parse_card", lambda v: parse_card(v), is_card),
    ("parse_cards", lambda v: parse_cards(v),
     lambda v: (isinstance(v, str) and all(is_card(t) for t in v.split()))
     or (isinstance(v, (list, tuple)) and all(is_card(t) for t in v))),
    ("parse_suit", lambda v: parse_suit(v), is_suit_text),
    ("parse_seat", lambda v: parse_seat(v),
     lambda v: isinstance(v, str) and v.strip().upper() in {"N", "E", "S", "W", "NORTH", "EAST", "SOUTH", "WEST"}),
    ("card_name", lambda v: card_name(v), lambda v: type(v) is Card),
    ("suit_name", lambda v: suit_name(v), lambda v: type(v) is Suit),
    ("sort_hand", lambda v: sort_hand(v),
     lambda v: isinstance(v, (list, tuple, set, frozenset, dict)) and all(type(c) is Card for c in v)),
    ("next_seat seat", lambda v: next_seat(v, Direction.CLOCKWISE), is_seat),
    ("next_seat direction", lambda v: next_seat(N, v), lambda v: type(v) is Direction),
    ("seats_from", lambda v: seats_from(v, Direction.CLOCKWISE), is_seat),
    ("parse_rules", lambda v: parse_rules(v),
     lambda v: (isinstance(v, (list, tuple, set, frozenset)) and not v) or v == "direction=ccw"),
    ("rules_from_dict", lambda v: rules_from_dict(v), lambda v: isinstance(v, dict) and not v),
    ("rules_from_dict value", lambda v: rules_from_dict({"direction": v}),
     lambda v: isinstance(v, str) and v.strip().lower().replace("-", "") in {"ccw", "cw", "clockwise",
                                                                             "counterclockwise"}),
    ("Rules direction", lambda v: Rules(direction=v), lambda v: type(v) is Direction),
    ("Rules stake", lambda v: Rules(stake=v), lambda v: v in ("contest", "per-deal")),
    ("Card suit", lambda v: Card(v, Rank.ACE), lambda v: type(v) in (Suit, int) and 0 <= v < 4),
    ("Card rank", lambda v: Card(Suit.CLUBS, v), lambda v: type(v) in (Rank, int) and 6 <= v <= 14),
]


@verifies("table.partnerships", "pack.card-notation", "table.rule-options", "play.turn",
          "result.closed-early", "deal.dealer-check")
@pytest.mark.parametrize("name,call,valid", FUNCTION_CALLS, ids=[c[0] for c in FUNCTION_CALLS])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=HOSTILE)
def test_a_public_function_refuses_a_bad_argument_by_its_clause(name, call, valid, value):
    try:
        call(value)
    except RuleError as e:
        assert e.clause in CLAUSES, e
        return
    assert valid(value), f"{name} accepted {value!r}"


@verifies("sheet.one-deal-per-row", "trump.any-suit")
@settings(max_examples=80, deadline=None)
@given(value=HOSTILE, keep=st.booleans())
def test_a_sheet_refuses_a_bad_row_and_stays_as_it_was(value, keep):
    sheet = Sitting(E, keep_rows=keep)
    sheet.record(deal_result(20, 16), Suit.SPADES)
    before = (sheet.rows, sheet.dealer, sheet.contest)
    for call in (lambda: sheet.record(value), lambda: sheet.record(deal_result(16, 20), value)):
        try:
            call()
        except RuleError as e:
            assert e.clause in CLAUSES
            assert (sheet.rows, sheet.dealer, sheet.contest) == before
        else:
            assert value is None or type(value) is Suit or type(value).__name__ == "DealResult"
            return


@verifies("trump.any-suit", "play.order-of-actions")
@pytest.mark.parametrize("trump", list(Suit), ids=lambda s: s.name)
def test_the_state_names_every_trump_and_no_refusal_changes_it(trump):
    # Spades is suit number 0: the state must still say it is trump.
    deal = playing_deal(trump)
    assert deal.state()["trump"] == trump.letter and deal.trump is trump
    before = snapshot(deal)
    for bad in (lambda: deal.play(deal.to_act, "XX"), lambda: deal.play(Side.EAST_WEST, AC),
                lambda: deal.play(True, AC), lambda: deal.signal(deal.leader, ["knock"]),
                lambda: deal.name_trump(deal.caller, Suit.CLUBS), lambda: deal.close("yes"),
                lambda: deal.hand(4), lambda: deal.play(deal.to_act, 1.0)):
        with pytest.raises(RuleError):
            bad()
        assert snapshot(deal) == before


def test_the_issues_examples_are_each_refused_by_a_clause():
    deal = playing_deal(Suit.SPADES)
    examples = [lambda: deal.play(deal.to_act, 1.0), lambda: deal.signal(deal.leader, ["knock"]),
                lambda: deal.hand(4), lambda: Sitting(N, "x"), lambda: next_dealer("N", None),
                lambda: check_packets([("N", 3)], N), lambda: trick_winner([], Suit.HEARTS),
                lambda: decide_trick([AC] * 5, Suit.HEARTS, N), lambda: Deal.replay(None),
                lambda: deal.play(True, AC), lambda: deal.close(Side.NORTH_SOUTH),
                lambda: calling_deal().name_trump(E, 1.0), lambda: deal_result(18, 18, closed_early="yes"),
                lambda: calling_deal().name_trump(E, "NT")]
    for example in examples:
        with pytest.raises(RuleError) as refused:
            example()
        assert refused.value.clause in CLAUSES
    assert turub.RuleError is RuleError
