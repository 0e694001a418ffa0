"""GGPoker's line classes, one test each, on hands written here exactly as the site writes them
(importers/ggpoker.lark lists the forms): headers of every pool, tournaments and their facts,
short deck, straddles, dead blinds, cash drops, the fees, run it twice, unknown lines."""

from __future__ import annotations

from handaudit.importers import read_any
from handaudit.importers.common import site_log_hand, split_log
from handaudit.importers.site_grammar import SiteGrammar
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

BOOK = load_rulebook("tda-2026")

CASH = """Poker Hand #HD1000001: Hold'em No Limit ($0.5/$1) - 2024/03/01 20:15:02
Table 'NLHGold5' 6-max Seat #1 is the button
Seat 1: a1b2c3d4 ($100 in chips)
Seat 2: Hero ($100 in chips)
Seat 3: 5e6f7a8b ($60.5 in chips)
Hero: posts small blind $0.5
5e6f7a8b: posts big blind $1
*** HOLE CARDS ***
Dealt to a1b2c3d4
Dealt to Hero [Ah Kd]
Dealt to 5e6f7a8b
a1b2c3d4: raises $1.5 to $2.5
Hero: raises $5.5 to $8
5e6f7a8b: folds
a1b2c3d4: calls $5.5
*** FLOP *** [Kc 7h 2d]
Hero: bets $9
a1b2c3d4: folds
Uncalled bet ($9) returned to Hero
*** SHOWDOWN ***
Hero collected $16.2 from pot
*** SUMMARY ***
Total pot $17 | Rake $0.8 | Jackpot $0 | Bingo $0 | Fortune $0 | Tax $0
Board [Kc 7h 2d]
Seat 1: a1b2c3d4 (button) folded on the Flop
Seat 2: Hero (small blind) won ($16.2)
Seat 3: 5e6f7a8b (big blind) folded before Flop
"""


def _audit(text: str):
    return [audit_read(read_any(c), BOOK, c.index) for c in split_log("t.txt", text.encode("utf-8"))]


def _one(text: str):
    [report] = _audit(text)
    return report.read.hand, report


def _codes(report) -> set[str]:
    return {f.code for f in report.findings}


def test_a_cash_hand_is_clean_and_exact():
    hand, report = _one(CASH)
    assert report.status == "valid" and report.findings == ()
    assert hand.fields["players"] == ["Hero", "5e6f7a8b", "a1b2c3d4"]
    assert hand.scale == 2  # USD: cents (ISO 4217), though the log writes "$60.5"
    assert hand.action_texts[3:] == ("p3 cbr 2.50", "p1 cbr 8.00", "p2 f", "p3 cc", "d db Kc7h2d", "p1 cbr 9.00", "p3 f")
    s = report.settlement
    assert (s.pot_total, s.returned, s.rake, s.payout_check, s.rake_check) == (1700, (900, 0, 0), 80, "match", "exact")


def test_the_fees_beside_the_rake_are_taken_from_the_pot():
    text = CASH.replace("collected $16.2", "collected $15.2").replace("Jackpot $0 |", "Jackpot $1 |")
    hand, report = _one(text)
    assert hand.fields["_site_fees"] == ["Jackpot 1", "Bingo 0", "Fortune 0", "Tax 0"]
    assert report.status == "valid" and report.settlement.rake == 180


def test_a_payout_the_figures_do_not_give_is_named():
    hand, report = _one(CASH.replace("collected $16.2", "collected $16.7"))
    assert {"site-rake-mismatch", "winnings-mismatch"} <= _codes(report) and report.status == "invalid"
    [m] = [f for f in report.findings if f.code == "site-rake-mismatch"]
    assert "17.00 - 16.70 = 0.30" in m.message


def test_a_total_pot_the_lines_do_not_give_is_named():
    _, report = _one(CASH.replace("Total pot $17 |", "Total pot $18 |"))
    assert "site-total-pot-mismatch" in _codes(report)


