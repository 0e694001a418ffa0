"""Winamax's line classes, one test each, on hands written here exactly as the site writes them
(importers/winamax.lark lists the forms): the header of every pool and tournament, decimal
commas, knockout seats, out-of-position blinds, side pots, the uncalled bet kept in the pot,
HOLD-UP's added money, games not read, unknown lines."""

from __future__ import annotations

from handaudit.importers import read_any
from handaudit.importers.common import site_log_hand, split_log
from handaudit.importers.site_grammar import SiteGrammar
from handaudit.importers.stars_like import site_amount
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

BOOK = load_rulebook("tda-2026")

CASH = """Winamax Poker - CashGame - HandId: #7000001-12-1700000000 - Holdem no limit (0.25€/0.50€) - 2023/11/14 22:13:20 UTC
Table: 'Nice 05' 6-max (real money) Seat #3 is the button
Seat 1: Kool Shen (50€)
Seat 3: fanf4K UR0 (42.10€)
Seat 4: 7 7 7 (60€)
Seat 5: Hero (50€)
*** ANTE/BLINDS ***
7 7 7 posts small blind 0.25€
Hero posts big blind 0.50€
Dealt to Hero [Ah Kh]
*** PRE-FLOP ***
Kool Shen folds
fanf4K UR0 raises 1€ to 1.50€
7 7 7 folds
Hero calls 1€
*** FLOP *** [Kc 7d 2s]
Hero checks
fanf4K UR0 bets 2€
Hero raises 4€ to 6€
fanf4K UR0 folds
Hero collected 11.03€ from pot
*** SUMMARY ***
Total pot 11.03€ | Rake 0.22€
Board: [Kc 7d 2s]
Seat 5: Hero (big blind) won 11.03€
"""


def _audit(text: str | bytes):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return [audit_read(read_any(c), BOOK, c.index) for c in split_log("t.txt", data)]


def _one(text: str | bytes):
    [report] = _audit(text)
    return report.read.hand, report


def _codes(report) -> set[str]:
    return {f.code for f in report.findings}


def test_a_cash_hand_is_clean_and_exact():
    hand, report = _one(CASH)
    assert report.status == "valid" and report.findings == ()
    assert hand.fields["players"] == ["7 7 7", "Hero", "Kool Shen", "fanf4K UR0"]  # names with spaces
    assert hand.action_texts[4:] == ("p3 f", "p4 cbr 1.50", "p1 f", "p2 cc", "d db Kc7d2s", "p2 cc", "p4 cbr 2.00",
                                     "p2 cbr 6.00", "p4 f")
    s = report.settlement
    # 0.25 + 1.50 + 1.50 + 2 + 6 = 11.25 put in; 4 of Hero's raise uncalled (kept in the site's
    # total and in Hero's collection): a pot of 7.25, less the 0.22 rake: Hero's 11.03 is 7.03 + 4
    assert (s.pot_total, s.returned[1], s.rake, s.payout_check, s.rake_check) == (725, 400, 22, "match", "exact")
    assert hand.fields["hand"] == "7000001-12-1700000000"


def test_a_collection_the_figures_do_not_give_is_named():
    _, report = _one(CASH.replace("Hero collected 11.03€", "Hero collected 11.53€").replace("Total pot 11.03€",
                                                                                            "Total pot 11.53€"))
    assert {"site-total-pot-mismatch", "site-rake-mismatch"} <= _codes(report) and report.status == "invalid"


def test_decimal_commas():
    assert site_amount("0,50€") == (5, 1) and site_amount("1.234,5€") == (-1, 0)
    assert site_amount("24,940") == (24940, 0) and site_amount("€4.50") == (45, 1) and site_amount("12,05€") == (1205, 2)
    hand, report = _one(CASH.replace(".", ","))
    assert report.status == "valid" and report.settlement.pot_total == 725


