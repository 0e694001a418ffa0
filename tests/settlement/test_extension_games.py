"""handaudit's extension variants (the games PHH 1.0 has no code for): each replayed and settled
to the chip, and the rules that make each game what it is (exactly two hole cards in 5- and
6-card Omaha and Courchevel, Courchevel's early board card, the fixed-limit draw's big bet)."""

from pathlib import Path

import pytest

from handaudit import audit
from handaudit.core.hand import Hand
from handaudit.core.variants import EXTENSION_VARIANTS, FIXED, NO, POT, VARIANTS
from handaudit.grammar.actions import parse_action
from handaudit.grammar.reader import read_text
from handaudit.grammar.writer import hand_text
from handaudit.rules.rulebook import load_rulebook
from handaudit.validator import replay

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
BOOK = load_rulebook("tda-2026")


def _report(name):
    return next(audit([str(SAMPLES / f"{name}.phh")]))


def _awards(report):
    return [[(a.player, a.amount, a.share) for a in p.awards] for p in report.settlement.pots]


def test_courchevel_hi_lo_splits_high_and_low():
    r = _report("courchevel-hi-lo")
    s = r.settlement
    assert (r.status, s.payout_check, r.findings) == ("valid", "match", ())
    assert [(p.amount, p.eligible) for p in s.pots] == [(41, (0, 2))]
    assert _awards(r) == [[(0, 21, "high"), (2, 20, "low")]]
    assert s.finishing_stacks == (104, 93, 103)


def test_five_card_omaha_uses_exactly_two_hole_cards():
    # p1's As and four spades on the board are no flush: a straight, beaten by p2's two-spade flush
    r = _report("five-card-omaha-two-hole-cards")
    s = r.settlement
    assert (r.status, s.payout_check) == ("valid", "match")
    assert [(p.amount, p.eligible) for p in s.pots] == [(36, (0, 1))]
    assert _awards(r) == [[(1, 36, "whole")]]
    assert s.finishing_stacks == (182, 218, 200)


def test_six_card_omaha_hi_lo_splits_the_low_half_with_the_odd_chip():
    r = _report("six-card-omaha-hi-lo")
    s = r.settlement
    assert (r.status, s.payout_check) == ("valid", "match")
    assert _awards(r) == [[(2, 9, "high"), (0, 5, "low"), (1, 4, "low")]]
    assert s.finishing_stacks == (99, 98, 103)


def test_five_card_draw_fixed_limit():
    r = _report("five-card-draw")
    s = r.settlement
    assert (r.status, s.payout_check) == ("valid", "match")
    assert _awards(r) == [[(1, 25, "whole")]]
    assert s.contributions == (1, 12, 12) and s.finishing_stacks == (99, 113, 88)


def _hand(variant: str, texts: list[str], stacks=(100, 100, 100), blinds=(1, 2, 0)) -> Hand:
    v = VARIANTS[variant]
    fixed = v.structure == FIXED
    return Hand(source="<test>", hand_key="", variant=variant, players=len(stacks), scale=0,
                antes=(0,) * len(stacks), blinds_or_straddles=blinds, bring_in=None,
                small_bet=2 if fixed else None, big_bet=4 if fixed else None, min_bet=None if fixed else 2,
                starting_stacks=stacks, actions=tuple(parse_action(t).action for t in texts),
                action_texts=tuple(texts))


_DEAL5 = ["d dh p1 2c7d9hJcKd", "d dh p2 AhAd4c8sTd", "d dh p3 9s9c5h5dQs"]


@pytest.mark.parametrize("variant", ["F5CD", "F2L1D"])
def test_fixed_limit_single_draw_bets_the_big_bet_after_the_draw(variant):
    # after the draw the bet is the big bet (4): a small bet (2) there is the wrong amount
    texts = _DEAL5 + ["p3 cc", "p1 cc", "p2 cc", "p1 sd", "p2 sd", "p3 sd", "p1 cbr 2"]
    found = [(f.code, f.action_index) for f in replay(_hand(variant, texts), BOOK).findings if f.severity == "error"]
    assert found == [("wrong-limit-amount", 9)]
    ok = _DEAL5 + ["p3 cc", "p1 cc", "p2 cc", "p1 sd", "p2 sd", "p3 sd", "p1 cbr 4", "p2 f", "p3 f"]
    rep = replay(_hand(variant, ok), BOOK)
    assert [f for f in rep.findings if f.severity == "error"] == [] and rep.contributions == (6, 2, 2)


_DEAL_C = ["d dh p1 KhKs9c9dTc", "d dh p2 6d6hQcQsJh", "d dh p3 2d4cJcJd5h"]


