"""The rules as pure functions, one per rule.  Each decision carries the clauses behind it.

Nothing here keeps state: the deal state machine (:mod:`turub.deal`), the sitting
(:mod:`turub.sitting`) and the conformance kit all call these.

>>> from turub.cards import parse_cards, Suit
>>> trick_winner(parse_cards("A♣ A♣ 6♣ K♣"), trump=Suit.HEARTS)
0
>>> trick_winner(parse_cards("A♣ A♣ 6♥ K♣"), trump=Suit.HEARTS)
2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from .cards import CARDS, SUIT_OF, Card, Suit
from . import argument_checks
from .clauses import cite
from .branch_free_rules import beats as _beats_kernel
from .errors import FirstDealerError, ResultError, RuleError
from .options import Rules
from .seats import PLAY_ORDER, Direction, Seat, Side, next_seat, seats_from

__all__ = [
    "TRICKS_PER_DEAL", "legal_plays", "is_legal_play", "trick_winner", "decide_trick",
    "TrickDecision", "DealResult", "deal_result", "NextDealer", "next_dealer",
    "FirstDealer", "first_dealer", "PacketCheck", "check_packets", "beats_table",
]

#: Tricks in a complete deal: 144 cards, four to a trick (``play.all-tricks``).
TRICKS_PER_DEAL = 36
#: Cards in a packet (``deal.packets``).
PACKET_SIZE = 3


# --- play -------------------------------------------------------------------------

def legal_plays(hand: Iterable[Card], led: Suit | None) -> frozenset[Card]:
    """The distinct cards of ``hand`` that may be played to a trick whose led suit is ``led``.

    ``play.follow-suit``: holding the led suit, a player must play it.
    ``play.void-any-card`` and ``play.no-forced-trump``: void in it, any card, with no
    duty to trump or overtake.  Leading (``led`` is ``None``), any card.

    Contract (checked by CrossHair)::

        pre: isinstance(hand, (list, tuple))
        post: __return__ <= frozenset(hand)
        post: bool(__return__) == bool(hand)
        post: led is None or all(c.suit is led for c in __return__) or not any(c.suit is led for c in hand)
        post: led is None or any(c.suit is led for c in hand) or __return__ == frozenset(hand)
        post: led is not None or __return__ == frozenset(hand)
    """
    cards = frozenset(_hand(hand))
    led = _led(led)
    if led is None:
        return cards
    following = frozenset(c for c in cards if c.suit is led)
    return following or cards


def is_legal_play(hand: Iterable[Card], led: Suit | None, card: Card) -> tuple[bool, str]:
    """Whether ``card`` may be played from ``hand``, and the clause that decides it."""
    cards = _hand(hand)
    led = _led(led)
    card = argument_checks.card(card)
    if card not in cards:
        return False, "play.card-in-hand"
    if led is None:
        return True, "play.follow-suit"  # a lead has no suit to follow
    if card.suit is led:
        return True, "play.follow-suit"
    if any(c.suit is led for c in cards):
        return False, "play.follow-suit"
    return True, "play.void-any-card"


def trick_winner(cards: Sequence[Card], trump: Suit) -> int:
    """The position (0 = the lead) of the card that wins the trick ``cards``.

    ``trick.highest-trump``: the highest trump wins; ``trick.highest-led``: without
    trump, the highest card of the led suit; ``trick.earliest-identical``: of identical
    cards, the one played first, because a later card takes the lead only if it is
    strictly higher.

    Contract (checked by CrossHair)::

        pre: 1 <= len(cards) <= 4
        post: 0 <= __return__ < len(cards)
        post: cards[__return__].suit is (trump if any(c.suit is trump for c in cards) else cards[0].suit)
        post: all(c.rank <= cards[__return__].rank for c in cards if c.suit is cards[__return__].suit)
        post: cards[__return__] not in cards[:__return__]
    """
    # The arguments checked as _trick and argument_checks.suit check them, inline where they
    # are what they usually are (a rule may call this at every trick): a list or tuple of one
    # to four Card values, a Suit; anything else takes the checks' own path, and its error.
    if type(cards) is list or type(cards) is tuple:
        n = len(cards)
        if not 0 < n <= 4:
            cards = _trick(cards)
        else:
            for card in cards:
                if type(card) is not Card:
                    cards = _trick(cards)
                    break
    else:
        cards = _trick(cards)
    if type(trump) is not Suit:
        trump = argument_checks.suit(trump, "trump.any-suit", text=False)  # type: ignore[assignment]
    best = cards[0]
    position = 0
    for i in range(1, len(cards)):
        card = cards[i]
        if card.suit is best.suit:
            if card.index < best.index:  # a higher rank (an index counts down the ranks of a suit)
                best, position = card, i
        elif card.suit is trump:
            best, position = card, i
    return position


def beats_table(trump: int) -> bytes:
    """The rule of :func:`trick_winner` as a table, for the deal state machine's hot path.

    Entry ``36 * challenger + holder`` (card codes, see :data:`turub.cards.SUIT_OF`) is 1 when
    ``challenger``, played later, takes the trick from ``holder`` with ``trump`` trump:
    ``trick.highest-led``, ``trick.highest-trump``, ``trick.earliest-identical`` (strictly
    higher).  The table is the proved kernel :func:`turub.branch_free_rules.beats` evaluated on every
    pair of cards, so the proofs about the kernel hold for the tricks the deal decides.

    >>> from turub.cards import parse_card
    >>> t = beats_table(Suit.HEARTS)
    >>> t[36 * parse_card("6♥").index + parse_card("A♣").index], t[36 * parse_card("A♣").index + parse_card("A♣").index]
    (1, 0)
    """
    table = _BEATS[trump]
    if table is None:
        pairs = [(int(c.suit), int(c.rank)) for c in CARDS]
        table = _BEATS[trump] = bytes(bool(_beats_kernel(a, b, int(trump)))
                                      for a in pairs for b in pairs)
    return table


_BEATS: list[bytes | None] = [None, None, None, None]


class TrickDecision(NamedTuple):
    """Who won a trick, with which card, and the clauses that decided it."""

    position: int
    seat: Seat
    card: Card
    clauses: tuple[str, ...]


def decide_trick(cards: Sequence[Card], trump: Suit, leader: Seat,
                 direction: Direction = Direction.CLOCKWISE) -> TrickDecision:
    """The winner of a complete or partial trick led by ``leader``, and why."""
    cards = _trick(cards)
    leader = argument_checks.seat(leader, "play.first-lead")
    direction = argument_checks.direction(direction)
    position = trick_winner(cards, trump)
    card = cards[position]
    # Cards are interned, so equal means identical: a twin in the trick brings in the tie rule.
    clauses = _TRICK_CLAUSES[card.suit is trump][cards.count(card) > 1]
    return TrickDecision(position, PLAY_ORDER[direction][leader][position], card, clauses)


#: The clauses behind a trick's decision, by (won by a trump?, the winner has a twin?).
_TRICK_CLAUSES: Final = {
    False: {False: cite("trick.highest-led"),
            True: cite("trick.highest-led", "trick.earliest-identical")},
    True: {False: cite("trick.highest-trump"),
           True: cite("trick.highest-trump", "trick.earliest-identical")},
}


def decision_at(leader: Seat, codes: Sequence[int], position: int, trump: int,
                order: tuple[tuple[Seat, ...], ...]) -> TrickDecision:
    """The decision of a trick of card codes whose winning ``position`` is known (the
    engine's step), with the clauses behind it (``trick.*``)."""
    code = codes[position]
    # TrickDecision(...), its tuple made at once (as its own __new__ makes it)
    return tuple.__new__(TrickDecision, (position, order[leader][position], CARDS[code],
                                         _TRICK_CLAUSES[SUIT_OF[code] == trump][codes.count(code) > 1]))


# --- the deal's result ---------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DealResult:
    """The tricks each side took, the winning side (``None`` for a draw) and why."""

    tricks: tuple[int, int]
    winner: Side | None
    closed_early: bool
    clauses: tuple[str, ...]

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def tricks_of(self, side: Side) -> int:
        return self.tricks[side]

    def __str__(self) -> str:
        ns, ew = self.tricks
        outcome = "draw" if self.winner is None else f"{self.winner} wins"
        return f"{ns}–{ew}, {outcome}" + (" (closed early)" if self.closed_early else "")


def deal_result(north_south: int, east_west: int, *, closed_early: bool = False,
                rules: Rules = Rules()) -> DealResult:
    """The result of a deal from each side's tricks.

    ``result.more-tricks-wins``; ``result.draw-18``; ``result.closed-early`` (a deal closed
    before its last trick is a draw; under ``early-close=known-result``, one closed when a
    side already has more than half the tricks, 19 or more, is that side's win, since no
    remaining trick can change it); ``result.tricks-add-up`` (a complete deal's tricks add
    to 36, a closed deal's to fewer); ``pack.tricks-only``: each trick counts one, whatever
    cards it holds, so only the counts are compared.

    >>> str(deal_result(17, 19))
    '17–19, East-West wins'

    Contract (checked by CrossHair)::

        raises: ResultError
        post: __return__.tricks == (north_south, east_west)
        post: north_south + east_west < 36 if closed_early else north_south + east_west == 36
        post: (__return__.winner is None) == (north_south == east_west or (closed_early and (rules.early_close == "draw" or max(north_south, east_west) <= 18)))
        post: __return__.winner is None or __return__.tricks[__return__.winner] > 18
    """
    argument_checks.flag(closed_early, "result.closed-early", "closed_early")
    if type(rules) is not Rules:
        rules = argument_checks.rules(rules)
    counts = (north_south, east_west)
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in counts):
        raise ResultError(f"trick counts must be whole numbers from 0, not {counts}")
    total = north_south + east_west
    if closed_early and total >= TRICKS_PER_DEAL:
        raise ResultError(f"{north_south}–{east_west} is a complete deal, not one closed early")
    if not closed_early and total != TRICKS_PER_DEAL:
        raise ResultError(f"{north_south}–{east_west} adds to {total}, not {TRICKS_PER_DEAL}")
    if closed_early:
        if rules.early_close == "known-result" and max(counts) > TRICKS_PER_DEAL // 2:
            winner = Side.NORTH_SOUTH if north_south > east_west else Side.EAST_WEST
            return DealResult(counts, winner, True, cite("result.closed-early", "result.more-tricks-wins"))
        return DealResult(counts, None, True, cite("result.closed-early"))
    if north_south == east_west:
        return DealResult(counts, None, False, cite("result.draw-18"))
    winner = Side.NORTH_SOUTH if north_south > east_west else Side.EAST_WEST
    return DealResult(counts, winner, False, cite("result.more-tricks-wins"))


