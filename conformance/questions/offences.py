"""The refusals of the clause-directed cases: each offending action, at each moment of a deal.

:func:`all_offences` is the table of offences (the clause each breaks, the moment it fits:
before trump, at a lead, in the signal window, while following, late in a trick, after a
signal, after the close); :func:`refusal_streams` plays seeded deals to that moment, slips the
offence in and continues legally, so that the next actions show whether the refusal changed
nothing.  The notations accepted and refused and the non-suits named trump are here too.
Split out of :mod:`~turub.conformance.questions.directed`, which re-exports these names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from turub import CARDS, Phase, Rules, Seat
from turub.cards import card_name
from turub.well_formed import input_class

from ..judging.variant_reference import deal_from_seed
from .cases import RefereeTrace

__all__ = ["ACCEPTED_NOTATIONS", "REFUSED_NOTATIONS", "NON_SUITS", "ACCEPTED_SEATS", "REFUSED_SEATS",
           "Offence"]

#: Seeds of the deals the refusal streams play (fixed: the cases never depend on --seed).
OFFENCE_SEEDS: Final = tuple(range(7001, 7061))

# What is read and what is refused comes from the one definition (turub.well_formed); the
# forms below write each accepted spelling from the canonical ASCII name (``AS``/``10H``).
#: Card texts ``pack.card-notation`` accepts, by the form each is written in.
ACCEPTED_NOTATIONS: Final[dict[str, Callable[[str], str]]] = {
    "ascii": lambda a: a,
    "symbol": lambda a: a[:-1] + "♠♥♦♣"["SHDC".index(a[-1])],
    "outline-symbol": lambda a: a[:-1] + "♤♡♢♧"["SHDC".index(a[-1])],
    "t-for-ten": lambda a: "T" + a[-1] if a.startswith("10") else a,
    "lower-case": lambda a: a.lower(),
    "lower-t": lambda a: ("t" + a[-1] if a.startswith("10") else a).lower(),
    "spaces-around": lambda a: f" {a} ",
}
#: Texts that are no card (``pack.card-notation`` refuses them).
REFUSED_NOTATIONS: Final = input_class("card-text").refused
#: Seat texts the referee reads in an action (``table.partnerships``): the letter alone.
ACCEPTED_SEATS: Final[dict[str, Callable[[str], str]]] = {"initial": lambda s: s}
#: Seat texts that are no seat in an action: a name, another case, spaces, a part of a name.
REFUSED_SEATS: Final = input_class("action-seat").refused
#: Things named trump that are not a suit's letter (``trump.any-suit``): a no-trump call,
#: a symbol, a lower-case letter, a suit's name.
NON_SUITS: Final = input_class("trump-suit").refused


def as_text(card: Any) -> str:
    return card_name(card, ascii=True)


# --- refusals in the referee -----------------------------------------------------------------

#: An offending action: (name, clause it breaks, moment, builder(deal) -> action or None).
#: The moments: ``calling`` (before trump), ``lead`` (a trick to lead), ``window`` (the
#: leader has led, no signal yet), ``follow`` (a follower to play), ``late`` (two cards or
#: more in the trick), ``signalled`` (the leader has signalled), ``closed`` (after the close),
#: ``closed-before-trump`` (after a close before trump was named).
Offence = tuple[str, str, str, Callable[[Any], "dict | None"]]


def _others(deal: Any, seat: Seat) -> list[Seat]:
    return [s for s in Seat if s != seat]


def _missing(deal: Any, seat: Seat) -> str:
    return as_text(next(c for c in CARDS if not deal.holds(seat, c)))


def _led(deal: Any) -> Any:
    return deal.current_trick[0][1].suit


def _off_card(deal: Any, want_trump: bool) -> "dict | None":
    """The player to act, holding the led suit, plays a trump (``want_trump``) or a card of
    a third suit instead: ``play.follow-suit``."""
    seat, led, trump = deal.to_act, _led(deal), deal.trump
    hand = deal.hand(seat)
    if led is trump or not any(c.suit is led for c in hand):
        return None
    off = [c for c in hand if (c.suit is trump) == want_trump and c.suit is not led]
    return {"act": "play", "seat": seat.letter, "card": as_text(off[0])} if off else None


def all_offences() -> list[Offence]:
    play = lambda seat, card: {"act": "play", "seat": seat.letter, "card": card}  # noqa: E731
    signal = lambda seat, kind: {"act": "signal", "seat": seat.letter, "signal": kind}  # noqa: E731
    out: list[Any] = [  # Offences, and None where an offence is built elsewhere
        ("caller-plays-before-trump", "play.order-of-actions", "calling",
         lambda d: play(d.caller, as_text(d.hand(d.caller)[0]))),
        ("other-plays-before-trump", "play.order-of-actions", "calling",
         lambda d: play(_others(d, d.caller)[1], "AS")),
        ("signal-before-trump", "play.order-of-actions", "calling", lambda d: signal(d.caller, "knock")),
        ("close-then-trump", "play.order-of-actions", "closed-before-trump",
         lambda d: {"act": "trump", "seat": d.caller.letter, "suit": "S"}),
        ("close-then-play", "play.order-of-actions", "closed-before-trump", lambda d: play(d.caller, "AS")),
        ("close-then-signal", "play.order-of-actions", "closed-before-trump", lambda d: signal(d.caller, "knock")),
        ("close-then-close", "play.order-of-actions", "closed-before-trump",
         lambda d: {"act": "close", "seat": d.caller.letter}),
        ("lead-not-held", "play.card-in-hand", "lead", lambda d: play(d.to_act, _missing(d, d.to_act))),
        ("signal-before-the-lead", "signal.timing", "lead", lambda d: signal(d.to_act, "knock")),
        ("second-trump-by-caller", "trump.once", "lead", lambda d: {"act": "trump", "seat": d.caller.letter,
                                                                     "suit": "SHDC"[(int(d.trump) + 1) % 4]}),
        ("second-trump-by-other", "trump.once", "lead", lambda d: {"act": "trump",
                                                                    "seat": _others(d, d.caller)[0].letter,
                                                                    "suit": "SHDC"[int(d.trump)]}),
        ("in-window-out-of-turn", "play.turn", "window",
         lambda d: play(_after(d, 2), as_text(d.hand(_after(d, 2))[0]))),
        ("in-window-not-held", "play.card-in-hand", "window", lambda d: play(d.to_act, _missing(d, d.to_act))),
        ("in-window-signal-by-follower", "signal.leader-only", "window", lambda d: signal(d.to_act, "knock")),
        ("in-window-signal-by-partner", "signal.leader-only", "window", lambda d: signal(_after(d, 1), "click")),
        ("in-window-signal-no-kind", "signal.kinds", "window", lambda d: signal(d.leader, "")),
        ("in-window-not-a-card", "pack.card-notation", "window", lambda d: play(d.to_act, "ZZ")),
        ("trump-holding-led-suit", "play.follow-suit", "follow", lambda d: _off_card(d, True)),
        ("third-suit-holding-led-suit", "play.follow-suit", "follow", lambda d: _off_card(d, False)),
        ("follow-not-held", "play.card-in-hand", "follow", lambda d: play(d.to_act, _missing(d, d.to_act))),
        ("signal-late", "signal.timing", "late", lambda d: signal(d.leader, "knock")),
        ("signal-twice", "signal.once-per-trick", "signalled", lambda d: signal(d.leader, "click")),
        ("play-after-close", "play.order-of-actions", "closed", lambda d: play(d.dealer, "AS")),
        ("signal-after-close", "play.order-of-actions", "closed", lambda d: signal(d.dealer, "knock")),
        ("close-after-close", "play.order-of-actions", "closed", lambda d: {"act": "close", "seat": "N"}),
        ("trump-after-close", "trump.once", "closed", lambda d: {"act": "trump", "seat": d.caller.letter,
                                                                  "suit": "S"}),
    ]
    for moment in ("calling", "lead"):  # play.malformed-action, before trump and at a lead
        out += [
            (f"{moment}-unknown-act", "play.malformed-action", moment,
             lambda d: {"act": "pass", "seat": (d.to_act or d.caller).letter}),
            (f"{moment}-play-without-card", "play.malformed-action", moment,
             lambda d: {"act": "play", "seat": (d.to_act or d.caller).letter}),
            (f"{moment}-play-without-seat", "play.malformed-action", moment,
             lambda d: {"act": "play", "card": as_text(d.hand(d.to_act or d.caller)[0])}),
            (f"{moment}-unknown-seat", "play.malformed-action", moment,
             lambda d: {"act": "play", "seat": "X", "card": "AS"}),
        ]
    # play.malformed-action: an action of each other kind, at a moment it is legal, without
    # each field it needs (a play without its card or seat is above)
    well_formed = {"trump": ("calling", lambda d: {"act": "trump", "seat": d.caller.letter, "suit": "H"}),
                   "signal": ("window", lambda d: signal(d.leader, "knock")),
                   "close": ("lead", lambda d: {"act": "close", "seat": d.dealer.letter})}
    for kind, (moment, build) in well_formed.items():
        for field in {"trump": ("seat", "suit"), "signal": ("seat", "signal"), "close": ("seat",)}[kind]:
            out.append((f"{kind}-without-{field}", "play.malformed-action", moment,
                        lambda d, b=build, f=field: {k: v for k, v in b(d).items() if k != f}))
    for text in REFUSED_SEATS:  # a legal card, by a seat written in a text that is no seat
        out.append((f"seat-text-{text.replace(' ', '-') or 'empty'}", "play.malformed-action", "lead",
                    lambda d, t=text: {"act": "play", "seat": t, "card": as_text(d.legal_plays()[0])}))
    out = [o for o in out if o[3] is not None]
    for k in (1, 2, 3):  # out of turn at a lead, from each other seat
        out.append((f"lead-out-of-turn-{k}", "play.turn", "lead",
                    lambda d, k=k: play(_after(d, k), as_text(d.hand(_after(d, k))[0]))))
    for k in (1, 2, 3):
        out.append((f"trump-by-seat-{k}-after-caller", "trump.caller", "calling",
                    lambda d, k=k: {"act": "trump", "seat": Seat((d.caller + k * _step(d)) % 4).letter,
                                    "suit": "H"}))
    for text in NON_SUITS:
        out.append((f"trump-named-{text!s:.12}".replace(" ", "-"), "trump.any-suit", "calling",
                    lambda d, t=text: {"act": "trump", "seat": d.caller.letter, "suit": t}))
    for text in REFUSED_NOTATIONS:
        out.append((f"card-text-{'empty' if text == '' else text}".replace(" ", "-").replace("'", ""),
                    "pack.card-notation", "lead",
                    lambda d, t=text: play(d.to_act, t)))
    return out


def _documented_signal_offences() -> list[Offence]:
    """Under ``signal-kinds=documented``: the leader signals a kind that is not one of the two
    documented ones (the sources' words for their meaning among them), and the click."""
    row = input_class("signal-kind")

    def signal(kind: str) -> Callable[[Any], "dict | None"]:
        return lambda d: {"act": "signal", "seat": d.leader.letter, "signal": kind}
    return [(f"documented-signal-{text}", row.refused_as, "window", signal(text))
            for text in row.refused]


def _step(deal: Any) -> int:
    """1 when play runs clockwise (N E S W), 3 when counter-clockwise (``table.direction``)."""
    rules = getattr(deal, "rules", None)
    direction = (rules.to_dict() if rules is not None else {}).get("direction", "clockwise")
    return 3 if direction == "counterclockwise" else 1


def _after(deal: Any, k: int) -> Seat:
    """The seat ``k`` places after the one to act, in the direction of play."""
    return Seat((deal.to_act + k * _step(deal)) % 4)


def _moment(deal: Any) -> set[str]:
    """The moments ``deal`` is at now (see :data:`Offence`)."""
    phase = deal.phase
    if phase is Phase.CALLING:
        return {"calling"}
    if phase is not Phase.PLAYING:
        return {"closed"} | ({"closed-before-trump"} if deal.trump is None else set())
    n = len(deal.current_trick)
    signalled = n >= 1 and deal.view(deal.leader).signal is not None
    if n == 0:
        return {"lead"}
    return {"follow"} | ({"window"} if n == 1 and not signalled else set()) | \
        ({"late"} if n >= 2 else set()) | ({"signalled"} if n == 1 and signalled else set())


def _stream(rules: Rules, offence: Offence, seed: int, dealer: Seat, tricks_before: int) -> dict | None:
    """The referee arguments of a deal played legally (the first legal card each time,
    signals after each lead of an odd trick) until the offence is possible after
    ``tricks_before`` tricks, the offence, then the legal continuation: the rest of that
    trick and one more (the leader's signal first when the offence came in its window)."""
    name, clause, moment, build = offence
    deal = deal_from_seed(rules, seed, dealer)
    args: dict[str, Any] = {"pack": [as_text(c) for c in deal.pack], "dealer": dealer.letter, "cut": deal.cut}
    actions: list[dict] = []
    offence_at: list[int] = []
    done = False
    trace = RefereeTrace(deal)  # the reference's answers, kept as the stream is played

    def act(action: dict) -> None:
        actions.append(action)
        trace.apply(action)

    def try_offence() -> bool:
        if moment not in _moment(deal):
            return False
        if moment not in ("calling", "closed", "closed-before-trump") and sum(deal.tricks_won) < tricks_before:
            return False
        bad = build(deal)
        if not bad:
            return False
        offence_at.append(len(actions))
        act(bad)
        if "refused" not in trace.responses[-1]:
            raise _NoOffence  # accepted: no offence here (a variant's rule, say)
        return True

    try:
        done = _play_stream(deal, seed, moment, tricks_before, act, try_offence)
    except _NoOffence:
        return None
    if not done:
        return None
    args["actions"] = actions
    args["offence_at"] = offence_at[0]
    args["trace"] = trace
    return args


class _NoOffence(Exception):
    """The reference accepts the action built as an offence: not one at this moment."""


def _play_stream(deal: Any, seed: int, moment: str, tricks_before: int, act: Callable[[dict], None],
                 try_offence: Callable[[], bool]) -> bool:
    """Legal play round the offence (see :func:`_stream`); whether the offence was made."""
    done = False
    if moment == "closed-before-trump":  # the dealer closes at once; nothing is legal after
        act({"act": "close", "seat": deal.dealer.letter})
        return try_offence()
    if moment == "calling":
        done = try_offence()
    act({"act": "trump", "seat": deal.caller.letter, "suit": "SHDC"[seed % 4]})
    after = 0
    while deal.phase is Phase.PLAYING and sum(deal.tricks_won) < 36:
        if not done and moment not in ("calling", "closed"):
            done = try_offence()
        if done:
            after += 1
            if after > 6:
                break
            if "window" == moment and len(deal.current_trick) == 1 and deal.view(deal.leader).signal is None:
                act({"act": "signal", "seat": deal.leader.letter, "signal": "knock"})  # the window is still open
        if not done and moment == "closed" and sum(deal.tricks_won) >= tricks_before:
            act({"act": "close", "seat": deal.dealer.letter})
            done = try_offence()
            break
        leading = not deal.current_trick
        act({"act": "play", "seat": deal.to_act.letter, "card": as_text(deal.legal_plays()[0])})
        if leading and sum(deal.tricks_won) % 2 == 1 and moment != "window":
            act({"act": "signal", "seat": deal.leader.letter, "signal": "click"})
        if sum(deal.tricks_won) > tricks_before + 8 and not done:
            return False
    return done


#: The clauses whose offences are made again later in the deal.
_LATER: Final = frozenset({"play.turn", "play.follow-suit", "play.card-in-hand", "trump.once",
                           "signal.once-per-trick"})


def refusal_streams(rules: Rules) -> Iterator[tuple[str, str, str, dict]]:
    """``(id, clause, way, args)``: each offence at two moments of the deal (early and later),
    under two dealers, from the first fixed seed where it can happen."""
    documented = rules.to_dict().get("signal-kinds") == "documented"
    for offence in all_offences() + (_documented_signal_offences() if documented else []):
        name, clause, moment, _ = offence
        # later in the deal too (another dealer, after three tricks) where the moment
        # changes the rule: who leads, and what a follower holds
        later = clause in _LATER and not name.startswith("card-text-")
        places = [(Seat.NORTH, 0), (Seat.EAST, 3)] if later and moment != "calling" else [(Seat.NORTH, 0)]
        for dealer, before in places:
            about = clause
            if name.startswith("lead-out-of-turn"):  # who may lead: the caller, then the winner
                about = "play.first-lead" if before == 0 else "play.winner-leads"
            for seed in OFFENCE_SEEDS:
                args = _stream(rules, offence, seed, dealer, before)
                if args is not None:
                    yield f"refused/{name}/{dealer.letter}{before}", about, name, args
                    break
