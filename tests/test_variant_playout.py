"""A variant's random playout (issue 20: a rule-carrying variant simulates within 2x of the
standard engine): only the decisions a house rule overrides pay, and what the rules are
asked, what they decide and what ``turub simulate`` counts stay as the guide says.

The expected answers are stated here, from the rules' words: the standard legal plays as
"the cards of the led suit if held, else any card", an answer's validity as "a non-empty
part of the hand", and the tally's "differently" by the rule itself, counting as it answers.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import turub.variant_table as table
from turub import Seat
from turub.cards import Card, parse_card
from turub.decisions import HouseRuleError
from turub.variants import BUILTIN, Variant, VariantClause, resolve

HERE = Path(__file__).parent / "variants"


def _variant(name: str, decides: str, rule, *more: VariantClause, base=None) -> Variant:
    return Variant(name, clauses=[VariantClause(f"{name}.rule", "A rule", decides=decides, rule=rule), *more],
                   base=base)


def _played(deal) -> list[tuple]:
    return [(t.leader, t.cards, t.winner) for t in deal.tricks]


def _standard_plays(hand, trick) -> set[Card]:
    """The standard legal plays, from the clauses' words: the led suit if held, else any card."""
    if trick:
        following = {c for c in hand if c.suit is trick[0].suit}
        if following:
            return following
    return set(hand)


@pytest.mark.parametrize("decides, rule", [("legal_plays", lambda hand, trick, trump: None),
                                           ("trick_winner", lambda cards, trump: None)])
def test_a_rule_that_always_defers_plays_the_standard_deals(decides, rule):
    # Where every house rule defers, the standard rules decide, drawing from the same random
    # numbers: the deals are the standard engine's own, card for card.
    v = _variant("defers", decides, rule)
    for seed in range(12):
        mine = v.play_random_deal(Seat(seed % 4), random.Random(seed))
        standard = BUILTIN["standard"].play_random_deal(Seat(seed % 4), random.Random(seed))
        assert _played(mine) == _played(standard) and mine.result == standard.result


def test_the_tally_counts_each_decision_and_each_one_the_standard_rule_would_not_make():
    seen = Counter()

    def low_or_high(hand, trick, trump):  # counts, as it answers, what the tally must say
        if not trick:
            return None
        led = [c for c in hand if c.suit is trick[0].suit]
        if led:  # following: the highest of the led suit held
            answer = [c for c in led if c.rank is max(x.rank for x in led)]
        else:  # void: the lowest cards held
            answer = [c for c in hand if c.rank is min(x.rank for x in hand)]
        seen["decided"] += 1
        seen["differently"] += set(answer) != _standard_plays(hand, trick)
        return answer

    v = _variant("lowhigh", "legal_plays", low_or_high)
    counts = v.tally()
    rng = random.Random(3)
    for i in range(15):
        v.play_random_deal(Seat(i % 4), rng)
    v.stop_tally()
    assert counts["lowhigh.rule"] == [seen["decided"], seen["differently"]]
    assert 0 < seen["differently"] < seen["decided"]  # one rank of the led suit held: the same plays


def _last_wins(cards, trump):  # of a trick of four distinct suits, the last card
    return 3 if len(cards) == 4 and len({c.suit for c in cards}) == 4 else None


def _lead_low(hand, trick, trump):  # leading: one of the lowest cards held
    return None if trick else [c for c in hand if c.rank is min(x.rank for x in hand)]


def _low_last() -> Variant:
    """The lead by the base's rule (its own legal-plays rule always defers), the tricks by its own."""
    base = _variant("lowbase", "legal_plays", _lead_low)
    return Variant("lowlast", base=base, clauses=[
        VariantClause("lowlast.never", "Never", decides="legal_plays", rule=lambda h, t, tr: None),
        VariantClause("lowlast.last", "Last", decides="trick_winner", rule=_last_wins)])


@pytest.mark.parametrize("variant", [_low_last, lambda: _variant("last", "trick_winner", _last_wins)],
                         ids=["plays and tricks", "tricks alone"])
