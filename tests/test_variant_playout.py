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

import turub.variants as table
from turub import Seat, Suit
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


def _defers_reading(cards, trump, game):
    return None


def _defers_reading_plays(hand, trick, trump, game):
    return None


@pytest.mark.parametrize("decides, rule", [("legal_plays", lambda hand, trick, trump: None),
                                           ("trick_winner", lambda cards, trump: None),
                                           ("trick_winner", _defers_reading),
                                           ("legal_plays", _defers_reading_plays)])
def test_a_rule_that_always_defers_plays_the_standard_deals(decides, rule):
    # Where every house rule defers, the standard rules decide, drawing from the same random
    # numbers: the deals are the standard engine's own, card for card.
    v = _variant("defers", decides, rule)
    for seed in range(12):
        mine = v.play_random_deal(Seat(seed % 4), random.Random(seed))
        standard = BUILTIN["standard"].play_random_deal(Seat(seed % 4), random.Random(seed))
        assert _played(mine) == _played(standard) and mine.result == standard.result


def _tallied(v: Variant, seed: int, deals: int) -> dict[str, list[int]]:
    """``turub simulate``'s tally of ``deals`` random deals by ``v``."""
    counts = v.tally()
    rng = random.Random(seed)
    for i in range(deals):
        v.play_random_deal(Seat(i % 4), rng)
    v.stop_tally()
    return counts


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

    counts = _tallied(_variant("lowhigh", "legal_plays", low_or_high), seed=3, deals=15)
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


# --- a rule that says where it applies (a clause's ``applies_to``) ---------------------------

def _kind_of_play(hand, trick) -> str:
    """From the rules' words: leading (an empty trick), following (holding the led suit), void."""
    if not trick:
        return "lead"
    return "follow" if any(c.suit is trick[0].suit for c in hand) else "void"


def _declared(name: str, rule, applies_to, *more: VariantClause, base=None) -> Variant:
    return Variant(name, base=base, clauses=[VariantClause(
        f"{name}.rule", "A rule", decides="legal_plays", rule=rule, applies_to=applies_to), *more])


