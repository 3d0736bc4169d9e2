"""The reference engine's deal, driven as a state machine, one action at a time.

Hypothesis plays legal and illegal actions (trump calls by any seat, any card by any seat,
signals of every kind, closes) against ``turub.Deal`` and, in lockstep, against the
independent table model of ``oracles.TableModel``.  After every step:

* every one of the 144 cards is in exactly one place (a hand, the undealt stock, the trick
  on the table, a trick taken), four copies of each;
* the engine agrees with the model: hands, whose turn, who leads, each trick's winner,
  tricks taken, phase and outcome;
* a refused action named a clause the action breaks and left ``Deal.state()`` unchanged;
* each seat's view shows its own hand and the table, nothing of other hands.

When a deal ends (36 tricks or a close), a new one starts, so a rule is always enabled.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import event, note
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule)

from turub import CARDS, Deal, Phase, RuleError, Seat, parse_seat
from turub.cards import card_name
from turub.options import rules_from_dict
from turub.properties import oracles as O
from turub.properties import strategies as S
from turub.properties.tags import verifies


_TEXT = {c: card_name(c, ascii=True) for c in CARDS}
_text = _TEXT.__getitem__


def hands_of(deal: Deal) -> dict[Seat, Counter]:
    return {seat: Counter(_text(c) for c in deal.hand(seat)) for seat in Seat}


def places_of_every_card(deal: Deal, hands: dict[Seat, Counter] | None = None) -> Counter:
    """Every card's copies in every place: hands, the stock, the table, the tricks taken."""
    places: Counter = Counter()
    for hand in (hands or hands_of(deal)).values():
        places.update(hand)
    places.update(_text(c) for c in deal.stock)
    places.update(_text(c) for _, c in deal.current_trick)
    for trick in deal.tricks:
        places.update(_text(c) for c in trick.cards)
    return places


