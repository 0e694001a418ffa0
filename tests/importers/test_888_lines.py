"""888poker's lines, class by class, in hands written as the site writes them (each from a real
hand of the shared samples, ../shared/corpus/sites/888, or one line changed to show one rule)."""

from __future__ import annotations

import datetime
import json

from handaudit.core.hand import BET_RAISE, CHECK_CALL, FOLD
from handaudit.importers import read_any, site_hand_of
from handaudit.importers.common import split_log
from handaudit.importers.text_sites import bracket_amount, cards_of
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from text_site_hands import P888_CASH as CASH
from text_site_hands import P888_DEAD_BLIND as DEAD_BLIND
from text_site_hands import P888_FIXED as FIXED
from text_site_hands import P888_TOURNAMENT as TOURNAMENT
from text_site_hands import P888_WALK as WALK
from text_site_hands import PARTY_CASH as PARTY

BOOK = load_rulebook("tda-2026")


def _reads(text: str, source: str = "888.txt"):
    return [read_any(c) for c in split_log(source, text.encode("utf-8"))]


def _audit(text: str, source: str = "888.txt"):
    return [audit_read(read_any(c), BOOK, c.index) for c in split_log(source, text.encode("utf-8"))]


def test_a_cash_hand_the_others_fold_to_a_bet():
    (report,) = _audit(CASH)
    hand = report.read.hand
    assert report.status == "valid" and not report.findings
    assert hand.variant == "NT" and hand.scale == 2
    fields = hand.fields
    assert (fields["venue"], fields["table"], fields["hand"], fields["seat_count"]) == ("888poker", "Goiania", 1186521350, 6)
    assert (fields["year"], fields["month"], fields["day"], fields["time"]) == (2018, 6, 21, datetime.time(19, 41, 18))
    assert fields["currency"] == "USD"
    # PHH order from the seat after the button (seat 4): SigmFreud (9, sb), Kostan88 (1, bb), Born2Disco, Tercinho390
    assert fields["players"] == ["SigmFreud", "Kostan88", "Born2Disco", "Tercinho390"]
    assert hand.blinds_or_straddles == (300, 600, 0, 0) and hand.min_bet == 600
    assert hand.starting_stacks == (60000, 60000, 82651, 36000)
    assert list(hand.action_texts[4:]) == ["p3 f", "p4 cc", "p1 f", "p2 cc", "d db Qc6h5h", "p2 cbr 7.50", "p4 f"]
    assert hand.winnings == (0, 1425, 0, 0)  # the uncalled $7.50 is not in the collection
    assert report.settlement.pot_total == 1500


def test_a_walk_collects_the_big_blind_back_too():
    (report,) = _audit(WALK)
    hand = report.read.hand
    assert report.status == "valid"
    # the site's $0.15 holds the big blind's uncalled $0.05: the pot it won is $0.10
    assert hand.fields["_site_collected"] == ["0.00", "0.10", "0.00", "0.00"]
    assert report.settlement.pot_total == 10


def test_a_tournament_hand_in_chips_with_antes_and_a_short_all_in_call():
    (report,) = _audit(TOURNAMENT)
    hand = report.read.hand
    assert report.status == "valid", report.findings
    fields = hand.fields
    assert (fields["event"], fields["_site_buyin"], fields["table"]) == ("Tournament #83728678", "$18.30 + $1.70",
                                                                        "83728678 table 1")
    assert "currency" not in fields and hand.scale == 0  # "$" on tournament chips is no currency
    assert hand.antes == (20, 20, 20, 20, 20) and hand.blinds_or_straddles == (0, 200, 0, 0, 0)[:0] + (100, 200, 0, 0, 0)
    assert hand.starting_stacks == (4886, 1058, 2394, 3548, 1614)
    # MatjeP's "calls [$838]" is all he has left: a call all-in; bilguun0226's raise is to his whole stack
    assert "p2 cc" in hand.action_texts and "p5 cbr 1594" in hand.action_texts
    assert hand.winnings == (0, 2676, 0, 0, 0)


def test_a_dead_blind_is_the_big_blind_live_and_the_small_dead():
    (report,) = _audit(DEAD_BLIND)
    hand = report.read.hand
    assert report.status == "valid", report.findings
    assert hand.fields["players"] == ["icebbberg", "whoisdrew", "GYAMEPRO"]
    assert hand.blinds_or_straddles == (100, 200, -300)  # 888's "[$1 + $2]"
    assert report.settlement.pot_total == 600 and hand.winnings == (0, 0, 570)


