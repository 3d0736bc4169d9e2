"""An implementation of Arba'a Turub written from the spec alone, with one rule wrong on demand.

It imports nothing from the engine: cards are numbers 0-35 (suit-major, ace first), the deal
is a small state machine of its own.  ``Independent()`` is correct; ``Independent(bug)``
breaks exactly the one rule named in :data:`BUGS` (each entry: the clause it breaks and
what it does instead), everywhere that rule applies (the quick questions and the refereed
deals alike), so the kit's attribution is tested the way implementers' programs meet it.
"""

from __future__ import annotations

SEATS = "NESW"
SUITS = "SHDC"
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")
SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}  # outline too (the schema)

#: bug -> (the clause it breaks, what it does instead)
BUGS = {
    "later-copy-wins": ("trick.earliest-identical", "of identical cards the later one wins"),
    "off-suit-can-win": ("trick.highest-led", "without trump, the highest card of any suit wins"),
    "first-trump-wins": ("trick.highest-trump", "the first trump played wins, not the highest"),
    "must-overtake": ("play.no-forced-trump", "a follower able to beat the trick must"),
    "must-trump": ("play.no-forced-trump", "a void player holding trump must trump"),
    "void-may-not-trump": ("play.void-any-card", "a void player may not play trump"),
    "no-follow-suit": ("play.follow-suit", "any card may be played"),
    "not-held-accepted": ("play.card-in-hand", "a card not held is accepted"),
    "anyone-plays": ("play.turn", "any seat that has not played to the trick may play"),
    "winner-does-not-lead": ("play.winner-leads", "the seat after the last leader leads"),
    "dealer-leads": ("play.first-lead", "the dealer leads the first trick"),
    "play-before-trump": ("play.order-of-actions", "cards may be played before trump is named"),
    "packets-of-four": ("deal.packets", "cards are dealt in packets of four"),
    "no-cut": ("deal.cut", "the cut is ignored"),
    "caller-sees-second-packet": ("trump.three-cards", "the caller names trump on its second packet"),
    "dealer-calls": ("trump.caller", "the dealer names trump"),
    "trump-twice": ("trump.once", "trump may be named again"),
    "always-clockwise": ("table.direction", "play and deal always run clockwise"),
    "right-of-dealer-calls": ("table.left-of-dealer", "the seat before the dealer calls and leads"),
    "signal-from-anyone": ("signal.leader-only", "any player may signal"),
    "signal-any-time": ("signal.timing", "the leader may signal at any time during the trick"),
    "signal-twice": ("signal.once-per-trick", "the leader may signal twice"),
    "any-signal-word": ("signal.kinds", "any word is a signal"),
    "draw-to-dealer": ("result.draw-18", "18-18 goes to the dealer's side"),
    "closed-counts": ("result.closed-early", "a deal closed early goes to the side with more tricks"),
    "loss-passes-left": ("dealer.after-loss", "after a loss the next seat deals"),
    "draw-passes": ("dealer.after-draw", "after a draw the next seat deals"),
    "win-partner-deals": ("dealer.after-win", "after a win the dealer's partner deals"),
    "suits-break-ties": ("pack.suits-equal", "suits break ties in the draw (spades highest)"),
    "everyone-redraws": ("dealer.first-draw-ties", "after a tie everyone draws again"),
    "lowest-draw-deals": ("dealer.first-draw", "the lowest card shown deals"),
    "any-last-packet": ("deal.dealer-check", "the deal stands whatever the packets"),
    "equal-beats-mark": ("contest.insufficient-win", "a second win equal to the mark wins"),
    "draw-breaks-sequence": ("contest.draw-keeps-sequence", "a draw ends the sequence"),
    "other-side-keeps-mark": ("contest.other-side-resets", "the other side's win keeps the old mark"),
    "per-deal-ignored": ("stake.per-deal", "stake=per-deal is played as a contest"),
    "signal-before-kind": ("play.refusal-order", "a signal's seat is checked before its kind"),
    "card-before-turn": ("play.refusal-order", "a card not held is refused before a play out of turn"),
    # --- bugs only the clause-directed cases are sure to meet (issue 22) ----------------------
    "referee-lets-trump-revoke": ("play.follow-suit",
                                  "the referee accepts a trump from a player holding the led suit"),
    "referee-lets-third-suit": ("play.follow-suit",
                                "the referee accepts a card of a third suit from a player holding the led suit"),
    "no-trump-call": ("trump.any-suit", "a no-trump call (NT, no-trump, none) is accepted"),
    "strict-notation": ("pack.card-notation", "only AC/10H is read: T, lower case and symbols are refused"),
    "refusal-shuts-window": ("play.refusal-changes-nothing", "a refused action shuts the leader's signal window"),
    "refusal-passes-turn": ("play.refusal-changes-nothing", "a play refused for a card not held still passes the turn"),
    "refusal-spends-card": ("play.refusal-changes-nothing", "a card refused for not following suit leaves the hand"),
    "signal-before-lead": ("signal.timing", "the leader may signal before leading"),
    "jack-above-queen": ("pack.rank-order", "the jack ranks above the queen"),
    "nine-above-ten": ("pack.rank-order", "the nine ranks above the ten"),
    "turn-always-clockwise": ("play.turn", "the turn within a trick always passes clockwise"),
    "equal-mark-at-36": ("contest.unbeatable-mark", "a second 36-0 beats a mark of 36"),
    "per-deal-draw-keeps-winner": ("stake.per-deal", "under stake=per-deal a draw leaves the last winner standing"),
    "known-result-ignored": ("result.closed-early", "early-close=known-result is ignored"),
    "documented-ignored": ("signal.kinds", "signal-kinds=documented is ignored"),
    "previous-ignored": ("dealer.after-win", "opponent-dealer=previous is ignored"),
    "eighteen-to-ns": ("result.draw-18", "18-18 goes to North-South"),
    "signal-after-close": ("play.order-of-actions", "a signal after the close is accepted"),
    "closed-at-36": ("result.tricks-add-up", "a deal closed early may have 36 tricks"),
    "decided-continues": ("contest.decided-is-final", "a decided contest goes on taking results"),
    "mark-from-loser": ("contest.first-win-sets-mark", "the first win's mark is the loser's tricks"),
    "packets-any-order": ("deal.packets", "the first round of packets may go round in any order"),
    "second-close-accepted": ("play.order-of-actions", "a deal closed already may be closed again"),
    "empty-signal": ("signal.kinds", "a signal with no name is accepted"),
    "trump-lead-frees": ("play.follow-suit", "when trump is led a follower may play any card"),
    "short-win-wins-at-19": ("contest.insufficient-win", "a mark of 19 is beaten by any second win"),
}


