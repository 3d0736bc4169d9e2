"""Programs that implement the club's house rules (``club.py``), right and wrong.

Each is an implementation of the kit's interface: the reference engine for the standard
game, with the house rule written out here, by hand, from the club's words (not from the
variant's own rule function).  ``python club_programs.py NAME`` runs one of them as a
program speaking the JSON-lines protocol.

* ``ClubApp``: a void player holding trump must play one (``club.must-trump``); with
  ``draws=True`` also "a draw ends the sequence" (``club.draw-ends-sequence``).
* ``StandardApp``: the standard rules, though it says it plays the club's variant.
* ``StricterApp``: must trump *and* over-trump the best trump in the trick.
* ``WrongClauseApp``: refuses a non-trump discard naming ``play.follow-suit``.
* ``CrashingApp``: the club's rules, but its referee throws a TypeError.
"""

from __future__ import annotations

import json
import sys

from turub import Contest, Deal, Phase, parse_card, parse_suit
from turub.conformance.adapter import ReferenceImplementation, side_text
from turub.rules import deal_result

RANKS = "6 7 8 9 10 J Q K A".split()


def _suit(card: str) -> str:
    return card.strip().upper()[-1] if card[-1] in "SHDCshdc" else "SHDC"["♠♥♦♣".index(card[-1])]


class ClubApp(ReferenceImplementation):
    name, version = "club-app", "1"
    variants = ["club"]
    rule_clause = "club.must-trump"

    def __init__(self, draws: bool = False) -> None:
        self.draws = draws
        if draws:
            self.variants = ["club-draws"]

    def must_play(self, hand: list[str], trick: list[str], trump: str | None) -> list[str] | None:
        """The cards the house rule leaves, or None when it says nothing."""
        if not trick or trump is None:
            return None
        led = _suit(trick[0])
        if any(_suit(c) == led for c in hand):
            return None
        trumps = [c for c in hand if _suit(c) == trump]
        return trumps or None

    def legal_plays(self, hand, trick, trump=None, variant=None):
        standard = super().legal_plays(hand, trick, trump)
        forced = self.must_play(hand, trick, trump)
        if forced is None:
            return standard
        forced_cards = {parse_card(x) for x in forced}  # the kit may write cards either way
        return [c for c in standard if parse_card(c) in forced_cards]

    def answer_first(self, deal: Deal, action):
        if action.get("act") != "play" or deal.phase is not Phase.PLAYING:
            return None
        try:
            seat = "NESW".index(action["seat"])
            card = parse_card(action["card"])
        except Exception:  # noqa: BLE001 - let the engine refuse it
            return None
        if seat != deal.to_act or not deal.holds(seat, card):
            return None
        hand = [str(c) for c in deal.hand(seat)]
        trick = [str(c) for _, c in deal.current_trick]
        forced = self.must_play(hand, trick, deal.trump.letter if deal.trump is not None else None)
        if forced is not None and _suit(str(card)) != deal.trump.letter:
            return {"refused": self.rule_clause}
        return None

    def contest(self, results, rules, variant=None, dealer=None):
        if not self.draws:
            return super().contest(results, rules, dealer=dealer)
        c = Contest()
        states = []
        for ns, ew, closed in results:
            try:
                result = deal_result(ns, ew, closed_early=bool(closed))
            except Exception as e:  # noqa: BLE001
                states.append({"refused": getattr(e, "clause", "result.tricks-add-up")})
                continue
            if c.is_decided:
                c = Contest()
            if result.winner is None and c.holder is not None:
                c = Contest(None, None, None, c.deals + 1)  # the house rule: the run is over
            else:
                c = c.record(result)
            states.append({"holder": side_text(c.holder), "mark": c.mark, "winner": side_text(c.winner)})
        return states


class StandardApp(ClubApp):
    name = "standard-app"

    def must_play(self, hand, trick, trump):
        return None

    def contest(self, results, rules, variant=None, dealer=None):
        return ReferenceImplementation.contest(self, results, rules, dealer=dealer)


class StricterApp(ClubApp):
    name = "stricter-app"

    def answer_first(self, deal, action):
        answer = super().answer_first(deal, action)
        if answer is not None or action.get("act") != "play" or deal.phase is not Phase.PLAYING:
            return answer
        try:
            seat = "NESW".index(action["seat"])
            card = parse_card(action["card"])
        except Exception:  # noqa: BLE001
            return None
        trick = [c for _, c in deal.current_trick]
        if seat != deal.to_act or not deal.holds(seat, card) or not trick or deal.trump is None:
            return None
        trump = deal.trump
        best = max((c.rank for c in trick if c.suit is trump), default=None)
        hand = deal.hand(seat)
        if card.suit is trump and best is not None and card.rank <= best and \
                any(c.suit is trump and c.rank > best for c in hand) and \
                not any(c.suit is trick[0].suit for c in hand):
            return {"refused": self.rule_clause}  # must over-trump
        return None


class WrongClauseApp(ClubApp):
    name = "wrong-clause-app"
    rule_clause = "play.follow-suit"


class CrashingApp(ClubApp):
    name = "crashing-app"

    def referee(self, *args, **kwargs):
        raise TypeError("'NoneType' object is not subscriptable")


PROGRAMS = {"club": ClubApp, "club-draws": lambda: ClubApp(draws=True), "standard": StandardApp,
            "stricter": StricterApp, "wrong-clause": WrongClauseApp, "crashing": CrashingApp}


def serve(impl) -> None:
    """Answer the kit's requests on stdin, one JSON object a line."""
    from turub.conformance.adapter import OPERATIONS
    for raw in sys.stdin:
        msg = json.loads(raw)
        op, args = msg["op"], msg.get("args", {})
        if op == "hello":
            result = {"protocol": args.get("protocol", 1), "name": impl.name, "version": impl.version,
                      "operations": list(OPERATIONS), "variants": impl.variants}
        elif op == "bye":
            print(json.dumps({"id": msg["id"], "result": None}), flush=True)
            return
        else:
            args = {k: v for k, v in args.items() if k != "variant"}
            try:
                result = getattr(impl, op)(**args)
            except Exception as e:  # noqa: BLE001 - reported as the program's error
                print(json.dumps({"id": msg["id"], "error": {"message": str(e)}}), flush=True)
                continue
        print(json.dumps({"id": msg["id"], "result": result}), flush=True)


if __name__ == "__main__":
    serve(PROGRAMS[sys.argv[1]]())
