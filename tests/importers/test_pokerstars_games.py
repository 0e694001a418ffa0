"""Every game PokerStars deals, read from the site's text and audited to the chip.

The hands in tests/importers/games/ are written the way the site writes each game (stud's
``*** 3rd STREET ***`` .. ``*** RIVER ***`` and up cards, the bring-in and completion, the draw
games' ``*** DEALING HANDS ***``, ``discards N cards [..]`` and ``stands pat``, a single draw's
draw without a marker, Courchevel's first flop card before the first round); their pots, rake
and payouts add up as the site states them, so each reads valid with the payout matching, and
the site's totals reconcile. Then the same hands as ``convert`` writes them, and the variants
of the text each game has.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from handaudit.core.variants import VARIANTS
from handaudit.grammar.reader import read_text
from handaudit.grammar.writer import hand_text
from handaudit.importers import pokerstars_games as G
from handaudit.importers import read_any
from handaudit.importers.common import split_log
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

GAMES = Path(__file__).resolve().parent / "games"
BOOK = load_rulebook("tda-2026")


def _audit_text(text: str, source: str = "t.txt"):
    return [(read_any(c), audit_read(read_any(c), BOOK, c.index)) for c in split_log(source, text.encode("utf-8"))]


def _file(name: str):
    return _audit_text((GAMES / name).read_text(encoding="utf-8"), name)


def _hand(name: str, number: int):
    for read, report in _file(name):
        if read.hand is not None and read.hand.fields["hand"] == number:
            return read, report
    raise AssertionError(f"hand {number} not in {name}")


def _errors(report):
    return [(f.code, f.action_index) for f in report.findings if f.severity == "error"]


# (file, hand number) -> variant, pot amounts, what each player receives from the pots and their
# finishing stack before the rake (in units of the hand's scale), the site's rake. The payouts the
# site states are those less its rake: the payout check matches with the rake exact.
EXPECTED = {
    ("stud.txt", 230000000001): ("F7S", [218], (0, 218, 0, 0), (398, 516, 598, 288), 10),
    ("stud.txt", 230000000002): ("F7S/8", [75], (38, 37, 0), (205, 204, 191), 4),
    ("stud.txt", 230000000003): ("FR", [418], (0, 418, 0), (1490, 1714, 1296), 0),
    ("draw.txt", 230000000011): ("F2L3D", [460], (0, 460, 0), (990, 1235, 775), 20),
    ("draw.txt", 230000000012): ("N2L1D", [350], (350, 0), (2675, 2325), 7),
    ("draw.txt", 230000000013): ("FB", [80], (0, 80, 0), (380, 450, 370), 4),
    ("draw.txt", 230000000014): ("F5CD", [165], (0, 0, 165), (495, 420, 585), 8),
    ("board.txt", 230000000021): ("PO/8", [380], (190, 0, 190), (1005, 990, 1005), 9),
    ("board.txt", 230000000022): ("P5O/8", [450], (450, 0), (2225, 1775), 17),
    ("board.txt", 230000000023): ("P6O", [375], (0, 0, 375), (4975, 4825, 5200), 16),
    ("board.txt", 230000000024): ("PC/8", [205], (103, 0, 102), (1018, 965, 1017), 10),
    ("board.txt", 230000000025): ("PT", [180], (0, 0, 180), (2490, 2415, 2595), 5),
}


@pytest.mark.parametrize("key", sorted(EXPECTED), ids=[f"{k[0]}-{k[1]}" for k in sorted(EXPECTED)])
def test_each_game_reads_and_audits_to_the_sites_figures(key):
    variant, pots, received, stacks, rake = EXPECTED[key]
    read, report = _hand(*key)
    hand, s = read.hand, report.settlement
    assert hand.variant == variant
    assert [f for f in report.findings if f.code != "site-unknown-line"] == []
    assert [p.amount for p in s.pots] == pots
    assert s.received == received and s.finishing_stacks == stacks
    assert (s.payout_check, s.rake, s.rake_check) == ("match", rake, "exact")


def test_stud_deals_up_cards_and_the_bring_in():
    read, report = _hand("stud.txt", 230000000001)
    texts = read.hand.action_texts
    # third street: the owner's three cards, the others' up card after two unknown down cards
    assert texts[:5] == ("d dh p1 ????Kd", "d dh p2 9s9h3c", "d dh p3 ????Qs", "d dh p4 ????2c", "p4 pb")
    assert texts[5] == "p1 cbr 0.10"  # "completes it to $0.10"
    # fourth street: an up card to each player still in (Carol folded)
    assert texts[9:12] == ("d dh p1 7h", "d dh p2 Ts", "d dh p4 8d")
    # seventh street: down, the owner's known, the other's unknown
    assert "d dh p1 ??" in texts and "d dh p2 Th" in texts
    assert read.hand.bring_in == 5 and read.hand.antes == (2, 2, 2, 2) and read.hand.small_bet == 10
    assert read.hand.fields["seats"] == [1, 2, 3, 5]  # seat order: stud has no button


def test_razz_bring_in_is_the_high_card_and_the_low_hand_wins():
    read, report = _hand("stud.txt", 230000000003)
    assert read.hand.action_texts[3] == "p1 pb"  # Hal's Kc
    assert _errors(report) == []  # every turn (the lowest hand showing opens) as the site played it
    assert read.hand.fields["event"] == "Tournament #3100000001"


def test_draws_discard_and_deal_what_the_log_shows():
    read, _ = _hand("draw.txt", 230000000011)
    texts = read.hand.action_texts
    at = texts.index("p2 sd ????")  # Max: "discards 2 cards" (not his log: cards unknown)
    assert texts[at + 1:at + 4] == ("d dh p2 ????", "p3 sd 9sKd", "d dh p3 2s8h")
    assert "p3 sd" in texts and "p2 sd" in texts  # "stands pat"


def test_a_single_draw_begins_at_the_first_discard():
    read, report = _hand("draw.txt", 230000000012)
    texts = read.hand.action_texts
    assert texts[4:9] == ("p1 sd Kc", "d dh p1 2c", "p2 sd", "p1 cc", "p2 cbr 1.00")
    assert _errors(report) == []


def test_courchevel_deals_its_first_flop_card_before_the_first_round():
    read, _ = _hand("board.txt", 230000000024)
    texts = read.hand.action_texts
    assert texts[3] == "d db Ah" and texts[4].startswith("p3 cbr")
    assert "d db 7dKc" in texts  # the flop line repeats the first card: only the two new ones


_COURCHEVEL = (GAMES / "board.txt").read_text(encoding="utf-8").split("\n\n\n\n")[3]


@pytest.mark.parametrize("marker,flop", [
    ("*** HOLE CARDS *** [Ah]", "*** FLOP *** [Ah] [7d Kc]"),
    ("*** HOLE CARDS ***", "*** FLOP *** [Ah] [7d Kc]"),
    ("*** HOLE CARDS ***", "*** FLOP *** [Ah 7d Kc]"),
    ("*** HOLE CARDS *** [Ah]", "*** FLOP *** [Ah 7d Kc]"),
])
def test_courchevel_reads_the_first_flop_card_wherever_the_log_shows_it(marker, flop):
    text = _COURCHEVEL.replace("*** HOLE CARDS *** [Ah]", marker).replace("*** FLOP *** [Ah] [7d Kc]", flop)
    [(read, report)] = _audit_text(text)
    assert read.hand.action_texts[3] == "d db Ah" and "d db 7dKc" in read.hand.action_texts
    assert (report.status, report.settlement.payout_check) == ("valid", "match")


def test_courchevel_ended_before_the_flop_takes_the_card_from_the_summary():
    text = """\