class Refused(Exception):
    def __init__(self, clause: str) -> None:
        super().__init__(clause)
        self.clause = clause


STRICT = False  # the strict-notation bug: only the canonical ASCII names are read


def card_of(text) -> int:
    if not isinstance(text, str):
        raise Refused("pack.card-notation")
    if STRICT and (text != text.upper() or text[:1] == "T" or text[-1:] in SYMBOLS):
        raise Refused("pack.card-notation")
    t = text.strip().upper()
    suit = SYMBOLS.get(t[-1:], t[-1:])
    rank = "10" if t[:-1] == "T" else t[:-1]  # pack.card-notation: TH is the ten of hearts
    if suit not in SUITS or rank not in RANKS:
        raise Refused("pack.card-notation")
    return SUITS.index(suit) * 9 + RANKS.index(rank)


def name_of(card: int) -> str:
    return RANKS[card % 9] + SUITS[card // 9]


def suit_of(card: int) -> int:
    return card // 9


RANK_BUG = None  # a rank-order bug: (rank index, rank index) read swapped


def height(card: int) -> int:
    h = 8 - card % 9  # 8 for an ace, 0 for a six
    if RANK_BUG is not None and h in RANK_BUG:
        return RANK_BUG[1 - RANK_BUG.index(h)]
    return h


def seat_of(text) -> int:
    # A seat is one of the letters N E S W, nothing else (the guide's well-formed table).
    if isinstance(text, str) and len(text) == 1 and text in "NESW":
        return "NESW".index(text)
    raise Refused("table.partnerships")


def suit_letter(text) -> int:
    t = str(text).strip().upper()
    t = SYMBOLS.get(t, t)
    if t in SUITS and len(t) == 1:
        return SUITS.index(t)
    raise Refused("trump.any-suit")


def _in_bug(method):
    """Run ``method`` with the module-level readings its bug changes (card text, rank)."""
    import functools

    @functools.wraps(method)
    def run(self, *args, **kwargs):
        global STRICT, RANK_BUG
        STRICT = self.bug == "strict-notation"
        RANK_BUG = {"jack-above-queen": (6, 5), "nine-above-ten": (4, 3)}.get(self.bug)
        try:
            if STRICT and method.__name__ != "referee":
                try:
                    return method(self, *args, **kwargs)
                except Refused as e:  # a question it cannot read: it says so
                    from turub.conformance.adapter import ImplementationError
                    raise ImplementationError(f"cannot read a card: {e.clause}") from None
            return method(self, *args, **kwargs)
        finally:
            STRICT, RANK_BUG = False, None
    return run


class Independent:
    name = "independent"
    version = "1"

    def __init__(self, bug: str | None = None) -> None:
        assert bug is None or bug in BUGS, bug
        self.bug = bug
        self.name = f"independent-{bug or 'correct'}"

    def supports(self):
        return ["trick_winner", "legal_plays", "deal", "check_packets", "referee", "deal_result",
                "next_dealer", "first_dealer", "contest"]

    # --- seats --------------------------------------------------------------------------------
    def _step(self, rules) -> int:
        if self.bug == "always-clockwise":
            return 1
        return 3 if (rules or {}).get("direction") == "counterclockwise" else 1

    def _caller(self, dealer: int, rules) -> int:
        if self.bug == "dealer-calls":
            return dealer
        if self.bug == "right-of-dealer-calls":
            return (dealer - self._step(rules)) % 4
        return (dealer + self._step(rules)) % 4

    # --- tricks -------------------------------------------------------------------------------
    def _winner(self, cards: list[int], trump: int) -> int:
        best = 0
        for i in range(1, len(cards)):
            c, b = cards[i], cards[best]
            if suit_of(c) == suit_of(b):
                better = height(c) >= height(b) if self.bug == "later-copy-wins" else height(c) > height(b)
                if self.bug == "first-trump-wins" and suit_of(c) == trump:
                    better = False
                if better:
                    best = i
            elif suit_of(c) == trump:
                best = i
            elif self.bug == "off-suit-can-win" and suit_of(b) != trump and height(c) > height(b):
                best = i
        return best

    def _legal(self, hand: list[int], trick: list[int], trump: int | None) -> list[int]:
        distinct = sorted(set(hand))
        if not trick or self.bug == "no-follow-suit":
            return distinct
        led = suit_of(trick[0])
        following = [c for c in distinct if suit_of(c) == led]
        if following:
            if self.bug == "must-overtake" and not any(suit_of(c) == trump for c in trick[1:]):
                top = max(height(c) for c in trick if suit_of(c) == led)
                higher = [c for c in following if height(c) > top]
                return higher or following
            return following
        if trump is not None and self.bug == "must-trump":
            trumps = [c for c in distinct if suit_of(c) == trump]
            return trumps or distinct
        if trump is not None and self.bug == "void-may-not-trump":
            others = [c for c in distinct if suit_of(c) != trump]
            return others or distinct
        return distinct

    @_in_bug
    def trick_winner(self, cards, trump):
        return self._winner([card_of(c) for c in cards], suit_letter(trump))

    @_in_bug
    def legal_plays(self, hand, trick, trump=None):
        t = None if trump is None else suit_letter(trump)
        return [name_of(c) for c in self._legal([card_of(c) for c in hand], [card_of(c) for c in trick], t)]

    # --- dealing ------------------------------------------------------------------------------
    def _deal(self, pack, dealer: int, cut: int, rules):
        cards = [card_of(c) for c in pack]
        if self.bug != "no-cut":
            cards = cards[cut:] + cards[:cut]
        size = 4 if self.bug == "packets-of-four" else 3
        caller = self._caller(dealer, rules)
        hands: list[list[int]] = [[], [], [], []]
        seat = caller
        for p in range(0, 144, size):
            hands[seat].extend(cards[p:p + size])
            seat = (seat + self._step(rules)) % 4
        saw = cards[3:6] if self.bug == "caller-sees-second-packet" else cards[:3]
        return caller, saw, hands

    @_in_bug
    def deal(self, pack, dealer, cut, rules):
        caller, saw, hands = self._deal(pack, seat_of(dealer), cut, rules)
        return {"caller": SEATS[caller], "caller_saw": [name_of(c) for c in saw],
                "hands": {SEATS[s]: [name_of(c) for c in hands[s]] for s in range(4)}}

    @_in_bug
    def check_packets(self, packets, dealer):
        if self.bug == "any-last-packet":
            return {"stands": True}
        d = seat_of(dealer)
        seats = [seat_of(s) for s, _ in packets]
        sizes = [n if isinstance(n, int) else len(n) for _, n in packets]
        first_round = ([(d + k) % 4 for k in range(1, 5)],)  # deal.packets: clockwise from the dealer's left
        if self.bug == "packets-any-order":
            first_round = tuple([a, b, c, d] for a in range(4) for b in range(4) for c in range(4)
                                if len({a, b, c, d}) == 4)
        ok = (len(packets) == 48 and all(n == 3 for n in sizes) and seats[:4] in first_round
              and all(seats[k] == seats[k - 4] for k in range(4, 48)))
        return {"stands": ok}

    # --- results and dealers ------------------------------------------------------------------
    def _outcome(self, ns: int, ew: int, closed: bool, dealer: int | None = None, rules=None) -> str:
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (ns, ew)):
            raise Refused("result.tricks-add-up")
        if (closed and ns + ew > (36 if self.bug == "closed-at-36" else 35)) or (not closed and ns + ew != 36):
            raise Refused("result.tricks-add-up")
        known = (rules or {}).get("early-close") == "known-result" and (ns >= 19 or ew >= 19) \
            and self.bug != "known-result-ignored"
        if closed and not known and self.bug != "closed-counts":
            return "draw"
        if ns == ew:
            if self.bug == "draw-to-dealer" and dealer is not None:
                return "NS" if dealer % 2 == 0 else "EW"
            return "NS" if self.bug == "eighteen-to-ns" else "draw"
        return "NS" if ns > ew else "EW"

    @_in_bug
    def deal_result(self, ns, ew, closed_early, dealer=None):
        try:
            return {"outcome": self._outcome(ns, ew, closed_early, None if dealer is None else seat_of(dealer))}
        except Refused as e:
            return {"refused": e.clause}

    @_in_bug
    def next_dealer(self, dealer, outcome, rules):
        d = seat_of(dealer)
        if outcome == "draw":
            return SEATS[(d + self._step(rules)) % 4] if self.bug == "draw-passes" else SEATS[d]
        if outcome != ("NS" if d % 2 == 0 else "EW"):
            return SEATS[(d + self._step(rules)) % 4] if self.bug == "loss-passes-left" else SEATS[(d + 2) % 4]
        if self.bug == "win-partner-deals":
            return SEATS[(d + 2) % 4]
        nxt = (d + self._step(rules)) % 4
        previous = (rules or {}).get("opponent-dealer") == "previous" and self.bug != "previous-ignored"
        return SEATS[(nxt + 2) % 4 if previous else nxt]

    @_in_bug
    def first_dealer(self, rounds):
        contenders = [0, 1, 2, 3]
        try:
            for k, r in enumerate(rounds):
                shown = {seat_of(s): card_of(c) for s, c in r.items()}
                if sorted(shown) != contenders:
                    raise Refused("dealer.first-draw-ties")
                key = height if self.bug != "lowest-draw-deals" else (lambda c: -height(c))
                if self.bug == "suits-break-ties":
                    best = max(shown.values(), key=lambda c: (height(c), -suit_of(c)))
                    contenders = [next(s for s in shown if shown[s] == best)]
                else:
                    top = max(key(c) for c in shown.values())
                    contenders = sorted(s for s, c in shown.items() if key(c) == top)
                if len(contenders) == 1:
                    if k + 1 < len(rounds):  # nobody draws once the draw is decided
                        raise Refused("dealer.first-draw-ties")
                    return {"dealer": SEATS[contenders[0]]}
                if self.bug == "everyone-redraws":
                    contenders = [0, 1, 2, 3]
            raise Refused("dealer.first-draw-ties")
        except Refused as e:
            return {"refused": e.clause}

    @_in_bug
    def contest(self, results, rules, dealer=None):
        per_deal = (rules or {}).get("stake") == "per-deal" and self.bug != "per-deal-ignored"
        holder = mark = winner = None
        states = []
        d = None if dealer is None else seat_of(dealer)
        for ns, ew, closed in results:
            try:
                side = self._outcome(ns, ew, bool(closed), d, rules)
            except Refused as e:
                states.append({"refused": e.clause})
                continue
            if winner is not None and not (self.bug == "decided-continues" and not per_deal):
                holder = mark = winner = None  # contest.decided-is-final: the next result opens a new contest
                if per_deal and side == "draw" and self.bug == "per-deal-draw-keeps-winner":
                    winner = states[-1]["winner"]
            if side != "draw" and not (self.bug == "decided-continues" and winner is not None and not per_deal):
                tricks = ns if side == "NS" else ew
                if per_deal:
                    holder, mark, winner = None, None, side
                elif holder != side:
                    holder = side
                    if not (self.bug == "other-side-keeps-mark" and mark is not None):
                        mark = 36 - tricks if self.bug == "mark-from-loser" else tricks
                elif tricks > mark or (self.bug == "equal-beats-mark" and tricks == mark) or \
                        (self.bug == "equal-mark-at-36" and tricks == mark == 36) or \
                        (self.bug == "short-win-wins-at-19" and mark == 19):
                    winner = side
            elif self.bug == "draw-breaks-sequence" and not per_deal:
                holder = mark = None
            states.append({"holder": holder, "mark": mark, "winner": winner})
            if d is not None:
                d = seat_of(self.next_dealer(SEATS[d], side, rules))
        return states

    # --- the referee --------------------------------------------------------------------------
    @_in_bug
    def referee(self, pack, dealer, cut, rules, actions):
        table = _Table(self, pack, seat_of(dealer), cut, rules)
        responses = []
        for a in actions:
            try:
                table.apply(a)
                responses.append({"ok": True})
            except Refused as e:
                responses.append({"refused": e.clause})
        return {"responses": responses, "winners": [SEATS[w] for w in table.winners],
                "tricks": list(table.won), "outcome": table.outcome}


