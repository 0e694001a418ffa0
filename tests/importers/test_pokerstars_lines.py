"""The PokerStars line vocabulary, class by class (importers/pokerstars.lark documents it): each
table event written the way the site writes it is kept as an event of the hand (kind, player,
amount) and leaves the audit of a correct hand valid; each header form of the site's eras is
read into its fields."""

from __future__ import annotations

import datetime
import re

import pytest

from handaudit.importers import read_any
from handaudit.importers import lines as L
from handaudit.importers.common import split_log
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

BOOK = load_rulebook("tda-2026")

HEADER = "PokerStars Hand #109681313810:  Hold'em No Limit ($0.05/$0.10 USD) - 2014/01/06 7:21:05 ET"
BODY = """\
Table 'Skat III' 6-max Seat #4 is the button
Seat 1: Player_L ($47.63 in chips)
Seat 2: H6U5r ($25 in chips)
Seat 3: LovID ($26.62 in chips)
Seat 4: Tunks 2 ($20 in chips)
Seat 5: Nightfox82 ($26.17 in chips)
Seat 6: Asaki1 ($9.29 in chips)
Nightfox82: posts small blind $0.05
Asaki1: posts big blind $0.10
*** HOLE CARDS ***
Dealt to LovID [Ah Kd]
Player_L: calls $0.10
H6U5r: folds
LovID: raises $0.40 to $0.50
Tunks 2: folds
Nightfox82: folds
Asaki1: folds
Player_L: calls $0.40
*** FLOP *** [Qh Jc 3h]
Player_L: checks
LovID: bets $0.95
Player_L: folds
Uncalled bet ($0.95) returned to LovID
LovID collected $1.10 from pot
LovID: doesn't show hand
*** SUMMARY ***
Total pot $1.15 | Rake $0.05
Board [Qh Jc 3h]
Seat 3: LovID collected ($1.10)
"""


def _audit(text: str):
    return [audit_read(read_any(c), BOOK, c.index) for c in split_log("t.txt", text.encode("utf-8"))]


def _with(line: str, after: str = "H6U5r: folds\n") -> str:
    return HEADER + "\n" + BODY.replace(after, after + line + "\n", 1)


# (the line as the site writes it, the event kind, the player named ("" for none seated), the amount)
EVENTS = [
    ("Tunks 2: sits out", L.T_SITS_OUT, "Tunks 2", None),
    ("Tunks 2 is sitting out", L.T_SITS_OUT, "Tunks 2", None),
    ("Tunks 2: is sitting out", L.T_SITS_OUT, "Tunks 2", None),
    ("Tunks 2 has returned", L.T_RETURNED, "Tunks 2", None),
    ("bamsebimse22 joins the table at seat #7", L.T_JOINS, "", None),
    ("H6U5r leaves the table", L.T_LEAVES, "H6U5r", None),
    ("Kuca :P leaves the table", L.T_LEAVES, "", None),
    ("Tunks 2 is disconnected", L.T_DISCONNECTED, "Tunks 2", None),
    ("Tunks 2 is connected", L.T_CONNECTED, "Tunks 2", None),
    ("Tunks 2 has timed out", L.T_TIMED_OUT, "Tunks 2", None),
    ("Tunks 2 has timed out while disconnected", L.T_TIMED_OUT, "Tunks 2", None),
    ("Tunks 2 has timed out while being disconnected", L.T_TIMED_OUT, "Tunks 2", None),
    ("LovID has 15 seconds left to act", L.T_TIME, "LovID", None),
    ("LovID has requested TIME", L.T_TIME, "LovID", None),
    ('Player_L said, "nh: well played"', L.T_CHAT, "Player_L", None),
    ('someone watching said, "hi"', L.T_CHAT, "", None),
    ("newguy will be allowed to play after the button", L.T_WAITS, "", None),
    ("H6U5r was removed from the table for failing to post", L.T_REMOVED, "H6U5r", None),
    ("H6U5r re-buys and receives 1500 chips for $1.00", L.T_REBUY, "H6U5r", "1"),
    ("H6U5r takes the add-on and receives 3000 chips for $2.50", L.T_ADD_ON, "H6U5r", "2.5"),
    ("LovID wins the $0.50 bounty for eliminating Tunks 2", L.T_BOUNTY, "LovID", "0.5"),
    ("LovID wins $0.25 for eliminating Tunks 2 and their own bounty increases by $0.25 to $0.75", L.T_BOUNTY,
     "LovID", "0.25"),
    ("LovID, Player_L split the $50 bounty for eliminating Tunks 2", L.T_BOUNTY, "", "50"),
    ("LovID wins $4.60 for splitting the elimination of Tunks 2 and their own bounty increases by $4.59 to $41.32",
     L.T_BOUNTY, "LovID", "4.6"),
    ("H6U5r re-buys and receives 300 chips for 1 FPPs", L.T_REBUY, "H6U5r", "1"),
    ("Tunks 2 finished the tournament in 5th place", L.T_FINISHED, "Tunks 2", None),
    ("Tunks 2 finished the tournament in 2nd place and received $10.50.", L.T_FINISHED, "Tunks 2", "10.5"),
    ("LovID wins the tournament and receives $25.00 - congratulations!", L.T_FINISHED, "LovID", "25"),
    ("LovID wins an entry to tournament #2030617466", L.T_PRIZE, "LovID", None),
    ("LovID wins a 'Fast Track $1' ticket", L.T_PRIZE, "LovID", None),
    ("Betting is capped", L.T_TABLE, "", None),
    ("Tunks 2: Table deposit $5", L.T_DEPOSIT, "Tunks 2", "5"),
]