def test_a_tournament_hand_with_antes_bounties_and_finishes():
    text = """Poker Hand #TM2000002: Tournament #9364957, WSOP #77: $5,000 No Limit Hold'em Main Event [Flight W], $25M GTD Hold'em No Limit - Level10(1,000/2,000) - 2020/08/30 15:49:08
Table '14' 8-max Seat #2 is the button
Seat 1: 3b4c5d6e (101,500 in chips, $1,250 bounty)
Seat 2: Hero (40,000 in chips, $1,250 bounty)
Seat 4: 7f8a9b0c (2,250 in chips, $1,250 bounty)
3b4c5d6e: posts the ante 250
Hero: posts the ante 250
7f8a9b0c: posts the ante 250
7f8a9b0c: posts small blind 1,000
3b4c5d6e: posts big blind 2,000
*** HOLE CARDS ***
Dealt to 3b4c5d6e
Dealt to Hero [7c 2d]
Dealt to 7f8a9b0c
Hero: folds
7f8a9b0c: calls 1,000 and is all-in
3b4c5d6e: checks
7f8a9b0c: shows [Qs Qd]
3b4c5d6e: shows [Ac 9h]
*** FLOP *** [As 4d 8c]
*** TURN *** [As 4d 8c] [3h]
*** RIVER *** [As 4d 8c 3h] [Kd]
*** SHOWDOWN ***
3b4c5d6e collected 4,750 from pot
3b4c5d6e wins the $1,250 bounty for eliminating 7f8a9b0c
7f8a9b0c finished the tournament in 812th place
*** SUMMARY ***
Total pot 4,750 | Rake 0 | Jackpot 0 | Bingo 0
Board [As 4d 8c 3h Kd]
Seat 1: 3b4c5d6e (big blind) showed [Ac 9h] and won (4,750) with Pair of Aces
Seat 2: Hero (button) folded before Flop
Seat 4: 7f8a9b0c (small blind) showed [Qs Qd] and lost with Pair of Queens
"""
    hand, report = _one(text)
    f = hand.fields
    assert (f["event"], f["level"], f["hand"], f["table"]) == ("Tournament #9364957", 10, "TM2000002", "14")
    assert f["_site_tournament"] == "WSOP #77: $5,000 No Limit Hold'em Main Event [Flight W], $25M GTD"
    assert "currency" not in f and hand.scale == 0
    assert (hand.antes, hand.blinds_or_straddles, hand.starting_stacks) == (
        (250, 250, 250), (1000, 2000, 0), (2250, 101500, 40000))
    # the all-in players' shows are said at the showdown, after the board
    assert hand.action_texts[-2:] == ("p1 sm QsQd", "p2 sm Ac9h")
    assert report.status == "valid" and report.findings == ()
    assert (report.settlement.payout_check, report.settlement.rake_check) == ("match", "exact")
    # the tournament's facts kept as the hand's table events
    assert [(e["kind"], e["player"], e.get("amount")) for e in f["_site_events"]] == [
        ("bounty", "3b4c5d6e", "1250"), ("finished", "7f8a9b0c", None)]


def test_short_deck_antes_and_the_button_blind():
    text = """Poker Hand #SD3000003: ShortDeck No Limit ($1) - 2021/04/01 11:44:46
Table 'SD Blue 1' 6-max Seat #3 is the button
Seat 1: aa11bb22 ($100 in chips)
Seat 2: cc33dd44 ($80 in chips)
Seat 3: Hero ($120 in chips)
aa11bb22: posts the ante $1
cc33dd44: posts the ante $1
Hero: posts the ante $1
Hero: posts button blind $1
*** HOLE CARDS ***
Dealt to aa11bb22
Dealt to cc33dd44
Dealt to Hero [Ac Kd]
aa11bb22: calls $1
cc33dd44: folds
Hero: raises $3 to $4
aa11bb22: calls $3
*** FLOP *** [Tc 8h Ah]
aa11bb22: checks
Hero: bets $5
aa11bb22: folds
Uncalled bet ($5) returned to Hero
*** SHOWDOWN ***
Hero collected $10.6 from pot
*** SUMMARY ***
Total pot $11 | Rake $0.4 | Jackpot $0 | Bingo $0
Board [Tc 8h Ah]
Seat 1: aa11bb22 folded on the Flop
Seat 2: cc33dd44 folded before Flop
Seat 3: Hero (button) won ($10.6)
"""
    hand, report = _one(text)
    assert (hand.variant, hand.antes, hand.blinds_or_straddles) == ("NS", (100, 100, 100), (0, 0, 100))
    assert report.status == "valid" and report.settlement.rake_check == "exact"


