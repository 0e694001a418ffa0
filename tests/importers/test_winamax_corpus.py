"""The Winamax importer over every file of the shared samples (../shared/corpus/sites/winamax).

Per hand: its status, PHH variant, players, actions and the finding codes of its audit under
TDA 2026 (checked by hand against each source text), then the site's own figures reconciled
(Winamax's total pot is after the rake and keeps the uncalled bet, which its bettor "collects"),
then a few hands in detail. Of the samples: two are 5-card Omaha (no PHH code); InValidHand_1.txt
misspells its header ("Winaax Poker"), so it holds no hand header (its PRE-FLOP marker still
tells it a log). Winamax writes the showdown's shows in an order of its own (the SitAndGo hand: the
caller's first), not the order shown in: the importer puts them in TDA Rule 16's order.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from handaudit.importers import read_any
from handaudit.importers.common import split_log
from handaudit.importers.inputs import expand_inputs, read_inputs
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from helpers import CORPUS

NAME = "Winamax"
SITES = CORPUS / "sites" / "winamax"
CONTRADICTORY: set[str] = set()
CHECKED = 39

# (file, hand key, status, variant, players, actions, finding codes)
HANDS = [
    ('italytoast/Winamax/CashGame/GameTypeTests/NoLimitHoldem.txt', '1', 'valid', 'NT', 3, 12, ('site-encoding',)),
    ('italytoast/Winamax/CashGame/GameTypeTests/PotLimitFiveCardOmahaHiLo.txt', '1', 'valid', 'P5O/8', 4, 8, ()),
    ('italytoast/Winamax/CashGame/GameTypeTests/PotLimitOmaha.txt', '1', 'valid', 'PO', 2, 15, ('site-encoding',)),
    ('italytoast/Winamax/CashGame/GeneralHands/GeneralHand.txt', '1', 'valid', 'NT', 2, 16, ()),
    ('italytoast/Winamax/CashGame/GeneralHands/HeroName.txt', '1', 'valid', 'NT', 2, 4, ()),
    ('italytoast/Winamax/CashGame/GeneralHands/NoRake.txt', '1', 'valid', 'PO', 5, 9, ()),
    ('italytoast/Winamax/CashGame/HandActionTests/3BetHand.txt', '1', 'valid', 'NT', 4, 12, ()),
    ('italytoast/Winamax/CashGame/HandActionTests/AllInHandWithShowdown.txt', '1', 'valid', 'NT', 5, 16, ()),
    ('italytoast/Winamax/CashGame/HandActionTests/BasicHand.txt', '1', 'valid', 'NT', 5, 15, ()),
    ('italytoast/Winamax/CashGame/HandActionTests/FoldedPreflop.txt', '1', 'valid', 'NT', 4, 8, ()),
    ('italytoast/Winamax/CashGame/HandActionTests/PostingDead.txt', '1', 'valid', 'NT', 5, 15, ()),
    ('italytoast/Winamax/CashGame/HandActionTests/UncalledBet.txt', '1', 'valid', 'P5O', 3, 11, ()),
    ('italytoast/Winamax/CashGame/Limits/Limit1.txt', '1', 'valid', 'NT', 4, 7, ()),
    ('italytoast/Winamax/CashGame/Limits/Limit2.txt', '1', 'valid', 'NT', 4, 7, ()),
    ('italytoast/Winamax/CashGame/Limits/Limit3.txt', '1', 'valid', 'NT', 5, 21, ()),
    ('italytoast/Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt', '1', 'valid', 'NT', 2, 4, ()),
    ('italytoast/Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt', '2', 'valid', 'NT', 2, 11, ()),
    ('italytoast/Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt', '3', 'valid', 'NT', 3, 9, ()),
    ('italytoast/Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt', '4', 'valid', 'NT', 4, 8, ()),
    ('italytoast/Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt', '5', 'valid', 'NT', 4, 18, ()),
    ('italytoast/Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt', '6', 'valid', 'NT', 4, 12, ()),
    ('italytoast/Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt', '7', 'valid', 'NT', 5, 19, ()),
    ('italytoast/Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt', '8', 'valid', 'NT', 5, 10, ()),
    ('italytoast/Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt', '9', 'valid', 'NT', 4, 8, ()),
    ('italytoast/Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt', '10', 'valid', 'NT', 4, 8, ()),
    ('italytoast/Winamax/CashGame/PlayerTests/NoHoleCards.txt', '1', 'valid', 'NT', 5, 10, ()),
    ('italytoast/Winamax/CashGame/PlayerTests/OmahaShowdown.txt', '1', 'valid', 'PO', 5, 29, ()),
    ('italytoast/Winamax/CashGame/PlayerTests/WithSittingOut.txt', '1', 'valid', 'PO', 4, 20, ()),
    ('italytoast/Winamax/CashGame/Seats/HeadsUp.txt', '1', 'valid', 'NT', 2, 3, ()),
    ('italytoast/Winamax/CashGame/StreetTests/Flop.txt', '1', 'valid', 'NT', 2, 8, ()),
    ('italytoast/Winamax/CashGame/StreetTests/Preflop.txt', '1', 'valid', 'NT', 2, 3, ()),
    ('italytoast/Winamax/CashGame/StreetTests/River.txt', '1', 'valid', 'NT', 2, 16, ()),
    ('italytoast/Winamax/CashGame/StreetTests/Turn.txt', '1', 'valid', 'NT', 2, 12, ()),
    ('italytoast/Winamax/CashGame/Tables/Table1.txt', '1', 'valid', 'NT', 2, 8, ()),
    ('italytoast/Winamax/CashGame/Tables/Table2.txt', '1', 'valid', 'NT', 2, 4, ()),
    ('italytoast/Winamax/CashGame/Tables/Table3.txt', '1', 'valid', 'NT', 5, 15, ()),
    ('italytoast/Winamax/CashGame/Tables/Table4.txt', '1', 'valid', 'NT', 2, 5, ()),
    ('italytoast/Winamax/CashGame/ValidHandTests/InValidHand_1.txt', '', 'unreadable', None, None, None, ('site-unreadable-line',)),
    ('italytoast/Winamax/MultiTableTournament/GeneralHands/GeneralHand.txt', '1', 'valid', 'NT', 3, 6, ()),
    ('italytoast/Winamax/SitAndGo/GeneralHands/GeneralHand.txt', '1', 'valid', 'PO', 6, 30, ()),
]

@pytest.fixture(scope="module")
def audited():
    if not SITES.is_dir():
        pytest.skip(f"no {NAME} samples at {SITES}")
    book = load_rulebook("tda-2026")
    out = []
    for path in expand_inputs([str(SITES)]):
        for chunk in read_inputs(path):
            read = read_any(chunk)
            out.append((str(Path(path).relative_to(SITES)), chunk, read, audit_read(read, book, chunk.index)))
    return out


def test_every_file_is_found_by_its_content():
    files = {str(p.relative_to(SITES)) for p in SITES.rglob("*.txt")}
    found = {str(Path(p).relative_to(SITES)) for p in expand_inputs([str(SITES)])}
    assert found == files


def test_every_hand_as_expected(audited):
    got = []
    for rel, chunk, read, report in audited:
        hand = read.hand
        got.append((rel, chunk.hand_key, report.status, hand.variant if hand else None,
                    hand.players if hand else None, len(hand.actions) if hand else None,
                    tuple(sorted({f.code for f in report.findings}))))
    assert got == HANDS


def _units(text: str, scale: int) -> int:
    whole, _, frac = text.partition(".")
    return int(whole + frac) * 10 ** (scale - len(frac))


def test_the_site_totals_reconcile(audited):
    """Every hand the site settles reconciles exactly: the stated rake (and fees) are the pot less
    what was collected, the payouts exactly the shares after them, the total pot the settlement's."""
    checked = 0
    for rel, _chunk, read, report in audited:
        hand, settlement = read.hand, report.settlement
        if hand is None or rel in CONTRADICTORY:
            continue
        codes = {f.code for f in report.findings}
        assert not {c for c in codes if c.startswith("site-") and c.endswith("-mismatch")}, rel
        if "_site_run_twice" in hand.fields:  # each run's board known: each share settled on its own
            assert "_site_boards" in hand.fields and hand.winnings is not None, rel
        assert (settlement.payout_check, settlement.rake_check) == ("match", "exact"), rel
        checked += 1
    assert checked == CHECKED