@pytest.mark.parametrize(("line", "kind", "player", "amount"), EVENTS, ids=[e[0][:40] for e in EVENTS])
def test_a_table_event_is_kept_and_the_hand_stays_valid(line, kind, player, amount):
    [report] = _audit(_with(line))
    assert report.status == "valid", report.findings
    assert report.findings == ()
    assert report.settlement.payout_check == "match"
    events = report.read.hand.fields["_site_events"]
    assert len(events) == 1
    event = events[0]
    assert (event["line"], event["kind"], event["player"], event.get("amount")) == (15, kind, player, amount)
    [typed] = L.table_events(report.read.hand.fields)
    assert (typed.line, typed.kind, typed.player) == (15, kind, player)


def test_a_fold_with_a_note_is_a_fold():
    [report] = _audit(HEADER + "\n" + BODY.replace("H6U5r: folds", "H6U5r: folds (disconnect)"))
    assert report.status == "valid" and report.findings == ()
    assert report.read.hand.action_texts[7] == "p4 f"  # H6U5r, seat 2, is p4 (the button is seat 4)


def test_a_fold_written_for_a_player_already_all_in_is_not_replayed():
    text = HEADER + "\n" + BODY.replace("Asaki1: posts big blind $0.10", "Asaki1: posts big blind $0.10")
    text = text.replace("Seat 6: Asaki1 ($9.29 in chips)", "Seat 6: Asaki1 ($0.10 in chips)")
    text = text.replace("Asaki1: posts big blind $0.10", "Asaki1: posts big blind $0.10 and is all-in")
    text = text.replace("Asaki1: folds", "Asaki1: folds")
    [report] = _audit(text)
    # the all-in big blind's fold is no action: the replay has p2 (the big blind) all in, not folded
    assert "p2 f" not in report.read.hand.action_texts
    assert report.replay.all_in[1]


def test_an_event_line_is_kept_in_a_converted_file():
    from handaudit.grammar.reader import read_text
    from handaudit.grammar.writer import hand_text

    [report] = _audit(_with('Player_L said, "a \\"quoted\\" word"'))
    again = read_text(hand_text(report.read.hand))
    assert again.hand.fields["_site_events"] == report.read.hand.fields["_site_events"]