def test_an_over_straddle_states_the_new_total():
    text = """Poker Hand #OM4000004: PLO ($0.1/$0.25) - 2021/04/13 10:03:48
Table 'PLORed7' 6-max Seat #3 is the button
Seat 1: f279d709 ($5 in chips)
Seat 3: 9e7f64d4 ($15.35 in chips)
Seat 4: Hero ($31.73 in chips)
Hero: posts small blind $0.1
f279d709: posts big blind $0.25
9e7f64d4: straddle $0.5
9e7f64d4: straddle $15.35 and is all-in
*** HOLE CARDS ***
Dealt to f279d709
Dealt to 9e7f64d4
Dealt to Hero [2s 3c 9d 9h]
Hero: folds
f279d709: folds
Uncalled bet ($15.1) returned to 9e7f64d4
*** SHOWDOWN ***
9e7f64d4 collected $0.6 from pot
*** SUMMARY ***
Total pot $0.6 | Rake $0 | Jackpot $0 | Bingo $0
Seat 1: f279d709 (big blind) folded before Flop
Seat 3: 9e7f64d4 (button) collected ($0.6)
Seat 4: Hero (small blind) folded before Flop
"""
    hand, report = _one(text)
    assert (hand.variant, hand.blinds_or_straddles) == ("PO", (10, 25, 1535))
    s = report.settlement
    assert (s.pot_total, s.returned[2]) == (60, 1510)
    assert not {c for c in _codes(report) if c.endswith("-mismatch")}


def test_a_missed_blind_is_posted_dead_beside_the_live_big_blind():
    text = CASH.replace("Seat 3: 5e6f7a8b ($60.5 in chips)\n", "Seat 3: 5e6f7a8b ($60.5 in chips)\n"
                        "Seat 5: 0d0e0f01 ($40 in chips)\n")
    text = text.replace("5e6f7a8b: posts big blind $1\n", "5e6f7a8b: posts big blind $1\n"
                        "0d0e0f01: posts missed blind $0.5\n0d0e0f01: posts big blind $1\n")
    text = text.replace("Dealt to 5e6f7a8b\n", "Dealt to 5e6f7a8b\nDealt to 0d0e0f01\n")
    text = text.replace("a1b2c3d4: raises $1.5", "0d0e0f01: checks\na1b2c3d4: raises $1.5")
    text = text.replace("5e6f7a8b: folds\n", "5e6f7a8b: folds\n0d0e0f01: folds\n")
    text = text.replace("Total pot $17 |", "Total pot $18.5 |").replace("collected $16.2", "collected $17.7")
    hand, report = _one(text)
    p = hand.fields["players"].index("0d0e0f01")
    assert hand.blinds_or_straddles[p] == -150  # $1 live, $0.5 dead
    assert report.settlement.pot_total == 1850
    assert not {c for c in _codes(report) if c.endswith("-mismatch")} and report.status == "valid"


def test_a_cash_drop_is_money_the_site_adds():
    text = CASH.replace("Hero: posts small blind $0.5\n", "Cash Drop to Pot : total $0.2\nHero: posts small blind $0.5\n")
    text = text.replace("Total pot $17 |", "Total pot $17.2 |").replace("collected $16.2", "collected $16.4")
    hand, report = _one(text)
    assert hand.fields["_site_added"] == "0.2" and hand.winnings is None
    assert report.settlement.pot_total == 1700
    assert report.status == "valid" and not _codes(report)


