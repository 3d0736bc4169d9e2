"""turub: the reference rules engine of Arba'a Turub, the executable specification.

The package is the ``reference/`` folder of the project (see the README).  Every
decision it makes names the clauses of :mod:`turub.clauses` that made it.
"""

from .cards import (CARDS, PACK, RANKS, SUITS, Card, Rank, Suit, card_name, parse_card,
                    parse_cards, parse_suit, sort_hand, suit_name)
from .clauses import CLAUSES, Clause, clause
from .contest import Contest, contest_of, contest_step
from .deal import SIGNALS, Deal, Phase, SeatView, Signal, Trick, play_random_deal
from .errors import *  # noqa: F403
from .errors import __all__ as _errors
from .options import PRESETS, Rules, parse_rules
from .rules import (TRICKS_PER_DEAL, DealResult, FirstDealer, NextDealer, PacketCheck,
                    TrickDecision, check_packets, deal_result, decide_trick, first_dealer,
                    is_legal_play, legal_plays, next_dealer, trick_winner)
from .seats import SEATS, SIDES, Direction, Seat, Side, next_seat, parse_seat, seats_from
from .sitting import SheetRow, Sitting, draw_first_dealer

__version__ = "0.1.0"

# A record made under a rule variant replays by it: the table of variants, imported here,
# is where the engine finds it (turub.records.VARIANT_FINDERS).
from . import variants  # noqa: E402,F401

__all__ = [
    "CARDS", "PACK", "RANKS", "SUITS", "Card", "Rank", "Suit", "card_name", "parse_card",
    "parse_cards", "parse_suit", "sort_hand", "suit_name", "CLAUSES", "Clause", "clause",
    "Contest", "contest_of", "contest_step", "SIGNALS", "Deal", "Phase", "SeatView", "Signal",
    "Trick", "play_random_deal", "PRESETS", "Rules", "parse_rules", "TRICKS_PER_DEAL",
    "DealResult", "FirstDealer", "NextDealer", "PacketCheck", "TrickDecision", "check_packets",
    "deal_result", "decide_trick", "first_dealer", "is_legal_play", "legal_plays",
    "next_dealer", "trick_winner", "SEATS", "SIDES", "Direction", "Seat", "Side", "next_seat",
    "parse_seat", "seats_from", "SheetRow", "Sitting", "draw_first_dealer", *_errors,
]
