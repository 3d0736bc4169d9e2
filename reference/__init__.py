"""turub: the reference rules engine of Arba'a Turub, the executable specification.

The package is the ``reference/`` folder of the project (see the README).  Every
decision it makes names the clauses of :mod:`turub.clauses` that made it.
"""

import importlib as _importlib
import importlib.abc as _abc
import importlib.util as _util
import sys as _sys

from .cards import (CARDS, PACK, RANKS, SUITS, Card, Rank, Suit, card_name, parse_card,
                    parse_cards, parse_suit, sort_hand, suit_name)
from .clauses import CLAUSES, Clause, clause
from .contest import Contest, contest_of, contest_step
from .deal import SIGNALS, Deal, Phase, SeatView, Signal, Trick
from .playout import play_random_deal
from .errors import *  # noqa: F403
from .errors import __all__ as _errors
from .options import PRESETS, Rules, parse_rules
from .rules import (TRICKS_PER_DEAL, DealResult, FirstDealer, NextDealer, PacketCheck,
                    TrickDecision, check_packets, deal_result, decide_trick, first_dealer,
                    is_legal_play, legal_plays, next_dealer, trick_winner)
from .seats import SEATS, SIDES, Direction, Seat, Side, next_seat, parse_seat, seats_from
from .sitting import SheetRow, Sitting, draw_first_dealer

__version__ = "0.1.0"

# The tooling's earlier flat names (turub.cli, ...) -> their modules in turub.tools.
MOVED = {"cli": "tools.cli", "clause_cli": "tools.clause_cli", "sources": "tools.sources",
         "progress": "tools.progress"}


class _MovedFinder(_abc.MetaPathFinder, _abc.InspectLoader):
    """Imports ``turub.<old>`` as the module now in :mod:`turub.tools` (one module, two names),
    and runs it as ``python -m turub.<old>`` as ``python -m turub.tools.<name>`` would."""

    def find_spec(self, fullname, path=None, target=None):
        prefix, _, leaf = fullname.rpartition(".")
        if prefix != __name__ or leaf not in MOVED:
            return None
        return _util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return _importlib.import_module(f"{__name__}.{MOVED[spec.name.rpartition('.')[2]]}")

    def exec_module(self, module):
        pass

    def get_source(self, fullname):  # python -m turub.cli: run the module under its new name
        target = f"{__name__}.{MOVED[fullname.rpartition('.')[2]]}"
        return f"import runpy\nrunpy.run_module({target!r}, run_name='__main__', alter_sys=True)\n"


if not any(isinstance(f, _MovedFinder) for f in _sys.meta_path):
    _sys.meta_path.append(_MovedFinder())

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
