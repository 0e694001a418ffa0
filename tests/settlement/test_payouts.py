"""Recorded winnings and finishing stacks against the settlement: rake, conventions, mismatches."""

from __future__ import annotations

from decimal import Decimal

from handaudit.core.cards import cards_from_text as C
from handaudit.core.hand import Hand
from handaudit.findings.codes import CODES
from handaudit.settlement import settle
from handaudit.reports.contract import settlement_members
from handaudit.validator.outcome import K_DEAL_BOARD, ActionRecord, Replay

from helpers import settlement_rulebook

RB = settlement_rulebook()


def make_hand(stacks, winnings=None, finishing=None, scale=0):
    n = len(stacks)
    return Hand(source="test", hand_key="", variant="NT", players=n, scale=scale, antes=(0,) * n,
                blinds_or_straddles=(0,) * n, bring_in=None, small_bet=None, big_bet=None, min_bet=1,
                starting_stacks=tuple(stacks), actions=(), action_texts=(),
                winnings=None if winnings is None else tuple(winnings),
                finishing_stacks=None if finishing is None else tuple(finishing))


# the hand saw a flop (no_flop_no_drop does not apply): one board deal in the history
FLOP: tuple = (ActionRecord(0, "flop", "d", K_DEAL_BOARD),)


def make_replay(contributions, hole=None, board="", folded=None, records=FLOP):
    """A replay of a hand that saw the flop (``records=()``: one that ended before it)."""
    n = len(contributions)
    folded = tuple(folded or (False,) * n)
    hole = tuple(C(h) for h in hole) if hole else ((),) * n
    showdown = sum(not f for f in folded) >= 2
    shown = tuple(None if f or not showdown else True for f in folded)
    return Replay(findings=(), records=tuple(records), complete=True, contributions=tuple(contributions),
                  dead=(0,) * n, folded=folded, all_in=(False,) * n, hole=hole,
                  up=tuple((False,) * len(h) for h in hole), board=C(board), shown=shown,
                  showdown=showdown)


# p1 folds to p2's raise on the flop: p1 put in 100, p2 300 -> 200 returned to p2, pot 200 (scale 2: 2.00)
FOLD_OUT = make_replay([100, 300], folded=[True, False])
# the same before the flop: the hand ends in its first betting round
PREFLOP_FOLD_OUT = make_replay([100, 300], folded=[True, False], records=())


def codes(s):
    return [f.code for f in s.findings]


def test_exact_match_no_rake():
    s = settle(make_hand([1000, 1000], winnings=[0, 200], finishing=[900, 1100], scale=2), FOLD_OUT, RB)
    assert s.payout_check == "match" and s.rake == 0 and not s.findings
    assert settlement_members(s, make_hand([1000, 1000], scale=2))["rake"] == Decimal("0.00")


def test_net_of_rake_is_a_match():
    # 0.15 rake on a 2.00 pot (limit 10% + 0.01 = 0.21); the stacks show the same rake
    hand = make_hand([1000, 1000], winnings=[0, 185], finishing=[900, 1085], scale=2)
    s = settle(hand, FOLD_OUT, RB)
    assert s.payout_check == "match" and s.rake == 15 and s.convention == "net"
    assert not s.findings
    assert settlement_members(s, hand)["rake"] == Decimal("0.15")


def test_rake_at_the_limit_plus_rounding_unit_is_a_match():
    s = settle(make_hand([1000, 1000], winnings=[0, 179], scale=2), FOLD_OUT, RB)
    assert s.payout_check == "match" and s.rake == 21


def test_rake_over_the_limit_is_a_mismatch():
    hand = make_hand([1000, 1000], winnings=[0, 150], scale=2)
    s = settle(hand, FOLD_OUT, RB)
    assert s.payout_check == "mismatch" and s.rake == 50
    assert codes(s) == ["winnings-mismatch", "chips-not-conserved"]
    msg = s.findings[0].message
    assert msg == ("p2: recorded winnings 1.50, settlement 2.00 (0.50 less); beyond the rake limit "
                   "(10% of each pot + 1 unit(s): at most 0.21 of p2's share)")
    assert s.findings[0].actor == "p2" and s.findings[0].rule


def test_rake_limit_is_a_rulebook_parameter():
    book = settlement_rulebook(rake_limit_percent=30)
    s = settle(make_hand([1000, 1000], winnings=[0, 150], scale=2), FOLD_OUT, book)
    assert s.payout_check == "match" and s.rake == 50