# --- the next dealer -----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class NextDealer:
    """The next deal's dealer and the clause that chose it."""

    seat: Seat
    clauses: tuple[str, ...]


def next_dealer(dealer: Seat, winner: Side | None, rules: Rules = Rules()) -> NextDealer:
    """Who deals after ``dealer``'s deal was won by ``winner`` (``None`` for a draw).

    ``dealer.after-win``: the dealer's side won, so the deal passes to the other side, to
    the opponent next in the direction of play (or, with ``opponent-dealer=previous``,
    the other opponent).  ``dealer.after-loss``: lost, so the dealer's partner deals.
    ``dealer.after-draw``: a draw, so the same dealer deals again.

    Contract (checked by CrossHair)::

        post: (__return__.seat is dealer) == (winner is None)
        post: winner is None or __return__.seat.side is not winner
        post: winner is None or winner is not dealer.side or __return__.seat is next_seat(dealer, rules.direction) or rules.opponent_dealer == "previous"
        post: winner is None or winner is dealer.side or __return__.seat is dealer.partner
    """
    dealer = argument_checks.seat(dealer, "dealer.after-draw")
    winner = argument_checks.side(winner, "result.more-tricks-wins", none=True)
    argument_checks.rules(rules)
    if winner is None:
        return NextDealer(dealer, cite("dealer.after-draw"))
    if winner is not dealer.side:
        return NextDealer(dealer.partner, cite("dealer.after-loss"))
    following = next_seat(dealer, rules.direction)
    seat = following if rules.opponent_dealer == "next" else following.partner
    return NextDealer(seat, cite("dealer.after-win"))


