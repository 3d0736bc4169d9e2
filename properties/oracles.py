"""Independent statements of the rules, written declaratively, for the property suites.

Nothing here imports the engine (``turub.cards``, ``turub.rules``...): each rule is stated
again, another way, on plain data (cards as text, seats as letters), so a property that
compares an implementation with an oracle can catch a bug in the engine's own helpers.
Where the engine walks a trick card by card, the oracle says which card no other card
beats; where the engine steps the contest deal by deal, the oracle reads runs of wins.

Plain data, as the implementation interface (``turub.conformance.adapter``) uses it:

* a card is text, rank then suit: ``"AC"``, ``"10H"`` (``"A♣"`` and ``"TH"`` are read too);
* a seat is ``"N" "E" "S" "W"`` (clockwise in that order), a side ``"NS"`` or ``"EW"``;
* an outcome is ``"NS"``, ``"EW"`` or ``"draw"``;
* rules are a dict with the keys ``direction``, ``stake``, ``opponent-dealer``,
  ``signal-kinds``, ``early-close`` (a key left out: its default).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

__all__ = [
    "RANK_TEXTS", "SUIT_LETTERS", "SEAT_LETTERS", "ALL_CARDS", "FULL_PACK", "RULE_DEFAULTS",
    "card_key", "rank_of", "suit_of", "canonical", "rules_in_full",
    "side_of", "partner_of", "seat_after", "seats_in_play_order", "mirror_seat",
    "outranks", "trick_winner", "legal_plays",
    "dealing", "packet_check_stands",
    "deal_outcome", "signal_kind_allowed", "DOCUMENTED_SIGNALS", "next_dealer", "dealers_over",
    "contest_decided_at", "contest_states",
    "first_dealer",
    "TableModel",
]

# --- cards --------------------------------------------------------------------------

#: The ranks from the lowest up: a later one outranks an earlier one (``pack.rank-order``).
RANK_TEXTS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_LETTERS = ("S", "H", "D", "C")
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
#: The 36 distinct cards, as text.
ALL_CARDS = tuple(r + s for s in SUIT_LETTERS for r in reversed(RANK_TEXTS))
#: Four copies of each (``pack.composition``).
FULL_PACK = Counter({c: 4 for c in ALL_CARDS})


@lru_cache(maxsize=None)
def card_key(text: str) -> tuple[int, str]:
    """``(rank value, suit letter)`` of a card written as text; the rank value grows with rank."""
    t = text.strip().upper()
    suit = _SUIT_SYMBOLS.get(t[-1:], t[-1:])
    rank = "10" if t[:-1] == "T" else t[:-1]
    if suit not in SUIT_LETTERS or rank not in RANK_TEXTS:
        raise ValueError(f"{text!r} is not a card")
    return RANK_TEXTS.index(rank), suit


def rank_of(card: str) -> int:
    return card_key(card)[0]


def suit_of(card: str) -> str:
    return card_key(card)[1]


@lru_cache(maxsize=None)
def canonical(card: str) -> str:
    """The card's plain ASCII text (``"A♣"`` → ``"AC"``), to compare answers as cards."""
    rank, suit = card_key(card)
    return RANK_TEXTS[rank] + suit


# --- seats and options ---------------------------------------------------------------------

SEAT_LETTERS = ("N", "E", "S", "W")  # clockwise
RULE_DEFAULTS = {"direction": "clockwise", "stake": "contest", "opponent-dealer": "next",
                 "signal-kinds": "any", "early-close": "draw"}


def rules_in_full(rules: Mapping[str, str] | None) -> dict[str, str]:
    return RULE_DEFAULTS | dict(rules or {})


def side_of(seat: str) -> str:
    """North and South sit opposite and play together, as do East and West."""
    return "NS" if seat in ("N", "S") else "EW"


def partner_of(seat: str) -> str:
    return {"N": "S", "S": "N", "E": "W", "W": "E"}[seat]


def seat_after(seat: str, direction: str = "clockwise") -> str:
    """The seat that plays after ``seat``: its left, clockwise (``table.left-of-dealer``)."""
    ring = SEAT_LETTERS if direction == "clockwise" else tuple(reversed(SEAT_LETTERS))
    return ring[(ring.index(seat) + 1) % 4]


def seats_in_play_order(first: str, direction: str = "clockwise") -> list[str]:
    order = [first]
    while len(order) < 4:
        order.append(seat_after(order[-1], direction))
    return order


def mirror_seat(seat: str) -> str:
    """The seat in the mirror image of the table through North and South."""
    return {"N": "N", "S": "S", "E": "W", "W": "E"}[seat]


# --- the trick ---------------------------------------------------------------------------