def test_negative_rake_is_a_mismatch():
    s = settle(make_hand([1000, 1000], winnings=[0, 230], scale=2), FOLD_OUT, RB)
    assert s.payout_check == "mismatch" and s.rake == -30
    assert codes(s) == ["winnings-mismatch", "chips-not-conserved"]
    assert "0.30 more" in s.findings[0].message and "0.30 created" in s.findings[1].message


def test_gross_winnings_include_the_return():
    # ABS/PTY style: p2 recorded 4.00 = 2.00 won + 2.00 of its own uncalled bet
    hand = make_hand([1000, 1000], winnings=[0, 400], scale=2)
    s = settle(hand, FOLD_OUT, RB)
    assert s.payout_check == "match" and s.convention == "gross" and s.rake == 0
    assert codes(s) == ["winnings-gross"]
    assert s.findings[0].severity == "info" and "p2 2.00" in s.findings[0].message
    assert "winnings-gross" in CODES and CODES["winnings-gross"].summary


def test_gross_winnings_net_of_rake():
    # PTY: 3.85 = 2.00 + 2.00 - 0.15 rake
    s = settle(make_hand([1000, 1000], winnings=[0, 385], scale=2), FOLD_OUT, RB)
    assert s.payout_check == "match" and s.convention == "gross" and s.rake == 15


def test_all_zero_winnings_is_not_a_payout():
    s = settle(make_hand([1000, 1000], winnings=[0, 0], scale=2), FOLD_OUT, RB)
    assert s.payout_check == "not-recorded" and s.convention == "zeros" and s.rake is None
    assert codes(s) == ["winnings-not-recorded"]
    assert s.findings[0].severity == "warning"
    assert "records no payout" in s.findings[0].message and "p2 2.00" in s.findings[0].message


def test_all_zero_winnings_with_stacks_checks_the_stacks():
    # the zeros say nothing; the recorded finishing stacks are still compared (here: wrong)
    s = settle(make_hand([1000, 1000], winnings=[0, 0], finishing=[1000, 1000], scale=2), FOLD_OUT, RB)
    assert s.payout_check == "mismatch" and s.convention == "zeros"
    assert codes(s) == ["winnings-not-recorded", "finishing-stacks-mismatch", "finishing-stacks-mismatch"]
    ok = settle(make_hand([1000, 1000], winnings=[0, 0], finishing=[900, 1100], scale=2), FOLD_OUT, RB)
    assert ok.payout_check == "match" and codes(ok) == ["winnings-not-recorded"]


def test_absent_is_not_recorded():
    s = settle(make_hand([1000, 1000], scale=2), FOLD_OUT, RB)
    assert s.payout_check == "not-recorded" and s.rake is None and not s.findings
    assert s.finishing_stacks == (900, 1100)


def test_wrong_winner_is_reported_per_player():
    rep = make_replay([50, 120, 200], ["KhKd", "JcJh", "9c9d"], "KcJd9s5h2c")
    s = settle(make_hand([50, 120, 300], winnings=[140, 150, 0]), rep, RB)
    assert s.payout_check == "mismatch"
    msgs = [f.message for f in s.findings if f.code == "winnings-mismatch"]
    # p1's 10 short could be rake of the main pot, but p2 is recorded with 10 more: the chips moved
    assert msgs == ["p1: recorded winnings 140, settlement 150 (10 less); not rake: another player is "
                    "recorded with more than the settlement gives",
                    "p2: recorded winnings 150, settlement 140 (10 more)"]


def test_wrong_finishing_stacks_exact_difference():
    # the side-pots-and-return example with p2's stack written 12.50 too high and p3's 12.50 too low (scale 2)
    rep = make_replay([5000, 12000, 20000], ["KhKd", "JcJh", "9c9d"], "KcJd9s5h2c")
    hand = make_hand([5000, 12000, 30000], finishing=[15000, 15250, 16750], scale=2)
    s = settle(hand, rep, RB)
    assert s.finishing_stacks == (15000, 14000, 18000)
    assert s.payout_check == "mismatch"
    msgs = [f.message for f in s.findings]
    assert msgs == [
        "p2: recorded finishing stack 152.50, settlement 140.00 (12.50 more)",
        "p3: recorded finishing stack 167.50, settlement 180.00 (12.50 less)",
    ]
    assert [f.code for f in s.findings] == ["finishing-stacks-mismatch"] * 2


