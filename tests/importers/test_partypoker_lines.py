"""PartyPoker's lines, class by class, in hands written as the site writes them (each from a real
hand of the shared samples, ../shared/corpus/sites/partypoker, or one line changed to show one rule)."""

from __future__ import annotations

import datetime

from handaudit.importers import read_any, site_hand_of
from handaudit.importers.common import split_log
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from text_site_hands import PARTY_ALL_IN as ALL_IN
from text_site_hands import PARTY_CASH as CASH
from text_site_hands import PARTY_NEW_PLAYER as NEW_PLAYER
from text_site_hands import PARTY_TOURNAMENT as TOURNAMENT

BOOK = load_rulebook("tda-2026")


def _reads(text: str, source: str = "party.txt"):
    return [read_any(c) for c in split_log(source, text.encode("utf-8"))]


def _audit(text: str, source: str = "party.txt"):
    return [audit_read(read_any(c), BOOK, c.index) for c in split_log(source, text.encode("utf-8"))]


def test_a_cash_hand_whose_win_holds_the_uncalled_raise():
    (report,) = _audit(CASH)
    hand = report.read.hand
    assert report.status == "valid" and not report.findings
    fields = hand.fields
    assert (fields["venue"], fields["table"], fields["hand"], fields["seat_count"]) == ("PartyPoker", "Bloemfontein",
                                                                                      13550695573, 6)
    assert (fields["year"], fields["month"], fields["day"], fields["time"], fields["time_zone_abbreviation"]) == (
        2014, 1, 6, datetime.time(8, 54, 23), "EST")
    assert fields["currency"] == "USD" and hand.min_bet == 10
    # amounts are what each action puts in: 0.05 + 0.25 is a raise to 0.30, 0.10 + 0.70 to 0.80
    assert list(hand.action_texts[2:]) == ["p2 cbr 0.30", "p1 cbr 0.80", "p2 cc", "d db 9cKdQs", "p1 cbr 0.80",
                                           "p2 cbr 2.94", "p1 f", "# p2 does not show after the hand"]
    assert hand.winnings == (0, 304)  # $5.18 less the $2.14 given back
    assert report.settlement.pot_total == 320


def test_the_side_pot_of_a_short_all_in_is_the_uncalled_bet():
    (report,) = _audit(ALL_IN)
    hand = report.read.hand
    assert report.status == "valid", report.findings
    assert hand.fields["players"] == ["kewen", "xyxyTiltyxyx", "GrindAA", "mumija80", "dr. spaz", "TYRANNOMAN1"]
    assert hand.action_texts[-5:-2] == ("p5 cbr 4.90", "p6 cc", "p2 f")  # the all-ins: a bet (to 4.90), a call
    assert hand.winnings == (0, 0, 0, 0, 2066, 0)
    assert report.settlement.pot_total == 2166
    # "doesn't show [ Jc, Jd ]" by the player the site does not award: a muck
    assert "p6 sm" in hand.action_texts


def test_a_tournament_hand_led_in_by_the_clients_lines():
    (report,) = _audit(TOURNAMENT)
    hand = report.read.hand
    assert report.status == "valid", report.findings
    fields = hand.fields
    assert fields["hand"] == 15414977083 and fields["event"] == "Tournament #128487129"
    assert fields["table"] == "$1 Sit & Go Hero table 1" and fields["_site_buyin"] == "$1 USD"
    assert hand.scale == 0 and hand.min_bet == 20 and "currency" not in fields
    assert hand.winnings == (240, 0, 0, 0)  # 300 less the river bet of 60 given back


def test_a_new_players_small_blind_counts_towards_his_call():
    (report,) = _audit(NEW_PLAYER)
    hand = report.read.hand
    assert report.status == "valid", report.findings
    # not a PHH blind (PHH has no live blind outside the blind seats): his call carries it
    assert hand.blinds_or_straddles == (5, 10, 0, 0, 0)
    assert report.settlement.pot_total == 50 and hand.winnings == (0, 50, 0, 0, 0)
    assert hand.fields["_site_events"] == [{"line": 23, "kind": "time", "player": "newstyle222",
                                            "text": "will be using his time bank for this hand."}]


