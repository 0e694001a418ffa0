"""Who wins each pot, splits and odd chips (button and stud), hi/lo halves, unknown cards."""

from __future__ import annotations

from decimal import Decimal

from handaudit.core.cards import cards_from_text as C
from handaudit.core.hand import Hand
from handaudit.settlement import settle
from handaudit.reports.contract import settlement_members
from handaudit.settlement.showdown import split
from handaudit.validator.outcome import Replay


from helpers import settlement_rulebook as rulebook

RB = rulebook()


def make_hand(stacks, variant="NT", scale=0, **kw):
    n = len(stacks)
    return Hand(source="test", hand_key="", variant=variant, players=n, scale=scale, antes=(0,) * n,
                blinds_or_straddles=(0,) * n, bring_in=None, small_bet=None, big_bet=None, min_bet=1,
                starting_stacks=tuple(stacks), actions=(), action_texts=(), **kw)


def make_replay(contributions, hole, board="", folded=None, shown=None, complete=True):
    n = len(contributions)
    folded = tuple(folded or (False,) * n)
    hole = tuple(C(h) for h in hole)
    showdown = sum(not f for f in folded) >= 2
    if shown is None:
        shown = tuple(None if f or not showdown else True for f in folded)
    return Replay(findings=(), records=(), complete=complete, contributions=tuple(contributions),
                  dead=(0,) * n, folded=folded, all_in=(False,) * n, hole=hole,
                  up=tuple((False,) * len(h) for h in hole), board=C(board), shown=tuple(shown),
                  showdown=showdown)


def awards(s, pot=0):
    return [(a.player + 1, a.amount, a.share) for a in s.pots[pot].awards]


ROYAL_BOARD = "AsKsQsJsTs"  # the board plays: every hold'em hand ties


def test_split_helper_14_three_ways():
    assert split(14, [0, 1, 2]) == [5, 5, 4]
    assert split(15, [0, 1, 2, 3]) == [4, 4, 4, 3]
    assert split(15, [3, 1]) == [8, 7]


def test_two_way_tie_odd_chip_to_first_left_of_button():
    hand = make_hand([100, 100, 100])
    # p1 folded: p2 and p3 tie; 15 in the pot, the odd chip to p2 (lowest index still in)
    rep = make_replay([5, 5, 5], ["2c3d", "4c5d", "6c7d"], ROYAL_BOARD, folded=[True, False, False])
    s = settle(hand, rep, RB)
    assert awards(s) == [(2, 8, "whole"), (3, 7, "whole")]
    assert s.pots[0].odd_chips == (1,)  # 0-based: p2


def test_three_way_tie_14_is_5_5_4():
    hand = make_hand([100] * 4)
    rep = make_replay([0, 5, 5, 4], ["2c3d", "4c5d", "6c7d", "8c9d"], ROYAL_BOARD,
                      folded=[True, False, False, False])
    s = settle(hand, rep, RB)
    # 4 x 3 = 12 main pot + 1 x 2 side pot (p2, p3): check the 3-way split of a 14 pot directly
    assert s.pots[0].amount == 12
    hand = make_hand([100] * 3)
    rep = make_replay([5, 5, 4], ["4c5d", "6c7d", "8c9d"], ROYAL_BOARD)
    s = settle(hand, rep, RB)
    assert [p.amount for p in s.pots] == [12, 2]
    rep = make_replay([5, 5, 5], ["4c5d", "6c7d", "8c9d"], ROYAL_BOARD)
    hand = make_hand([100] * 3)
    s = settle(hand, rep, RB)
    assert s.pots[0].amount == 15
    # the 14-chip case: a dead chip with nobody's level (p4 folded after 2)
    rep = make_replay([4, 4, 4, 2], ["4c5d", "6c7d", "8c9d", "2c3d"], ROYAL_BOARD,
                      folded=[False, False, False, True])
    s = settle(make_hand([100] * 4), rep, RB)
    assert s.pots[0].amount == 14
    assert awards(s) == [(1, 5, "whole"), (2, 5, "whole"), (3, 4, "whole")]
    assert s.received == (5, 5, 4, 0)


def test_four_way_tie_two_odd_chips():
    rep = make_replay([5, 5, 5, 4], ["4c5d", "6c7d", "8c9d", "2c3d"], ROYAL_BOARD)
    s = settle(make_hand([100] * 4), rep, RB)
    # main pot 16 four ways (even), side pot 3 three ways (even)
    assert awards(s, 0) == [(1, 4, "whole"), (2, 4, "whole"), (3, 4, "whole"), (4, 4, "whole")]
    rep = make_replay([5, 5, 4, 4, 1], ["4c5d", "6c7d", "8c9d", "2c3d", "2d3c"], ROYAL_BOARD,
                      folded=[False, False, False, False, True])
    s = settle(make_hand([100] * 5), rep, RB)
    # 4 x 4 + 1 folded = 17 four ways: 5, 4, 4, 4 ; side pot 2 two ways
    assert awards(s, 0) == [(1, 5, "whole"), (2, 4, "whole"), (3, 4, "whole"), (4, 4, "whole")]
    rep = make_replay([6, 6, 6, 6, 2], ["4c5d", "6c7d", "8c9d", "2c3d", "2d3c"], ROYAL_BOARD,
                      folded=[False, False, False, False, True])
    s = settle(make_hand([100] * 5), rep, RB)
    assert s.pots[0].amount == 26
    assert awards(s, 0) == [(1, 7, "whole"), (2, 7, "whole"), (3, 6, "whole"), (4, 6, "whole")]