def _one(audited, name, key="1"):
    [(read, report)] = [(r, rep) for rel, c, r, rep in audited if rel.endswith(name) and c.hand_key == key]
    return read.hand, report


def test_a_cash_hand_in_full(audited):
    hand, report = _one(audited, "GameTypeTests/NoLimitHoldem.txt")
    f = hand.fields
    assert (f["venue"], f["hand"], f["table"], f["seat_count"]) == ("Winamax", "5285192-1130-1382664338",
                                                                    "Durban 02", 9)
    assert (f["year"], f["month"], f["day"], f["time"], f["time_zone_abbreviation"]) == (
        2013, 10, 25, datetime.time(1, 25, 38), "UTC")
    assert (f["currency"], f["currency_symbol"]) == ("EUR", "€")  # the € read from Windows-1252
    assert f["players"] == ["gersois59", "VStee", "morfrim"]
    assert (hand.scale, hand.blinds_or_straddles, hand.starting_stacks) == (2, (50, 100, 0), (4050, 16667, 4018))
    # 20.80 put in, 5.70 of morfrim's raise uncalled: a pot of 15.10; the site's total 19.82 is
    # after its 0.98 rake and with the 5.70 kept in (so is morfrim's "collected 19.82€")
    s = report.settlement
    assert (s.pot_total, s.returned, s.rake, s.payout_check, s.rake_check) == (1510, (0, 0, 570), 98, "match", "exact")
    assert (f["_site_total_pot"], f["_site_rake"], f["_site_total_net"], f["_site_uncalled_in_pot"]) == (
        "19.82", "0.98", True, True)
    assert "winnings-gross" not in {x.code for x in report.findings}