def test_run_it_twice_keeps_the_second_board():
    text = CASH.replace("""*** FLOP *** [Kc 7h 2d]
Hero: bets $9
a1b2c3d4: folds
Uncalled bet ($9) returned to Hero
*** SHOWDOWN ***
Hero collected $16.2 from pot""", """*** FLOP *** [Kc 7h 2d]
Hero: bets $92 and is all-in
a1b2c3d4: calls $92
Hero: shows [Ah Kd]
a1b2c3d4: shows [Qs Qh]
*** FIRST TURN *** [Kc 7h 2d] [3s]
*** FIRST RIVER *** [Kc 7h 2d 3s] [4s]
*** SECOND TURN *** [Kc 7h 2d] [Qc]
*** SECOND RIVER *** [Kc 7h 2d Qc] [5d]
*** FIRST SHOWDOWN ***
Hero collected $98.5 from pot
*** SECOND SHOWDOWN ***
a1b2c3d4 collected $98.5 from pot""").replace("Total pot $17 | Rake $0.8", "Total pot $201 | Rake $4")
    text = text.replace("Board [Kc 7h 2d]", "Hand was run two times\nFIRST Board [Kc 7h 2d 3s 4s]\n"
                        "SECOND Board [Kc 7h 2d Qc 5d]")
    hand, report = _one(text)
    assert hand.fields["_site_run_twice"] == "second turn [Qc] / second river [5d]"
    assert hand.fields["_site_collected"] == ["98.5", "0", "98.5"]
    assert "site-run-twice" in _codes(report) and report.settlement.pot_total == 20100
    assert not {c for c in _codes(report) if c.endswith("-mismatch")}


def test_a_game_phh_has_no_code_for_is_named():
    [report] = _audit(CASH.replace("Hold'em No Limit ($0.5/$1)", "Omaha Hi/Lo No Limit ($0.5/$1)"))
    assert report.read.hand is None and _codes(report) == {"site-game-not-phh"}
    assert "Omaha Hi/Lo No Limit" in report.findings[0].message
    # PLO-5 has handaudit's extension code (README "Variants beyond PHH")
    assert _one(CASH.replace("Hold'em No Limit ($0.5/$1)", "PLO-5 ($0.5/$1)"))[0].variant == "P5O"


def test_an_unknown_line_is_a_warning_and_the_hand_is_audited():
    hand, report = _one(CASH.replace("*** FLOP ***", "The dealer sneezes\n*** FLOP ***"))
    assert hand is not None and report.status == "valid"
    [f] = report.findings
    assert (f.code, f.severity, f.line) == ("site-unknown-line", "warning", 16)
    assert hand.fields["_site_unread"] == [{"line": 16, "text": "not a line of a GGPoker hand: 'The dealer sneezes'"}]


def test_a_line_about_a_seated_player_nobody_reads_makes_the_hand_unreadable():
    [report] = _audit(CASH.replace("5e6f7a8b: folds", "5e6f7a8b: wiggles $5"))
    assert report.read.hand is None and _codes(report) == {"site-unreadable-line"}
    assert "5e6f7a8b" in report.findings[0].message and report.findings[0].severity == "error"


def test_table_events_and_sitting_out_are_no_actions():
    text = CASH.replace("Seat 3: 5e6f7a8b ($60.5 in chips)\n", "Seat 3: 5e6f7a8b ($60.5 in chips)\n"
                        "Seat 6: 99ff88ee ($20 in chips) is sitting out\n")
    text = text.replace("*** FLOP ***", "99ff88ee: sits out\n5e6f7a8b has timed out\n*** FLOP ***")
    hand, report = _one(text)
    assert hand.players == 3 and report.status == "valid" and report.findings == ()
    assert [e["kind"] for e in hand.fields["_site_events"]] == ["sits-out", "timed-out"]


def test_the_duplicate_key_is_the_sites_hand_id():
    [chunk] = split_log("t.txt", CASH.encode("utf-8"))
    assert site_log_hand(chunk.data) == ("GGPoker", "NLHGold5", "HD1000001")
    hand, _ = _one(CASH)
    assert hand.fields["hand"] == "HD1000001"