def test_folded_at_once_a_new_players_small_blind_is_dead():
    text = NEW_PLAYER.replace("hugomarcia calls [$0.05 USD]", "hugomarcia folds").replace(
        "RELATIVE78 folds\nhugomarcia folds\n", "RELATIVE78 folds\n").replace("$1 USD\n", "$0.95 USD\n")
    (report,) = _audit(text)
    assert report.status == "valid", report.findings
    assert report.read.hand.blinds_or_straddles == (5, 10, 0, -5, 0)


def test_big_blind_and_dead():
    text = CASH.replace("hulkhoden1969 posts big blind [$0.10 USD].", "hulkhoden1969 posts big blind + dead [$0.15].")
    (read,) = _reads(text)
    assert read.hand.blinds_or_straddles == (5, -15)  # (heads-up: written reversed, p1 the big blind)


def test_fixed_limit_stakes_are_the_small_and_big_bet():
    text = CASH.replace("NL Texas", "FL Texas")
    (read,) = _reads(text)
    assert read.hand.variant == "FT" and (read.hand.small_bet, read.hand.big_bet) == (5, 10)


def test_the_oldest_stakes_name_the_buy_in_and_the_blinds_are_the_posted_ones():
    text = CASH.replace("$0.05/$0.10 USD NL Texas Hold'em", "$10 USD PL Omaha").replace("9c, Kd, Qs", "9c, Kd, Qs")
    (read,) = _reads(text)
    hand = read.hand
    assert hand.variant == "PO" and hand.min_bet == 10 and hand.fields["_site_buyin"] == "$10"


def test_omaha_hi_lo_is_not_a_phh_game():
    (read,) = _reads(CASH.replace("NL Texas Hold'em", "PL Omaha Hi-Lo"))
    assert read.hand is None and read.findings[0].code == "site-game-not-phh"


def test_a_header_spliced_onto_the_last_line_of_the_hand_before_starts_a_hand():
    text = CASH.rstrip("\n") + NEW_PLAYER
    reads = _reads(text)
    assert [r.hand.fields["hand"] for r in reads] == [13550695573, 13551495313]
    assert [r.hand.winnings[1] for r in reads] == [304, 50]


def test_table_events_and_chat_are_kept_not_errors():
    text = CASH.replace("hulkhoden1969 folds\n", "hulkhoden1969 folds\nhulkhoden1969: nice hand\n"
                        "Someone has joined the table.\nhulkhoden1969 has left the table.\n")
    (report,) = _audit(text)
    assert report.status == "valid"
    assert report.read.hand.fields["_site_events"] == [
        {"line": 18, "kind": "chat", "player": "hulkhoden1969", "text": "nice hand"},
        {"line": 19, "kind": "joins", "player": "", "text": "Someone has joined the table."},
        {"line": 20, "kind": "leaves", "player": "hulkhoden1969", "text": "has left the table."}]


def test_a_low_half_is_collected():
    text = ALL_IN.replace("dr. spaz wins $20.66 USD from the main pot with three of a kind, Eights.",
                          "dr. spaz wins Lo ($20.66 USD) from the main pot with 8,6,5,4,A.")
    (read,) = _reads(text)
    assert read.hand.winnings[4] == 2066


def test_the_site_hand_of_each_form():
    chunks = split_log("x.txt", (TOURNAMENT + CASH).encode())
    assert [site_hand_of(c.data) for c in chunks] == [("PartyPoker", "$1 Sit & Go Hero table 1", "15414977083"),
                                                      ("PartyPoker", "Bloemfontein", "13550695573")]


def test_a_hand_with_no_win_line_is_truncated():
    (read,) = _reads(CASH[:CASH.index("Kelevra_91 does not show")])
    assert read.hand is None and read.findings[0].code == "site-truncated-hand"


def test_fast_fold_tables_name_their_format_between_stakes_and_game():
    (read,) = _reads(CASH.replace("USD NL Texas", "USD fastforward NL Texas"))
    assert read.hand.fields["_site_format"] == "fastforward" and read.hand.min_bet == 10 and not read.findings