def test_fixed_limit_the_blinds_name_the_game_and_the_twelve_cent_game_bets_a_quarter():
    (report,) = _audit(FIXED)
    hand = report.read.hand
    assert report.status == "valid", report.findings
    assert hand.variant == "FT" and (hand.small_bet, hand.big_bet) == (12, 25)
    # heads-up: the button posts the small blind and is p2 (the forced bets written reversed, as PHH has them)
    assert hand.fields["players"] == ["Chillwill184", "uyangau"] and hand.blinds_or_straddles == (6, 12)
    # "mucks [ 9c, 8s ]" by the player the site does not award: a muck
    assert hand.action_texts[-2:] == ("p1 sm Kh7h", "p2 sm")


def test_a_muck_whose_player_collects_was_tabled():
    text = TOURNAMENT.replace("MatjeP shows [ Ac, Ad ]", "MatjeP mucks [ Ac, Ad ]")
    (report,) = _audit(text)
    assert report.status == "valid"
    assert "p2 sm AcAd" in report.read.hand.action_texts


def test_the_brands_name_their_venue_and_card_words_of_other_languages():
    text = CASH.replace("888poker Hand History", "888.es Hand History")
    assert _reads(text)[0].hand.fields["venue"] == "888.es"
    lucky = CASH.replace("#Game No : 1186521350\n", "").replace("888poker Hand History", "LuckyAcePoker.com Hand History")
    assert _reads(lucky)[0].hand is not None
    assert cards_of(" Ec, Knc, 3h, Dc ") == cards_of("Ac Jc 3h Qc")
    assert cards_of("10h, Kns") == cards_of("Th Js")
    assert cards_of("Xx") is None


def test_amounts_as_the_brands_write_them():
    assert bracket_amount("[$1,594]", True) == (1594, 0)
    assert bracket_amount("$0.50", False) == (5, 1)
    assert bracket_amount(" $14.25 ", False) == (1425, 2)
    assert bracket_amount("3\u00a0023,50 $", False) == (30235, 1)  # a no-break space groups thousands
    assert bracket_amount("3Â\u00a0023,50 $", False) == (30235, 1)  # the same read as Windows-1252
    assert bracket_amount("5 €", False) == (5, 0)
    assert bracket_amount("0,50 €", False) == (5, 1)
    assert bracket_amount("1.200", True) == (1200, 0)  # tournament chips are whole: a dot groups thousands
    assert bracket_amount("$1.x", False) == (-1, 0)
    assert bracket_amount("", False) == (-1, 0)


def test_a_fold_among_the_posts_is_a_seat_not_dealt_in():
    text = CASH.replace("Kostan88 posts big blind [$6]\n", "Born2Disco folds\nKostan88 posts big blind [$6]\n", 1)
    text = text.replace("** Dealing down cards **\nBorn2Disco folds\n", "** Dealing down cards **\n")
    (report,) = _audit(text)
    assert report.status == "valid"
    assert report.read.hand.fields["players"] == ["SigmFreud", "Kostan88", "Tercinho390"]
    assert report.read.hand.fields["_site_events"] == [
        {"line": 12, "kind": "sits-out", "player": "Born2Disco", "text": "folds before the deal: not dealt in"}]


def test_a_hand_without_its_deal_line_is_dealt_at_its_first_action():
    text = WALK.replace("** Dealing down cards **\n", "")
    (report,) = _audit(text)
    assert report.status == "valid" and report.read.hand.players == 4
    assert [a.kind for a in report.read.hand.actions[4:]] == [FOLD, FOLD, FOLD]


def test_an_unknown_line_is_a_finding_with_its_line_and_the_hand_is_read():
    text = CASH.replace("Tercinho390 folds\n", "Tercinho390 folds\nThe dealer spills the deck\n")
    (report,) = _audit(text)
    assert report.read.hand is not None and report.status == "valid"  # a warning: the hand is audited
    (f,) = [f for f in report.findings if f.code == "site-unknown-line"]
    assert f.line == 21 and "The dealer spills the deck" in f.message and f.severity == "warning"
    assert report.read.hand.fields["_site_unread"] == [
        {"line": 21, "text": "not a line the importer knows: The dealer spills the deck"}]