def test_courchevel_deals_one_board_card_before_the_first_round_and_two_on_the_flop():
    # the first flop card is due before the betting: a bet without it is out of turn
    found = [(f.code, f.action_index) for f in replay(_hand("PC", _DEAL_C + ["p3 cc"]), BOOK).findings]
    assert found == [("out-of-turn", 3), ("incomplete-hand", None)]
    # a three-card flop after it is one card too many
    texts = _DEAL_C + ["d db Ah", "p3 cc", "p1 cc", "p2 cc", "d db 7dKc3s"]
    found = [(f.code, f.action_index) for f in replay(_hand("PC", texts), BOOK).findings if f.severity == "error"]
    assert found == [("wrong-card-count", 7)]
    assert "2 due" in replay(_hand("PC", texts), BOOK).findings[0].message


def test_five_card_omaha_hole_card_count_is_checked():
    texts = ["d dh p1 AsKdKhQc", "d dh p2 3s2s9h9c8d", "d dh p3 7c7h4d5d6h"]
    found = [(f.code, f.action_index) for f in replay(_hand("P5O", texts), BOOK).findings if f.severity == "error"]
    assert found == [("wrong-card-count", 0)]


def test_pot_limit_omaha_hi_lo_caps_a_raise_at_the_pot():
    # blinds 1 and 2: p3 may raise to at most 7 (the pot after calling: 2 + 3 + 2)
    texts = ["d dh p1 AhAd2c3c", "d dh p2 KhKdQcQd", "d dh p3 7s7h8s8h", "p3 cbr 8"]
    found = [(f.code, f.action_index) for f in replay(_hand("PO/8", texts), BOOK).findings if f.severity == "error"]
    assert found == [("over-pot-limit", 3)]
    assert [f for f in replay(_hand("PO/8", texts[:3] + ["p3 cbr 7"]), BOOK).findings if f.severity == "error"] == []


def test_no_limit_omaha_allows_any_raise():
    texts = ["d dh p1 AhAd2c3c", "d dh p2 KhKdQcQd", "d dh p3 7s7h8s8h", "p3 cbr 60"]
    assert [f for f in replay(_hand("NO/8", texts), BOOK).findings if f.severity == "error"] == []


def test_every_extension_variant_is_documented_as_such():
    readme = (SAMPLES.parent / "README.md").read_text(encoding="utf-8")
    rules = (SAMPLES.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    for code, v in EXTENSION_VARIANTS.items():
        assert not v.phh and v.structure in (FIXED, POT, NO)
        assert f"`{code}`" in readme, code
        assert f"`{code}`" in rules, code


@pytest.mark.parametrize("name", ["courchevel-hi-lo", "five-card-omaha-two-hole-cards", "six-card-omaha-hi-lo",
                                  "five-card-draw"])
def test_extension_variant_hands_round_trip_through_phh_text(name):
    # what `convert` writes for an extension game reads back to the same hand and the same audit
    first = _report(name)
    read = read_text(hand_text(first.hand))
    assert read.hand is not None and not read.findings
    assert read.hand.variant == first.hand.variant and read.hand.actions == first.hand.actions


_STUD_TEXTS = ["d dh p1 7c8dKd", "d dh p2 2h3h4c", "d dh p3 9sTsQh", "p2 pb", "p3 cbr 5", "p1 cc", "p2 cc",
               "d dh p1 Kc", "d dh p2 9c", "d dh p3 5h"]


def _stud(variant: str, texts: list[str], book: str = "tda-2026"):
    hand = Hand(source="<test>", hand_key="", variant=variant, players=3, scale=0, antes=(1, 1, 1),
                blinds_or_straddles=(0, 0, 0), bring_in=2, small_bet=5, big_bet=10, min_bet=None,
                starting_stacks=(100, 100, 100), actions=tuple(parse_action(t).action for t in texts),
                action_texts=tuple(texts))
    return [(f.code, f.action_index) for f in replay(hand, load_rulebook(book)).findings if f.severity == "error"]


def test_open_pair_on_fourth_street_allows_the_big_bet_and_then_raises_are_big():
    # a small bet, then a raise by the big bet: allowed; after it, a raise by the small bet is wrong
    assert _stud("F7S", _STUD_TEXTS + ["p1 cbr 5", "p2 cbr 15", "p3 cc", "p1 cc"]) == []
    assert _stud("F7S", _STUD_TEXTS + ["p1 cbr 10", "p2 cbr 15"]) == [("wrong-limit-amount", 11)]
    # no pair showing: fourth street is the small bet
    no_pair = [t.replace("Kc", "Jc") for t in _STUD_TEXTS]
    assert _stud("F7S", no_pair + ["p1 cbr 10"]) == [("wrong-limit-amount", 10)]
    # stud hi/lo and razz have no such option
    assert _stud("F7S/8", _STUD_TEXTS + ["p1 cbr 10"]) == [("wrong-limit-amount", 10)]
