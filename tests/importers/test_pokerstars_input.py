"""Bad input, encodings, detection and the command line for PokerStars logs (hands written here,
from the sample GeneralHand's lines)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handaudit.grammar.chunk import Chunk
from handaudit.importers import read_any, site_hand_of
from handaudit.importers import lines as L
from handaudit.importers.common import amount_units, phh_order, split_log
from handaudit.importers.inputs import expand_inputs, is_site_head, read_inputs
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

HAND = """\
PokerStars Game #109681313810:  Hold'em No Limit ($0.05/$0.10 USD) - 2014/01/06 7:21:05 ET
Table 'Skat III 100-250 bb, Ante' 6-max Seat #4 is the button
Seat 1: Player_L ($47.63 in chips)
Seat 2: H6U5r ($25 in chips)
Seat 3: LovID ($26.62 in chips)
Seat 4: Tunks2 ($20 in chips)
Seat 5: Nightfox82 ($26.17 in chips)
Seat 6: Asaki1 ($9.29 in chips)
Nightfox82: posts small blind $0.05
Asaki1: posts big blind $0.10
*** HOLE CARDS ***
Dealt to LovID [Ah Kd]
Player_L: calls $0.10
H6U5r: folds
LovID: raises $0.40 to $0.50
Tunks2: folds
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
BOOK = load_rulebook("tda-2026")


def _audit(text: str | bytes, source: str = "t.txt"):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return [audit_read(read_any(c), BOOK, c.index) for c in split_log(source, data)]


def test_the_hand_written_here_is_clean():
    [report] = _audit(HAND)
    assert report.status == "valid" and report.findings == ()
    hand = report.read.hand
    assert hand.action_texts[:6] == ("d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????",
                                     "d dh p5 AhKd", "d dh p6 ????")
    assert (report.settlement.rake, report.settlement.rake_check) == (5, "exact")


def test_an_unknown_line_is_a_warning_with_its_line_and_the_hand_is_audited():
    text = HAND.replace("Tunks2: folds\n", "Tunks2: folds\nThe dealer wiggles the deck\n")
    [report] = _audit(text)
    assert [(f.code, f.severity, f.line) for f in report.findings] == [("site-unknown-line", "warning", 17)]
    assert "The dealer wiggles the deck" in report.findings[0].message
    assert report.status == "valid" and report.settlement.payout_check == "match"


def test_an_unknown_line_of_a_seated_player_in_the_action_form_makes_the_hand_unreadable():
    text = HAND.replace("Tunks2: folds\n", "Tunks2: folds\nTunks2: wiggles $5\n")
    [report] = _audit(text)
    assert [(f.code, f.line) for f in report.findings] == [("site-unreadable-line", 17)]
    assert report.status == "unreadable" and "Tunks2" in report.findings[0].message


def test_a_truncated_hand_is_unreadable_at_its_last_line_and_the_next_is_read():
    cut = HAND[:HAND.index("Player_L: checks")]
    reports = _audit(cut + "\n\n" + HAND)
    assert [r.status for r in reports] == ["unreadable", "valid"]
    assert [(f.code, f.line) for f in reports[0].findings] == [("site-truncated-hand", 20)]
    assert reports[1].read.line == 23  # two blank lines after the cut (line 20), then the next hand


def test_dealt_cards_that_are_not_cards_are_a_finding_at_their_line():
    """Found by the byte-flip property test: a NUL byte in a 'Dealt to' line raised ValueError."""
    [report] = _audit(HAND.replace("Dealt to LovID [Ah Kd]", "Dealt to LovID [\x00h Kd]"))
    assert report.status == "unreadable"
    assert [(f.code, f.line) for f in report.findings] == [("invalid-card", 12)]
    assert report.findings[0].message == "line 12: the cards dealt to LovID [\x00h Kd] are not cards"


def test_a_mismatching_summary_is_named():
    [report] = _audit(HAND.replace("Total pot $1.15 | Rake $0.05", "Total pot $1.25 | Rake $0.05"))
    assert [f.code for f in report.findings] == ["site-total-pot-mismatch"]
    [report] = _audit(HAND.replace("Uncalled bet ($0.95)", "Uncalled bet ($0.90)"))
    assert [f.code for f in report.findings] == ["site-uncalled-mismatch"]
    [report] = _audit(HAND.replace("Rake $0.05", "Rake $0.04"))
    assert {f.code for f in report.findings} >= {"site-rake-mismatch"}
    [report] = _audit(HAND.replace("LovID collected $1.10", "Player_L collected $1.10"))
    assert {f.code for f in report.findings} >= {"site-collected-mismatch", "winnings-mismatch"}