def test_a_seated_players_line_that_is_no_action_makes_the_hand_unreadable():
    (read,) = _reads(CASH.replace("Tercinho390 folds\n", "Tercinho390 folds\nKostan88 moves chips [$5]\n"))
    assert read.hand is None and [f.code for f in read.findings] == ["site-unreadable-line"]
    assert read.known == {"hand": 1186521350, "table": "Goiania", "venue": "888poker"}


def test_an_action_by_someone_not_seated_makes_the_hand_unreadable():
    (read,) = _reads(CASH.replace("Tercinho390 calls [$6]", "Somebody calls [$6]"))
    assert read.hand is None and [f.code for f in read.findings] == ["site-unknown-player"]


def test_a_truncated_hand_is_unreadable_and_the_next_is_read():
    cut = CASH[:CASH.index("** Summary **")]
    reads = _reads(cut + "\n" + WALK)
    assert [r.hand is None for r in reads] == [True, False]
    assert reads[0].findings[0].code == "site-truncated-hand"


def test_betting_kinds():
    (report,) = _audit(TOURNAMENT)
    kinds = [a.kind for a in report.read.hand.actions if a.kind in (FOLD, CHECK_CALL, BET_RAISE)]
    assert kinds == [BET_RAISE, FOLD, BET_RAISE, FOLD, CHECK_CALL, FOLD]


def test_the_site_hand_and_the_lead_in_line():
    data = (CASH + "\n" + WALK).encode()
    chunks = split_log("x.txt", data)
    assert [site_hand_of(c.data) for c in chunks] == [("888poker", "Goiania", "1186521350"),
                                                    ("888poker", "Aberdeen", "349568100")]
    # a file ending in the next hand's lead-in line holds no hand of it
    assert len(split_log("x.txt", data + b"\n#Game No : 1186521416\n")) == 2


def test_a_hand_given_as_log_and_as_its_conversion_is_one_hand(tmp_path, cli):
    log = tmp_path / "t.txt"
    log.write_text(TOURNAMENT)
    assert cli("convert", str(log), "-o", str(tmp_path / "t.phhs")).returncode == 0
    run = cli("check", str(log), str(tmp_path / "t.phhs"), "--format", "jsonl", "--jobs", "1", "--fail-on", "never")
    codes = [[f["code"] for f in json.loads(line)["findings"]] for line in run.stdout.splitlines()]
    assert codes == [[], ["duplicate-hand"]]


def test_a_hand_led_in_by_game_no_whose_header_is_partypokers_is_partypokers():
    text = "#Game No : 13550695573\n" + PARTY
    (read,) = _reads(text)
    assert read.hand is not None and read.hand.fields["venue"] == "PartyPoker"



def test_values_past_the_limits_are_invalid_fields_never_errors():
    (read,) = _reads(CASH.replace("1186521350", "9" * 25))
    assert read.hand is None and read.findings[0].code == "invalid-field" and "hand id" in read.findings[0].message
    (read,) = _reads(CASH.replace("Seat 9: SigmFreud", "Seat 0: SigmFreud"))
    assert read.hand is None and [f.code for f in read.findings] == ["invalid-field"]
    (read,) = _reads(CASH.replace("21 06 2018", "45 13 2018"))
    assert read.hand is not None and [f.code for f in read.findings] == ["invalid-field"] and "year" not in read.hand.fields
    (read,) = _reads(CASH.replace("[$7.50]", "[$7.5" + "0" * 20 + "1]"))
    assert read.hand is None and read.findings[0].code == "invalid-field"
    (read,) = _reads(CASH.replace("Seat 2: Born2Disco", "Seat 1: Born2Disco"))
    assert read.hand is None and read.findings[0].code == "invalid-field" and "seat 1" in read.findings[0].message


def test_a_tournament_summary_is_no_hand():
    summary = "***** Cassava Tournament Summary *****\nTournament ID: 78669312\nBuy-In: $0.01\njpprewitt finished 59/76\n"
    assert split_log("s.txt", summary.encode()) == []
    assert [site_hand_of(c.data)[2] for c in split_log("s.txt", (summary + "\n" + WALK).encode())] == ["349568100"]