class _Table:
    """One deal being refereed."""

    def __init__(self, impl: Independent, pack, dealer: int, cut: int, rules) -> None:
        self.impl, self.rules, self.dealer = impl, rules, dealer
        self.caller, saw, self.full = impl._deal(pack, dealer, cut, rules)
        self.hands: list[list[int]] = [[], [], [], []]
        self.hands[self.caller] = list(saw)
        self.phase = "calling"
        self.trump: int | None = None
        self.leader = self.to_act = dealer if impl.bug == "dealer-leads" else self.caller
        self.trick: list[tuple[int, int]] = []
        self.signals = 0
        self.winners: list[int] = []
        self.won = [0, 0]
        self.outcome = None

    @property
    def bug(self):
        return self.impl.bug

    def apply(self, a) -> None:
        try:
            return self._apply(a)
        except Refused:
            if self.bug == "refusal-shuts-window" and len(self.trick) == 1:
                self.signals = 1
            raise

    def _apply(self, a) -> None:
        if not isinstance(a, dict):
            raise Refused("play.order-of-actions")
        kind = a.get("act")
        needs = {"trump": ("seat", "suit"), "play": ("seat", "card"), "signal": ("seat", "signal"),
                 "close": ("seat",)}
        if any(k not in a for k in needs.get(kind, ())):  # play.malformed-action: a missing field
            raise Refused("play.order-of-actions")
        if kind == "trump":
            return self.name_trump(seat_of(a.get("seat")), a.get("suit"))
        if kind == "play":
            return self.play(seat_of(a.get("seat")), a.get("card"))
        if kind == "signal":
            return self.signal(seat_of(a.get("seat")), a.get("signal"))
        if kind == "close":
            seat_of(a.get("seat"))
            if self.phase == "finished" and self.bug != "second-close-accepted":
                raise Refused("play.order-of-actions")
            if self.phase == "finished":
                return None
            return self.finish(closed=True)
        raise Refused("play.order-of-actions")

    def name_trump(self, seat: int, suit) -> None:
        if self.phase != "calling" and not (self.bug == "trump-twice" and self.phase == "playing"):
            raise Refused("trump.once" if self.trump is not None else "play.order-of-actions")
        if seat != self.caller:
            raise Refused("trump.caller")
        if self.bug == "no-trump-call" and str(suit).strip().upper() in ("NT", "NO-TRUMP", "NOTRUMP", "NONE"):
            self.trump = -1
        else:
            # A suit named trump is one of the letters S H D C (the guide's well-formed table).
            if not (isinstance(suit, str) and len(suit) == 1 and suit in "SHDC"):
                raise Refused("trump.any-suit")
            self.trump = "SHDC".index(suit)
        if self.phase == "calling":
            self.hands = [list(h) for h in self.full]
            self.phase = "playing"

    def play(self, seat: int, text) -> None:
        if self.phase != "playing" and not (self.bug == "play-before-trump" and self.phase == "calling"):
            raise Refused("play.order-of-actions")
        if self.bug == "card-before-turn":
            card = card_of(text)
            if card not in self.hands[seat]:
                raise Refused("play.card-in-hand")
        played = {s for s, _ in self.trick}
        if self.bug == "anyone-plays":
            if seat in played:
                raise Refused("play.turn")
        elif seat != self.to_act:
            raise Refused("play.turn")
        card = card_of(text)
        hand = self.hands[seat]
        if card not in hand and self.bug != "not-held-accepted":
            if self.bug == "refusal-passes-turn":
                self.to_act = (seat + self.impl._step(self.rules)) % 4
            raise Refused("play.card-in-hand")
        legal = self.impl._legal(hand, [c for _, c in self.trick], self.trump)
        if card in hand and card not in legal:
            led = suit_of(self.trick[0][1])
            if self.bug == "referee-lets-trump-revoke" and suit_of(card) == self.trump:
                pass
            elif self.bug == "referee-lets-third-suit" and suit_of(card) != self.trump:
                pass
            elif self.bug == "trump-lead-frees" and led == self.trump:
                pass
            elif any(suit_of(c) == led for c in hand) and suit_of(card) != led:
                if self.bug == "refusal-spends-card":
                    hand.remove(card)
                raise Refused("play.follow-suit")
            else:
                raise Refused("play.no-forced-trump")
        if card in hand:
            hand.remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            step = 1 if self.bug == "turn-always-clockwise" else self.impl._step(self.rules)
            self.to_act = (seat + step) % 4
            return
        at = self.impl._winner([c for _, c in self.trick], -1 if self.trump is None else self.trump)
        winner = self.trick[at][0]
        self.winners.append(winner)
        self.won[winner % 2] += 1
        last_leader = self.trick[0][0]
        self.trick, self.signals = [], 0
        self.leader = self.to_act = ((last_leader + self.impl._step(self.rules)) % 4
                                     if self.bug == "winner-does-not-lead" else winner)
        if len(self.winners) == 36:
            self.finish(closed=False)

    def signal(self, seat: int, kind) -> None:
        if self.phase == "finished" and self.bug == "signal-after-close":
            return
        if self.phase != "playing":
            raise Refused("play.order-of-actions")
        if self.bug == "signal-before-kind" and seat != self.leader:
            raise Refused("signal.leader-only")
        named = isinstance(kind, str) and (kind.strip() != "" or self.bug == "empty-signal")
        documented_only = (self.rules or {}).get("signal-kinds") == "documented" and self.bug != "documented-ignored"
        if self.bug != "any-signal-word" and (not named or (documented_only and kind not in ("knock", "click"))):
            raise Refused("signal.kinds")
        if seat != self.leader and self.bug != "signal-from-anyone":
            raise Refused("signal.leader-only")
        if len(self.trick) != 1 and not (self.bug == "signal-any-time" and self.trick) and \
                not (self.bug == "signal-before-lead" and not self.trick and seat == self.leader):
            raise Refused("signal.timing")
        if self.signals and self.bug != "signal-twice":
            raise Refused("signal.once-per-trick")
        self.signals += 1

    def finish(self, closed: bool) -> None:
        self.phase = "finished"
        self.to_act = None
        self.outcome = self.impl._outcome(self.won[0], self.won[1], closed, self.dealer, self.rules)
