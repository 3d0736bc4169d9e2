"""The referee's action streams: a deal played by the reference with illegal actions slipped in.

:func:`play_stream` plays a seeded deal and injects the kinds of illegal action in
:data:`INJECTIONS` and the actions that break two rules at once in :data:`PAIRS`
(``play.refusal-order``); :func:`rules_broken` says every rule an action breaks, each judged
on its own; :class:`RefereeTrace` keeps the expected answer and the clauses behind it in one
pass.  Split out of :mod:`~turub.conformance.questions.cases`, which re-exports these names.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from turub import CARDS, Deal, Phase, RuleError, Rules, Seat, parse_card
from turub.well_formed import SEAT_LETTERS, TRUMP_LETTERS
from turub.cards import card_name
from turub.deal import SIGNALS

from ..judging.variant_reference import deal_from_seed
from ..ruleset import variant_of

__all__ = ["INJECTIONS", "PAIRS", "rules_broken", "play_stream", "RefereeTrace"]

#: Signal kinds a table may use besides the documented knock and click (accepted unless
#: ``signal-kinds=documented``), and names that are no signal under any option.
_UNUSUAL_SIGNALS: Final = ("wink", "cough", "tap twice", "nod")
_NO_SIGNAL: Final = ("", " ", "\t")

SEATS = "NESW"
SUITS = "SHDC"


def as_text(card) -> str:
    return card_name(card, ascii=True)


#: Each card's :func:`as_text` by its code (the stream's plays, written without a call each).
_CARD_TEXT: Final = tuple(as_text(c) for c in CARDS)


#: The kinds of illegal action the stream generator slips in.
INJECTIONS: Final = ("out-of-turn", "not-held", "revoke", "signal-not-leader", "signal-late",
                     "signal-twice", "signal-unknown", "trump-twice", "trump-wrong-seat",
                     "play-before-trump", "bad-card", "after-close")

#: Actions that break two rules at once (``play.refusal-order``): every pair one action can
#: break together, so that a referee naming them in another order is caught.
PAIRS: Final = ("turn+held", "turn+notation", "turn+revoke", "held+revoke", "order+turn",
                "order+held", "after-close+turn", "once+caller", "caller+suit", "once+suit",
                "kinds+leader", "kinds+timing", "kinds+twice", "leader+timing", "leader+twice",
                "timing+twice", "order+kinds")


def rules_broken(deal: Deal, action: Mapping[str, Any]) -> list[str]:
    """Every rule ``action`` breaks in ``deal`` now, each judged on its own (whatever the
    order of refusals would name first)."""
    broken: list[str] = []
    kind = action.get("act")
    seat_text = action.get("seat")
    seat = Seat(SEAT_LETTERS.index(seat_text)) if seat_text in SEAT_LETTERS else None
    phase = deal.phase
    if kind == "trump":
        if phase is not Phase.CALLING:
            broken.append("trump.once" if deal.trump is not None else "play.order-of-actions")
        if seat != deal.caller:
            broken.append(deal.caller_clause)  # trump.caller, or the house clause that chose the caller
        if action.get("suit") not in TRUMP_LETTERS:
            broken.append("trump.any-suit")
        return broken
    if kind == "play":
        if phase is not Phase.PLAYING:
            broken.append("play.order-of-actions")
        if seat != (deal.to_act if phase is Phase.PLAYING else deal.caller):
            broken.append("play.turn")
        try:
            card = parse_card(action.get("card"))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - text that is no card
            return broken + ["pack.card-notation"]
        if seat is not None and not deal.holds(seat, card):
            broken.append("play.card-in-hand")
        trick = deal.current_trick
        if seat is not None and phase is Phase.PLAYING and trick:
            led = trick[0][1].suit
            if card.suit is not led and any(c.suit is led for c in deal.hand(seat)):
                broken.append("play.follow-suit")
        return broken
    if kind == "signal":
        bad_kind = not _signal_kind_ok(deal, action.get("signal"))
        if phase is not Phase.PLAYING:
            return ["play.order-of-actions"] + (["signal.kinds"] if bad_kind else [])
        if bad_kind:
            broken.append("signal.kinds")
        if seat is None or bad_kind:  # a variant's rule is asked only of a well-formed signal
            if seat != deal.leader:
                broken.append("signal.leader-only")
        elif (refused := deal.may_signal(seat, action["signal"])) is not None:
            broken.append(refused)  # who may signal: the deal's hook (a variant's rule)
        if len(deal.current_trick) != 1:
            broken.append("signal.timing")
        if deal.view(deal.leader).signal is not None:
            broken.append("signal.once-per-trick")
        return broken
    if kind == "close" and phase is Phase.FINISHED:
        return ["play.order-of-actions"]
    return broken


def _signal_kind_ok(deal: Deal, kind: Any) -> bool:
    """``signal.kinds``: a non-empty name; only the knock or the click under
    ``signal-kinds=documented``."""
    if not isinstance(kind, str) or not kind.strip():
        return False
    return kind in SIGNALS or deal.rules.signal_kinds != "documented"


def _bad_kind(deal: Deal, rng: random.Random) -> str:
    """A signal kind ``deal`` refuses (``signal.kinds``) under its options."""
    return rng.choice(_UNUSUAL_SIGNALS if deal.rules.signal_kinds == "documented" else _NO_SIGNAL)


def _pair(deal: Deal, kind: str, rng: random.Random) -> dict | None:
    """An action breaking both rules of ``kind`` now, or None if there is none yet."""
    action = _pair_out_of_play(deal, kind, rng)
    if action is not None:
        return action
    if deal.phase is not Phase.PLAYING or deal.to_act is None:
        return None
    if kind in ("turn+held", "turn+notation") or (kind in ("turn+revoke", "held+revoke")
                                                  and deal.current_trick):
        return _pair_of_plays(deal, kind, rng)
    return _pair_of_signals(deal, kind, rng)


def _pair_out_of_play(deal: Deal, kind: str, rng: random.Random) -> dict | None:
    """The pairs of ``kind`` while trump is called, after the close, or a second trump in play
    (None: ``kind`` is none of them, or not now)."""
    phase = deal.phase
    if kind == "order+turn" and phase is Phase.CALLING:
        seat = rng.choice([s for s in Seat if s != deal.caller])
        return {"act": "play", "seat": seat.letter, "card": "AS"}
    if kind == "order+held" and phase is Phase.CALLING:
        missing = [c for c in CARDS if not deal.holds(deal.caller, c)]
        return {"act": "play", "seat": deal.caller.letter, "card": as_text(rng.choice(missing))}
    if kind == "order+kinds" and phase is Phase.CALLING:
        return {"act": "signal", "seat": deal.caller.letter, "signal": _bad_kind(deal, rng)}
    if kind == "after-close+turn" and phase is Phase.FINISHED:
        return {"act": "play", "seat": rng.choice(SEATS), "card": "ZZ"}
    if kind == "caller+suit" and phase is Phase.CALLING:
        seat = rng.choice([s for s in Seat if s != deal.caller])
        return {"act": "trump", "seat": seat.letter, "suit": "X"}
    if kind == "once+caller" and phase is Phase.PLAYING:
        seat = rng.choice([s for s in Seat if s != deal.caller])
        return {"act": "trump", "seat": seat.letter, "suit": rng.choice(SUITS)}
    if kind == "once+suit" and phase is Phase.PLAYING:
        return {"act": "trump", "seat": deal.caller.letter, "suit": "X"}
    return None


def _pair_of_plays(deal: Deal, kind: str, rng: random.Random) -> dict | None:
    """The plays of ``kind`` (turn+held, turn+notation, turn+revoke, held+revoke) in play."""
    to_act, trick = deal.to_act, deal.current_trick
    if to_act is None:  # the caller checked: a deal in play has a seat to act
        raise ValueError("no seat to act in a deal in play")
    others = [s for s in Seat if s != to_act]
    if kind == "turn+held":
        seat = rng.choice(others)
        missing = [c for c in CARDS if not deal.holds(seat, c)]
        return missing and {"act": "play", "seat": seat.letter, "card": as_text(rng.choice(missing))}  # type: ignore[return-value]
    if kind == "turn+notation":
        return {"act": "play", "seat": rng.choice(others).letter, "card": rng.choice(("ZZ", "1H", "11S"))}
    if kind == "turn+revoke":
        led = trick[0][1].suit
        played = {s for s, _ in trick}
        for seat in [s for s in others if s not in played]:
            hand = deal.hand(seat)
            off = [c for c in hand if c.suit is not led]
            if off and any(c.suit is led for c in hand):
                return {"act": "play", "seat": seat.letter, "card": as_text(rng.choice(off))}
        return None
    led = trick[0][1].suit  # held+revoke
    if any(c.suit is led for c in deal.hand(to_act)):
        missing = [c for c in CARDS if c.suit is not led and not deal.holds(to_act, c)]
        return missing and {"act": "play", "seat": to_act.letter, "card": as_text(rng.choice(missing))}  # type: ignore[return-value]
    return None


def _pair_of_signals(deal: Deal, kind: str, rng: random.Random) -> dict | None:
    """The signals of ``kind`` in play (kinds, leader, timing, twice: two of them at once)."""
    trick = deal.current_trick
    leader = deal.leader
    not_leader = rng.choice([s for s in Seat if s != leader]).letter

    def signalled() -> bool:  # read only when a kind needs it: a view is costly
        return deal.view(leader).signal is not None

    if kind == "kinds+leader" and len(trick) == 1:
        return {"act": "signal", "seat": not_leader, "signal": _bad_kind(deal, rng)}
    if kind == "kinds+timing" and len(trick) >= 2:
        return {"act": "signal", "seat": leader.letter, "signal": _bad_kind(deal, rng)}
    if kind == "kinds+twice" and len(trick) == 1 and signalled():
        return {"act": "signal", "seat": leader.letter, "signal": _bad_kind(deal, rng)}
    if kind == "leader+timing" and len(trick) >= 2:
        return {"act": "signal", "seat": not_leader, "signal": "knock"}
    if kind == "leader+twice" and len(trick) == 1 and signalled():
        return {"act": "signal", "seat": not_leader, "signal": "click"}
    if kind == "timing+twice" and len(trick) >= 2 and signalled():
        return {"act": "signal", "seat": leader.letter, "signal": "knock"}
    return None


def _illegal(deal: Deal, kind: str, rng: random.Random) -> dict | None:
    """An action of ``kind`` that the deal refuses now, or None if there is none."""
    if "+" in kind:
        return _pair(deal, kind, rng)
    to_act = deal.to_act
    if kind == "trump-wrong-seat" and deal.phase is Phase.CALLING:
        seat = rng.choice([s for s in Seat if s != deal.caller])
        return {"act": "trump", "seat": seat.letter, "suit": rng.choice(SUITS)}
    if kind == "play-before-trump" and deal.phase is Phase.CALLING:
        held = deal.hand(deal.caller)
        return {"act": "play", "seat": deal.caller.letter, "card": as_text(held[0])}
    if kind == "after-close" and deal.phase is Phase.FINISHED:
        seat = rng.choice(list(Seat))
        return rng.choice([{"act": "play", "seat": seat.letter, "card": "AS"},
                           {"act": "close", "seat": seat.letter},
                           {"act": "signal", "seat": seat.letter, "signal": "knock"}])
    if deal.phase is not Phase.PLAYING or to_act is None:
        return None
    trick = deal.current_trick
    if kind == "out-of-turn":
        seat = rng.choice([s for s in Seat if s != to_act])
        return {"act": "play", "seat": seat.letter, "card": as_text(rng.choice(deal.hand(seat)))}
    if kind == "not-held":
        missing = [c for c in CARDS if not deal.holds(to_act, c)]
        return missing and {"act": "play", "seat": to_act.letter, "card": as_text(rng.choice(missing))}  # type: ignore[return-value]
    if kind == "revoke" and trick:
        led = trick[0][1].suit
        hand = deal.hand(to_act)
        off = [c for c in hand if c.suit is not led]
        if off and any(c.suit is led for c in hand):
            return {"act": "play", "seat": to_act.letter, "card": as_text(rng.choice(off))}
        return None
    if kind == "signal-not-leader" and len(trick) == 1:
        seat = rng.choice([s for s in Seat if s != deal.leader])
        return {"act": "signal", "seat": seat.letter, "signal": rng.choice(list(SIGNALS))}
    if kind == "signal-late" and len(trick) >= 2:
        return {"act": "signal", "seat": deal.leader.letter, "signal": rng.choice(list(SIGNALS))}
    if kind == "signal-twice" and len(trick) == 1 and deal.view(deal.leader).signal is not None:
        return {"act": "signal", "seat": deal.leader.letter, "signal": rng.choice(list(SIGNALS))}
    if kind == "signal-unknown" and len(trick) == 1:
        return {"act": "signal", "seat": deal.leader.letter, "signal": _bad_kind(deal, rng)}
    if kind == "trump-twice":
        return {"act": "trump", "seat": deal.caller.letter, "suit": rng.choice(SUITS)}
    if kind == "bad-card":
        return {"act": "play", "seat": to_act.letter, "card": rng.choice(("ZZ", "1H", "AX", "11S"))}
    return None


def play_stream(seed: int, dealer: str, rules: Rules, tricks: int, choices: list[int] = (),  # type: ignore[assignment]
                signal_rate: float = 0.3, inject: list[tuple[int, str]] = (),  # type: ignore[assignment]
                close_at: int | None = None, rng: random.Random | None = None,
                default_pick: int | None = None, finished: list | None = None,
                signals: tuple[str, ...] = tuple(SIGNALS)) -> dict:
    """The referee arguments of a deal of seeded legal play, with illegal actions slipped in.

    ``tricks`` tricks are played (legal plays chosen by ``choices`` in turn, else by ``rng``),
    ``inject`` puts an illegal action of a kind before action number ``i``, and ``close_at``
    closes the deal after that many tricks; a leader's signal is one of ``signals``.
    """
    rng = rng or random.Random(seed)
    deal = deal_from_seed(rules, seed, Seat("NESW".index(dealer)))  # played by the variant
    args = {"pack": [as_text(c) for c in deal.pack], "dealer": dealer, "cut": deal.cut}
    actions: list[dict] = []
    pending = sorted(inject)
    picks = iter(choices)
    trace = RefereeTrace(deal)

    def act(action: dict, card: Any = None) -> None:
        actions.append(action)
        trace.apply(action, card)

    def injections() -> None:
        # an injection waits until the deal reaches a moment where it is possible; ``pending``
        # stays sorted, so none is due while the first is not
        if not pending or pending[0][0] > len(actions):
            return
        for item in [p for p in pending if p[0] <= len(actions)]:
            bad = _illegal(deal, item[1], rng)
            if bad:
                pending.remove(item)
                act(bad)

    injections()
    act({"act": "trump", "seat": deal.caller.letter, "suit": SUITS[rng.randrange(4)]})
    # Under a variant that decides the legal plays, held cards it forbids are slipped in
    # too (drawn apart, so the standard game's streams stay as they are).
    slip = random.Random(f"{seed}/variant") if variant_of(rules) and rules.decides("legal_plays") else None  # type: ignore[attr-defined]
    while deal.phase is Phase.PLAYING and len(trace.winners) < tricks:
        injections()
        legal = deal.legal_plays()
        if slip is not None and slip.random() < 0.3:
            forbidden = sorted(set(deal.hand(deal.to_act)) - set(legal), key=lambda c: c.index)
            if forbidden:
                act({"act": "play", "seat": deal.to_act.letter, "card": as_text(slip.choice(forbidden))})
        pick = next(picks, default_pick)
        card = legal[pick % len(legal)] if pick is not None else rng.choice(legal)
        seat = deal.to_act
        leading = seat is deal.leader  # (a trick is completed at its fourth card)
        act({"act": "play", "seat": SEATS[seat], "card": _CARD_TEXT[card.index]}, card)
        if leading and rng.random() < signal_rate:
            act({"act": "signal", "seat": SEATS[seat], "signal": rng.choice(signals)})
    injections()
    if close_at is not None and deal.phase is Phase.PLAYING:
        act({"act": "close", "seat": rng.choice(SEATS)})
    injections()
    args["actions"] = actions
    if finished is not None:
        finished.append(deal)
        finished.append(trace)
    return args


def traced_stream(*args: Any, **kwargs: Any) -> tuple[dict, RefereeTrace]:
    """:func:`play_stream`'s arguments and the reference's trace of the deal it played."""
    end: list = []
    played = play_stream(*args, finished=end, **kwargs)  # type: ignore[misc]
    return played, end[1]


def referee_inputs(rng: random.Random, n: int, rules: Rules, rare: int = 2
                    ) -> Iterator[tuple[str, tuple[dict, RefereeTrace]]]:
    """The seeded streams for the referee, each with the reference's trace of it."""
    yield "full-deal", traced_stream(rng.getrandbits(32), "N", rules, 36, rng=rng)
    yield "full-deal-many-signals", traced_stream(rng.getrandbits(32), "E", rules, 36,
                                            signal_rate=0.9, rng=rng)
    yield "closed-early", traced_stream(rng.getrandbits(32), "S", rules, 20, close_at=20, rng=rng)
    yield "closed-before-first-trick", traced_stream(rng.getrandbits(32), "W", rules, 0, close_at=0, rng=rng)
    # signals of kinds other than the documented two: accepted unless signal-kinds=documented
    yield "unusual-signals", traced_stream(rng.getrandbits(32), "N", rules, 12, signal_rate=0.8, rng=rng,
                                     signals=_UNUSUAL_SIGNALS + tuple(SIGNALS))
    for j, kind in enumerate(INJECTIONS):
        where = {"trump-wrong-seat": 0, "play-before-trump": 0}.get(kind)
        for k in range(2):
            at = where if where is not None else rng.randint(2, 14)
            seed = rng.getrandbits(32)
            close = 3 if kind == "after-close" else None
            yield f"illegal-{kind}-{k}", traced_stream(
                seed, SEATS[(j + k) % 4], rules, 4, inject=[(at, kind)], close_at=close, rng=rng)
    for j, kind in enumerate(PAIRS):
        at = 0 if kind in ("order+turn", "order+held", "order+kinds", "caller+suit") else rng.randint(2, 14)
        seed = rng.getrandbits(32)
        close = 2 if kind == "after-close+turn" else None
        yield f"order-{kind}", traced_stream(seed, SEATS[j % 4], rules, 3, inject=[(at, kind)],
                                       close_at=close, rng=rng, signal_rate=0.6)
    yield from rare_deals(rng, rare, rules)
    for i in range(n):
        seed = rng.getrandbits(32)
        kinds = [(rng.randint(0, 40), rng.choice(INJECTIONS)) for _ in range(rng.randint(0, 3))]
        yield f"r{i:03d}", traced_stream(seed, rng.choice(SEATS), rules, rng.choice((3, 6, 36)),
                                   inject=kinds, rng=rng)


