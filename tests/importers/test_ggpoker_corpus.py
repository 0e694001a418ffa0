"""The GGPoker importer over every file of the shared samples (../shared/corpus/sites/ggpoker).

Per hand: its status, PHH variant, players, actions and the finding codes of its audit under
TDA 2026 (checked by hand against each source text), then the site's own figures reconciled,
then a few hands in detail. Of the samples: PostingDead.txt writes Hero's cards "[ks 2d]" (a
lower-case rank: not a card, the hand unreadable with invalid-card); MultiplePosts.txt states a
total pot $1 short of its own lines ($14.30 put in; "Total pot $13.3"), which the audit names.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from handaudit.core.hand import BET_RAISE
from handaudit.importers import read_any
from handaudit.importers.inputs import expand_inputs, read_inputs
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from helpers import CORPUS

NAME = "GGPoker"
SITES = CORPUS / "sites" / "ggpoker"
CONTRADICTORY = {"italytoast/GGPoker/CashGame/GeneralHands/MultiplePosts.txt"}
CHECKED = 12

# (file, hand key, status, variant, players, actions, finding codes)
HANDS = [
    ('italytoast/GGPoker/CashGame/GameTypeTests/NoLimitHoldem.txt', '1', 'valid', 'NT', 5, 10, ()),
    ('italytoast/GGPoker/CashGame/GameTypeTests/PotLimitOmaha.txt', '1', 'valid', 'PO', 3, 17, ()),
    ('italytoast/GGPoker/CashGame/GeneralHands/GeneralHand.txt', '1', 'valid', 'NT', 5, 10, ()),
    ('italytoast/GGPoker/CashGame/GeneralHands/MultiplePosts.txt', '1', 'invalid', 'NT', 5, 29, ('chips-not-conserved', 'site-rake-mismatch', 'site-total-pot-mismatch', 'winnings-mismatch')),
    ('italytoast/GGPoker/CashGame/GeneralHands/RunThreeTimes.txt', '1', 'valid', 'NT', 6, 22, ('site-run-twice',)),
    ('italytoast/GGPoker/CashGame/GeneralHands/RunTwice.txt', '1', 'valid', 'NT', 4, 15, ('site-run-twice',)),
    ('italytoast/GGPoker/CashGame/GeneralHands/RushAndCash.txt', '1', 'valid', 'NT', 6, 17, ()),
    ('italytoast/GGPoker/CashGame/GeneralHands/Straddle.txt', '1', 'valid', 'NT', 6, 18, ()),
    ('italytoast/GGPoker/CashGame/HandActionTests/BetAndMuck.txt', '1', 'valid', 'NT', 3, 18, ()),
    ('italytoast/GGPoker/CashGame/HandActionTests/PaysCashoutFee.txt', '1', 'valid', 'NT', 6, 19, ('site-ev-cashout',)),
    ('italytoast/GGPoker/CashGame/HandActionTests/PostingDead.txt', '1', 'unreadable', None, None, None, ('invalid-card',)),
    ('italytoast/GGPoker/CashGame/HandActionTests/ReceivesCashout.txt', '1', 'valid', 'NT', 6, 20, ('site-ev-cashout',)),
    ('italytoast/GGPoker/CashGame/HandActionTests/UncalledBetAndPaysCashoutFee.txt', '1', 'valid', 'NT', 6, 21, ('site-ev-cashout',)),
    ('italytoast/GGPoker/CashGame/Limits/Limit1.txt', '1', 'valid', 'NT', 6, 12, ()),
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


def _one(audited, name):
    [(read, report)] = [(r, rep) for rel, _c, r, rep in audited if rel.endswith(name)]
    return read.hand, report


def test_a_cash_hand_in_full(audited):
    hand, report = _one(audited, "GameTypeTests/NoLimitHoldem.txt")
    f = hand.fields
    assert (f["venue"], f["hand"], f["table"], f["seat_count"]) == ("GGPoker", "HD23847510", "NLHGold11", 6)
    assert (f["year"], f["month"], f["day"], f["time"]) == (2017, 11, 12, datetime.time(11, 43, 27))
    assert (f["currency"], f["currency_symbol"]) == ("USD", "$")
    # PHH order from the seat after the button (seat 2): 4 (small blind), 5, 6, 1, 2
    assert f["players"] == ["ac12334d", "1234gsaa", "Hero", "79adcegg", "853aak6d"]
    assert (hand.scale, hand.blinds_or_straddles, hand.starting_stacks) == (
        2, (50, 100, 0, 0, 0), (19065, 8559, 30050, 17304, 10000))
    assert hand.action_texts == ("d dh p1 ????", "d dh p2 ????", "d dh p3 5h2c", "d dh p4 ????", "d dh p5 ????",
                                 "p3 f", "p4 f", "p5 f", "p1 cbr 3.50", "p2 f")
    assert f["_site_returned"] == ["2.5", "", "", "", ""] and f["_site_collected"] == ["2", "0", "0", "0", "0"]
    assert report.settlement.returned == (250, 0, 0, 0, 0)


def test_the_jackpot_is_taken_beside_the_rake(audited):
    hand, report = _one(audited, "HandActionTests/PaysCashoutFee.txt")
    assert (hand.fields["_site_rake"], hand.fields["_site_fees"]) == ("6", ["Jackpot 2", "Bingo 0"])
    # $251.86 in the pot, $6 rake and $2 jackpot taken: the winner collects $243.86, exactly
    assert (report.settlement.pot_total, report.settlement.rake, report.settlement.rake_check) == (25186, 800, "exact")
    [ev] = [f for f in report.findings if f.code == "site-ev-cashout"]
    assert "oiesfcv1 pays the cashout risk $22.68" in ev.message


def test_run_three_times_replays_the_first_board_and_keeps_the_others(audited):
    hand, report = _one(audited, "GeneralHands/RunThreeTimes.txt")
    boards = [t for t in hand.action_texts if t.startswith("d db")]
    assert boards == ["d db Th9c5s", "d db 6h", "d db Jc"]
    assert hand.fields["_site_run_twice"] == ("second turn [4d] / second river [Kd] / third turn [Ad] / "
                                              "third river [2h]")
    assert hand.fields["players"][2] == "22ab6yhc" and hand.fields["_site_collected"][2] == "34.23"  # 17.12 + 17.11
    assert report.settlement.pot_total == 5504 and "site-run-twice" in {f.code for f in report.findings}


def test_a_straddle_is_the_third_blind(audited):
    hand, report = _one(audited, "GeneralHands/Straddle.txt")
    assert hand.blinds_or_straddles == (50, 100, 0, 200, 0, 0)
    assert report.status == "valid"


def test_bet_and_muck_is_a_bet_and_a_muck_at_the_showdown(audited):
    hand, report = _one(audited, "HandActionTests/BetAndMuck.txt")
    assert hand.action_texts[-4:] == ("p3 cbr 0.05", "p2 cc", "p3 sm", "p2 sm Ah8d")
    assert report.status == "valid"


def test_the_owners_bad_cards_are_named(audited):
    [(read, report)] = [(r, rep) for rel, _c, r, rep in audited if rel.endswith("PostingDead.txt")]
    assert read.hand is None and [f.code for f in report.findings] == ["invalid-card"]
    assert "[ks 2d]" in report.findings[0].message and report.findings[0].line == 15


def test_betting_amounts_are_the_sites(audited):
    hand, _ = _one(audited, "GeneralHands/RushAndCash.txt")
    assert [a.amount for a in hand.actions if a.kind == BET_RAISE] == [30, 20, 70]


def test_an_unreadable_hand_is_still_named(audited):
    [read] = [r for rel, _c, r, _rep in audited if rel.endswith("PostingDead.txt")]
    assert read.hand is None and read.known == {"hand": "HD54233001", "table": "NLHGold19", "venue": "GGPoker"}
