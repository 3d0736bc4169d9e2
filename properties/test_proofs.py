"""The proofs of turub.properties.proofs, one test each, and proof that they can fail.

Each check returns a verdict; a test passes only on ``proved``.  A counterexample or an
``unknown`` from z3 fails the test with the verdict's text (cards, seats, deal results).
The last tests hand the checks deliberately broken rules and expect a counterexample, so a
proof that could never fail would be caught here.
"""

from __future__ import annotations

import z3

from turub import branch_free_rules
from turub.branch_free_rules import NOBODY, PY
from turub.properties import proofs
from turub.properties.tags import verifies
from turub.rules import trick_winner


def _assert_proved(verdict: proofs.Verdict) -> None:
    assert verdict.status != "counterexample", f"the rule is broken: {verdict}"
    assert verdict.proved, f"neither proved nor refuted: {verdict}"


# --- the kernels are the engine's rules: exhaustive enumeration ------------------------------

@verifies("trick.highest-trump", "trick.highest-led", "trick.earliest-identical")
def test_engine_and_kernel_agree_on_every_trick_pattern():
    _assert_proved(proofs.enumerate_trick_winner())


@verifies("play.follow-suit", "play.void-any-card", "play.no-forced-trump", "play.card-in-hand")
def test_engine_and_kernel_agree_on_every_hand_and_lead():
    _assert_proved(proofs.enumerate_legal_plays())


@verifies("result.more-tricks-wins", "result.draw-18", "result.closed-early", "result.tricks-add-up")
def test_engine_and_kernel_agree_on_every_deal_result():
    _assert_proved(proofs.enumerate_deal_result())


@verifies("dealer.after-win", "dealer.after-loss", "dealer.after-draw", "table.direction")
def test_engine_and_kernel_agree_on_every_next_dealer():
    _assert_proved(proofs.enumerate_next_dealer())


@verifies("contest.first-win-sets-mark", "contest.second-win-beats-mark",
          "contest.insufficient-win", "contest.draw-keeps-sequence", "contest.other-side-resets",
          "contest.unbeatable-mark", "contest.decided-is-final", "stake.per-deal")
def test_engine_and_kernel_agree_on_every_contest_step():
    _assert_proved(proofs.enumerate_contest_step())


# --- the rules, proved by z3 ---------------------------------------------------------------

@verifies("trick.earliest-identical", "pack.rank-order")
def test_second_ace_never_beats_the_first():
    _assert_proved(proofs.prove_beats_is_a_strict_order())


@verifies("trick.highest-trump", "trick.highest-led", "trick.earliest-identical")
def test_the_highest_trump_else_the_highest_led_card_wins_every_trick():
    _assert_proved(proofs.prove_trick_winner_is_the_rule())


@verifies("trick.earliest-identical")
def test_the_first_copy_wins_however_the_other_cards_are_ordered():
    _assert_proved(proofs.prove_first_copy_wins())


@verifies("play.follow-suit", "play.void-any-card", "play.no-forced-trump")
def test_only_cards_the_follow_suit_rule_allows_are_legal():
    _assert_proved(proofs.prove_legal_play_is_sound())


@verifies("play.follow-suit", "play.void-any-card", "play.no-forced-trump")
def test_a_void_player_may_play_any_card_trump_or_not():
    _assert_proved(proofs.prove_legal_play_is_complete())


@verifies("play.void-any-card", "play.follow-suit")
def test_a_player_with_cards_is_never_stuck():
    _assert_proved(proofs.prove_a_hand_always_has_a_legal_card())


@verifies("result.more-tricks-wins", "result.draw-18", "result.closed-early")
def test_more_tricks_wins_and_18_all_or_closing_early_is_a_draw():
    _assert_proved(proofs.prove_deal_outcome_is_the_rule())


@verifies("dealer.after-win", "dealer.after-loss", "dealer.after-draw", "table.left-of-dealer",
          "table.direction")
def test_the_deal_always_passes_to_the_side_that_lost():
    _assert_proved(proofs.prove_next_dealer_is_the_rule())


@verifies("contest.first-win-sets-mark", "contest.decided-is-final")
def test_no_sequence_of_deals_breaks_the_contest_invariant():
    _assert_proved(proofs.prove_contest_invariant_holds())


