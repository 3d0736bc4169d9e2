"""Rules that see the game (issue 31): the three worked examples of the guide, played by
the engine card by card and by its random playout, each checked against the rule stated
independently here (from the tricks as played, not from the engine's helpers)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from turub import Phase, Seat, Side, Suit, parse_cards
from turub.errors import IllegalActionError
from turub.variants import load_file

HERE = Path(__file__).parent


def variant(name):
    return load_file(HERE / "seeing.py", name)


def deals(v, n=60, seed=5):
    rng = random.Random(seed)
    return [v.play_random_deal(Seat(i % 4), rng) for i in range(n)]


def test_trump_is_never_led_before_trumps_are_broken_unless_the_leader_holds_only_trumps():
    v = variant("TRUMPS")
    checked = led_after = 0
    for deal in deals(v):
        tricks = deal.tricks
        for k, trick in enumerate(tricks):
            broken = any(c.suit is deal.trump for t in tricks[:k] for c in t.cards)
            # the leader's hand at trick k: every card it plays from trick k on
            held = [t.cards[t.seats.index(trick.leader)] for t in tricks[k:]]
            only_trumps = all(c.suit is deal.trump for c in held)
            if trick.cards[0].suit is deal.trump and not broken:
                assert only_trumps, (k, trick)
            checked += not broken
            # once broken, trump may be led again with other cards in hand
            led_after += broken and trick.cards[0].suit is deal.trump and not only_trumps
    assert checked > 100 and led_after > 20


def test_a_trump_lead_before_trumps_are_broken_is_refused_naming_the_house_clause():
    v = variant("TRUMPS")
    rng = random.Random(2)
    refused = 0
    for _ in range(20):
        deal = v.deal_class.shuffled(rng, Seat.NORTH, v.rules)
        deal.name_trump(deal.caller, Suit.SPADES)
        leader = deal.to_act
        hand = deal.hand(leader)
        trumps = [c for c in hand if c.suit is Suit.SPADES]
        if trumps and len(trumps) < len(hand):
            assert all(c.suit is not Suit.SPADES for c in deal.legal_plays())
            with pytest.raises(IllegalActionError) as refusal:
                deal.play(leader, trumps[0])
            assert refusal.value.clause == "seeing.trumps-unbroken"
            refused += 1
    assert refused > 5


def test_18_18_goes_to_the_side_that_did_not_deal():
    v = variant("NON_DEALERS")
    # the question with its dealer
    assert v.deal_result(18, 18, dealer=Seat.NORTH).winner is Side.EAST_WEST
    assert v.deal_result(18, 18, dealer=Seat.WEST).winner is Side.NORTH_SOUTH
    # without it, the rule cannot tell: the standard draw
    assert v.deal_result(18, 18).winner is None
    even = [d for d in deals(v, 400) if d.result.tricks == (18, 18)]
    assert even
    for deal in even:
        assert deal.result.winner is not deal.dealer.side and deal.result.winner is not None
        assert deal.result.clauses == ("seeing.non-dealers-on-18",)


def test_the_dealers_copy_of_the_winning_card_wins():
    v = variant("DEALERS_COPY")
    # South leads, West, North (the dealer), East: North's 9♠ is the second of two
    deal_cards = parse_cards("9S 6S 9S 7S")
    from turub.decisions import Game
    from turub.options import Rules
    game = Game(seat=Seat.SOUTH, rules=Rules(), dealer=Seat.NORTH)
    assert v.trick_winner(deal_cards, Suit.HEARTS, game) == (2, ("seeing.dealers-copy",))
    assert v.trick_winner(deal_cards, Suit.HEARTS)[0] == 0  # no game: the standard rule
    decided = 0
    for deal in deals(v, 200):
        for trick in deal.tricks:
            best = trick.decision.position
            copies = [i for i, c in enumerate(trick.cards) if c == trick.cards[best]]
            if len(copies) > 1 and any(trick.seats[i] == deal.dealer for i in copies):
                # Of identical winning cards, the dealer's copy wins.
                assert trick.seats[best] == deal.dealer, trick
                decided += 1
    assert decided > 0


def test_rules_that_read_the_game_pass_the_checks_of_user_code():
    from turub.rule_checks import check_rules
    for name in ("TRUMPS", "NON_DEALERS", "DEALERS_COPY"):
        check_rules(variant(name))


@pytest.mark.parametrize("name", ["TRUMPS", "NON_DEALERS", "DEALERS_COPY"])
def test_the_reference_playing_by_a_rule_that_reads_the_game_conforms(name, tmp_path):
    # The guide's first smoke test: turub check with no program checks the reference playing
    # by the variant; a property whose oracle cannot give the rule the game is not applicable
    # (it was a false failure on result.draw-18's property under the 18-18 rule).
    import json
    import subprocess
    import sys
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "check", "--variant",
                           f"{HERE / 'seeing.py'}:{name}", "--scale", "0.1", "--examples", "20",
                           "--properties", "3", "--budget", "3", "--json", str(out)],
                          capture_output=True, text=True, timeout=600)
    report = json.loads(out.read_text())
    failed = [(c["id"], c.get("detail")) for c in report["cases"] if c["status"] == "failed"]
    assert done.returncode == 0 and report["conforms"] and not failed, (done.stderr[-600:], failed[:3])


def test_the_game_view_cannot_be_changed_and_is_equal_only_to_itself():
    from turub.decisions import Game, game_at
    from turub.options import Rules
    game = Game(seat=Seat.SOUTH, trick_number=3, tricks=(), dealer=Seat.NORTH)
    with pytest.raises(AttributeError):
        game.seat = Seat.EAST
    with pytest.raises((AttributeError, TypeError)):
        object.__setattr__(game, "seat", Seat.EAST)  # not even past its own __setattr__
    assert game.seat is Seat.SOUTH and game.seats == (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
    assert game == game and game != Game(seat=Seat.SOUTH, trick_number=3, tricks=(), dealer=Seat.NORTH)
    assert len({game, Game()}) == 2 and Game().tricks is None and Game().seats is None
    assert Game(trick_number=2, tricks=lambda: ("built",)).tricks == ("built",)  # built when read
    import copy
    import pickle
    for again in (copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert type(again) is Game and repr(again) == repr(game)  # a rule may keep a copy
    # The engine's view: its tricks given by the deal when first read, the trick's earlier ones
    # (None: a view after the deal, all of them).
    asked = []

    def tricks_of(count):
        asked.append(count)
        return ("a trick",) * (36 if count is None else count)
    early = game_at(Seat.EAST, 4, tricks_of, Rules(), Seat.NORTH)
    assert asked == [] and early.tricks == ("a trick",) * 3 and asked == [3]
    assert len(game_at(None, None, tricks_of, Rules(), Seat.NORTH).tricks) == 36 and asked == [3, None]
    assert repr(early).startswith("Game(seat=Seat.EAST, trick_number=4, tricks=('a trick',")


def test_a_rule_reading_the_game_sees_at_each_ask_the_deal_as_it_stands():
    # Every view the random playout builds (at each play and each trick it asks about) says
    # what the finished deal says of that moment: the seat to act or the trick's leader, the
    # trick's number, the tricks completed before it, the rules and the dealer.
    from turub.variants import Variant, VariantClause
    seen = []

    def plays(hand, trick, trump, game):
        seen.append((hand, trick, game))

    def tricks(cards, trump, game):
        seen.append((None, cards, game))
    v = Variant("seeing-records", "1", clauses=[
        VariantClause("seeing.plays", "Records the plays", decides="legal_plays", rule=plays),
        VariantClause("seeing.tricks", "Records the tricks", decides="trick_winner", rule=tricks)])
    rng = random.Random(5)
    for dealer in Seat:
        deal = v.play_random_deal(dealer, rng)
        assert len(seen) == 36 * 5
        for hand, cards, game in seen:
            number = game.trick_number
            trick = deal.tricks[number - 1]
            assert game.tricks == deal.tricks[:number - 1] and game.tricks == game.tricks  # read twice
            assert game.dealer is deal.dealer and game.rules == deal.rules
            if hand is None:  # the trick, once complete, with its leader
                assert cards == trick.cards and game.seat is trick.leader and game.seats == trick.seats
            else:  # a play: the cards before it, the seat to play it, holding it
                assert cards == trick.cards[:len(cards)] and game.seat is trick.seats[len(cards)]
                assert trick.cards[len(cards)] in hand and game.seats[0] is game.seat
        seen.clear()


def test_a_rule_that_answers_with_its_game_is_told_so_in_words():
    from turub.decisions import Game, HouseRuleError
    from turub.variants import Variant, VariantClause

    def answers_the_game(cards, trump, game):
        return game
    v = Variant("seeing-games", "1", clauses=[VariantClause("seeing.games", "Answers the game",
                                                            decides="trick_winner", rule=answers_the_game)])
    with pytest.raises(HouseRuleError, match="returned a Game, not a position"):
        v.trick_winner(parse_cards("AS KS"), Suit.HEARTS, Game(seat=Seat.NORTH))