def test_split_in_cents():
    # 0.15 between two players at scale 2: 0.08 / 0.07, never 0.075
    hand = make_hand([1000, 1000], scale=2)
    rep = make_replay([8, 7], ["4c5d", "6c7d"], ROYAL_BOARD)
    s = settle(hand, rep, RB)
    assert s.returned == (1, 0)
    rep = make_replay([5, 5, 5], ["4c5d", "6c7d", "2c3d"], ROYAL_BOARD, folded=[False, False, True])
    s = settle(make_hand([1000] * 3, scale=2), rep, RB)
    assert awards(s) == [(1, 8, "whole"), (2, 7, "whole")]
    out = settlement_members(s, make_hand([1000] * 3, scale=2))["settlement"]
    assert out["pots"][0]["amount"] == Decimal("0.15")
    assert [a["amount"] for a in out["pots"][0]["awards"]] == [Decimal("0.08"), Decimal("0.07")]
    assert out["winnings"] == [Decimal("0.08"), Decimal("0.07"), Decimal("0.00")]


def test_side_pots_settled_on_their_own():
    # the side-pots-and-return example: A wins the main pot, B the side pot, C gets only the return
    rep = make_replay([50, 120, 200], ["KhKd", "JcJh", "9c9d"], "KcJd9s5h2c")
    s = settle(make_hand([50, 120, 300]), rep, RB)
    assert awards(s, 0) == [(1, 150, "whole")]
    assert awards(s, 1) == [(2, 140, "whole")]
    assert s.pots[0].awards[0].hand == "three of a kind, kings, kickers J-9"


def test_mucked_hand_cannot_win_and_last_one_takes_it():
    # p1 has the best hand but mucks; p2 is the only one left who showed
    rep = make_replay([50, 50], ["KhKd", "2c3d"], "KcJd9s5h2s", shown=[False, True])
    s = settle(make_hand([100, 100]), rep, RB)
    assert awards(s) == [(2, 100, "whole")]
    assert "mucked" in s.pots[0].reason


def test_fold_out_goes_to_the_last_player_whatever_the_cards():
    rep = make_replay([30, 10], ["????", "????"], folded=[False, True])
    s = settle(make_hand([100, 100]), rep, RB)
    assert s.determined and awards(s) == [(1, 20, "whole")] and s.returned == (20, 0)


def test_unknown_cards_leave_the_pot_undetermined_but_pots_exact():
    rep = make_replay([50, 120, 200], ["KhKd", "????", "9c9d"], "KcJd9s5h2c")
    s = settle(make_hand([50, 120, 300]), rep, RB)
    assert not s.determined
    assert s.received is None and s.finishing_stacks is None
    assert s.returned == (0, 0, 80)
    assert [p.amount for p in s.pots] == [150, 140]
    assert all(not p.awards for p in s.pots)
    out = settlement_members(s, make_hand([50, 120, 300]))["settlement"]
    assert out["determined"] is False and out["winnings"] is None and out["finishing_stacks"] is None


def test_incomplete_hand_is_undetermined():
    rep = make_replay([50, 50], ["KhKd", "2c3d"], "KcJd9s", complete=False)
    s = settle(make_hand([100, 100]), rep, RB)
    assert not s.determined and s.pots[0].amount == 100 and not s.pots[0].awards


# --- hi/lo ---------------------------------------------------------------------------------

# FO/8 board A-2-3 low: p1 and p2 both make a wheel (a 5-high straight and the best low);
# p3 makes aces full and no low
HILO_BOARD = "As2c3dKhKd"
HILO_HOLE = ["4c5hQsQh", "4d5s9c9h", "AcAd7h7s"]


def test_hilo_odd_chip_to_high_half():
    # p1 (wheel low, two pair high) vs p3 (aces full, no low): 15 -> high 8 to p3, low 7 to p1
    rep = make_replay([5, 0, 5, 5], HILO_HOLE[:1] + ["2h2s3c3s"] + HILO_HOLE[2:] + ["6c6d8c8d"],
                      HILO_BOARD, folded=[False, True, False, True])
    s = settle(make_hand([100] * 4, variant="FO/8"), rep, RB)
    assert s.pots[0].amount == 15
    assert awards(s) == [(3, 8, "high"), (1, 7, "low")]