def test_unread_lines_are_carried_by_the_conversion_so_both_give_the_same_verdict():
    from handaudit.grammar.reader import read_text
    from handaudit.grammar.writer import hand_text
    from handaudit.run.hand_loop import audit_read as audit

    [report] = _audit(_with("The dealer wiggles the deck"))
    assert [(f.code, f.line) for f in report.findings] == [("site-unknown-line", 15)]
    again = audit(read_text(hand_text(report.read.hand)), BOOK, 0)
    assert [(f.code, f.line, f.message) for f in again.findings] == [(f.code, f.line, f.message)
                                                                     for f in report.findings]
    assert again.status == report.status == "valid"


# (header, fields expected: a subset)
HEADERS = [
    ("PokerStars Game #12345: Hold'em No Limit ($0.05/$0.10) - 2007/10/15 - 05:34:03 (ET)",
     {"year": 2007, "month": 10, "day": 15, "time": datetime.time(5, 34, 3), "time_zone_abbreviation": "ET"}),
    ("PokerStars Game #61777648755:  Hold'em No Limit ($0.05/$0.10 USD) - 2011/05/06 20:51:38 PT [2011/05/06 23:51:38 ET]",
     {"time": datetime.time(20, 51, 38), "time_zone_abbreviation": "PT", "currency": "USD"}),
    ("PokerStars Hand #1: Tournament #974085159, $5.20+$1.30+$0.50 USD Hold'em No Limit - Level IV (50/100) - "
     "2014/09/18 16:58:15 ET", {"event": "Tournament #974085159", "_site_buyin": "$5.20+$1.30+$0.50 USD", "level": 4}),
    ("PokerStars Hand #1: Tournament #2, Freeroll  Hold'em No Limit - Level III (50/100) - 2018/03/09 23:36:32 CET "
     "[2018/03/09 17:36:32 ET]", {"_site_buyin": "Freeroll", "level": 3, "_site_tournament": 2}),
    ("PokerStars Hand #1: Tournament #2, Hold'em No Limit - Level I (10/20) - 2018/03/09 23:36:32 ET",
     {"_site_buyin": "", "level": 1}),
    ("PokerStars Hand #1: Tournament #2, $10+$1 USD Hold'em No Limit - Match Round I, Level II (15/30) - "
     "2018/03/09 23:36:32 ET", {"level": 2}),
    ("PokerStars Zoom Hand #1: Tournament #2, $3.30+$0.20 USD Hold'em No Limit - Level I (10/20) - 2018/03/09 23:36:32 ET",
     {"_site_zoom": True, "_site_tournament": 2}),
    ("PokerStars Hand #1: Zoom Tournament #2, $3.30+$0.20 USD Hold'em No Limit - Level I (10/20) - 2018/03/09 23:36:32 ET",
     {"_site_zoom": True, "_site_tournament": 2}),
    ("PokerStars Home Game Hand #127873232695: {Staples Poker League} Tournament #1082114955, $1.00+$0.10 USD Hold'em "
     "No Limit - Level II (20/40) - 2015/01/01 15:05:50 MT [2015/01/01 17:05:50 ET]",
     {"_site_club": "Staples Poker League", "level": 2, "venue": "PokerStars"}),
    ("PokerStars Home Game Hand #1: {My Club} Hold'em No Limit ($0.05/$0.10) - 2015/01/01 15:05:50 ET",
     {"_site_club": "My Club"}),
    ("PokerStars Hand #1: Mixed NLH/PLO (Hold'em No Limit, $0.05/$0.10 USD) - 2015/01/01 15:05:50 ET",
     {"_site_mixed": "Mixed NLH/PLO", "currency": "USD"}),
    ("PokerStars Hand #1: 8-Game (Hold'em No Limit, $0.05/$0.10) - 2015/01/01 15:05:50 ET", {"_site_mixed": "8-Game"}),
    ("PokerStars Hand #1: Tournament #2, $10+$1 USD HORSE (Hold'em Limit) - Level I (10/20) - 2015/01/01 15:05:50 ET",
     {"_site_mixed": "HORSE", "_site_buyin": "$10+$1 USD"}),
    ("PokerStars Hand #1: Hold'em Fixed Limit ($0.05/$0.10) - 2015/01/01 15:05:50 ET", {}),
]


