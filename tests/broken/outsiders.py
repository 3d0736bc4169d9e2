"""Programs as outsiders write them: one rule wrong, in code nobody here wrote (issue 35).

``Outsider(bug)`` keeps its own table: each hand as a count of cards per suit beside the
cards, seats and cards read by small parsers of its own, the deal's result by its own
count.  The questions a one-rule bug does not touch (the first dealer, the packets, the
contest's bookkeeping) it answers as the engine-free ``independent.py`` does, which it
builds on; the referee, the results and the house rules it plays are its own.

Each bug (:data:`BUGS`: the clause it breaks, what it does instead) is of a kind the issue
lists: a refusal citing a wrong clause, or the right clause at the wrong moment; a decision
read wrong whose output the next ones carry (a deal's result into the contest, a trick's
winner into the turn, a suit count into the next play's legality); an answer with two faults
under a house rule built on the standard one; a rule broken only at its boundary (the last
trick, the middle of a trick).  :data:`HOUSE` names the house rules it plays:
``club`` (a void player must trump, ``tests/variants/club.py``) and ``club-nell`` (the nine
of trumps beats every card, ``tests/variants/kinds.py``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("independent_for_outsiders", _HERE / "independent.py")
independent = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(independent)  # type: ignore[union-attr]

Refused = independent.Refused
SEATS, SUITS, RANKS = "NESW", "SHDC", ("A", "K", "Q", "J", "10", "9", "8", "7", "6")

#: bug -> (the clause it breaks, what it does instead)
BUGS = {
    "bad-card-cited-as-not-held": ("pack.card-notation",
                                   "text that is no card is refused citing play.card-in-hand"),
    "seat-name-read": ("table.partnerships",
                       "a seat is also read from its name, any case, spaces round it: 'n', 'North', "
                       "' N ' (1.1.0's reading; a seat is the letter alone)"),
    "nil-close-refused": ("result.tricks-add-up", "a deal closed before any trick is won is refused"),
    "nineteen-is-a-draw": ("result.more-tricks-wins", "a complete deal is won with 20 tricks: 19-17 is a draw"),
    "discard-counts-led-suit": ("play.follow-suit",
                                "a discard is taken off the led suit's count, not its own suit's"),
    "last-card-any-text": ("play.card-in-hand", "on the last trick any card named plays the one card held"),
    "mid-trick-close-refused": ("sheet.any-player-closes", "a close in the middle of a trick is refused"),
    "jack-above-queen": ("pack.rank-order", "the jack ranks above the queen"),
    "follow-last-card": ("play.follow-suit", "the suit to follow is the last card's, not the led card's"),
    "later-copy-wins": ("trick.earliest-identical", "of two identical cards the later one played wins"),
}

#: The house rules it can play, by name: where a bug shows under one.
HOUSE = {"club": f"{_HERE.parent / 'variants' / 'club.py'}:club",
         "club-nell": f"{_HERE.parent / 'variants' / 'kinds.py'}:club-nell"}


def _card(text, bug) -> int:
    """A card (0-35: suit-major, ace first) from its text; refused as no card otherwise."""
    try:
        return independent.card_of(text)
    except Refused:
        raise Refused("play.card-in-hand" if bug == "bad-card-cited-as-not-held" else "pack.card-notation") \
            from None


def _seat(text, bug, clause: str) -> int:
    """A seat: one of the letters N E S W.  With ``seat-name-read`` also its name, any case,
    spaces round it (what 1.1.0 asked; ``clause`` is the action's, unused)."""
    if bug == "seat-name-read" and isinstance(text, str) and \
            text.strip().upper() in ("N", "E", "S", "W", "NORTH", "EAST", "SOUTH", "WEST"):
        return SEATS.index(text.strip().upper()[0])
    return independent.seat_of(text)  # a text that is no seat: refused for table.partnerships


class Outsider(independent.Independent):
    """The outsider's program; ``variant`` (a key of :data:`HOUSE`) the house rule it plays."""

    def __init__(self, bug: str | None = None, variant: str | None = None) -> None:
        assert bug is None or bug in BUGS, bug
        self.bug = bug
        self.house = variant
        self.name = f"outsider-{bug or 'correct'}" + (f"-{variant}" if variant else "")
        self.variants = [variant] if variant else None

    # --- the trick and the legal plays, its own ------------------------------------------------
    def _height(self, card: int) -> int:
        h = 8 - card % 9
        if self.bug == "jack-above-queen" and h in (5, 6):
            return 11 - h
        return h

    def _winner(self, cards: list[int], trump: int) -> int:
        if self.house == "club-nell":
            nells = [i for i, c in enumerate(cards) if c == trump * 9 + RANKS.index("9")]
            if nells:
                return nells[0]
        def key(i):
            c = cards[i]
            if c // 9 == trump:
                return (2, self._height(c), -i)
            return (1 if c // 9 == cards[0] // 9 else 0, self._height(c), -i)
        if self.bug == "later-copy-wins":
            return max(range(len(cards)), key=lambda i: key(i)[:2] + (i,))
        return max(range(len(cards)), key=key)

    def _legal(self, hand: list[int], trick: list[int], trump: int | None) -> list[int]:
        distinct = sorted(set(hand))
        if not trick:
            return distinct
        led = (trick[-1] if self.bug == "follow-last-card" else trick[0]) // 9
        following = [c for c in distinct if c // 9 == led]
        if following:
            return following
        if self.house == "club" and trump is not None and trick[0] // 9 != trump:
            trumps = [c for c in distinct if c // 9 == trump]
            if trumps:
                return trumps
        return distinct

    def trick_winner(self, cards, trump, variant=None):
        return self._winner([_card(c, None) for c in cards], independent.suit_letter(trump))

    def legal_plays(self, hand, trick, trump=None, variant=None):
        t = None if trump is None else independent.suit_letter(trump)
        return [independent.name_of(c) for c in
                self._legal([_card(c, None) for c in hand], [_card(c, None) for c in trick], t)]

    # --- results, its own ---------------------------------------------------------------------
    def _outcome(self, ns, ew, closed, dealer=None, rules=None) -> str:
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (ns, ew)):
            raise Refused("result.tricks-add-up")
        total = ns + ew
        if (closed and total > 35) or (not closed and total != 36) or \
                (closed and total == 0 and self.bug == "nil-close-refused"):
            raise Refused("result.tricks-add-up")
        if closed:
            known = (rules or {}).get("early-close") == "known-result" and max(ns, ew) >= 19
            return ("NS" if ns > ew else "EW") if known else "draw"
        needed = 20 if self.bug == "nineteen-is-a-draw" else 19
        return "NS" if ns >= needed else "EW" if ew >= needed else "draw"

    def deal_result(self, ns, ew, closed_early, dealer=None, variant=None):
        try:
            return {"outcome": self._outcome(ns, ew, closed_early)}
        except Refused as e:
            return {"refused": e.clause}

    def contest(self, results, rules, dealer=None, variant=None):
        return super().contest(results, rules, dealer)

    def deal(self, pack, dealer, cut, rules, variant=None):
        return super().deal(pack, dealer, cut, rules)

    def next_dealer(self, dealer, outcome, rules, variant=None):
        return super().next_dealer(dealer, outcome, rules)

    def first_dealer(self, rounds, variant=None):
        return super().first_dealer(rounds)

    def check_packets(self, packets, dealer, variant=None):
        return super().check_packets(packets, dealer)

    # --- the referee, its own -------------------------------------------------------------------
    def referee(self, pack, dealer, cut, rules, actions, variant=None):
        table = _Table(self, pack, independent.seat_of(dealer), cut, rules)
        responses = []
        for a in actions:
            try:
                table.act(a)
                responses.append({"ok": True})
            except Refused as e:
                responses.append({"refused": e.clause})
        return {"responses": responses, "winners": [SEATS[w] for w in table.winners],
                "tricks": list(table.won), "outcome": table.outcome}


class _Table:
    """A deal as the outsider keeps it: the hands with a count per suit, the trick, the turn."""

    def __init__(self, impl: Outsider, pack, dealer: int, cut: int, rules) -> None:
        self.impl, self.rules, self.dealer = impl, rules or {}, dealer
        self.step = 3 if self.rules.get("direction") == "counterclockwise" else 1
        self.caller, self.saw, self.full = impl._deal(pack, dealer, cut, rules)
        self.hands: list[list[int]] = [[], [], [], []]
        self.counts: list[list[int]] = [[0] * 4 for _ in range(4)]
        self.stage = "calling"
        self.trump: int | None = None
        self.to_act = self.leader = self.caller
        self.trick: list[tuple[int, int]] = []
        self.signalled = False
        self.winners: list[int] = []
        self.won = [0, 0]
        self.outcome = None

    @property
    def bug(self):
        return self.impl.bug

    def act(self, a) -> None:
        if not isinstance(a, dict) or a.get("act") not in ("trump", "play", "signal", "close"):
            raise Refused("play.order-of-actions")  # play.malformed-action: refused as out of order
        needs = {"trump": ("seat", "suit"), "play": ("seat", "card"), "signal": ("seat", "signal"),
                 "close": ("seat",)}[a["act"]]
        if any(k not in a for k in needs):
            raise Refused("play.order-of-actions")
        getattr(self, "_" + a["act"])(a)

    def _trump(self, a) -> None:
        seat = _seat(a["seat"], self.bug, "trump.caller")
        if self.stage != "calling":
            raise Refused("trump.once" if self.trump is not None else "play.order-of-actions")
        if seat != self.caller:
            raise Refused("trump.caller")
        suit = a["suit"]  # one of the letters S H D C, nothing else
        if not (isinstance(suit, str) and len(suit) == 1 and suit in SUITS):
            raise Refused("trump.any-suit")
        self.trump = SUITS.index(suit)
        self.hands = [list(h) for h in self.full]
        for s in range(4):
            for c in self.hands[s]:
                self.counts[s][c // 9] += 1
        self.stage = "playing"

    def _play(self, a) -> None:
        if self.stage != "playing":
            _seat(a["seat"], self.bug, "play.order-of-actions")
            raise Refused("play.order-of-actions")
        seat = _seat(a["seat"], self.bug, "play.turn")
        if seat != self.to_act:
            raise Refused("play.turn")
        hand = self.hands[seat]
        if self.bug == "last-card-any-text" and len(hand) == 1:
            card = hand[0]
        else:
            card = _card(a["card"], self.bug)
        if card not in hand:
            raise Refused("play.card-in-hand")
        if self.trick:
            led = self.trick[-1 if self.bug == "follow-last-card" else 0][1] // 9
            if card // 9 != led and self.counts[seat][led] > 0:
                raise Refused("play.follow-suit")
            if self.impl.house == "club" and card // 9 != led and self.counts[seat][led] <= 0 \
                    and self.trump is not None and card // 9 != self.trump and led != self.trump \
                    and self.counts[seat][self.trump] > 0:
                raise Refused("club.must-trump")
        hand.remove(card)
        counted = self.trick[0][1] // 9 if self.trick and self.bug == "discard-counts-led-suit" else card // 9
        self.counts[seat][counted] -= 1
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            self.to_act = (seat + self.step) % 4
            return
        at = self.impl._winner([c for _, c in self.trick], self.trump)
        winner = self.trick[at][0]
        self.winners.append(winner)
        self.won[winner % 2] += 1
        self.trick, self.signalled = [], False
        self.leader = self.to_act = winner
        if len(self.winners) == 36:
            self._end(closed=False)

    def _signal(self, a) -> None:
        if self.stage != "playing":
            _seat(a["seat"], self.bug, "play.order-of-actions")
            raise Refused("play.order-of-actions")
        seat = _seat(a["seat"], self.bug, "signal.leader-only")
        kind = a["signal"]
        documented = self.rules.get("signal-kinds") == "documented"
        if not isinstance(kind, str) or not kind.strip() or (documented and kind not in ("knock", "click")):
            raise Refused("signal.kinds")
        if seat != self.leader:
            raise Refused("signal.leader-only")
        if len(self.trick) != 1:
            raise Refused("signal.timing")
        if self.signalled:
            raise Refused("signal.once-per-trick")
        self.signalled = True

    def _close(self, a) -> None:
        _seat(a["seat"], self.bug, "sheet.any-player-closes")
        if self.stage == "finished":
            raise Refused("play.order-of-actions")
        if self.trick and self.bug == "mid-trick-close-refused":
            raise Refused("play.order-of-actions")
        self._end(closed=True)

    def _end(self, closed: bool) -> None:
        self.outcome = self.impl._outcome(self.won[0], self.won[1], closed, self.dealer, self.rules)
        self.stage = "finished"
        self.to_act = None


class NineteenIsADraw(Outsider):
    """``turub check --python outsiders:NineteenIsADraw``: the outsider with a complete 19-17
    read as a draw (a class the command line makes without arguments)."""

    def __init__(self) -> None:
        super().__init__("nineteen-is-a-draw")
