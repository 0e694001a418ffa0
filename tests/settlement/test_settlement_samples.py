"""The settlement samples in samples/: exact pots, returns, stacks and payout verdicts."""

import json
from pathlib import Path

import pytest

from handaudit import audit

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _report(name):
    return next(audit([str(SAMPLES / f"{name}.phh")]))


def test_side_pots_and_return_side_pots_and_return():
    r = _report("side-pots-and-return")
    s = r.settlement
    assert [(p.amount, p.eligible) for p in s.pots] == [(150, (0, 1, 2)), (140, (1, 2))]
    assert [[(a.player, a.amount) for a in p.awards] for p in s.pots] == [[(0, 150)], [(1, 140)]]
    assert s.returned == (0, 0, 80)
    assert s.finishing_stacks == (150, 140, 180)
    assert (r.status, s.payout_check) == ("valid", "match")


def test_odd_chip_goes_left_of_the_button():
    r = _report("odd-chip-split")
    (pot,) = r.settlement.pots
    assert pot.amount == 5
    assert [(a.player, a.amount) for a in pot.awards] == [(1, 3), (2, 2)]
    assert r.settlement.payout_check == "match"


def test_recorded_stacks_that_move_chips_are_both_reported():
    r = _report("finishing-stacks-mismatch")
    found = [(f.code, f.actor) for f in r.findings]
    assert found == [("finishing-stacks-mismatch", "p1"), ("finishing-stacks-mismatch", "p2")]
    assert "10 more" in r.findings[0].message and "not rake" in r.findings[1].message
    assert r.to_json()["payout_check"] == "mismatch"
    json.dumps(r.to_json(), default=str)


def test_all_zero_winnings_are_not_recorded():
    r = _report("winnings-not-recorded")
    s = r.settlement
    assert [p.amount for p in s.pots] == [5] and s.returned == (0, 0, 4)
    assert s.received == (0, 0, 5) and s.finishing_stacks == (99, 98, 103)
    assert (s.payout_check, s.rake) == ("not-recorded", None)
    assert [(f.code, f.severity, f.action_index) for f in r.findings] == [("winnings-not-recorded", "warning", None)]
    assert r.status != "invalid"


def test_odd_chip_button_high_card_by_suit():
    """odd_chip_button: seat order from the button's left (default) vs high card by suit among
    the tied players' own cards (issue 15, item 4)."""
    path = str(SAMPLES / "odd-chip-high-card.phh")
    seat = next(audit([path]))
    (pot,) = seat.settlement.pots
    assert [(a.player, a.amount) for a in pot.awards] == [(1, 3), (2, 2)]
    assert pot.odd_chips == (1,)
    assert seat.settlement.payout_check == "mismatch"
    suit = next(audit([path], overrides=["odd_chip_button=high-card-by-suit"]))
    (pot,) = suit.settlement.pots
    assert [(a.player, a.amount) for a in pot.awards] == [(1, 2), (2, 3)]
    assert pot.odd_chips == (2,)
    assert "own cards" in pot.reason
    assert suit.settlement.payout_check == "match"


def test_a_raise_nobody_can_call_comes_back_uncalled():
    r = _report("raise-not-callable")
    assert [(f.code, f.severity, f.action_index, f.actor) for f in r.findings] == [
        ("raise-not-callable", "warning", 5, "p2")]
    assert r.findings[0].rule == "reading: Robert's Rules of Poker v11, Glossary, table stakes"
    s = r.settlement
    assert s.returned == (0, 50, 0)
    assert [(p.amount, p.eligible) for p in s.pots] == [(101, (1, 2))]
    assert s.received == (0, 101, 0) and s.finishing_stacks == (99, 251, 0)


def test_a_shortfall_within_the_rake_tolerance_is_rake():
    r = _report("rake-within-limit")
    s = r.settlement
    assert [p.amount for p in s.pots] == [21] and s.returned == (0, 0, 10)
    assert (s.payout_check, s.rake, s.convention) == ("match", 3, "net") and not r.findings
    for override in ("rake_limit_percent=0", "rake_rounding_units=0"):
        tight = next(audit([str(SAMPLES / "rake-within-limit.phh")], "tda-2026", [override])).settlement
        assert tight.payout_check == "mismatch", override
        assert [(f.code, f.actor) for f in tight.findings][:1] == [("winnings-mismatch", "p3")], override


def _awards(report):
    return [[(a.player, a.amount) for a in p.awards] for p in report.settlement.pots]