def test_a_knockout_tournament_hand():
    text = """Winamax Poker - Tournament "TEA TIME" buyIn: 18€ + 2€ level: 11 - HandId: #2357799155578961958-128-1653325811 - Holdem no limit (140/600/1200) - 2022/05/23 17:10:11 UTC
Table: 'TEA TIME(548967895)#0037' 6-max (real money) Seat #3 is the button
Seat 1: Player0 (18694, 9€ bounty)
Seat 3: Player2 (177705, 45€ bounty)
Seat 4: Player3 (45031, 17.43€ bounty)
Seat 5: Hero (77283, 27€ bounty)
*** ANTE/BLINDS ***
Player3 posts ante 140
Hero posts ante 140
Player0 posts ante 140
Player2 posts ante 140
Player3 posts small blind 600
Hero posts big blind 1200
Dealt to Hero [3c 9c]
*** PRE-FLOP ***
Player0 folds
Player2 raises 1440 to 2640
Player3 folds
Hero calls 1440
*** FLOP *** [8d Ac Jc]
Hero checks
Player2 bets 2218
Hero calls 2218
*** TURN *** [8d Ac Jc][Tc]
Hero bets 7200
Player2 calls 7200
*** RIVER *** [8d Ac Jc Tc][2h]
Hero bets 19167
Player2 calls 19167
*** SHOW DOWN ***
Player2 shows [9d Qd] (Straight Queen high)
Hero shows [3c 9c] (Flush Ace high)
Hero collected 63610 from pot
*** SUMMARY ***
Total pot 63610 | No rake
Board: [8d Ac Jc Tc 2h]
Seat 3: Player2 (button) showed [9d Qd] and lost with Straight Queen high
Seat 5: Hero (big blind) showed [3c 9c] and won 63610 with Flush Ace high
"""
    hand, report = _one(text)
    f = hand.fields
    assert (f["event"], f["_site_buyin"], f["level"], f["table"]) == ("TEA TIME", "18€ + 2€", 11,
                                                                      "TEA TIME(548967895)#0037")
    assert hand.starting_stacks == (45031, 77283, 18694, 177705) and hand.antes == (140, 140, 140, 140)
    assert report.status == "valid" and report.findings == ()
    assert (report.settlement.payout_check, report.settlement.rake_check) == ("match", "exact")


def test_a_short_all_in_big_blind_and_side_pots():
    text = """Winamax Poker - Tournament "Quitte ou Double" buyIn: 0.93-0.07 level: 10 - HandId: #118267374808858625-31-1343075816 - Holdem no limit (50/200/400) - 2012/07/23 20:36:56 UTC
Table: 'Quitte ou Double(27536269)#0' 10-max (real money) Seat #2 is the button
Seat 1: Player0 (870)
Seat 2: Player1 (991)
Seat 3: Hero (1410)
Seat 4: Player2 (169)
Seat 6: Player4 (1845)
*** ANTE/BLINDS ***
Hero posts ante 50
Player2 posts ante 50
Player0 posts ante 50
Player1 posts ante 50
Player4 posts ante 50
Hero posts small blind 200
Player2 posts big blind 119 and is all-in
Dealt to Hero [7h 4c]
*** PRE-FLOP ***
Player4 raises 1676 to 1795 and is all-in
Player0 folds
Player1 calls 941 and is all-in
Hero folds
*** FLOP *** [As 9h Qc]
*** TURN *** [As 9h Qc][Kc]
*** RIVER *** [As 9h Qc Kc][3h]
*** SHOW DOWN ***
Player2 shows [3d Tc] (One pair : 3)
Player1 shows [Kh Ac] (Two pairs : Aces and Kings)
Player4 shows [Jh Jd] (One pair : Jacks)
Player4 collected 854 from side pot 1
Player1 collected 2451 from main pot
*** SUMMARY ***
Total pot 3305 | No rake
Board: [As 9h Qc Kc 3h]
Seat 2: Player1 (button) showed [Kh Ac] and won 2451 with Two pairs : Aces and Kings
Seat 4: Player2 (big blind) showed [3d Tc] and lost with One pair : 3
Seat 6: Player4 showed [Jh Jd] and won 854 with One pair : Jacks
"""
    hand, report = _one(text)
    assert hand.blinds_or_straddles == (200, 119, 0, 0, 0)
    s = report.settlement
    assert s.returned[hand.fields["players"].index("Player4")] == 854
    assert report.status == "valid" and not {c for c in _codes(report) if c.endswith("-mismatch")}


def test_blinds_out_of_position_are_live_up_to_the_big_blind():
    text = CASH.replace("Hero posts big blind 0.50€\n", "Hero posts big blind 0.50€\n"
                        "Kool Shen posts small blind 0.25€ out of position\nKool Shen posts big blind 0.50€ out of position\n")
    text = text.replace("Kool Shen folds", "Kool Shen checks").replace("Hero calls 1€", "Hero calls 1€\nKool Shen folds")
    text = text.replace("11.03€", "11.78€")
    hand, report = _one(text)
    assert hand.blinds_or_straddles[hand.fields["players"].index("Kool Shen")] == -75
    assert report.status == "valid" and not {c for c in _codes(report) if c.endswith("-mismatch")}