@pytest.mark.parametrize(("header", "expected"), HEADERS, ids=[h[0][:60] for h in HEADERS])
def test_a_header_of_every_era_is_read(header, expected):
    text = header + "\n" + BODY
    if "Tournament" in header:  # tournament chips: the body's amounts in cents, the level's stakes 5/10
        text = re.sub(r"\(\d+/\d+\) - 20", "(5/10) - 20", header) + "\n" + _chips(BODY)
    if "Limit (" in header and "No Limit" not in header or "Hold'em Limit)" in header:
        return _fixed_limit(header, expected)
    [report] = _audit(text)
    assert report.read.hand is not None, report.findings
    fields = report.read.hand.fields
    for name, value in expected.items():
        assert fields.get(name) == value, name
    assert report.status == "valid", report.findings


def _chips(text: str) -> str:
    return re.sub(r"\$(\d+)(?:\.(\d\d))?", lambda m: str(int(m.group(1)) * 100 + int(m.group(2) or 0)), text)


def _fixed_limit(header: str, expected: dict) -> None:
    [report] = _audit(header + "\n" + BODY)
    assert report.read.hand is not None and report.read.hand.variant == "FT"
    for name, value in expected.items():
        assert report.read.hand.fields.get(name) == value, name


def test_a_2005_hand_without_a_table_line_reads_its_seats():
    text = HEADER + "\n" + BODY.replace("Table 'Skat III' 6-max Seat #4 is the button\n", "")
    [report] = _audit(text)
    assert report.read.hand is not None and report.read.hand.players == 6
    assert report.settlement.payout_check == "match"


def test_a_table_line_without_a_seat_count_is_read():
    text = HEADER + "\n" + BODY.replace("Table 'Skat III' 6-max Seat #4", "Table 'Skat III' Seat #4")
    [report] = _audit(text)
    assert report.findings == () and report.read.hand.fields["table"] == "Skat III"
    assert "seat_count" not in report.read.hand.fields


# --- stated amounts -------------------------------------------------------------------------

SHORT_BB = """\
PokerStars Hand #300000000001: Tournament #9, $1+$0.10 USD Hold'em No Limit - Level V (25/50) - 2020/10/11 3:30:10 ET
Table '9 1' 9-max Seat #1 is the button
Seat 1: Ann (1500 in chips)
Seat 2: Bob (1500 in chips)
Seat 3: Cid (30 in chips)
Seat 4: Dee (1500 in chips)
Bob: posts small blind 25
Cid: posts big blind 30 and is all-in
*** HOLE CARDS ***
Dee: calls 50
Ann: raises 100 to 150
Bob: folds
Dee: calls 100
*** FLOP *** [2c 7d Jh]
Dee: checks
Ann: checks
*** TURN *** [2c 7d Jh] [Qs]
Dee: checks
Ann: checks
*** RIVER *** [2c 7d Jh Qs] [3h]
Dee: checks
Ann: checks
*** SHOW DOWN ***
Dee: shows [Ah Ad] (a pair of Aces)
Ann: shows [Kh Kd] (a pair of Kings)
Cid: shows [9c 8c] (high card Queen)
Dee collected 240 from side pot
Dee collected 115 from main pot
*** SUMMARY ***
Total pot 355 Main pot 115. Side pot 240. | Rake 0
Board [2c 7d Jh Qs 3h]
Seat 1: Ann (button) showed [Kh Kd] and lost with a pair of Kings
Seat 2: Bob (small blind) folded before Flop
Seat 3: Cid (big blind) showed [9c 8c] and lost with high card Queen
Seat 4: Dee showed [Ah Ad] and won (355) with a pair of Aces
"""