def outranks(cards: Sequence[str], trump: str, i: int, j: int) -> bool:
    """Whether the card played at position ``i`` ranks above the one at ``j`` in this trick.

    A trump ranks above every card that is not one (``trick.highest-trump``); within a
    suit the higher rank ranks above; of two identical cards the one played first does
    (``trick.earliest-identical``).  Cards of two different suits, neither trump, do not
    rank against each other.
    """
    (ri, si), (rj, sj) = card_key(cards[i]), card_key(cards[j])
    if si == trump and sj != trump:
        return True
    if si != sj:
        return False
    return ri > rj or (ri == rj and i < j)


def trick_winner(cards: Sequence[str], trump: str) -> int:
    """The position of the card that wins: if there is a trump, the highest trump, else the
    highest card of the suit led; of identical cards, the earliest.  Stated as: the only
    card that may win and that no other card in the trick outranks."""
    led = suit_of(cards[0])
    may_win = [i for i, c in enumerate(cards) if suit_of(c) in (trump, led)]
    unbeaten = [i for i in may_win if not any(outranks(cards, trump, j, i)
                                              for j in range(len(cards)) if j != i)]
    if len(unbeaten) != 1:  # the rule as stated here always picks one: never an assert (python -O)
        raise RuntimeError(f"the oracle found {len(unbeaten)} unbeaten cards in {cards} (trump {trump})")
    return unbeaten[0]


def legal_plays(hand: Iterable[str], trick: Sequence[str]) -> set[str]:
    """The distinct cards of ``hand`` a player may play to ``trick`` (the cards so far).

    A card is legal when nothing is led yet, or it is of the led suit, or the hand holds
    nothing of the led suit (``play.follow-suit``, ``play.void-any-card``).  Trump plays
    no part: no duty to trump, nor to play higher (``play.no-forced-trump``).
    """
    held = {canonical(c) for c in hand}
    led = suit_of(trick[0]) if trick else None
    following = {c for c in held if suit_of(c) == led}
    return following or held  # holding none of the led suit (or leading): any card


# --- dealing -------------------------------------------------------------------------------

def dealing(pack: Sequence[str], dealer: str, cut: int, direction: str = "clockwise"
            ) -> tuple[str, list[str], dict[str, list[str]]]:
    """``(caller, the three cards the caller sees, each seat's hand)`` for a pack (top first).

    The cut lifts ``cut`` cards from the top to the bottom (``deal.cut``); packets of three
    go round from the dealer's left (``deal.packets``); that seat sees its first packet,
    the top three after the cut, and names trump from it (``trump.three-cards``).
    """
    stock = [canonical(c) for c in list(pack[cut:]) + list(pack[:cut])]
    order = seats_in_play_order(seat_after(dealer, direction), direction)
    hands: dict[str, list[str]] = {s: [] for s in SEAT_LETTERS}
    for packet in range(len(stock) // 3):
        hands[order[packet % 4]] += stock[3 * packet:3 * packet + 3]
    return order[0], stock[:3], hands


def packet_check_stands(packets: Sequence[Sequence[Any]], dealer: str) -> bool:
    """The deal stands when it was dealt packet by packet as the rule says: 48 packets of
    three, the first four going clockwise (the question's direction of play) from the
    dealer's left and ending with the dealer, then round and round in that order."""
    seats = [seat for seat, _ in packets]
    sizes = [n if isinstance(n, int) else len(n) for _, n in packets]
    first_round = ["NESW"[("NESW".index(dealer) + k) % 4] for k in (1, 2, 3, 4)]
    return len(packets) == 48 and set(sizes) == {3} and seats == first_round * 12


# --- results, dealers, contest ---------------------------------------------------------------

def deal_outcome(ns: int, ew: int, closed_early: bool,
                 rules: Mapping[str, str] | None = None) -> str | None:
    """``"NS"``, ``"EW"`` or ``"draw"``; ``None`` when the counts are impossible.

    A complete deal shares out 36 tricks; a deal closed early fewer.  More tricks win and 18
    each is a draw.  A deal closed early is a draw, since its result is unknown; but under
    ``early-close=known-result`` a side holding 19 tricks or more already has more than the
    other could reach, and wins.
    """
    counts_ok = all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in (ns, ew))
    if not counts_ok or (ns + ew < 36) != bool(closed_early) or ns + ew > 36:
        return None
    if closed_early:
        bank_known = rules_in_full(rules)["early-close"] == "known-result"
        for side, tricks in (("NS", ns), ("EW", ew)):
            if bank_known and tricks >= 19:
                return side
        return "draw"
    if ns == ew:
        return "draw"
    return "NS" if ns > ew else "EW"


DOCUMENTED_SIGNALS = ("knock", "click")