# --- the first dealer ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class FirstDealer:
    """The first dealer, the cards shown in each round, and the clauses applied."""

    seat: Seat
    rounds: tuple[tuple[tuple[Seat, Card], ...], ...]
    clauses: tuple[str, ...]


def first_dealer(rounds: Iterable[Mapping[Seat, Card]]) -> FirstDealer:
    """The first dealer from the cards shown, round by round.

    ``dealer.first-draw``: each player is shown one card and the highest rank deals.
    ``pack.suits-equal``: suits do not break ties.  ``dealer.first-draw-ties``: players tied
    for the highest rank are shown another card each, and only they, until one is highest.
    A round that shows cards to anyone but the players still tied is refused, and so is a
    round given after the draw is decided: nobody is tied then, so nobody draws again.
    """
    contenders = set(Seat)
    rounds = _rounds(rounds)
    shown: list[tuple[tuple[Seat, Card], ...]] = []
    for shown_round in rounds:
        if len(contenders) == 1:
            raise FirstDealerError(
                f"the draw was decided for {next(iter(contenders))} after round {len(shown)}: "
                "nobody draws again")
        if set(shown_round) != contenders:
            raise FirstDealerError(
                "each round shows one card to each player still tied, and only to them: "
                f"expected {sorted(s.letter for s in contenders)}, got "
                f"{sorted(s.letter for s in shown_round)}")
        shown.append(tuple(sorted(shown_round.items())))
        top = max(card.rank for card in shown_round.values())
        contenders = {seat for seat, card in shown_round.items() if card.rank == top}
    if len(contenders) == 1:
        clauses = ["dealer.first-draw"] + (["dealer.first-draw-ties"] if len(shown) > 1 else [])
        return FirstDealer(next(iter(contenders)), tuple(shown), cite(*clauses))
    raise FirstDealerError(
        f"the draw is still tied between {sorted(s.letter for s in contenders)}: show them another card")