def test_files_joined_together_keep_each_hand():
    data = ("\ufeff" + CASH + "\n\n\ufeff" + CASH.replace("HD1000001", "HD1000002")).encode("utf-8")
    reports = [audit_read(read_any(c), BOOK, c.index) for c in split_log("t.txt", data)]
    assert [r.read.hand.fields["hand"] for r in reports] == ["HD1000001", "HD1000002"]


def test_the_grammar_knows_the_lines_that_are_no_actions():
    g = SiteGrammar("ggpoker.lark")
    names = ["a1b2c3d4", "Hero"]
    for line in ["Hero: sits out", "a1b2c3d4 wins the $0.27 bounty for eliminating Hero",
                 "x, y split the $50 bounty for eliminating Hero",
                 "Hero finished the tournament in 2nd place and received $50.",
                 "a1b2c3d4 wins the tournament and receives $230.36 - congratulations!",
                 "Total pot $55.04 | Rake $2.7 | Jackpot $1 | Bingo $0", "FIRST Board [Th 9c 5s 6h Jc]",
                 "Hand was run three times", "Seat 4: Hero (small blind) collected ($2)"]:
        assert g.accepts(line, names), line
    for line in ["Hero: calls $0.3", "a1b2c3d4: raises $2.5 to $3.5", "Hero: Bet & Muck $0.05",
                 "Hero: Pays Cashout Risk ($22.68)", "Hero collected $2 from side pot-1"]:
        assert g.rule(line, names) not in ("", "event", "summary_line"), line  # read as actions
        assert not g.accepts(line, names)
    assert g.rule("Hero: dances", names) == ""


def test_an_insurance_line_in_another_wording_is_said_not_lost():
    hand, report = _one(CASH.replace("*** FLOP ***", "Hero: Buys All-in Insurance ($1.5)\n*** FLOP ***"))
    assert hand is not None and report.status == "valid"
    [f] = report.findings
    assert f.code == "site-ev-cashout" and "Hero: Buys All-in Insurance ($1.5)" in f.message


def test_a_tournament_total_without_a_rake_is_an_unraked_pot():
    text = """Poker Hand #TM5000005: Tournament #9364957, Daily Special $250 Hold'em No Limit - Level10 (1,000/2,000) - 2020/08/30 15:49:08
Table '74' 8-max Seat #4 is the button
Seat 1: Hero (45,152 in chips)
Seat 3: 2676777a (64,612 in chips)
Seat 4: 726d588a (67,928 in chips)
Hero: posts the ante 250
2676777a: posts the ante 250
726d588a: posts the ante 250
Hero: posts small blind 1,000
2676777a: posts big blind 2,000
*** HOLE CARDS ***
Dealt to Hero [As Ks]
Dealt to 2676777a
Dealt to 726d588a
726d588a: folds
Hero: raises 2,000 to 4,000
2676777a: folds
Uncalled bet (2,000) returned to Hero
*** SHOWDOWN ***
Hero collected 4,750 from pot
*** SUMMARY ***
Total pot 4,750
Seat 1: Hero (small blind) collected (4,750)
"""
    hand, report = _one(text)
    assert hand.fields["_site_rake"] == "0" and report.status == "valid"
    assert (report.settlement.payout_check, report.settlement.rake_check) == ("match", "exact")


def test_an_amount_past_the_limits_is_an_invalid_field_on_its_hand():
    """The limits every importer applies (importers/limits.py, issue #38): a stack of 30 digits is
    an invalid-field finding naming its line, never an internal error."""
    _, report = _one(CASH.replace("Seat 1: a1b2c3d4 ($100 in chips)", "Seat 1: a1b2c3d4 ($" + "9" * 30 + " in chips)"))
    [finding] = [f for f in report.findings if f.code == "invalid-field"]
    assert report.status == "unreadable" and finding.line == 3 and "more than 4 * 10**18" in finding.message