def signal_kind_allowed(kind: Any, rules: Mapping[str, str] | None = None) -> bool:
    """A signal is any kind the table uses, named by a word with at least one visible
    character; under ``signal-kinds=documented`` only the knock or the click."""
    if not isinstance(kind, str) or all(ch.isspace() for ch in kind):
        return False
    return rules_in_full(rules)["signal-kinds"] == "any" or kind in DOCUMENTED_SIGNALS


def next_dealer(dealer: str, outcome: str, rules: Mapping[str, str] | None = None) -> str:
    """Who deals after ``dealer``'s deal ended ``outcome``.

    A draw: the same seat.  The dealer's side lost: the dealer's partner.  It won: an
    opponent: the one sitting next in the direction of play, or with
    ``opponent-dealer=previous`` the other one.
    """
    r = rules_in_full(rules)
    if outcome == "draw":
        return dealer
    if outcome != side_of(dealer):
        return partner_of(dealer)
    following = seat_after(dealer, r["direction"])
    return following if r["opponent-dealer"] == "next" else partner_of(following)


def dealers_over(first: str, outcomes: Iterable[str], rules: Mapping[str, str] | None = None
                 ) -> list[str]:
    """The dealer of each deal, then of the next one."""
    seats = [first]
    for outcome in outcomes:
        seats.append(next_dealer(seats[-1], outcome, rules))
    return seats


def _wins(results: Sequence[Sequence[Any]], rules: Mapping[str, str] | None = None
          ) -> list[tuple[int, str, int]]:
    """``(deal index, side, tricks)`` of every won deal."""
    wins = []
    for i, (ns, ew, closed) in enumerate(results):
        outcome = deal_outcome(ns, ew, closed, rules)
        if outcome in ("NS", "EW"):
            wins.append((i, outcome, ns if outcome == "NS" else ew))
    return wins


def _run_start(wins: list[tuple[int, str, int]], k: int) -> tuple[int, str, int]:
    """The first win of the unbroken run of one side's wins that ends with ``wins[k]``."""
    side = wins[k][1]
    start = k
    while start > 0 and wins[start - 1][1] == side:
        start -= 1
    return wins[start]


def contest_decided_at(results: Sequence[Sequence[Any]], rules: Mapping[str, str] | None = None
                       ) -> int | None:
    """The index of the deal that decides the contest, or ``None``.

    Traditionally: the first win that comes after an earlier win by the same side, with no
    win by the other side between them (draws do not count), and takes more tricks than
    the first win of that run.  Under ``stake=per-deal``: the first won deal.
    """
    wins = _wins(results, rules)
    for k, (index, side, tricks) in enumerate(wins):
        if rules_in_full(rules)["stake"] == "per-deal":
            return index
        first = _run_start(wins, k)
        if first[0] < index and tricks > first[2]:
            return index
    return None


def contest_states(results: Sequence[Sequence[Any]], rules: Mapping[str, str] | None = None
                   ) -> list[dict[str, Any]]:
    """What the contest interface answers after each result (see the adapter's ``contest``).

    The results after a decision belong to a new contest, judged from scratch.  Within one
    contest, after deal ``k``: the holder is the side that won the last won deal so far; the
    mark is the tricks of the first win of that side's current run; the winner is set at the
    deciding deal.  Under ``stake=per-deal`` there is no run and no mark: a won deal has
    that side as winner, a draw nobody.  Impossible counts are refused (``{"refused":
    {clauses}}``: the answer must name one of them) and change nothing.
    """
    states: list[dict[str, Any]] = []
    start = 0  # the first result of the current contest
    per_deal = rules_in_full(rules)["stake"] == "per-deal"
    for k, (ns, ew, closed) in enumerate(results):
        outcome = deal_outcome(ns, ew, closed, rules)
        if outcome is None:
            states.append({"refused": {"result.tricks-add-up"}})
            continue
        if per_deal:
            states.append({"holder": None, "mark": None, "winner": None if outcome == "draw" else outcome})
            continue
        mine = results[start:k + 1]
        wins = _wins(mine, rules)
        decided = contest_decided_at(mine, rules)
        if not wins:
            states.append({"holder": None, "mark": None, "winner": None})
            continue
        first = _run_start(wins, len(wins) - 1)
        won = decided is not None
        states.append({"holder": wins[-1][1], "mark": first[2], "winner": wins[-1][1] if won else None})
        if won:
            start = k + 1
    return states


# --- the first dealer ----------------------------------------------------------------------

def first_dealer(rounds: Sequence[Mapping[str, str]]) -> str | None:
    """The first dealer from the cards shown, or ``None`` when the draw is refused.

    In each round every player still in the draw is shown one card and nobody else; those
    showing the highest rank stay in; suits do not count.  The last one left deals.
    """
    in_draw = set(SEAT_LETTERS)
    for shown in rounds:
        if set(shown) != in_draw or len(in_draw) == 1:  # nobody draws once the draw is decided
            return None
        top = max(rank_of(c) for c in shown.values())
        in_draw = {s for s, c in shown.items() if rank_of(c) == top}
    return in_draw.pop() if len(in_draw) == 1 else None