@verifies("contest.insufficient-win", "contest.draw-keeps-sequence")
def test_the_mark_never_goes_down_while_the_sequence_lasts():
    _assert_proved(proofs.prove_mark_holds_while_the_sequence_lasts())


@verifies("contest.insufficient-win", "contest.draw-keeps-sequence")
def test_insufficient_win_keeps_the_mark():
    _assert_proved(proofs.prove_draw_or_short_win_changes_nothing())


@verifies("contest.second-win-beats-mark", "contest.unbeatable-mark", "contest.decided-is-final")
def test_the_contest_is_decided_exactly_when_the_mark_is_beaten():
    _assert_proved(proofs.prove_decided_exactly_when_the_mark_is_beaten())


@verifies("contest.other-side-resets", "contest.first-win-sets-mark")
def test_the_other_sides_win_starts_its_own_sequence():
    _assert_proved(proofs.prove_other_side_starts_its_own_sequence())


@verifies("stake.per-deal")
def test_with_the_stake_per_deal_every_won_deal_settles_it():
    _assert_proved(proofs.prove_per_deal_stake_settles_every_win())


@verifies("contest.first-win-sets-mark", "contest.second-win-beats-mark",
          "contest.insufficient-win", "contest.draw-keeps-sequence", "contest.other-side-resets",
          "contest.decided-is-final")
def test_twelve_deals_decide_the_contest_as_the_rule_is_written():
    _assert_proved(proofs.prove_contest_unrolled())


# --- the checks catch broken rules -----------------------------------------------------------

def _winner_with(beats, monkeypatch):
    """The engine's own trick-winner kernel, run on another "beats" rule."""
    monkeypatch.setattr(branch_free_rules, "beats", beats)
    return branch_free_rules.trick_winner


def _later_twin_takes(challenger, holder, trump, logic=PY):
    # broken: an identical card played later takes the trick (>= for >)
    return logic.or_(logic.and_(challenger[0] == holder[0], challenger[1] >= holder[1]),
                     logic.and_(challenger[0] == trump, holder[0] != trump))


def _any_trump_takes(challenger, holder, trump, logic=PY):
    # broken: any trump takes the trick, even from a higher trump
    return logic.or_(logic.and_(challenger[0] == holder[0], challenger[1] > holder[1]),
                     challenger[0] == trump)


@verifies("trick.earliest-identical")
def test_a_rule_letting_the_second_ace_win_is_refuted(monkeypatch):
    wrong = _winner_with(_later_twin_takes, monkeypatch)
    for verdict in (proofs.prove_beats_is_a_strict_order(_later_twin_takes),
                    proofs.prove_trick_winner_is_the_rule(wrong),
                    proofs.prove_first_copy_wins(wrong),
                    proofs.enumerate_trick_winner(kernel=wrong)):
        assert verdict.status == "counterexample", str(verdict)
    # and the engine's own function, handed to the enumeration, is caught too
    assert proofs.enumerate_trick_winner(
        engine=lambda cards, trump: len(cards) - 1 if len(set(cards)) == 1 else trick_winner(cards, trump)
    ).status == "counterexample"


@verifies("trick.highest-trump")
def test_a_rule_letting_a_low_trump_beat_a_high_one_is_refuted(monkeypatch):
    verdict = proofs.prove_trick_winner_is_the_rule(_winner_with(_any_trump_takes, monkeypatch))
    assert verdict.status == "counterexample"
    assert "trump" in verdict.detail and "the rule picks position" in verdict.detail


@verifies("play.void-any-card", "play.no-forced-trump")
def test_a_rule_refusing_a_void_player_any_card_is_refuted():
    def must_follow(suit, led, holds_led, logic=PY):
        return logic.or_(led == NOBODY, suit == led)
    assert proofs.prove_legal_play_is_complete(must_follow).status == "counterexample"
    assert proofs.prove_a_hand_always_has_a_legal_card(must_follow).status == "counterexample"
    assert proofs.enumerate_legal_plays(kernel=must_follow).status == "counterexample"


@verifies("play.follow-suit")
def test_a_rule_letting_a_player_revoke_is_refuted():
    def anything_goes(suit, led, holds_led, logic=PY):
        return logic.or_(led == NOBODY, led != NOBODY)
    assert proofs.prove_legal_play_is_sound(anything_goes).status == "counterexample"