def test_odd_chip_stud_all_cards_or_hand_cards():
    """odd_chip_stud: p1 and p2 tie with a nine-high straight for 19. All the player's cards
    (Robert's, the house): p1's As wins the odd chip; the five cards of the hand (TDA, WSOP): p2's
    9d beats p1's 9c."""
    path = str(SAMPLES / "odd-chip-stud-all-cards.phh")
    for book, override in (("roberts-v11", []), ("house", []), ("tda-2026", ["odd_chip_stud=all-cards"])):
        r = next(audit([path], book, override))
        s = r.settlement
        assert [p.amount for p in s.pots] == [19] and s.contributions == (8, 8, 3), book
        assert _awards(r) == [[(0, 10), (1, 9)]] and s.pots[0].odd_chips == (0,), book
        assert s.finishing_stacks == (102, 101, 97) and s.payout_check == "match" and not r.findings, book
    for book, override in (("tda-2026", []), ("wsop-2023-live", []), ("roberts-v11", ["odd_chip_stud=hand-cards"])):
        r = next(audit([path], book, override))
        s = r.settlement
        assert _awards(r) == [[(0, 9), (1, 10)]] and s.pots[0].odd_chips == (1,), book
        assert "the five cards of the hand" in s.pots[0].reason, book
        assert s.finishing_stacks == (101, 102, 97) and s.payout_check == "mismatch", book
        assert [(f.code, f.actor) for f in r.findings] == [
            ("winnings-mismatch", "p1"), ("winnings-mismatch", "p2"),
            ("finishing-stacks-mismatch", "p1"), ("finishing-stacks-mismatch", "p2")], book


def test_short_deck_straight_beats_trips_unless_the_book_says_otherwise():
    """short_deck_trips_beat_straight: p3's queen-high straight beats p2's three tens (every
    built-in book); set true, the tens win the pot of 13."""
    path = str(SAMPLES / "short-deck-trips-vs-straight.phh")
    r = next(audit([path], "tda-2026"))
    s = r.settlement
    assert [(p.amount, p.eligible) for p in s.pots] == [(13, (1, 2))] and s.contributions == (1, 6, 6)
    assert _awards(r) == [[(2, 13)]] and s.finishing_stacks == (99, 94, 107)
    assert s.payout_check == "match" and not r.findings
    r = next(audit([path], "tda-2026", ["short_deck_trips_beat_straight=true"]))
    s = r.settlement
    assert _awards(r) == [[(1, 13)]] and s.finishing_stacks == (99, 107, 94)
    assert s.payout_check == "mismatch"
    assert [(f.code, f.actor) for f in r.findings] == [
        ("winnings-mismatch", "p2"), ("winnings-mismatch", "p3"),
        ("finishing-stacks-mismatch", "p2"), ("finishing-stacks-mismatch", "p3")]


def test_gross_winnings_match_with_the_return_counted():
    # p3's raise to 6 takes the blinds: a pot of 5 (1 + 2 + the 2 matched), 4 returned uncalled;
    # the file records 9, the pot plus the return
    r = _report("winnings-gross")
    (pot,) = r.settlement.pots
    assert (pot.amount, [(a.player, a.amount) for a in pot.awards]) == (5, [(2, 5)])
    assert r.settlement.returned == (0, 0, 4)
    assert r.settlement.finishing_stacks == (99, 98, 103)
    assert (r.status, r.settlement.payout_check) == ("valid", "match")
    assert [(f.code, f.severity) for f in r.findings] == [("winnings-gross", "info")]


def test_negative_blind_is_a_live_post():
    # p3's -2 is a post of 2 that counts toward its raise to 6: it puts in 6 in all, not 8, and
    # the 4 above the big blind come back uncalled; the pot is the blinds and p3's matched 2
    r = _report("negative-blind")
    (pot,) = r.settlement.pots
    assert (pot.amount, [(a.player, a.amount) for a in pot.awards]) == (5, [(2, 5)])
    assert r.settlement.returned == (0, 0, 4, 0)
    assert r.settlement.finishing_stacks == (99, 98, 103, 100)
    assert (r.status, r.settlement.payout_check) == ("valid", "match")
    assert [(f.code, f.severity) for f in r.findings] == [("negative-blind", "warning")]


@pytest.mark.parametrize(("book", "cited"), [
    ("tda-2026", "TDA 2026, table stakes"),
    ("roberts-v11", "Robert's Rules of Poker v11, Glossary, \"Table stakes\""),
    ("wsop-2023-live", "WSOP 2023 Live Action Rules, table stakes"),
    ("house", "House Betting Rules, table stakes"),
])
def test_winnings_findings_cite_the_runs_rulebook(repo, book, cited):
    """A payout finding cites the rule of the rulebook the hand is audited under, not one book's."""
    [r] = list(audit([str(repo / "samples" / "rake-no-flop-no-drop.phh")], rulebook=book))
    rules = {f.code: f.rule for f in r.findings}
    assert rules["winnings-mismatch"] == f"{cited} (reading: pots, side pots and returns)"
    assert rules["chips-not-conserved"].startswith(cited + "; settlement: ")
