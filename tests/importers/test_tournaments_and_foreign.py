"""Files that are not PokerStars hands: tournament summaries (read into the tournaments output,
never counted as a hand) and other sites' logs (one unreadable entry per hand they hold)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from handaudit.importers import read_any
from handaudit.importers.common import split_log
from handaudit.importers.tournaments import read_summary
from handaudit.run.local import Runner

from helpers import CORPUS

SUMMARY = """\
PokerStars Tournament #2030617466, No Limit Hold'em
Buy-In: $3.19/$0.31 USD
9 players
Total Prize Pool: $28.71 USD
Tournament started 2017/07/15 18:00:00 CET [2017/07/15 12:00:00 ET]
Tournament finished 2017/07/15 18:45:10 CET [2017/07/15 12:45:10 ET]
  1: Player (1) (Germany), $12.92 (45%)
  2: Player2 (Russia), $8.61 (30%)
  3: Hero (Brazil), $7.18 (25%)
  4: Player4 (France),
You finished in 3rd place and received $7.18.
"""

HAND = (CORPUS / "sites" / "pokerstars" / "hhsmithy" / "CashGame" / "GeneralHands" / "GeneralHand.txt").read_bytes()
HAND = HAND[3:] if HAND.startswith(b"\xef\xbb\xbf") else HAND  # (its byte-order mark)


def test_a_summary_is_read_with_its_figures_exact():
    t = read_summary("ts.txt", SUMMARY)
    assert (t.tournament, t.game, t.buy_in, t.buy_in_total, t.currency) == (
        2030617466, "No Limit Hold'em", "$3.19/$0.31 USD", "3.50", "USD")
    assert (t.entrants, t.prize_pool, t.hero_place) == (9, "28.71", 3)
    assert [(f.place, f.player, f.country, f.prize) for f in t.finishes] == [
        (1, "Player (1)", "Germany", "12.92"), (2, "Player2", "Russia", "8.61"), (3, "Hero", "Brazil", "7.18"),
        (4, "Player4", "France", None)]
    assert t.unread == ()


def test_a_bounty_buy_in_and_a_freeroll():
    bounty = read_summary("ts.txt", SUMMARY.replace("$3.19/$0.31 USD", "$5.00/$0.50/$0.10 USD"))
    assert bounty.buy_in_total == "5.60"
    free = read_summary("ts.txt", SUMMARY.replace("$3.19/$0.31 USD", "Freeroll"))
    assert (free.buy_in, free.buy_in_total) == ("Freeroll", "0")


def test_a_line_not_read_is_kept_as_a_warning_of_the_record():
    t = read_summary("ts.txt", SUMMARY.replace("9 players\n", "9 players\nThe moon is full\n"))
    assert t.unread == ((4, "The moon is full"),)


def _run(tmp_path, files: dict[str, bytes], out: bool = False):
    for name, data in files.items():
        (tmp_path / "in" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "in" / name).write_bytes(data)
    import io

    stream = io.StringIO()
    result = Runner([str(tmp_path / "in")], jobs=1, jsonl_stream=stream,
                    out_dir=str(tmp_path / "out") if out else None).run()
    return result, [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_summary_file_is_no_hand_and_goes_to_the_tournaments_output(tmp_path):
    result, records = _run(tmp_path, {"TS1.txt": SUMMARY.encode(), "h.txt": HAND}, out=True)
    hands = [r for r in records if "status" in r]
    tournaments = [r for r in records if r.get("record") == "tournament"]
    assert len(hands) == 1 and result.summary.hands == 1
    assert [t["tournament"] for t in tournaments] == [2030617466]
    assert tournaments[0]["finishes"][2] == {"place": 3, "player": "Hero", "country": "Brazil", "prize": "7.18",
                                             "note": "$7.18 (25%)"}
    import pyarrow.parquet as pq

    table = pq.read_table(tmp_path / "out" / "tournaments.parquet")
    assert table.column("tournament").to_pylist() == [2030617466]
    assert table.column("prize_pool").to_pylist() == ["28.71"]  # an exact decimal, never a float
    assert any("tournament summary" in note for note in result.notes)


def test_a_summary_concatenated_with_hands_is_no_hand_either(tmp_path):
    result, records = _run(tmp_path, {"mixed.txt": HAND + b"\n\n" + SUMMARY.encode() + b"\n\n" + HAND.replace(
        b"#109681313810", b"#109681313811")})
    assert [r["hand"] for r in records if "status" in r] == [109681313810, 109681313811]
    assert [r["tournament"] for r in records if r.get("record") == "tournament"] == [2030617466]


def test_a_summary_read_on_its_own_says_what_it_is():
    [chunk] = split_log("ts.txt", SUMMARY.encode())
    read = read_any(chunk)
    assert read.hand is None and [f.code for f in read.findings] == ["site-tournament-summary"]


@pytest.mark.parametrize("site", ["fulltilt", "wpn"])  # (888poker, PartyPoker, GGPoker, Winamax: issue #41; iPoker: #42)
def test_another_sites_log_is_one_unreadable_entry_per_hand_it_holds(site):
    root = CORPUS / "sites" / site
    if not root.is_dir():
        pytest.skip("no samples")
    from handaudit.importers.inputs import expand_inputs, read_inputs

    files = expand_inputs([str(root)])
    assert files
    for f in files:
        chunks = list(read_inputs(f))
        data = open(f, "rb").read().decode("utf-8", "replace")
        codes = [c.problem[0] for c in chunks if c.problem]
        assert codes and set(codes) <= {"site-format-not-read", "site-unreadable-line"}, f
        if "site-format-not-read" in codes and site == "fulltilt":
            assert len(chunks) == data.count("Full Tilt Poker Game #"), f


def test_the_foreign_sample_names_each_hand():
    chunks = split_log("ft.txt", (Path(__file__).resolve().parents[2] / "samples" / "foreign-site.txt").read_bytes())
    assert [c.problem for c in chunks] == [
        ("site-format-not-read", "a Full Tilt Poker hand #33286946295: handaudit reads PokerStars-format logs and "
                                 "PHH, not Full Tilt Poker's format; not read"),
        ("site-format-not-read", "a Full Tilt Poker hand #33286946296: handaudit reads PokerStars-format logs and "
                                 "PHH, not Full Tilt Poker's format; not read")]
    assert [c.line for c in chunks] == [1, 16]


def test_a_damaged_summary_is_read_as_far_as_it_goes_and_never_overflows(tmp_path):
    text = ("PokerStars Tournament #99999999999999999999999, x\nBuy-In: $$$/abc\n  1: (\n"
            "  99999999999: x (y), $1\nYou finished in 999999999999999999999th place\n")
    t = read_summary("ts.txt", text)
    assert (t.tournament, t.buy_in_total, t.hero_place) == (0, None, None)
    assert [f.place for f in t.finishes] == [1]
    result, records = _run(tmp_path, {"TS.txt": text.encode()}, out=True)
    assert [r["record"] for r in records] == ["tournament"] and result.summary.hands == 0
    assert (tmp_path / "out" / "tournaments.parquet").is_file()