def test_a_hold_up_pot_is_money_the_site_adds():
    text = CASH.replace("Winamax Poker - CashGame", 'Winamax Poker - HOLD-UP "Nice"').replace(
        "*** ANTE/BLINDS ***\n", "*** ANTE/BLINDS ***\nHold-up to Pot: total 0.20€\n").replace("11.03€", "11.23€")
    hand, report = _one(text)
    assert (hand.fields["_site_added"], hand.fields["_site_game_kind"]) == ("0.2", 'HOLD-UP "Nice"')
    assert report.status == "valid" and not _codes(report)


def test_seats_with_no_stack_and_the_end_line():
    text = CASH.replace("Seat 5: Hero (50€)\n", "Seat 5: Hero (50€)\nSeat 6: away ()\n") + \
        "***** End of hand R5-75443872-57 *****\n"
    hand, report = _one(text)
    assert hand.players == 4 and report.status == "valid" and report.findings == ()


def test_go_fast_and_play_money():
    text = CASH.replace("Winamax Poker - CashGame", 'Winamax Poker - Go Fast "Buzau"').replace("(real money)",
                                                                                                "(play money)")
    hand, report = _one(text)
    assert hand.fields["_site_game_kind"] == 'Go Fast "Buzau"' and hand.fields["currency"] == "play money"
    assert report.status == "valid"


def test_games_not_read_and_games_phh_lacks_are_named():
    [stud] = _audit(CASH.replace("Holdem no limit (0.25€/0.50€)", "7-Card Stud fixed limit (5€/25€/50€)"))
    assert stud.read.hand is None and _codes(stud) == {"site-game-not-read"} and "F7S" in stud.findings[0].message
    [none] = _audit(CASH.replace("Holdem no limit", "5 Card Omaha no limit"))  # no code, PHH's or handaudit's
    assert none.read.hand is None and _codes(none) == {"site-game-not-phh"}
    # handaudit's extension codes for the games PHH lacks (README "Variants beyond PHH")
    assert _one(CASH.replace("Holdem no limit", "Omaha Hi/Lo pot limit"))[0].variant == "PO/8"


def test_an_unknown_line_is_a_warning_and_the_hand_is_audited():
    hand, report = _one(CASH.replace("*** FLOP ***", "Something new happens\n*** FLOP ***"))
    assert hand is not None and report.status == "valid"
    [f] = report.findings
    assert (f.code, f.severity, f.line) == ("site-unknown-line", "warning", 16)


def test_a_line_about_a_seated_player_nobody_reads_makes_the_hand_unreadable():
    [report] = _audit(CASH.replace("Kool Shen folds", "Kool Shen dances"))
    assert report.read.hand is None and _codes(report) == {"site-unreadable-line"}


def test_windows_1252_euros():
    hand, report = _one(CASH.encode("cp1252"))
    assert hand.fields["currency"] == "EUR" and _codes(report) == {"site-encoding"}
    assert report.status == "valid"


def test_the_duplicate_key_is_the_sites_hand_id():
    [chunk] = split_log("t.txt", CASH.encode("utf-8"))
    assert site_log_hand(chunk.data) == ("Winamax", "Nice 05", "7000001-12-1700000000")


def test_the_grammar_knows_the_lines_that_are_no_actions():
    g = SiteGrammar("winamax.lark")
    names = ["Kool Shen", "Hero"]
    for line in ["Kool Shen sits out", "Hero deny SB", "***** End of hand R5-75443872-57 *****",
                 "Total pot 19.82€ | Rake 0.98€", "Total pot 2€ | No rake", "Board: [Td Kc 5h]",
                 "Seat 7: Hero (button) won 19.82€", "Hero finished the tournament in 3rd place"]:
        assert g.accepts(line, names), line
    for line in ["Hero calls 2€", "Kool Shen raises 1.50€ to 2.50€ and is all-in", "Hero brings in 10€",
                 "Hero collected 854 from side pot 1", "Hero posts big blind 0.10€ out of position"]:
        assert g.rule(line, names) not in ("", "event", "summary_line"), line
    assert g.rule("Hero dances", names) == ""


def test_both_blinds_at_once_are_live_up_to_the_big_blind():
    text = CASH.replace("Hero posts big blind 0.50€\n", "Hero posts big blind 0.50€\n"
                        "Kool Shen posts small & big blinds 0.75€\n")
    text = text.replace("Kool Shen folds", "Kool Shen checks").replace("Hero calls 1€", "Hero calls 1€\nKool Shen folds")
    text = text.replace("11.03€", "11.78€")
    hand, report = _one(text)
    assert hand.blinds_or_straddles[hand.fields["players"].index("Kool Shen")] == -75
    assert report.status == "valid" and not {c for c in _codes(report) if c.endswith("-mismatch")}


