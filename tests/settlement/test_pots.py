"""Pots from contributions: returns, main and side pots, folds, antes (trimmed or not), dead money."""

from __future__ import annotations


from handaudit.core.cards import cards_from_text as C
from handaudit.core.hand import Hand
from handaudit.settlement import settle
from handaudit.reports.contract import settlement_members
from handaudit.settlement.pots import (
    ante_trim_returns,
    build_pots,
    effective_antes,
    split_dead,
)
from handaudit.validator.outcome import Replay

from helpers import settlement_rulebook

RB = settlement_rulebook()


def make_hand(stacks, variant="NT", antes=None, trim=False, **kw):
    n = len(stacks)
    return Hand(source="test", hand_key="", variant=variant, players=n, scale=kw.pop("scale", 0),
                antes=tuple(antes or (0,) * n), blinds_or_straddles=(0,) * n, bring_in=None,
                small_bet=None, big_bet=None, min_bet=1, starting_stacks=tuple(stacks), actions=(),
                action_texts=(), ante_trimming_status=trim, **kw)


def make_replay(contributions, folded=None, hole=None, board="", shown=None, dead=None,
                showdown=None, complete=True):
    n = len(contributions)
    folded = tuple(folded or (False,) * n)
    hole = tuple(C(h) for h in hole) if hole else ((),) * n
    if showdown is None:
        showdown = sum(not f for f in folded) >= 2
    if shown is None:
        shown = tuple(None if f or not showdown else True for f in folded)
    return Replay(findings=(), records=(), complete=complete, contributions=tuple(contributions),
                  dead=tuple(dead or (0,) * n), folded=folded, all_in=(False,) * n, hole=hole,
                  up=tuple((False,) * len(h) for h in hole), board=C(board), shown=tuple(shown),
                  showdown=showdown)


def pots_of(contributions, folded=None, dead=None, antes=None, trim=False):
    n = len(contributions)
    returned, pots = build_pots(contributions, dead or [0] * n, folded or [False] * n,
                                antes or [0] * n, trim)
    return returned, [(amount, tuple(p + 1 for p in elig)) for amount, elig in pots]


def test_side_pots_and_return_return_main_and_side_pot():
    returned, pots = pots_of([50, 120, 200])
    assert returned == [0, 0, 80]  # 200 - 120, returned first, never a pot
    assert pots == [(150, (1, 2, 3)), (140, (2, 3))]


def test_everyone_matched_nothing_returned():
    assert pots_of([40, 40, 40]) == ([0, 0, 0], [(120, (1, 2, 3))])


def test_tie_for_largest_returns_nothing():
    returned, pots = pots_of([100, 100, 30])
    assert returned == [0, 0, 0]
    assert pots == [(90, (1, 2, 3)), (140, (1, 2))]


def test_fold_out_one_pot_with_the_matched_part():
    # p1 raises to 60, p2 (big blind 20) and p3 (10) fold: 40 uncalled, pot 20 + 20 + 10
    returned, pots = pots_of([60, 20, 10], folded=[False, True, True])
    assert returned == [40, 0, 0]
    assert pots == [(50, (1,))]


def test_several_side_pots_with_folds_at_each_level():
    # p1 all-in 20, p2 all-in 50, p3 all-in 120, p4 and p5 cover; p6 folded after 10,
    # p7 folded after 35 (between levels), p5 folded after 90, p4 bets 200 and is uncalled beyond 120
    contributions = [20, 50, 120, 200, 90, 10, 35]
    folded = [False, False, False, False, True, True, True]
    returned, pots = pots_of(contributions, folded)
    assert returned == [0, 0, 0, 80, 0, 0, 0]
    # level 20: 20 x 6 + 10 (p6) = 130, eligible p1..p4
    # level 50: 30 x 4 (p2, p3, p4, p5) + 15 (p7: 35 - 20) = 135, eligible p2..p4
    # level 90 (p5's fold) does not change who can win: merged with level 120:
    #   p3, p4: 70 each, p5: 40 -> 180, eligible p3, p4
    assert pots == [(130, (1, 2, 3, 4)), (135, (2, 3, 4)), (180, (3, 4))]
    total = sum(a for a, _ in pots) + sum(returned)
    assert total == sum(contributions)


def test_folded_money_above_every_live_player_joins_the_pot_below():
    # p3 folded after putting in more than the two all-in players still in (it can happen
    # with a fold to a later all-in re-raise); nobody still in reached it.
    returned, pots = pots_of([30, 30, 50, 50], folded=[False, False, True, True])
    assert returned == [0, 0, 0, 0]
    assert pots == [(160, (1, 2))]


def test_pots_with_same_eligible_players_are_one_pot():
    # the only level change is a folded player's: one pot
    assert pots_of([100, 100, 40], folded=[False, False, True]) == ([0, 0, 0], [(240, (1, 2))])


