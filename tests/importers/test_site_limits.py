"""One set of limits for every importer (issue #38, items 4 and 6): each value past the PHH
reader's limits in a site log is an invalid-field finding on that hand, with its line; the run
(--out Parquet, --format jsonl, the API) completes and counts every hand. PokerStars and PPPoker."""

from __future__ import annotations

import json

import pytest

from handaudit import audit
from handaudit.importers.common import amount_units
from handaudit.importers.limits import MAX_DIGITS, seats_problems
from handaudit.reports.parquet import read_table

PS = """\
PokerStars Game #{id}:  Hold'em No Limit ($0.05/$0.10 USD) - 2014/01/06 7:21:05 ET
Table 'Skat III' 6-max Seat #1 is the button
Seat 1: Ann ($10 in chips)
Seat 2: Cid ($10 in chips)
Seat 3: Bob ($10 in chips)
Cid: posts small blind $0.05
Bob: posts big blind $0.10
*** HOLE CARDS ***
Ann: folds
Cid: folds
Uncalled bet ($0.05) returned to Bob
Bob collected $0.10 from pot
Bob: doesn't show hand
*** SUMMARY ***
Total pot $0.10 | Rake $0
Seat 3: Bob (big blind) collected ($0.10)
"""
TOURNEY = PS.replace("Game #{id}:  Hold'em No Limit ($0.05/$0.10 USD)",
                     "Hand #{id}: Tournament #77, $1+$0.10 USD Hold'em No Limit - Level IV (5/10)").replace("$", "")
BIG = "1" * 5000

# (name, the bad hand's text, its status, the line of the finding, a word of its message)
CASES = [
    ("impossible date", PS.replace("2014/01/06", "2014/13/45"), "invalid", 1, "2014/13/45 is no date"),
    ("impossible time", PS.replace("7:21:05", "25:61:05"), "invalid", 1, "no time of day"),
    ("30 decimal places", PS.replace("$0.05/", "$0." + "0" * 29 + "5/"), "unreadable", 1, "30 decimal places"),
    ("40,000-max table", PS.replace("6-max", "40000-max"), "unreadable", 2, "table size 40000-max"),
    ("seat 40,000", PS.replace("Seat 3: Bob", "Seat 40000: Bob"), "unreadable", 5, "seat 40000"),
    ("stack of 1e23", PS.replace("Seat 1: Ann ($10", "Seat 1: Ann ($" + "1" + "0" * 23), "unreadable", 3, "units"),
    ("stack of 5,000 digits", PS.replace("Seat 1: Ann ($10", "Seat 1: Ann ($" + BIG), "unreadable", 3, "digits"),
    ("hand id of 5,000 digits", PS.replace("{id}", BIG), "unreadable", 1, "hand id"),
    ("level of 1e20", TOURNEY.replace("Level IV", "Level 1" + "0" * 20), "invalid", 1, "level"),
    ("level of 5,000 digits", TOURNEY.replace("Level IV", "Level " + BIG), "invalid", 1, "level"),
    ("two players in one seat", PS.replace("Seat 2: Cid", "Seat 1: Cid"), "unreadable", 3, "listed twice"),
    ("two seats with one name", PS.replace("Seat 2: Cid ($10", "Seat 2: Bob ($10"), "unreadable", 3, "seat 2 and seat 3"),
]


def _log(bad: str, site: str) -> str:
    hands = [PS.replace("{id}", "1001"), bad.replace("{id}", "1002"), PS.replace("{id}", "1003")]
    text = "\n\n".join(hands)
    if site == "pppoker":
        text = text.replace("PokerStars Game #", "PPPoker Hand #").replace("PokerStars Hand #", "PPPoker Hand #")
    return text


@pytest.mark.parametrize("site", ["pokerstars", "pppoker"])
@pytest.mark.parametrize("name,bad,status,line,word", CASES, ids=[c[0] for c in CASES])
def test_a_value_past_the_limits_is_an_invalid_field_on_its_hand(tmp_path, cli, site, name, bad, status, line, word):
    path = tmp_path / "log.txt"
    path.write_text(_log(bad, site))
    start = PS.count("\n") + 3  # the bad hand's first line in the file (two blank lines before it)
    reports = list(audit([str(path)]))
    assert [r.status for r in reports] == ["valid", status, "valid"]
    f = [f for f in reports[1].findings if f.code == "invalid-field"]
    assert f and f[0].line == start + line - 1 and word in f[0].message, [(x.code, x.line, x.message) for x in f]
    proc = cli("check", str(path), "--format", "jsonl", "--out", str(tmp_path / "out"), "--fail-on", "never", text=True)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [r["status"] for r in rows] == ["valid", status, "valid"]
    hands = read_table(tmp_path / "out", "hands", ["status"])
    assert hands.column("status").to_pylist() == ["valid", status, "valid"]


def test_amount_digits_are_bounded_before_any_integer_is_made():
    assert amount_units("$" + "9" * 40) == (int("9" * 40), 0)
    assert amount_units("$" + "9" * 41) == (-2, 0)
    assert amount_units("9" * 10**6) == (-2, 0)  # read in linear time, no 10**6-digit integer
    assert amount_units("x" * 10**6) == (-1, 0)


def test_seat_list_problems():
    assert seats_problems([1, 2], ["a", "b"]) == []
    assert len(seats_problems([1, 1], ["a", "b"])) == 1
    assert len(seats_problems([1, 2], ["a", "a"])) == 1
    assert MAX_DIGITS == 18