def test_every_play_under_a_rule_is_one_it_allows_and_every_trick_as_it_decides(variant):
    v = variant()
    plays, (rule,) = bool(v.decides("legal_plays")), v.decides("trick_winner")
    rng = random.Random(5)
    for i in range(10):
        deal = v.play_random_deal(Seat(i % 4), rng)
        hands = {seat: Counter() for seat in Seat}
        for trick in deal.tricks:  # the hands, rebuilt from the cards each seat played
            for seat, card in zip(trick.seats, trick.cards):
                hands[seat][card] += 1
        for trick in deal.tricks:
            held = list(hands[trick.leader].elements())
            if plays:  # the base's rule decides the lead, as the own rule defers
                assert trick.cards[0].rank == min(c.rank for c in held)
            for seat, card in zip(trick.seats, trick.cards):
                hands[seat][card] -= 1
            if len({c.suit for c in trick.cards}) == 4:
                assert trick.winner == trick.seats[3] and trick.decision.clauses == (rule.id,)
        # the winner leads the next trick (play.winner-leads), and the tricks are counted so
        leaders = [t.leader for t in deal.tricks[1:]]
        assert leaders == [t.winner for t in deal.tricks[:-1]]
        north_south = sum(t.winner in (Seat.NORTH, Seat.SOUTH) for t in deal.tricks)
        assert deal.result.tricks == (north_south, 36 - north_south)


HAND = tuple(parse_card(c) for c in ("AS", "AS", "KS", "7H", "9D"))


@pytest.mark.parametrize("answer, accepted", [
    (lambda: [parse_card("AS")], {"AS"}),
    (lambda: (parse_card("AS"), parse_card("AS"), parse_card("7H")), {"AS", "7H"}),
    (lambda: {parse_card("KS"), parse_card("9D")}, {"KS", "9D"}),
    (lambda: (c for c in HAND if c.suit.letter == "S"), {"AS", "KS"}),
    (lambda: [], None), (lambda: "AS", None), (lambda: parse_card("AS"), None),
    (lambda: [parse_card("QS")], None), (lambda: ["AS"], None), (lambda: [parse_card("AS"), None], None),
    (lambda: 3, None),
])
def test_an_answer_is_a_non_empty_part_of_the_hand_in_the_oracle_and_the_playout(answer, accepted):
    v = _variant("answers", "legal_plays", lambda hand, trick, trump: answer())
    if accepted is None:
        with pytest.raises(HouseRuleError, match="not a non-empty part of the hand, deciding a play: hand"):
            v.legal_plays(HAND, (), None)
        with pytest.raises(HouseRuleError, match="not a non-empty part of the hand, deciding a play: hand"):
            v.play_random_deal(Seat.NORTH, random.Random(1))
        return
    legal, clauses = v.legal_plays(HAND, (), None)
    assert {str(c) for c in legal} == {str(parse_card(t)) for t in accepted} and clauses == ("answers.rule",)


def test_a_rule_that_raises_in_the_playout_names_the_play():
    def broken(hand, trick, trump):
        if len(trick) == 2:
            raise KeyError("nine")
        return None

    with pytest.raises(HouseRuleError) as raised:
        _variant("broken", "legal_plays", broken).play_random_deal(Seat.NORTH, random.Random(1))
    text = str(raised.value)
    assert text.startswith("variant broken 1: house rule broken.rule (legal plays) raised KeyError")
    assert "deciding a play: hand " in text and "trick so far " in text and "\n" not in text


def test_a_variant_file_is_read_without_asking_the_installed_packages(monkeypatch):
    # A path names no installed variant (a name has no ':' or '/'): reading every package's
    # entry points, tens of milliseconds at each start, is for names.
    asked = []
    monkeypatch.setattr(table, "_load_entry_points", lambda: asked.append(True))
    assert resolve(f"{HERE / 'kinds.py'}:club-nell").name == "club-nell" and not asked
    with pytest.raises(Exception, match="no variant 'no-such-variant'"):
        resolve("no-such-variant")
    assert asked  # a name still looks in the installed packages