def _every_play_checked(v: Variant, seed: int) -> None:
    """A deal by ``v`` played card by card through the checked step (its legal plays asked)."""
    rng = random.Random(seed)
    deal = v.deal_from_seed(seed)
    deal.name_trump(deal.to_act, rng.choice(list(Suit)))
    while deal.result is None:
        legal = deal.legal_plays()
        deal.play(deal.to_act, legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("applies_to", [("lead",), ("follow",), ("void",), ("lead", "void")])
def test_a_rule_is_asked_only_at_the_kinds_of_play_it_applies_to(applies_to):
    asked = Counter()

    def noting(hand, trick, trump):
        asked[_kind_of_play(hand, trick)] += 1
        return None

    v = _declared("noting", noting, applies_to)
    rng = random.Random(7)
    for i in range(4):
        v.play_random_deal(Seat(i % 4), rng)  # the fast playout
    fast = set(asked)
    asked.clear()
    _every_play_checked(v, 7)  # the checked step: Deal.legal_plays and Deal.play
    assert fast == set(asked) == set(applies_to)


def _must_trump(hand, trick, trump):  # void and holding trump: only trumps
    if not trick or any(c.suit is trick[0].suit for c in hand):
        return None
    return [c for c in hand if c.suit is trump] or None


def test_saying_where_a_rule_applies_changes_no_deal_when_it_defers_elsewhere():
    # The declaration is for speed: a rule that defers outside the plays it names plays the
    # same deals, card for card, and the tally counts the same decisions.
    plain, declared = _declared("plain", _must_trump, None), _declared("declared", _must_trump, "void")
    counts = plain.tally(), declared.tally()
    for seed in range(10):
        one = plain.play_random_deal(Seat(seed % 4), random.Random(seed))
        other = declared.play_random_deal(Seat(seed % 4), random.Random(seed))
        assert _played(one) == _played(other) and one.result == other.result
    plain.stop_tally(), declared.stop_tally()
    assert counts[0]["plain.rule"] == counts[1]["declared.rule"] and counts[0]["plain.rule"][0] > 0


def test_outside_the_plays_it_applies_to_the_standard_rule_decides():
    def lowest(hand, trick, trump):  # at every play it is asked: only the lowest cards held
        return [c for c in hand if c.rank is min(x.rank for x in hand)]

    v = _declared("lowlead", lowest, ("lead",))
    follow = parse_card("AS"), parse_card("6S"), parse_card("6H")
    assert v.legal_plays(follow, (parse_card("KS"),), Suit.CLUBS) == (
        frozenset(follow[:2]), ("play.follow-suit",))  # following: not asked
    assert v.legal_plays(follow, (), Suit.CLUBS)[1] == ("lowlead.rule",)
    rng, above_lowest = random.Random(2), 0
    for i in range(6):
        deal = v.play_random_deal(Seat(i % 4), rng)
        hands = {seat: Counter() for seat in Seat}
        for trick in deal.tricks:
            for seat, card in zip(trick.seats, trick.cards):
                hands[seat][card] += 1
        for trick in deal.tricks:
            for k, (seat, card) in enumerate(zip(trick.seats, trick.cards)):
                held = list(hands[seat].elements())
                if k == 0:  # the lead: the rule decides
                    assert card.rank == min(c.rank for c in held)
                else:  # the others: the standard legal plays, whatever the rule would say
                    assert card in _standard_plays(held, trick.cards[:k])
                    above_lowest += card.rank != min(c.rank for c in held)
                hands[seat][card] -= 1
    assert above_lowest > 0


def test_each_kind_of_play_asks_the_rules_that_apply_to_it_in_order():
    # The own clause before the base's, each where it applies.
    calls = []

    def noting(name):
        def rule(hand, trick, trump):
            calls.append((name, _kind_of_play(hand, trick)))
            return None
        return rule

    base = _declared("everywhere", noting("base"), None)
    v = _declared("follows", noting("own"), ("follow",), base=base)
    v.play_random_deal(Seat.NORTH, random.Random(4))
    by_kind = {kind: [name for name, k in calls if k == kind] for kind in ("lead", "follow", "void")}
    assert set(by_kind["lead"]) == set(by_kind["void"]) == {"base"}
    assert by_kind["follow"][:4] == ["own", "base", "own", "base"]
    assert by_kind["follow"].count("own") == by_kind["follow"].count("base") > 0


@pytest.mark.parametrize("decides, applies_to, why", [
    ("legal_plays", ("lead", "first"), "applies_to ('lead', 'first'): one or more of lead, follow, void"),
    ("legal_plays", (), "applies_to (): one or more of lead, follow, void"),
    ("legal_plays", 3, "applies_to 3: one or more of lead, follow, void"),
    ("trick_winner", "void", "applies_to names kinds of play: only a rule deciding legal_plays takes it"),
])
def test_a_wrong_applies_to_is_refused_naming_the_clause(decides, applies_to, why):
    from turub.variants import VariantError
    with pytest.raises(VariantError) as refused:
        VariantClause("wrong.rule", "A rule", decides=decides, rule=lambda *a: None, applies_to=applies_to)
    assert str(refused.value) == f"wrong.rule: {why}"


def test_the_tally_says_differently_exactly_when_the_allowed_cards_are_not_the_standard_ones():
    # Every sort of answer: the standard pool itself, as many copies but another card, a
    # part, the whole hand; the tally against the set comparison, made here, as it answers.
    pick, seen, sorts = random.Random(11), Counter(), Counter()

    def sorts_of_answer(hand, trick, trump):
        standard = _standard_plays(hand, trick)
        others = [c for c in hand if c not in standard]
        sort = pick.choice(["standard", "swapped", "part", "hand", None])
        if sort == "swapped" and others and len(standard) > 1:
            answer = set(standard) - {min(standard, key=lambda c: c.index)} | {others[0]}
        elif sort == "part":
            answer = set(pick.sample(sorted(standard, key=lambda c: c.index), 1))
        elif sort in ("standard", "hand"):
            answer = set(standard) if sort == "standard" else set(hand)
        else:
            return None
        sorts[sort] += 1
        seen["decided"] += 1
        seen["differently"] += answer != standard
        return sorted(answer, key=lambda c: c.index)

    counts = _tallied(_variant("sorts", "legal_plays", sorts_of_answer), seed=12, deals=8)
    assert counts["sorts.rule"] == [seen["decided"], seen["differently"]]
    assert min(sorts.values()) > 0 and len(sorts) == 4


# --- the hand a rule sees: sorted as Deal.hand gives it, in every path ---------------------

def _middle_card(hand, trick, trump):  # a rule that reads the hand's order
    return [hand[len(hand) // 2]]


def test_a_rule_sees_the_hand_as_deal_hand_gives_it_in_the_playout_and_the_checked_step():
    # The fast playout keeps the hands as a rule sees them as suits run out (pack.sort-hand
    # alternates the suits left anew): a rule reading the order plays deals that the checked
    # step, asking with Deal.hand, replays card for card, asked the same hands.
    seen = []

    def noting(hand, trick, trump):
        seen.append(hand)
        return _middle_card(hand, trick, trump)

    v = _variant("middle", "legal_plays", noting)
    for seed in range(20):
        seen.clear()
        deal = v.play_random_deal(Seat(seed % 4), random.Random(seed))
        fast = list(seen)
        seen.clear()
        again = v.deal_class.replay(deal.to_record())  # each play through the checked step
        assert _played(again) == _played(deal) and fast == seen


def test_whoever_asks_the_rule_is_given_the_hand_sorted():
    seen = []
    v = _variant("noting", "legal_plays", lambda hand, trick, trump: seen.append(hand))
    hand = tuple(parse_card(c) for c in ("7D", "AS", "6H", "KC", "AS", "QD", "9H"))
    v.legal_plays(hand, (), None)
    v.house("legal_plays", hand[::-1], (parse_card("8C"),), None)
    # pack.sort-hand, stated here: black and red suits alternating, each highest rank first
    assert [" ".join(map(str, h)) for h in seen] == ["A♠ A♠ 9♥ 6♥ K♣ Q♦ 7♦"] * 2


def test_a_trick_rule_reading_the_game_sees_each_tricks_leader_number_and_the_tricks_before():
    # Asked from the standard playout's own loop: what it is shown is the deal as it stands,
    # checked against the finished deal's record (the leader of trick k, the k - 1 before it).
    seen = []

    def records(cards, trump, game):
        seen.append((game.seat, game.trick_number, len(game.tricks), game.dealer, cards))
        return None
    v = Variant("reads", clauses=[VariantClause("reads.rule", "A rule", decides="trick_winner", rule=records)])
    deal = v.play_random_deal(Seat.EAST, random.Random(5))
    assert [(Seat(s), n, before, d, c) for s, n, before, d, c in seen] == \
        [(t.leader, k + 1, k, Seat.EAST, t.cards) for k, t in enumerate(deal.tricks)]
