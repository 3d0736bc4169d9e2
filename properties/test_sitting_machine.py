"""A sitting, driven as a state machine: deals played and recorded on the score sheet.

Hypothesis records results (typed in, or from whole deals the engine plays with the
sheet's dealer and rules, some closed early) on ``turub.Sitting``.  After every deal the
sheet must agree with independent statements of the rules: who dealt each deal and who
deals next (``oracles.dealers_over``), and the state of every contest, each one ending
where the rule decides it and the next starting fresh (``oracles.contest_states``).
"""

from __future__ import annotations

from hypothesis import event, note
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from turub import Deal, Sitting, deal_result, parse_seat, play_random_deal
from turub.options import rules_from_dict
from turub.properties import oracles as O
from turub.properties import strategies as S
from turub.properties.tags import verifies


def _contest_dict(contest) -> dict:
    side = lambda s: None if s is None else s.short  # noqa: E731
    return {"holder": side(contest.holder), "mark": contest.mark, "winner": side(contest.winner)}


class SittingMachine(RuleBasedStateMachine):
    """One score sheet, deal after deal."""

    @initialize(first=S.seats, rules=S.full_rules_dicts())
    def sit_down(self, first, rules):
        self.first, self.rules = first, rules
        self.sheet = Sitting(parse_seat(first), rules_from_dict(rules))
        self.results: list[list] = []  # [ns, ew, closed_early] per deal, as recorded
        note(f"first dealer {first}, {rules}")

    def _record(self, ns: int, ew: int, closed: bool, trump=None) -> None:
        self.sheet.record(deal_result(ns, ew, closed_early=closed, rules=self.sheet.rules), trump)
        self.results.append([ns, ew, closed])

    @rule(result=S.contest_results().filter(lambda r: O.deal_outcome(*r) is not None))
    def record_a_result(self, result):
        self._record(*result)

    @rule(seed=st.integers(0, 2**32 - 1))
    def play_a_whole_deal(self, seed):
        deal = play_random_deal(seed, self.sheet.dealer, self.sheet.rules)
        assert deal.dealer is self.sheet.dealer and len(deal.tricks) == 36
        self._record(*deal.result.tricks, False, deal.trump)

    @rule(seed=st.integers(0, 2**32 - 1), tricks=st.integers(0, 35), closer=S.seats)
    def close_a_deal_early(self, seed, tricks, closer):
        deal = Deal.from_seed(seed, self.sheet.dealer, self.sheet.rules)
        deal.name_trump(deal.caller, "C")
        for _ in range(4 * tricks):
            deal.play(deal.to_act, deal.legal_plays()[0])
        result = deal.close(parse_seat(closer))
        # a deal closed early is banked as a draw (or, under early-close=known-result, the win
        # of a side already past 18 tricks)
        banked = "draw" if result.winner is None else result.winner.short
        assert banked == O.deal_outcome(*result.tricks, True, self.rules), (result, self.rules)
        self._record(*result.tricks, True, deal.trump)

    @invariant()
    def each_deal_was_dealt_by_the_seat_the_rule_names(self):
        outcomes = [O.deal_outcome(*r, self.rules) for r in self.results]
        expected = O.dealers_over(self.first, outcomes, self.rules)
        assert [s.letter for s in self.sheet.dealers()] == expected
        assert [row.dealer.letter for row in self.sheet.rows] == expected[:-1]
        assert self.sheet.dealer.letter == expected[-1]

    @invariant()
    def every_contest_is_what_its_runs_of_wins_say(self):
        # Split the sitting into contests where the rule decides each one.
        contests: list[list[list]] = [[]]
        for result in self.results:
            contests[-1].append(result)
            if O.contest_decided_at(contests[-1], self.rules) is not None:
                contests.append([])
        finished = [c for c in contests if c]
        got = [_contest_dict(c) for c in self.sheet.contests]
        want = [O.contest_states(c, self.rules)[-1] for c in finished]
        assert got == want, f"contests {got}, expected {want} from {self.results}"
        numbers = [row.contest_number for row in self.sheet.rows]
        assert numbers == [i + 1 for i, c in enumerate(finished) for _ in c]
        # The contest now is open: a fresh one once the last was decided.
        assert not self.sheet.contest.is_decided
        if not contests[-1]:
            assert _contest_dict(self.sheet.contest) == {"holder": None, "mark": None, "winner": None}
        if self.sheet.contests and self.sheet.contests[-1].is_decided:
            event("a contest decided")

    @invariant()
    def the_sheet_only_grows_one_row_per_deal(self):
        rows = self.sheet.rows
        assert [r.number for r in rows] == list(range(1, len(self.results) + 1))
        assert [list(r.result.tricks) for r in rows] == [[ns, ew] for ns, ew, _ in self.results]


@verifies("sheet.one-deal-per-row", "sheet.open-ended", "sheet.contest-derived",
          "sheet.tap-winner", "sheet.end-match-draw", "sheet.any-player-closes",
          "dealer.after-win", "dealer.after-loss", "dealer.after-draw",
          "contest.first-win-sets-mark", "contest.second-win-beats-mark",
          "contest.insufficient-win", "contest.draw-keeps-sequence", "contest.other-side-resets",
          "contest.decided-is-final", "stake.per-deal", "result.closed-early")
class TestTheScoreSheetDealsAndDecidesContestsAsTheRulesSay(SittingMachine.TestCase):
    settings = S.scaled(0.4, stateful_step_count=30)