# --- the dealer's check --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PacketCheck:
    """Whether a deal as dealt stands, or must be dealt again, and why."""

    stands: bool
    reason: str
    hand_sizes: tuple[int, int, int, int]
    clauses: tuple[str, ...]


def check_packets(packets: Sequence[tuple[Seat, int | Sequence[Card]]], dealer: Seat, rules: Rules | None = None) -> PacketCheck:
    """The dealer's check on a deal as a person dealt it: a list of ``(seat, cards)`` packets.

    ``deal.dealer-check``: the deal stands only if it was dealt as ``deal.packets`` says,
    judged packet by packet: 48 packets, each of exactly three cards, going round the table
    one seat after another in the direction of play of ``rules`` (clockwise by default),
    starting with the seat after the dealer (each packet to the seat that had the packet
    four before it), the first round ending with the dealer's own packet.  At the table the dealer's last
    packet shows a fault; here every packet is judged, so a skipped, short or long packet
    anywhere voids the deal.  Then ``deal.redeal`` applies: the same dealer deals again from
    scratch.  The packet sizes may be given as counts or as sequences of cards.  The hand
    sizes are reported too, for the record.
    """
    packets, dealer = _packets(packets), argument_checks.seat(dealer, "deal.dealer-check")
    first_round = seats_from(dealer, (rules or Rules()).direction)[1:] + (dealer,)
    sizes = [0, 0, 0, 0]
    fault: str | None = None
    seats: list[Seat] = []
    for k, (seat, cards) in enumerate(packets):
        n = cards if isinstance(cards, int) else len(cards)
        sizes[seat] += n
        seats.append(seat)
        if fault is None and n != PACKET_SIZE:
            fault = f"packet {k + 1} (to {Seat(seat)}) holds {n} card(s), not three"
        elif fault is None and k >= 4 and seat != seats[k - 4]:
            fault = f"packet {k + 1} goes to {Seat(seat)}, out of turn (a packet was skipped)"
        elif fault is None and k < 4 and seat in seats[:k]:
            fault = f"packet {k + 1} goes to {Seat(seat)} a second time in the first round"

    hand_sizes = tuple(sizes)
    if fault is None and len(packets) != 144 // PACKET_SIZE:
        fault = f"{len(packets)} packets were dealt, not 48"
    if fault is None and seats[3] != dealer:
        fault = "the first round does not end with the dealer's own packet"
    if fault is None and tuple(seats[:4]) != first_round:
        fault = ("the first round does not go round in the direction of play from the dealer's "
                 f"left ({', '.join(str(s) for s in first_round)})")
    if fault is None:
        return PacketCheck(True, "every packet holds three cards, dealt in turn", hand_sizes,  # type: ignore[arg-type]
                           cite("deal.dealer-check"))
    return PacketCheck(False, f"{fault}: deal again", hand_sizes,  # type: ignore[arg-type]
                       cite("deal.dealer-check", "deal.redeal"))