def test_older_single_byte_logs_are_read_as_windows_1252():
    data = HAND.replace("LovID", "Ren\u00e9").encode("cp1252")
    [report] = _audit(data)
    assert "Ren\u00e9" in report.read.hand.fields["players"]
    assert [f.code for f in report.findings] == ["site-encoding"]


def test_byte_order_mark_and_crlf():
    data = b"\xef\xbb\xbf" + HAND.replace("\n", "\r\n").encode("utf-8")
    [report] = _audit(data)
    assert report.status == "valid" and report.read.hand.fields["players"][4] == "LovID"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_logs_with_a_byte_order_mark_are_told_and_read(tmp_path, codec):
    """Some tools save logs as UTF-16 with a byte-order mark: told a site log by content (in a
    directory too) and read as the UTF-8 text is, with no finding of their own."""
    text = HAND.replace("Player_L", "Player_Łódź").replace("\n", "\r\n")
    data = text.encode(codec)
    if codec != "utf-16":  # (utf-16 writes its own mark)
        data = ("\ufeff" + text).encode(codec)
    (tmp_path / "log").write_bytes(data)
    assert is_site_head(data[:4096])
    assert expand_inputs([str(tmp_path)]) == [str(tmp_path / "log")]
    [chunk] = list(read_inputs(str(tmp_path / "log")))
    [utf8] = _audit(text)
    [report] = [audit_read(read_any(chunk), BOOK, chunk.index)]
    assert report.status == "valid" and report.findings == ()
    assert report.read.hand.fields["players"] == utf8.read.hand.fields["players"]
    assert "Player_Łódź" in report.read.hand.fields["players"]
    assert report.read.hand.action_texts == utf8.read.hand.action_texts
    assert site_hand_of(chunk.data) == ("PokerStars", "Skat III 100-250 bb, Ante", "109681313810")


def test_amounts_exact():
    assert amount_units("$0.25") == (25, 2)
    assert amount_units("1,500") == (1500, 0)
    assert amount_units("€7.50") == (75, 1)
    assert amount_units("¥12") == (12, 0)
    assert amount_units("$") == (-1, 0)
    assert amount_units("1.") == (-1, 0)


def test_phh_order():
    # seats 1, 3, 5 with the button on 3: 5 (small blind) first, the button last
    assert phh_order([1, 3, 5], 3, 5) == [2, 0, 1]
    # heads-up: the big blind first, then the button who posts the small blind
    assert phh_order([2, 7], 7, 7) == [0, 1]
    assert phh_order([2, 7], 2, 2) == [1, 0]


def test_detection_is_by_content(tmp_path):
    (tmp_path / "a.txt").write_text(HAND)
    (tmp_path / "notes.txt").write_text("not a hand\n")
    (tmp_path / "b.phh").write_text("variant = 'NT'\n")
    (tmp_path / "log").write_text(HAND)  # no suffix at all
    assert [p.rsplit("/", 1)[-1] for p in expand_inputs([str(tmp_path)])] == ["a.txt", "b.phh", "log"]
    assert is_site_head(b"\xef\xbb\xbf\r\nPokerStars Hand #1: ")
    assert not is_site_head(b"[1]\nvariant = 'NT'\n")
    # a site log under a PHH name is read by its content too
    (tmp_path / "c.phh").write_text(HAND)
    [chunk] = list(read_inputs(str(tmp_path / "c.phh")))
    assert read_any(chunk).hand is not None


def test_check_mixes_site_logs_with_phh_and_convert_round_trips(tmp_path, cli, repo):
    (tmp_path / "a.txt").write_text(HAND + "\n\n" + HAND.replace("#109681313810", "#109681313811"))
    phh = repo / "samples" / "all-in-street-names.phh"
    out = cli("check", str(tmp_path / "a.txt"), str(phh), "--format", "jsonl", "--fail-on", "never")
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["hand_key"], r["hand"], r["status"]) for r in rows] == [
        ("1", 109681313810, "valid"), ("2", 109681313811, "valid"), ("", None, "valid")]
    conv = cli("convert", str(tmp_path / "a.txt"), "-o", str(tmp_path / "a.phhs"))
    assert conv.returncode == 0, conv.stderr
    again = cli("check", str(tmp_path / "a.phhs"), "--format", "jsonl")
    assert again.returncode == 0, again.stderr
    rows2 = [json.loads(line) for line in again.stdout.splitlines()]
    for r in rows[:2] + rows2:
        r.pop("source")
    assert rows2 == rows[:2]
    refused = cli("convert", str(tmp_path / "a.txt"), "-o", str(tmp_path / "a.phhs"))
    assert refused.returncode == 2 and b"exists" in refused.stderr


@pytest.mark.parametrize("game", ["7 Card Stud Pot Limit", "Razz No Limit", "Triple Draw A-5 Lowball Limit",
                                  "5 Card Stud Limit"])