@verifies("dealer.after-win", "dealer.after-loss")
def test_a_rule_giving_the_deal_to_the_winners_is_refuted():
    def to_winners(dealer, outcome, direction, previous, logic=PY):
        following = (dealer + direction) % 4
        won = outcome == dealer % 2
        return logic.ite(outcome == NOBODY, dealer,
                         logic.ite(won, (dealer + 2) % 4, following))
    verdict = proofs.prove_next_dealer_is_the_rule(to_winners)
    assert verdict.status == "counterexample" and "the code names" in verdict.detail
    assert proofs.enumerate_next_dealer(kernel=to_winners).status == "counterexample"


def _contest_with(decides, lowers_mark=False):
    def step(holder, mark, winner, outcome, tricks, per_deal=False, logic=PY):
        unchanged = logic.or_(winner != NOBODY, outcome == NOBODY)
        new = logic.or_(per_deal, holder != outcome)
        won = logic.or_(per_deal, logic.and_(holder == outcome, decides(tricks, mark)))
        reset = logic.or_(new, logic.not_(won)) if lowers_mark else new
        return (logic.ite(unchanged, holder, outcome),
                logic.ite(unchanged, mark, logic.ite(reset, tricks, mark)),
                logic.ite(unchanged, winner, logic.ite(won, outcome, NOBODY)))
    return step


@verifies("contest.insufficient-win")
def test_a_contest_where_a_short_win_lowers_the_mark_is_refuted():
    wrong = _contest_with(lambda tricks, mark: tricks > mark, lowers_mark=True)
    for verdict in (proofs.prove_mark_holds_while_the_sequence_lasts(wrong),
                    proofs.prove_draw_or_short_win_changes_nothing(wrong),
                    proofs.prove_contest_unrolled(wrong, deals=6),
                    proofs.enumerate_contest_step(kernel=wrong)):
        assert verdict.status == "counterexample", str(verdict)


@verifies("contest.second-win-beats-mark")
def test_a_contest_won_by_equalling_the_mark_is_refuted():
    wrong = _contest_with(lambda tricks, mark: tricks >= mark)
    verdict = proofs.prove_decided_exactly_when_the_mark_is_beaten(wrong)
    assert verdict.status == "counterexample" and "decided for" in verdict.detail
    assert proofs.prove_contest_unrolled(wrong, deals=4).status == "counterexample"


def _fermat() -> proofs.Verdict:
    # x³ + y³ = z³ in positive integers: z3 cannot settle it in 10,000 steps
    x, y, z = z3.Ints("x y z")
    return proofs._refute("Fermat, n = 3", [x > 0, y > 0, z > 0],
                          x * x * x + y * y * y != z * z * z, lambda value: "")


def test_a_solver_out_of_resources_is_unknown_never_proved_nor_refuted(monkeypatch):
    monkeypatch.setattr(proofs, "RLIMIT", 10_000)
    verdict = _fermat()
    assert verdict.status == "unknown" and not verdict.proved
    assert "resource limit 10,000" in verdict.detail and verdict.resources >= 10_000


def test_the_proofs_command_tells_unknown_from_refuted(monkeypatch, capsys):
    monkeypatch.setattr(proofs, "RLIMIT", 10_000)
    monkeypatch.setattr(proofs, "CHECKS", (proofs.prove_deal_outcome_is_the_rule, _fermat))
    assert proofs.main([]) == 3
    assert "1 proved, 0 refuted by a counterexample, 1 unknown" in capsys.readouterr().out
    wrong = _winner_with(_any_trump_takes, monkeypatch)
    monkeypatch.setattr(proofs, "CHECKS", (_fermat, lambda: proofs.prove_trick_winner_is_the_rule(wrong)))
    assert proofs.main([]) == 1
    assert "0 proved, 1 refuted by a counterexample, 1 unknown" in capsys.readouterr().out


@verifies("trick.earliest-identical", "contest.second-win-beats-mark")
def test_the_kernels_run_on_plain_ints_as_documented():
    assert branch_free_rules.trick_winner(((3, 14), (3, 14), (1, 6), (3, 13)), trump=1) == 2
    assert branch_free_rules.contest_step(0, 20, NOBODY, 0, 22) == (0, 20, 0)