# --- the arguments of these functions, checked once here (see turub.argument_checks) ---------------

def _hand(hand: object) -> list[Card]:
    return list(argument_checks.cards(hand, "play.card-in-hand", what="a hand"))


def _led(led: object) -> Suit | None:
    return argument_checks.suit(led, "play.follow-suit", none=True, text=False)


def _trick(cards: object) -> Sequence[Card]:
    """A trick so far: one to four cards, one a seat (``play.turn``)."""
    if isinstance(cards, (list, tuple)) and 1 <= len(cards) <= 4 and all(isinstance(c, Card) for c in cards):
        return cards
    return argument_checks.cards(cards, "pack.card-notation", what="a trick", at_least=1, at_most=4,
                           size_clause="play.turn")


def _rounds(rounds: object) -> Iterable[Mapping[Seat, Card]]:
    """Rounds of cards shown, each a mapping of seat to card (``dealer.first-draw``)."""
    if isinstance(rounds, (str, bytes, Mapping)) or not isinstance(rounds, Iterable):
        raise FirstDealerError(f"the draw is a sequence of rounds, not {rounds!r:.60}",
                               clause="dealer.first-draw")

    def checked() -> Iterable[Mapping[Seat, Card]]:
        for shown in rounds:  # type: ignore[union-attr]
            if not isinstance(shown, Mapping):
                raise FirstDealerError(f"a round maps each seat to the card shown, not {shown!r:.60}",
                                       clause="dealer.first-draw")
            yield {argument_checks.seat(seat, "dealer.first-draw"): argument_checks.card(card, "dealer.first-draw")
                   for seat, card in shown.items()}
    return checked()


def _packets(packets: object) -> list[tuple[Seat, int | Sequence[Card]]]:
    """Packets as dealt: ``(seat, cards)`` pairs, the cards a count or a sequence of cards."""
    checked = []
    for packet in argument_checks.sequence(packets, "deal.dealer-check", "the packets"):
        if not isinstance(packet, (list, tuple)) or len(packet) != 2:
            raise RuleError(f"a packet is a (seat, cards) pair, not {packet!r:.60}", clause="deal.dealer-check")
        seat, cards = packet
        seat = argument_checks.seat(seat, "deal.dealer-check")
        if type(cards) is not int:
            cards = argument_checks.cards(cards, "deal.dealer-check", what="a packet")
        elif cards < 0:
            raise RuleError(f"a packet holds a count of cards from 0, not {cards}", clause="deal.dealer-check")
        checked.append((seat, cards))
    return checked