def test_antes_not_trimmed_all_in_on_ante_can_win_all_antes():
    # generated corpus PO_0013 (flag all_in_on_ante): p6 has 28 for a 90 ante
    contributions = [11005, 577, 90, 6924, 5192, 28, 4022, 90, 1931]
    folded = [False, False, True, False, False, False, False, True, True]
    stacks = [19962, 577, 22908, 6924, 5192, 28, 4022, 1992, 23434]
    antes = effective_antes([90] * 9, stacks, contributions)
    assert antes == (90, 90, 90, 90, 90, 28, 90, 90, 90)
    returned, pots = pots_of(contributions, folded, antes=antes, trim=False)
    assert returned == [4081, 0, 0, 0, 0, 0, 0, 0, 0]
    assert pots == [(748, (1, 2, 4, 5, 6, 7)), (2922, (1, 2, 4, 5, 7)), (15134, (1, 4, 5, 7)),
                    (3510, (1, 4, 5)), (3464, (1, 4))]


def test_antes_trimmed_all_in_on_ante_wins_only_its_level():
    contributions = [11005, 577, 90, 6924, 5192, 28, 4022, 90, 1931]
    folded = [False, False, True, False, False, False, False, True, True]
    antes = [90, 90, 90, 90, 90, 28, 90, 90, 90]
    returned, pots = pots_of(contributions, folded, antes=antes, trim=True)
    assert returned == [4081, 0, 0, 0, 0, 0, 0, 0, 0]
    # level 28 (ante counted like a bet): 28 x 9
    assert pots[0] == (252, (1, 2, 4, 5, 6, 7))
    assert pots[1][1] == (1, 2, 4, 5, 7)
    assert sum(a for a, _ in pots) == sum(contributions) - 4081


def test_trimming_returns_an_unmatched_ante_like_pokerkit():
    # a big-blind ante with ante_trimming_status = true: PokerKit trims it back to the
    # second-largest ante (0), so it is returned (WSOP 2019 hand of the real corpus)
    assert ante_trim_returns([0, 500, 0, 0]) == [0, 500, 0, 0]
    assert ante_trim_returns([5, 5, 5]) == [0, 0, 0]
    returned, _ = pots_of([100, 600, 100, 0], folded=[False, False, False, True],
                          antes=[0, 500, 0, 0], trim=True)
    assert returned == [0, 500, 0, 0]
    returned, pots = pots_of([100, 600, 100, 0], folded=[False, False, False, True],
                             antes=[0, 500, 0, 0], trim=False)
    assert returned == [0, 0, 0, 0] and pots == [(800, (1, 2, 3))]


def test_heads_up_antes_swap_in_button_games():
    # PHH/PokerKit: heads-up p1 is the big blind, so a big-blind ante [0, 6] is p1's
    assert effective_antes([0, 6], [100, 100], [18, 12]) == (6, 0)
    assert effective_antes([0, 6], [100, 100], [18, 12], swap_heads_up=False) == (0, 6)


def test_effective_ante_capped_by_stack_and_contribution():
    assert effective_antes([10, 10, 10], [5, None, 100], [5, 10, 3]) == (5, 10, 3)


def test_dead_blind_is_in_the_pot_but_adds_no_eligibility():
    # p3 posts a dead small blind 5 plus a live 10 and is all-in for that; p1, p2 put in 50
    returned, pots = pots_of([50, 50, 15], dead=[0, 0, 5])
    assert returned == [0, 0, 0]
    # p3's live 10 makes a level of 30; the dead 5 goes into that first pot
    assert pots == [(35, (1, 2, 3)), (80, (1, 2))]


def test_engine_dead_holds_antes_too():
    assert split_dead([3, 3, 8], [3, 3, 3]) == (0, 0, 5)
    assert split_dead([0, 0, 5], [3, 3, 3]) == (0, 0, 5)  # dead blinds only


def test_detail_parts_add_up():
    _, pots = build_pots([50, 120, 200], [0, 0, 0], [False] * 3, [0, 0, 0], False, detail=True)
    assert [(a, parts) for a, _, parts in pots] == [(150, [50, 50, 50]), (140, [0, 70, 70])]


def test_settle_pots_match_build_pots_and_json_numbers():
    hand = make_hand([50, 120, 300])
    rep = make_replay([50, 120, 200], hole=["KhKd", "JcJh", "9c9d"], board="KcJd9s5h2c")
    s = settle(hand, rep, RB)
    out = settlement_members(s, hand)["settlement"]
    assert out["returned"] == [0, 0, 80]
    assert [(p["amount"], p["eligible"]) for p in out["pots"]] == [(150, [1, 2, 3]), (140, [2, 3])]