def rare_deals(rng: random.Random, n: int, rules: Rules
                ) -> Iterator[tuple[str, tuple[dict, RefereeTrace]]]:
    """Deals that luck seldom plays: ``n`` full deals ending 18-18 (about one in eight does),
    and deals closed early, one with a side already past 18 tricks.  Found by playing seeded
    deals until one ends as wanted: built on purpose, never left to chance."""
    def search(want: Callable[[Deal], bool], tricks: int, close: bool) -> tuple[dict, RefereeTrace]:
        while True:
            seed = rng.getrandbits(32)
            end: list = []
            args = play_stream(seed, rng.choice(SEATS), rules, tricks, rng=random.Random(seed),
                               signal_rate=0.2, close_at=tricks if close else None, finished=end)
            if want(end[0]):
                return args, end[1]
    for k in range(n):
        yield f"eighteen-all-{k}", search(lambda d: d.tricks_won == (18, 18), 36, False)
    yield "closed-past-18", search(lambda d: max(d.tricks_won) > 18, 30, True)
    yield "closed-level", search(lambda d: d.tricks_won[0] == d.tricks_won[1], 24, True)


class RefereeTrace:
    """The reference refereeing a deal action by action, keeping what the kit needs in one
    pass: the expected answer (responses, trick winners, tricks, outcome) and the ``why``
    (the clauses behind each action and trick, the rules an illegal action breaks)."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.responses: list[dict] = []
        self.actions: list[list[str]] = []
        self.tricks: list[list] = []
        self.winners: list[str] = []
        self.broken: list[list[str]] = []
        self._led: Any = None  # the suit led to the current trick

    def apply(self, action: Any, card: Any = None) -> None:
        """Referee ``action``; ``card``: its card already parsed (a play the caller made)."""
        deal = self.deal
        i = len(self.responses)
        # while cards are played, the seat to act leads exactly when the trick is empty
        leading = deal.to_act is deal.leader
        led = None if leading else self._led
        try:
            done = deal.apply(action) if card is None else deal.play(deal.to_act, card)  # type: ignore[arg-type]
        except RuleError as e:
            self.responses.append({"refused": e.clause})
            self.actions.append([e.clause])
            also = rules_broken(deal, action) if isinstance(action, Mapping) else []
            self.broken.append(also if len(also) > 1 else [])
            return
        self.responses.append({"ok": True})
        self.broken.append([])
        kind = action["act"]
        if kind == "trump":
            self.actions.append(["trump.caller", "trump.any-suit"])
        elif kind == "play":
            card = card if card is not None else parse_card(action["card"])
            if leading:
                self._led = card.suit
            # accepted: of the led suit (or a lead) it followed; of another, the player was void
            clauses = ["play.turn", "play.follow-suit" if led is None or card.suit is led
                       else "play.void-any-card"]
            if leading:
                clauses.append("play.first-lead" if not self.winners else "play.winner-leads")
            self.actions.append(clauses)
            if done is not None:
                self.tricks.append([i, list(done.clauses)])
                self.winners.append(done.seat.letter)
        elif kind == "signal":
            self.actions.append(["signal.leader-only", "signal.timing", "signal.kinds"])
        else:
            self.actions.append(["sheet.any-player-closes", "result.closed-early"])

    def expected(self) -> dict:
        result = self.deal.result
        return {"responses": self.responses, "winners": list(self.winners),
                "tricks": list(self.deal.tricks_won),
                "outcome": None if result is None else ("draw" if result.winner is None else result.winner.short)}

    def why(self) -> tuple[dict, list[str]]:
        result = self.deal.result
        clauses_r = list(result.clauses) if result else []
        if result and not result.closed_early:
            clauses_r.append("play.all-tricks")
        why = {"actions": self.actions, "tricks": self.tricks, "result": clauses_r}
        if any(self.broken):
            why["broken"] = self.broken
        clauses = {c for a in self.actions for c in a} | {c for _, cs in self.tricks for c in cs} | set(clauses_r)
        clauses |= {"play.refusal-order"} if any(self.broken) else set()
        clauses |= {"table.partnerships"} if self.tricks else set()
        return why, sorted(clauses)