def test_a_big_blind_all_in_for_less_is_what_it_put_in_and_the_others_call_the_full_blind():
    [report] = _audit(SHORT_BB)
    hand = report.read.hand
    assert hand.blinds_or_straddles == (25, 50, 0, 0) and hand.starting_stacks[1] == 30
    assert report.status == "valid", report.findings
    assert report.settlement.payout_check == "match"
    assert [(p.amount, p.eligible) for p in report.settlement.pots] == [(115, (1, 2, 3)), (240, (2, 3))]
    # the minimum raise is the full big blind's: Ann's raise to 150 is above 100
    rec = [r for r in report.replay.records if r.actor == "p4" and r.kind == "raise"][0]  # Ann, the button
    assert rec.min_to == 100


def test_a_raise_to_less_than_twice_the_full_blind_over_a_short_blind_is_below_the_minimum():
    [report] = _audit(SHORT_BB.replace("Ann: raises 100 to 150", "Ann: raises 30 to 80").replace(
        "Dee: calls 100", "Dee: calls 30").replace("240 from side pot", "100 from side pot").replace(
        "Total pot 355 Main pot 115. Side pot 240.", "Total pot 215 Main pot 115. Side pot 100.").replace(
        "won (355)", "won (215)"))
    assert "raise-below-minimum" in {f.code for f in report.findings}


SHORT_ANTE = """\
PokerStars Hand #300000000002: Tournament #9, $1+$0.10 USD Hold'em No Limit - Level V (25/50) - 2020/10/11 3:31:10 ET
Table '9 1' 9-max Seat #1 is the button
Seat 1: Ann (1500 in chips)
Seat 2: Bob (1500 in chips)
Seat 3: Cid (1500 in chips)
Seat 4: Dee (5 in chips)
Ann: posts the ante 10
Bob: posts the ante 10
Cid: posts the ante 10
Dee: posts the ante 5 and is all-in
Bob: posts small blind 25
Cid: posts big blind 50
*** HOLE CARDS ***
Ann: folds
Bob: calls 25
Cid: checks
*** FLOP *** [2c 7d Jh]
Bob: checks
Cid: checks
*** TURN *** [2c 7d Jh] [Qs]
Bob: checks
Cid: checks
*** RIVER *** [2c 7d Jh Qs] [3h]
Bob: checks
Cid: checks
*** SHOW DOWN ***
Bob: shows [Kh Kd] (a pair of Kings)
Cid: shows [9c 8c] (high card Queen)
Dee: shows [Ah Ad] (a pair of Aces)
Bob collected 115 from side pot
Dee collected 20 from main pot
*** SUMMARY ***
Total pot 135 Main pot 20. Side pot 115. | Rake 0
Board [2c 7d Jh Qs 3h]
"""


def test_a_short_all_in_ante_wins_that_much_from_each_as_the_site_splits_the_antes():
    """Dee, all in on an ante of 5 of 10, is eligible for 5 from each of the four (20): the
    other antes' rest is in the side pot, as the site splits them."""
    [report] = _audit(SHORT_ANTE)
    assert report.read.hand.antes == (10, 10, 5, 10)  # p1 Bob, p2 Cid, p3 Dee, p4 Ann (the button)
    assert [(p.amount, p.eligible) for p in report.settlement.pots] == [(20, (0, 1, 2)), (115, (0, 1))]
    assert report.settlement.received == (115, 0, 20, 0)  # (all the antes in the first pot would give Dee 35)
    assert report.status == "valid", report.findings
    assert report.settlement.payout_check == "match"


def test_an_unreadable_hand_keeps_its_hand_number_table_and_venue():
    text = HEADER + "\n" + BODY.replace("Tunks 2: folds", "Tunks 2: wiggles $5")
    [report] = _audit(text)
    assert report.status == "unreadable"
    assert report.read.known == {"hand": 109681313810, "table": "Skat III", "venue": "PokerStars"}
    assert report.to_json()["hand"] == 109681313810