def test_a_game_without_a_variant_code_is_said(game):
    [report] = _audit(HAND.replace("Hold'em No Limit", game))
    assert report.status == "unreadable"
    [finding] = report.findings
    assert finding.code == "site-game-not-phh"
    assert game.rsplit(" ", 2)[0] in finding.message


@pytest.mark.parametrize("game,variant", [
    ("Hold'em Pot Limit", "PT"), ("Omaha No Limit", "NO"), ("Omaha Hi/Lo Pot Limit", "PO/8"),
    ("Omaha Hi/Lo No Limit", "NO/8"), ("5 Card Omaha Pot Limit", "P5O"), ("5 Card Omaha Hi/Lo Pot Limit", "P5O/8"),
    ("6 Card Omaha Pot Limit", "P6O"), ("6 Card Omaha Hi/Lo Pot Limit", "P6O/8"), ("Hold'em Fixed Limit", "FT"),
])
def test_each_board_game_reads_under_its_variant_code(game, variant):
    # the same lines as another board game: the code from the header's game and limit
    [report] = _audit(HAND.replace("Hold'em No Limit", game))
    assert report.hand is not None and report.hand.variant == variant


def test_the_site_hand_of_a_log_is_named_as_its_conversion_names_it():
    assert site_hand_of(HAND.encode()) == ("PokerStars", "Skat III 100-250 bb, Ante", "109681313810")
    # the table line is the second line that is not blank; a hand without one is keyed without a table
    assert site_hand_of(HAND.replace("\n", "\n\n", 1).encode())[1] == "Skat III 100-250 bb, Ante"
    no_table = HAND.replace("Table 'Skat III 100-250 bb, Ante' 6-max Seat #4 is the button\n", "")
    assert site_hand_of(no_table.encode()) == ("PokerStars", None, "109681313810")
    # a table line the importer cannot read gives its conversion no table: keyed without one too
    odd = HAND.replace("6-max Seat #4 is the button", "6-max Seat #4 is the dealer")
    assert read_any(split_log("t.txt", odd.encode())[0]).hand.fields.get("table") is None
    assert site_hand_of(odd.encode()) == ("PokerStars", None, "109681313810")


def test_a_table_line_not_read_leaves_the_rest_of_the_hand_read():
    """The seats after it are read, and the button is the seat before the small blind's, so the
    players keep their PHH order: one finding, at the table line, and the payouts still check."""
    [clean] = _audit(HAND)
    for line in ("Table 'Skat III 100-250 bb, Ante' 6-max Seat #4 is the dealer", "Table 'Skat III 100-250 bb, Ante' 6-max Seat #x"):
        [report] = _audit(HAND.replace("Table 'Skat III 100-250 bb, Ante' 6-max Seat #4 is the button", line))
        assert [(f.code, f.line) for f in report.findings] == [("site-unknown-line", 2)]
        assert report.read.hand.fields["players"] == clean.read.hand.fields["players"]
        assert report.read.hand.action_texts == clean.read.hand.action_texts
        assert (report.status, report.settlement.payout_check) == ("valid", "match")  # (a warning)
    # heads-up: the small blind is the button
    two = """\
PokerStars Game #109681313899:  Hold'em No Limit ($0.05/$0.10 USD) - 2014/01/06 7:21:05 ET
Table 'Duo' 6-max Seat #5 is the button
Seat 2: A ($10 in chips)
Seat 5: B ($10 in chips)
B: posts small blind $0.05
A: posts big blind $0.10
*** HOLE CARDS ***
B: raises $0.20 to $0.30
A: folds
Uncalled bet ($0.20) returned to B
B collected $0.20 from pot
B: doesn't show hand
*** SUMMARY ***
Total pot $0.20 | Rake $0
Seat 2: A (big blind) folded before Flop
Seat 5: B (button) (small blind) collected ($0.20)
"""
    [clean] = _audit(two)
    # a table line without its button (as stud's are) is read: the button is then the small blind's seat
    [report] = _audit(two.replace(" Seat #5 is the button", ""))
    assert clean.findings == () and clean.read.hand.fields["players"] == ["A", "B"]  # p1 the big blind
    assert report.read.hand.fields["players"] == ["A", "B"]
    assert report.findings == () and report.read.hand.fields["table"] == "Duo"
    pp = "PPPoker Hand #0042: Hold'em No Limit (1/2) - 2024/01/06 7:21:05\nTable 'Club' 9-max Seat #1 is the button\n"
    assert site_hand_of(pp.encode()) == ("PPPoker", "Club", "42")
    assert site_hand_of(b"PokerStars Hand: no number\n") is None