def test_finishing_stacks_creating_chips():
    hand = make_hand([1000, 1000], finishing=[900, 1150], scale=2)
    s = settle(hand, FOLD_OUT, RB)
    assert codes(s) == ["finishing-stacks-mismatch", "chips-not-conserved"]
    assert "0.50 more" in s.findings[0].message and "0.50 created" in s.findings[1].message


def test_finishing_stacks_net_of_rake_match():
    s = settle(make_hand([1000, 1000], finishing=[900, 1090], scale=2), FOLD_OUT, RB)
    assert s.payout_check == "match" and not s.findings


def test_finishing_stacks_must_show_the_same_rake_as_winnings():
    hand = make_hand([1000, 1000], winnings=[0, 190], finishing=[900, 1080], scale=2)
    s = settle(hand, FOLD_OUT, RB)
    assert s.payout_check == "mismatch" and codes(s) == ["finishing-stacks-mismatch"]


def test_inf_starting_stack():
    hand = Hand(source="t", hand_key="", variant="NT", players=2, scale=2, antes=(0, 0),
                blinds_or_straddles=(0, 0), bring_in=None, small_bet=None, big_bet=None, min_bet=1,
                starting_stacks=(None, 1000), actions=(), action_texts=(), winnings=(0, 195))
    s = settle(hand, FOLD_OUT, RB)
    assert s.finishing_stacks == (None, 1100) and s.payout_check == "match" and s.rake == 5
    assert settlement_members(s, hand)["settlement"]["finishing_stacks"] == [None, Decimal("11.00")]


# --- undetermined winners: only what is provable ------------------------------------------

UNKNOWN_SHOWDOWN = make_replay([50, 120, 200, 20], ["KhKd", "????", "9c9d", "2c3d"], "KcJd9s5h2c",
                               folded=[False, False, False, True])


def test_undetermined_consistent_record():
    s = settle(make_hand([50, 120, 300, 100], winnings=[170, 136, 0, 0]), UNKNOWN_SHOWDOWN, RB)
    assert not s.determined and s.payout_check == "undetermined" and s.rake == 4
    assert s.received is None and s.finishing_stacks is None and not s.findings


def test_undetermined_paid_to_a_player_not_eligible():
    s = settle(make_hand([50, 120, 300, 100], winnings=[0, 140, 0, 170]), UNKNOWN_SHOWDOWN, RB)
    assert s.payout_check == "mismatch"
    assert [f.message for f in s.findings] == [
        "p4: recorded winnings 170, but p4 is eligible for no pot"]


def test_undetermined_more_than_the_main_pot_for_an_all_in_player():
    # p1 is all-in for 50: at most the 170 main pot
    s = settle(make_hand([50, 120, 300, 100], winnings=[200, 110, 0, 0]), UNKNOWN_SHOWDOWN, RB)
    assert s.payout_check == "mismatch"
    assert s.findings[0].message == "p1: recorded winnings 200, but p1 can receive at most 170 (the pots they are eligible for)"


def test_undetermined_total_above_the_pots():
    s = settle(make_hand([50, 120, 300, 100], winnings=[170, 140, 30, 0]), UNKNOWN_SHOWDOWN, RB)
    assert s.payout_check == "mismatch" and "chips-not-conserved" in codes(s)


def test_undetermined_all_zeros_is_not_recorded_either():
    s = settle(make_hand([50, 120, 300, 100], winnings=[0, 0, 0, 0]), UNKNOWN_SHOWDOWN, RB)
    assert s.payout_check == "not-recorded" and [f.code for f in s.findings] == ["winnings-not-recorded"]
    assert s.findings[0].message == ("the file records no payout: every winnings entry is 0 although the pots "
                                     "total 310; read as not recorded")  # 390 less p3's uncalled 80


def test_undetermined_finishing_stacks_out_of_range():
    hand = make_hand([50, 120, 300, 100], finishing=[0, 0, 100, 80])
    s = settle(hand, UNKNOWN_SHOWDOWN, RB)
    # p3 gets 80 back at least: 300 - 200 + 80 = 180 is its lowest possible stack
    assert s.payout_check == "mismatch"
    assert s.findings[0].message == "p3: recorded finishing stack 100 is outside what the hand allows (180 to 490)"
