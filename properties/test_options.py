"""Every rule option through the interface: the presets are options it understands, and
flipping one option changes the answer it governs.  (Every combination of options, and the
strategies reaching every value: ``test_option_combinations``.)"""

from turub.options import PRESETS
from turub.properties import oracles as O
from turub.properties import strategies as S
from turub.properties.checks import Falsified, check_next_dealer, requires
from turub.properties.tags import verifies


@verifies("table.direction", "table.left-of-dealer", "stake.per-deal", "dealer.after-win")
def test_the_presets_are_rule_options_the_interface_understands(impl):
    requires(impl, "next_dealer")
    for name, rules in PRESETS.items():
        for dealer in O.SEAT_LETTERS:
            for outcome in ("NS", "EW", "draw"):
                check_next_dealer(impl, dealer, outcome, rules.to_dict())


@verifies("table.direction", "stake.per-deal", "dealer.after-win")
def test_each_option_changes_the_answer_it_governs(impl):
    """Flip one option at a time: the answer it governs changes."""
    requires(impl, "deal", "next_dealer", "contest")
    pack = S.pack_from_seed(1)
    # direction: the caller is the dealer's other neighbour.
    a = impl.deal(pack, "N", 0, {"direction": "clockwise"})
    b = impl.deal(pack, "N", 0, {"direction": "counterclockwise"})
    if (a["caller"], b["caller"]) != ("E", "W"):
        raise Falsified(f"North dealing: clockwise the caller must be E, counterclockwise W; got "
                        f"{a['caller']} and {b['caller']}")
    # opponent-dealer: after North-South win with North dealing, East or West deals.
    if impl.next_dealer("N", "NS", {"opponent-dealer": "next"}) != "E":
        raise Falsified("opponent-dealer=next: after NS win with N dealing, E must deal")
    if impl.next_dealer("N", "NS", {"opponent-dealer": "previous"}) != "W":
        raise Falsified("opponent-dealer=previous: after NS win with N dealing, W must deal")
    if impl.next_dealer("N", "EW", {"opponent-dealer": "previous"}) != "S":
        raise Falsified("opponent-dealer=previous: after EW win with N dealing, S must deal")  # a loss: unchanged
    # stake: a single win settles it per deal, not in the contest.
    if impl.contest([[20, 16, False]], {"stake": "per-deal"})[-1]["winner"] != "NS":
        raise Falsified("stake=per-deal: one deal won 20 to 16 must settle the stake for NS")
    if impl.contest([[20, 16, False]], {"stake": "contest"})[-1]["winner"] is not None:
        raise Falsified("stake=contest: one deal won 20 to 16 must not settle the contest")