PokerStars Hand #230000000026:  Courchevel Pot Limit ($0.05/$0.10 USD) - 2021/11/05 19:50:00 ET
Table 'Canopus V' 6-max Seat #3 is the button
Seat 1: Dee ($10 in chips)
Seat 2: Eli ($10 in chips)
Seat 3: Fay ($10 in chips)
Dee: posts small blind $0.05
Eli: posts big blind $0.10
*** HOLE CARDS ***
Dealt to Fay [2d 4c Jc Jd 5h]
Fay: raises $0.25 to $0.35
Dee: folds
Eli: folds
Uncalled bet ($0.25) returned to Fay
Fay collected $0.25 from pot
Fay: doesn't show hand
*** SUMMARY ***
Total pot $0.25 | Rake $0
Board [9s]
Seat 1: Dee (small blind) folded before Flop
Seat 2: Eli (big blind) folded before Flop
Seat 3: Fay (button) collected ($0.25)
"""
    [(read, report)] = _audit_text(text)
    assert read.hand.variant == "PC" and read.hand.action_texts[3] == "d db 9s"
    assert (report.status, report.settlement.payout_check) == ("valid", "match")


def test_a_single_draw_with_a_draw_marker_reads_the_same():
    text = (GAMES / "draw.txt").read_text(encoding="utf-8").split("\n\n\n\n")[1]
    marked = text.replace("Oda: discards 1 card [Kc]", "*** FIRST DRAW ***\nOda: discards 1 card [Kc]")
    [(read, report)] = _audit_text(marked)
    [(plain, _)] = _audit_text(text)
    assert read.hand.action_texts == plain.hand.action_texts and _errors(report) == []


def test_an_older_stud_log_completes_with_raises():
    text = (GAMES / "stud.txt").read_text(encoding="utf-8").split("\n\n\n\n")[0]
    older = text.replace("Alice: completes it to $0.10", "Alice: raises $0.05 to $0.10")
    [(read, report)] = _audit_text(older)
    assert read.hand.action_texts[5] == "p1 cbr 0.10" and _errors(report) == []


def test_a_wrong_bring_in_is_found_in_the_sites_text():
    # Bob's 3c is not the lowest card up (Dave's 2c is): the site's log would never say so, a
    # hand edited to say it is found out
    text = (GAMES / "stud.txt").read_text(encoding="utf-8").split("\n\n\n\n")[0]
    edited = text.replace("Dealt to Dave [2c]", "Dealt to Dave [4c]").replace("[2c] [8d]", "[4c] [8d]")
    [(read, report)] = _audit_text(edited)
    assert ("wrong-bring-in", 4) in _errors(report)


def test_a_partial_show_is_a_muck_with_the_cards_said():
    text = (GAMES / "stud.txt").read_text(encoding="utf-8").split("\n\n\n\n")[0]
    shown = text.replace("Alice: mucks hand", "Alice: shows [Kd]")
    [(read, report)] = _audit_text(shown)
    assert read.hand.action_texts[-1] == "p1 sm # p1 shows [Kd], part of the hand: mucked"
    assert _errors(report) == [] and report.settlement.payout_check == "match"


@pytest.mark.parametrize("name", ["stud.txt", "draw.txt", "board.txt"])
def test_convert_writes_the_games_so_that_check_gives_the_same_verdicts(name):
    for read, report in _file(name):
        again = read_text(hand_text(read.hand))
        assert again.hand is not None and again.hand.variant == read.hand.variant, again.findings
        assert again.hand.action_texts == read.hand.action_texts
        other = audit_read(again, BOOK, 0)
        assert other.status == report.status
        assert [p.amount for p in other.settlement.pots] == [p.amount for p in report.settlement.pots]
        assert other.settlement.finishing_stacks == report.settlement.finishing_stacks
        assert other.settlement.payout_check == report.settlement.payout_check


def test_every_game_and_limit_has_its_code():
    codes = {(game, limit): G.variant_of(game, limit) for game in G.GAME_LETTERS for limit in G.LIMIT_LETTER}
    assert codes[("7 Card Stud", "Limit")] == "F7S" and codes[("Razz", "Limit")] == "FR"
    assert codes[("7 Card Stud Hi/Lo", "Fixed Limit")] == "F7S/8"
    assert codes[("7 Card Stud", "Pot Limit")] is None  # stud is a fixed-limit game: no code
    assert codes[("Omaha Hi/Lo", "Pot Limit")] == "PO/8" and codes[("Courchevel Hi/Lo", "Pot Limit")] == "PC/8"
    assert codes[("5 Card Draw", "No Limit")] == "N5CD" and codes[("Badugi", "Pot Limit")] == "PB"
    assert codes[("Single Draw 2-7 Lowball", "No Limit")] == "N2L1D"
    for (game, _limit), code in codes.items():
        if code is not None:
            assert code in VARIANTS
            assert G.family(code) == (G.STUD if "Stud" in game or game == "Razz" else
                                      G.DRAW if "Draw" in game or game == "Badugi" else G.BOARD)


def test_draw_lines_are_read_by_their_words():
    assert G.discard("discards 2 cards [9s Kd]") == (2, "9s Kd")
    assert G.discard("discards 1 card") == (1, "")
    assert G.discard("stands pat") == (0, "")
    assert G.discard("discards 2 cards and more") is None and G.discard("folds") is None
    assert G.bring_in("brings in for $0.05") == "$0.05" and G.bring_in("brings in for 5 and is all-in") == "5"
    assert G.completes("completes it to 1,500") == "1,500" and G.completes("calls 5") is None


def test_courchevel_flop_of_two_cards_takes_the_first_from_the_summarys_board():
    # a flop line with only its two new cards: the first flop card is the summary board's first
    text = _COURCHEVEL.replace("*** HOLE CARDS *** [Ah]", "*** HOLE CARDS ***").replace(
        "*** FLOP *** [Ah] [7d Kc]", "*** FLOP *** [7d Kc]")
    [(read, report)] = _audit_text(text)
    assert read.hand.action_texts[3] == "d db Ah" and "d db 7dKc" in read.hand.action_texts
    assert (report.status, report.settlement.payout_check) == ("valid", "match")


def test_heads_up_stud_keeps_seat_order_and_its_antes():
    # two players: no reverse-assignment of forced bets (stud has no button)
    text = (GAMES / "stud.txt").read_text(encoding="utf-8").split("\n\n\n\n")[2]
    two = text.replace("Seat 1: Hal (1500 in chips)\n", "").replace("Hal: posts the ante 4\n", "").replace(
        "Dealt to Hal [Kc]\n", "").replace("Hal: brings in for 6\nIvy: completes it to 20\nJon: calls 20\nHal: folds\n",
                                           "Jon: brings in for 6\nIvy: completes it to 20\nJon: calls 14\n")
    two = two.replace("Total pot 418", "Total pot 408").replace("collected 418", "collected 408").replace(
        "won (418)", "won (408)").replace("Seat 1: Hal folded on the 3rd Street\n", "")
    [(read, report)] = _audit_text(two)
    assert read.hand.fields["players"] == ["Ivy", "Jon"] and read.hand.antes == (4, 4)
    assert read.hand.action_texts[2] == "p2 pb"  # Jon's 9h is the high card up
    assert _errors(report) == [] and report.settlement.payout_check == "match"


@pytest.mark.parametrize("header,variant", [
    ("PokerStars Hand #230000000003: HORSE (Razz Limit, 20/40) - 2021/11/03 18:02:11 ET", "FR"),
    ("PokerStars Hand #230000000003: Tournament #3100000001, $2.00+$0.20 USD HORSE (Razz Limit) - Level II (20/40)"
     " - 2021/11/03 18:02:11 ET", "FR"),
    ("PokerStars Hand #230000000003: 8-Game (Razz Limit, 20/40) - 2021/11/03 18:02:11 ET", "FR"),
])
def test_a_mixed_games_stud_hand_reads_under_the_hands_game(header, variant):
    text = (GAMES / "stud.txt").read_text(encoding="utf-8").split("\n\n\n\n")[2].strip("\n").split("\n", 1)[1]
    [(read, report)] = _audit_text(header + "\n" + text)
    assert read.hand.variant == variant and read.hand.fields["_site_mixed"] in ("HORSE", "8-Game")
    assert _errors(report) == [] and report.settlement.payout_check == "match"