def test_hilo_quartering_with_odd_chips():
    # 31: high half 16 to p3; low half 15 split between p1 and p2 (8 / 7, p1 first left of button)
    rep = make_replay([10, 10, 10, 1], HILO_HOLE + ["6c6d8c8d"], HILO_BOARD,
                      folded=[False, False, False, True])
    s = settle(make_hand([100] * 4, variant="FO/8"), rep, RB)
    assert s.pots[0].amount == 31
    assert awards(s) == [(3, 16, "high"), (1, 8, "low"), (2, 7, "low")]
    assert s.pots[0].odd_chips == (0,)  # 0-based: p1
    assert s.received == (8, 7, 16, 0)


def test_hilo_no_qualifying_low_high_scoops():
    # board with only two low cards: nobody can make an eight-or-better low
    rep = make_replay([10, 10, 10], HILO_HOLE, "As2cKhKdQc")
    s = settle(make_hand([100] * 3, variant="FO/8"), rep, RB)
    assert awards(s) == [(3, 30, "whole")]
    assert "scoops" in s.pots[0].reason


def test_hilo_single_contender_with_low_gets_both_halves():
    # the corpus convention (PokerKit): an uncontested side pot at showdown is still halved
    # p1 all-in for 10; p3 and p4 folded after 15 and 13: side pot 3 x 3 + 2 x 2 = 13, p2's alone
    rep = make_replay([10, 15, 15, 13], HILO_HOLE + ["6c6d8c8d"], HILO_BOARD,
                      folded=[False, False, True, True])
    s = settle(make_hand([10, 100, 100, 100], variant="FO/8"), rep, RB)
    assert [p.amount for p in s.pots] == [40, 13]
    # (p1 and p2 both make the wheel straight for high and the wheel for low: both halves split)
    assert awards(s, 0) == [(1, 10, "high"), (2, 10, "high"), (1, 10, "low"), (2, 10, "low")]
    assert awards(s, 1) == [(2, 7, "high"), (2, 6, "low")]


# --- stud odd chip by suit -------------------------------------------------------------------

# Both make the 9-high straight 5-6-7-8-9. p1's best card overall is the As, outside its hand;
# within the five cards, p2's 9s beats p1's 9d.
STUD_P1 = "5c6d7h8c9dAs2c"
STUD_P2 = "5d6c7c8d9sKh3d"


def test_stud_odd_chip_all_cards_reading():
    rep = make_replay([7, 7, 1], [STUD_P1, STUD_P2, "2h2d4h4s3h3sTc"], folded=[False, False, True])
    s = settle(make_hand([100] * 3, variant="F7S"), rep, rulebook(odd_chip_stud="all-cards"))
    assert s.pots[0].amount == 15
    assert awards(s) == [(1, 8, "whole"), (2, 7, "whole")]  # As is the highest card by suit


def test_stud_odd_chip_hand_cards_reading():
    rep = make_replay([7, 7, 1], [STUD_P1, STUD_P2, "2h2d4h4s3h3sTc"], folded=[False, False, True])
    s = settle(make_hand([100] * 3, variant="F7S"), rep, rulebook(odd_chip_stud="hand-cards"))
    assert awards(s) == [(1, 7, "whole"), (2, 8, "whole")]  # 9s beats 9d within the straights
    assert s.pots[0].odd_chips == (1,)  # 0-based: p2


def test_razz_odd_chip_to_lowest_card_by_suit():
    # both have 5-4-3-2-A; p1 holds the Ac (lowest card by suit), p2 the Ah
    rep = make_replay([7, 7, 1], ["Ac2d3d4d5dKcKd", "Ah2c3c4c5cQhQs", "9h9dThTsJhJsJd"],
                      folded=[False, False, True])
    s = settle(make_hand([100] * 3, variant="FR"), rep, RB)
    assert awards(s) == [(1, 8, "whole"), (2, 7, "whole")]


def test_short_deck_trips_vs_straight_parameter():
    # p1: straight A-6-7-8-9 (short-deck wheel); p2: trips
    board = "6h7d8cKsKd"
    rep = make_replay([10, 10], ["As9c", "KhQc"], board)
    s = settle(make_hand([100, 100], variant="NS"), rep, RB)
    assert awards(s) == [(1, 20, "whole")]
    s = settle(make_hand([100, 100], variant="NS"), rep, rulebook(short_deck_trips_beat_straight=True))
    assert awards(s) == [(2, 20, "whole")]


def test_draw_and_badugi_games_compare_final_hands():
    rep = make_replay([10, 10], ["7c5d4h3s2c", "8c6d4d3h2s"])
    s = settle(make_hand([100, 100], variant="N2L1D"), rep, RB)
    assert awards(s) == [(1, 20, "whole")]
    rep = make_replay([10, 10], ["Ac2d3h4s", "Ad2c3c4h"])
    s = settle(make_hand([100, 100], variant="FB"), rep, RB)
    assert awards(s) == [(1, 20, "whole")]
    assert "badugi" in s.pots[0].awards[0].hand