class DealMachine(RuleBasedStateMachine):
    """One deal after another, each checked against the table model at every step."""

    def __init__(self) -> None:
        super().__init__()
        self.deal: Deal
        self.model: O.TableModel
        self.deals = 0

    # --- starting deals ------------------------------------------------------------------

    def _start(self, seed: int, dealer: str, rules: dict[str, str]) -> None:
        self.deal = Deal.from_seed(seed, parse_seat(dealer), rules_from_dict(rules))
        self.model = O.TableModel([_text(c) for c in self.deal.pack], dealer, self.deal.cut, rules)
        self.deals += 1
        note(f"deal {self.deals}: seed {seed}, dealer {dealer}, cut {self.deal.cut}, {rules}")

    @initialize(seed=st.integers(0, 2**32 - 1), dealer=S.seats, rules=S.full_rules_dicts())
    def first_deal(self, seed, dealer, rules):
        self._start(seed, dealer, rules)

    @precondition(lambda self: self.deal.phase is Phase.FINISHED)
    @rule(seed=st.integers(0, 2**32 - 1), dealer=S.seats, rules=S.full_rules_dicts())
    def next_deal(self, seed, dealer, rules):
        event("a deal played out" if len(self.deal.tricks) == 36 else "a deal closed early")
        self._start(seed, dealer, rules)

    # --- actions -----------------------------------------------------------------------------

    def _attempt(self, action: dict[str, str], step=None) -> Any:
        """Apply ``action`` to the engine (by ``step()`` if given); the model says whether it
        must be accepted.  What the engine's step returned, None if refused."""
        broken = self.model.broken(action)
        before = json.dumps(self.deal.state(), sort_keys=True) if broken else None
        try:
            done = self.deal.apply(action) if step is None else step()
        except RuleError as refusal:
            assert broken, f"{action} refused ({refusal}), but the rules allow it"
            assert refusal.clause in broken, f"{action} refused as {refusal.clause}, but breaks {broken}"
            # A refusal leaves the deal exactly as it was.
            assert json.dumps(self.deal.state(), sort_keys=True) == before, f"{action} refused, state changed"
            return None
        assert not broken, f"{action} accepted, but it breaks {sorted(broken)}"
        self.model.apply(action)
        return done

    @rule(seat=S.seats, suit=S.suits)
    def name_trump(self, seat, suit):
        self._attempt({"act": "trump", "seat": seat, "suit": suit})

    @precondition(lambda self: self.deal.phase is Phase.CALLING)
    @rule(suit=S.suits)
    def caller_names_trump(self, suit):
        self._attempt({"act": "trump", "seat": self.model.caller, "suit": suit})

    @precondition(lambda self: self.deal.phase is Phase.PLAYING)
    @rule(pick=st.integers(0, 35))
    def play_a_legal_card(self, pick):
        legal = sorted(self.model.legal_cards())
        self._attempt({"act": "play", "seat": self.model.to_act, "card": legal[pick % len(legal)]})

    @precondition(lambda self: self.deal.phase is Phase.PLAYING)
    @rule(cards=st.integers(1, 48) | st.just(144), seed=st.integers(0, 2**16))
    def play_on(self, cards, seed):
        """Several legal cards in a row, every invariant checked after each."""
        rng = random.Random(seed)
        for _ in range(cards):
            if self.deal.phase is not Phase.PLAYING:
                break
            card = rng.choice(sorted(self.model.legal_cards()))
            self._attempt({"act": "play", "seat": self.model.to_act, "card": card})
            self.every_card_is_in_exactly_one_place()

    @precondition(lambda self: self.deal.phase is Phase.PLAYING)
    @rule(card=S.cards, legal=st.booleans(), pick=st.integers(0, 35))
    def play_turn(self, card, legal, pick):
        """One call a card (``Deal.play_turn``): the seat to act plays any card, or a legal
        one; what comes back is what the next seat may play, by the model."""
        if legal:
            choices = sorted(self.model.legal_cards())
            card = choices[pick % len(choices)]
        action = {"act": "play", "seat": self.model.to_act, "card": card}
        following = self._attempt(action, lambda: self.deal.play_turn(card))
        if following is not None:
            expected = self.model.legal_cards()
            assert {_text(c) for c in following} == expected, f"after {card}: {following}"
            assert len(set(following)) == len(following), f"a card twice in {following}"

    @rule(seat=S.seats, card=S.cards)
    def play_any_card(self, seat, card):
        self._attempt({"act": "play", "seat": seat, "card": card})

    @precondition(lambda self: self.deal.phase is Phase.PLAYING)
    @rule(other=S.seats, from_hand=st.integers(0, 35))
    def play_out_of_suit_or_turn(self, other, from_hand):
        """A card the seat holds but may not play: off the led suit, or out of turn."""
        held = sorted((+self.model.hands[other]).elements())
        if held:
            self._attempt({"act": "play", "seat": other, "card": held[from_hand % len(held)]})

    @rule(seat=S.seats, kind=st.sampled_from(("knock", "click", "wave", "", " ")))
    def signal(self, seat, kind):
        self._attempt({"act": "signal", "seat": seat, "signal": kind})

    @precondition(lambda self: self.deal.phase is not Phase.FINISHED)
    @rule(seat=S.seats, go=st.integers(0, 7))
    def close(self, seat, go):
        if go == 0:  # now and then: most deals should be played out
            self._attempt({"act": "close", "seat": seat})

    # --- invariants ------------------------------------------------------------------------------

    @invariant()
    def every_card_is_in_exactly_one_place(self):
        # Four copies of each of the 36 cards, each in one place only (pack.composition).
        hands = hands_of(self.deal)
        assert places_of_every_card(self.deal, hands) == O.FULL_PACK
        sizes = [sum(hands[s].values()) for s in Seat]
        on_table = len(self.deal.current_trick) + 4 * len(self.deal.tricks)
        assert sum(sizes) + len(self.deal.stock) + on_table == 144
        if self.deal.phase is Phase.CALLING:
            assert sorted(sizes) == [0, 0, 0, 3] and len(self.deal.stock) == 141
        elif self.deal.trump is not None:
            assert not self.deal.stock, "every card is dealt once trump is named"
            # Every card played so far was played exactly once: hands shrink by one per card.
            played = Counter(s for t in self.deal.tricks for s in t.seats)
            played.update(s for s, _ in self.deal.current_trick)
            assert all(sizes[s] + played[s] == 36 for s in Seat)

    @invariant()
    def the_engine_agrees_with_the_model(self):
        deal, model = self.deal, self.model
        assert deal.phase.value == model.phase
        assert (deal.to_act.letter if deal.to_act is not None else None) == model.to_act
        assert deal.caller.letter == model.caller
        for seat in Seat:
            assert Counter(_text(c) for c in deal.hand(seat)) == +model.hands[seat.letter], seat
        assert [(s.letter, _text(c)) for s, c in deal.current_trick] == model.trick
        assert [t.winner.letter for t in deal.tricks] == model.winners
        assert list(deal.tricks_won) == [model.won["NS"], model.won["EW"]]
        # Each trick: one card a seat, in the direction of play from its leader.
        direction = model.direction
        for trick in deal.tricks:
            assert [s.letter for s in trick.seats] == O.seats_in_play_order(trick.leader.letter, direction)
        for before, after in zip(deal.tricks, deal.tricks[1:]):
            assert after.leader == before.winner  # play.winner-leads
        if deal.result is not None:
            assert sum(deal.result.tricks) == len(deal.tricks) <= 36
            outcome = "draw" if deal.result.winner is None else deal.result.winner.short
            assert outcome == model.outcome

    @invariant()
    def each_seat_sees_its_own_hand_and_the_table_only(self):
        for seat in Seat:
            view = self.deal.view(seat)
            assert view.seat is seat and view.hand == self.deal.hand(seat)
            assert view.hand_sizes == tuple(len(self.deal.hand(s)) for s in Seat)
            assert view.current_trick == self.deal.current_trick
            # Only the seat to act is offered cards, and exactly the legal ones.
            offered = sorted(_text(c) for c in view.legal)
            expected = sorted(self.model.legal_cards()) if seat.letter == self.model.to_act else []
            assert offered == expected, f"{seat} offered {offered}, expected {expected}"
            # No field of the view holds another seat's cards.
            others = {name for name in type(view).__slots__ if "hand" in name}
            assert others == {"hand", "hand_sizes"}, others


@verifies("pack.composition", "deal.full-hands", "deal.pause-for-trump", "trump.caller", "trump.once",
          "trump.three-cards", "play.first-lead", "play.turn", "play.card-in-hand",
          "play.follow-suit", "play.void-any-card", "play.winner-leads", "play.all-tricks",
          "play.order-of-actions", "signal.leader-only", "signal.timing", "signal.once-per-trick",
          "signal.kinds", "result.tricks-add-up", "result.closed-early", "sheet.any-player-closes",
          "table.direction")
class TestEveryCardStaysInOnePlaceAndRefusalsChangeNothing(DealMachine.TestCase):
    settings = S.scaled(0.5, stateful_step_count=80)