# --- a whole deal, as a referee would keep it ------------------------------------------------

@dataclass
class TableModel:
    """An independent referee of one deal, on plain data.

    :meth:`broken` names the clauses an action would break (none: it is accepted);
    :meth:`apply` carries out an accepted action.
    """

    pack: Sequence[str]
    dealer: str
    cut: int
    rules: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.direction = rules_in_full(self.rules)["direction"]
        self.caller, self.saw, self._full_hands = dealing(self.pack, self.dealer, self.cut,
                                                          self.direction)
        self.hands: dict[str, Counter[str]] = {s: Counter() for s in SEAT_LETTERS}
        self.hands[self.caller] = Counter(self.saw)
        self.phase = "calling"
        self.trump: str | None = None
        self.to_act: str | None = self.caller
        self.leader = self.caller
        self.trick: list[tuple[str, str]] = []
        self.signalled = False
        self.winners: list[str] = []
        self.won = {"NS": 0, "EW": 0}
        self.outcome: str | None = None

    # reading
    def holds_led_suit(self, seat: str) -> bool:
        led = suit_of(self.trick[0][1])
        return any(suit_of(c) == led for c in self.hands[seat])

    def legal_cards(self) -> set[str]:
        """The cards the seat to act may play now (empty unless cards are being played)."""
        if self.phase != "playing":
            return set()
        return legal_plays(self.hands[self.to_act], [c for _, c in self.trick])

    def broken(self, action: Mapping[str, str]) -> set[str]:
        """The clauses ``action`` would break; empty if the referee accepts it."""
        act, seat = action["act"], action["seat"]
        if act == "close":
            return {"play.order-of-actions"} if self.phase == "finished" else set()
        if act == "trump":
            if self.phase == "playing":
                return {"trump.once"}
            if self.phase == "finished":
                return {"play.order-of-actions"} | ({"trump.once"} if self.trump else set())
            return {"trump.caller"} if seat != self.caller else set()
        if self.phase != "playing":
            return {"play.order-of-actions"}
        if act == "signal":
            broken = set()
            if not signal_kind_allowed(action["signal"], self.rules):
                broken.add("signal.kinds")
            if seat != self.leader:
                broken.add("signal.leader-only")
            if len(self.trick) != 1:
                broken.add("signal.timing")
            if self.signalled:
                broken.add("signal.once-per-trick")
            return broken
        card = canonical(action["card"])
        broken = set()
        if seat != self.to_act:
            broken.add("play.turn")
        if not self.hands[seat][card]:
            broken.add("play.card-in-hand")
        elif self.trick and suit_of(card) != suit_of(self.trick[0][1]) and self.holds_led_suit(seat):
            broken.add("play.follow-suit")
        return broken

    # acting
    def apply(self, action: Mapping[str, str]) -> None:
        act, seat = action["act"], action["seat"]
        if act == "close":
            self.phase, self.to_act = "finished", None
            self.outcome = deal_outcome(self.won["NS"], self.won["EW"], True, self.rules)
        elif act == "trump":
            self.trump = action["suit"]
            self.hands = {s: Counter(h) for s, h in self._full_hands.items()}
            self.phase, self.to_act = "playing", self.caller
        elif act == "signal":
            self.signalled = True
        else:
            card = canonical(action["card"])
            hand = self.hands[seat]
            hand[card] -= 1
            if not hand[card]:
                del hand[card]  # a hand lists only the cards it holds
            self.trick.append((seat, card))
            if len(self.trick) < 4:
                self.to_act = seat_after(seat, self.direction)
                return
            cards = [c for _, c in self.trick]
            if self.trump is None:
                raise RuntimeError("the oracle's deal is in play with no trump")
            winner = self.trick[trick_winner(cards, self.trump)][0]
            self.winners.append(winner)
            self.won[side_of(winner)] += 1
            self.trick, self.signalled = [], False
            self.leader = self.to_act = winner
            if len(self.winners) == 36:
                self.phase, self.to_act = "finished", None
                ns, ew = self.won["NS"], self.won["EW"]
                self.outcome = "draw" if ns == ew else ("NS" if ns > ew else "EW")

    def referee(self, actions: Iterable[Mapping[str, str]]) -> dict[str, Any]:
        """What the interface's ``referee`` answers for ``actions`` (refusal clauses as sets)."""
        responses: list[Any] = []
        for action in actions:
            broken = self.broken(action)
            if broken:
                responses.append(broken)
            else:
                self.apply(action)
                responses.append({"ok": True})
        return {"responses": responses, "winners": list(self.winners),
                "tricks": [self.won["NS"], self.won["EW"]], "outcome": self.outcome}