def test_a_site_hand_given_twice_is_read_once_as_log_or_conversion(tmp_path, cli):
    """The same PokerStars hand in two logs (overlapping exports), or a log beside its own PHH
    conversion: the second copy is a duplicate-hand entry naming the first, whatever --jobs."""
    other = HAND.replace("#109681313810", "#109681313811")
    (tmp_path / "a.txt").write_text(HAND + "\n\n" + other)
    (tmp_path / "b.txt").write_text(other)  # hand 2 of a.txt again
    conv = cli("convert", str(tmp_path / "b.txt"), "-o", str(tmp_path / "c.phhs"))
    assert conv.returncode == 0, conv.stderr
    first = f"{tmp_path / 'a.txt'} [2]"
    for jobs in ("1", "2"):
        out = cli("check", str(tmp_path), "--format", "jsonl", "--jobs", jobs, "--fail-on", "never")
        assert out.returncode == 0, out.stderr
        rows = [json.loads(line) for line in out.stdout.splitlines()]
        assert [(r["source"].rsplit("/", 1)[-1], r["hand_key"], r["status"]) for r in rows] == [
            ("a.txt", "1", "valid"), ("a.txt", "2", "valid"), ("b.txt", "1", "unreadable"),
            ("c.phhs", "1", "unreadable")]
        for r in rows[2:]:
            [finding] = r["findings"]
            assert finding["code"] == "duplicate-hand"
            assert finding["message"] == ("the same site hand (venue PokerStars, table Skat III 100-250 bb, Ante, "
                                          f"hand 109681313811) as {first}; this copy is not read")


def test_explain_shows_a_copy_in_the_file_as_check_counts_it(tmp_path, cli):
    """A log that gives a hand twice: explain --hand 2 shows the duplicate-hand entry check
    reports, and the hand number finds the copy check audited."""
    log = tmp_path / "twice.txt"
    log.write_text(HAND + "\n\n" + HAND)
    copy = cli("explain", str(log), "--hand", "2", text=True)
    assert copy.returncode == 0, copy.stderr
    assert copy.stdout.splitlines()[:2] == [
        f"{log} [2]: unreadable",
        "  error duplicate-hand line 33, column 1: the same site hand (venue PokerStars, table Skat III 100-250 bb, "
        f"Ante, hand 109681313810) as {log} [1]; this copy is not read"]
    first = cli("explain", str(log), "--hand", "109681313810", text=True)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(f"{log} [1] (hand 109681313810): NT, 6 players, rulebook tda-2026, valid")
    assert f"{log} [2]" not in first.stdout


def test_the_grammar_reads_the_lines_the_fast_path_reads():
    names = ["Nightfox82", "Player_L", "LovID"]
    for line, who in [("Player_L: calls $0.10", 1), ("LovID: raises $0.40 to $0.50", 2), ("LovID: bets $0.95", 2),
                      ("Player_L: folds", 1), ("Player_L: checks", 1), ("Nightfox82: posts small blind $0.05", 0),
                      ("LovID collected $1.10 from side pot-2", 2), ("LovID: shows [Ah Kd] (high card Ace)", 2),
                      ("LovID: mucks hand", 2), ("LovID: doesn't show hand", 2), ("LovID said, \"gg\"", 2)]:
        k = L.player_at(line, names)
        assert k == who
        fast = L.player_line(line[len(names[k]):], k)
        assert L.grammar_event(L.placeholder(line, 0, len(names[k]), k)) == fast, line
    assert L.grammar_event("Bob: dances")[0] == L.E_UNKNOWN


# --- random damage never crashes the importer ---------------------------------------------------

_LINES = HAND.split("\n")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, len(_LINES) - 1), max_size=6), st.lists(st.tuples(st.integers(0, 2000),
       st.integers(0, 255)), max_size=6))
def test_line_deletions_and_byte_flips_never_crash(deleted, flips):
    kept = [line for i, line in enumerate(_LINES) if i not in set(deleted)]
    data = bytearray("\n".join(kept).encode("utf-8") * 2)
    for pos, byte in flips:
        if data:
            data[pos % len(data)] = byte
    for chunk in split_log("x.txt", bytes(data)):
        report = audit_read(read_any(chunk), BOOK, chunk.index)
        assert report.read.hand is not None or any(f.severity == "error" for f in report.findings)
        for f in report.findings:
            assert f.line is not None or f.action_index is not None or f.code.startswith(("site-", "winnings",
                   "chips", "incomplete", "show-", "finishing"))


def test_random_truncations_never_crash():
    rng = random.Random(18)
    data = (HAND + "\n" + HAND).encode("utf-8")
    for _ in range(200):
        cut = data[:rng.randrange(len(data))]
        for chunk in split_log("x.txt", cut):
            audit_read(read_any(chunk), BOOK, chunk.index)
    assert isinstance(Chunk, type)