def test_blinds_out_of_position(audited):
    hand, report = _one(audited, "HandActionTests/PostingDead.txt")
    # Dbrz34 posts 0.25 and 0.50 out of position: 0.50 live, 0.25 dead
    assert hand.fields["players"][2] == "Dbrz34" and hand.blinds_or_straddles[2] == -75
    assert (report.status, report.settlement.payout_check, report.settlement.rake_check) == ("valid", "match", "exact")


def test_a_tournament_hand_in_chips(audited):
    hand, report = _one(audited, "MultiTableTournament/GeneralHands/GeneralHand.txt")
    f = hand.fields
    assert (f["event"], f["_site_buyin"], f["level"]) == ("BOOSTER", "€4.50 + €4.50 + €1", 4)
    assert f["table"] == "BOOSTER(153100000)#052" and "currency" not in f
    assert (hand.antes, hand.blinds_or_straddles, hand.scale) == ((25, 25, 25), (150, 300, 0), 0)
    # 75 in antes, 300 each from the blinds; Player1's raise to 800 uncalled: 500 back, still in
    # the site's "Total pot 1175" and in what Player1 collected
    assert (report.settlement.pot_total, report.settlement.returned[0], report.settlement.payout_check) == (
        675, 500, "match")


def test_a_ticket_sit_and_go(audited):
    hand, _ = _one(audited, "SitAndGo/GeneralHands/GeneralHand.txt")
    assert (hand.fields["event"], hand.fields["_site_buyin"], hand.fields["level"]) == (
        "Sit&Go Freeroll", "Ticket only", 3)


def test_a_seat_with_no_stack_is_not_dealt_in(audited):
    hand, report = _one(audited, "PlayerTests/WithSittingOut.txt")
    assert "Player1" not in hand.fields["players"] and hand.players == 4 and report.status == "valid"


def test_seats_numbered_from_zero(audited):
    hand, report = _one(audited, "GeneralHands/NoRake.txt")
    assert "seats" not in hand.fields and hand.fields["_site_seats"] == [1, 2, 3, 4, 0]
    assert report.status == "valid"


def test_ten_hands_of_one_file_each_once(audited):
    keys = [c.hand_key for rel, c, _r, _rep in audited if rel.endswith("10MultipleHands.txt")]
    assert keys == [str(i) for i in range(1, 11)]


def test_the_shows_are_put_in_the_order_the_rule_asks(audited):
    hand, report = _one(audited, "SitAndGo/GeneralHands/GeneralHand.txt")
    # tomtom87700 bet the river and livio91760 called: the bettor's cards first
    assert hand.action_texts[-2:] == ("p6 sm Jc6dJh5c", "p3 sm ThQc2dKs")
    assert "show-order" not in {f.code for f in report.findings}


def test_an_unreadable_hand_is_still_named():
    path = SITES / "italytoast" / "Winamax" / "CashGame" / "HandActionTests" / "UncalledBet.txt"
    if not path.is_file():
        pytest.skip(f"no {NAME} samples at {SITES}")
    # a game with no code at all (5-card Omaha no limit): unreadable, and still named
    [chunk] = split_log(str(path), path.read_bytes().replace(b"5 Card Omaha pot limit", b"5 Card Omaha no limit"))
    read = read_any(chunk)
    assert read.hand is None and read.known == {"hand": "11810000-240-1538700000", "table": "Middlesbrough 02",
                                                "venue": "Winamax"}