SNG = """Winamax Poker - Tournament "No Limit Hold'em" buyIn: 0,90€ + 0,10€ level: 0 - HandId: #7959970263859201-2-1288801071 - Holdem no limit (10/20) - 2010/11/03 17:17:51 UTC
Table: 'No Limit Hold'em(1853325)#0' 10-max (real money) Seat #4 is the button
Seat 1: Hero (1160)
Seat 4: Player1 (1480)
Seat 5: Player0 (1400)
Seat 6: Player7 (1500)
Seat 9: Player5 (1480)
*** ANTE/BLINDS ***
Player0 posts small blind 10
Player7 posts big blind 20
Dealt to Hero [7h 3s]
*** PRE-FLOP ***
Player5 calls 20
Hero folds
Player1 calls 20
Player0 calls 10
Player7 checks
*** FLOP *** [Jh 6h Qd]
Player0 checks
Player7 bets 20
Player5 calls 20
Player1 calls 20
Player0 calls 20
*** TURN *** [Jh 6h Qd][5s]
Player0 checks
Player7 checks
Player5 bets 220
Player1 folds
Player0 folds
Player7 calls 220
*** RIVER *** [Jh 6h Qd 5s][3c]
Player7 checks
Player5 bets 660
Player7 folds
Player5 collected 1260 from pot
*** SUMMARY ***
Total pot 1.26k | No rake
Board: [Jh 6h Qd 5s 3c]
Seat 9: Player5 won 1260
"""


def test_an_older_rounded_total_is_compared_to_its_last_digit():
    hand, report = _one(SNG)
    # 80 + 80 + 440 + 660 put in, the 660 uncalled and kept in the total: 1,260, written "1.26k"
    assert hand.fields["_site_total_rounded"] == "1.26k" and "_site_total_pot" not in hand.fields
    assert report.status == "valid" and not _codes(report)
    _, wrong = _one(SNG.replace("Total pot 1.26k", "Total pot 1.30k"))
    assert "site-total-pot-mismatch" in _codes(wrong)


def test_an_older_raise_written_as_a_bet_is_a_raise_by_it():
    text = """Winamax Poker - Tournament "KING 5 - Stade 2C" buyIn: Ticket level: 7 - HandId: #6307872438747255-64-1288123510 - Holdem no limit (10/60/120) - 2010/10/26 21:05:10 UTC
Table: 'KING 5 - Stade 2C(1468666)#118' 9-max (real money) Seat #5 is the button
Seat 3: Player2 (6370)
Seat 5: Player4 (5168)
Seat 6: Player5 (2255)
Seat 7: Player6 (1220)
*** ANTE/BLINDS ***
Player2 posts ante 10
Player4 posts ante 10
Player5 posts ante 10
Player6 posts ante 10
Player5 posts small blind 60
Player6 posts big blind 120
*** PRE-FLOP ***
Player2 calls 120
Player4 folds
Player5 folds
Player6 bets 292.50
Player2 calls 292.50
*** FLOP *** [5h 3c 9d]
Player6 bets 797.50 and is all-in
Player2 raises 797.50 to 1595
*** TURN *** [5h 3c 9d][Jd]
*** RIVER *** [5h 3c 9d Jd][7h]
*** SHOW DOWN ***
Player6 shows [Ah Td] (High card : Ace)
Player2 shows [7c 9c] (Two pairs : 9 and 7)
Player2 collected 3348 from pot
*** SUMMARY ***
Total pot 3.35k | No rake
Board: [5h 3c 9d Jd 7h]
Seat 3: Player2 showed [7c 9c] and won 3348 with Two pairs : 9 and 7
"""
    hand, report = _one(text)
    # Player6, the big blind, raises to 120 + 292.50; Player2 calls it
    assert hand.action_texts[6:9] == ("p1 f", "p2 cbr 412.5", "p3 cc")
    assert "raise-below-minimum" not in _codes(report)
    # 40 in antes, 60, and 1,210 from each: 2,520 (the site's own figures are of its rounded chips)
    assert report.settlement.pot_total == 25200


def test_a_tournament_summary_is_said_to_be_no_hand():
    text = """Winamax Poker - Tournament summary : Sit&Go Freeroll(144278641)
Player : Hero
Buy-In : 0€ + 0€
Registered players : 9
Prizepool : 0€
Tournament started 2016/01/07 18:50:38 UTC
You finished in 3rd place
"""
    assert _audit(text) == []  # a summary holds no hand: never counted as one (issue 39, item 5)
