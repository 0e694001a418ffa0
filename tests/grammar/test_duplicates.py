"""The same site hand given twice is read once: the second copy is a duplicate-hand entry."""

import json

import pytest
from helpers import NT3, run_cli

from handaudit import audit
from handaudit.grammar.duplicates import site_hand

ACTIONS = "actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 f']\n"


@pytest.mark.parametrize("extra,key", [
    ("venue = 'PokerStars'\ntable = 'Mirfak'\nhand = 2297417432\n", ("PokerStars", "Mirfak", "2297417432")),
    ('venue = "PokerStars"\nhand = "2297417432"  # the id\n', ("PokerStars", None, "2297417432")),
    ("table = 7\nhand = 12\n", None),  # no venue: hand numbers alone repeat across files
    ("venue = 'PokerStars'\n", None),
])
def test_site_hand_key_from_the_raw_text(extra, key):
    assert site_hand((NT3 + ACTIONS + extra).encode()) == key


def _write(path, extra):
    path.write_text(NT3 + ACTIONS + extra, encoding="utf-8")
    return str(path)


def test_the_second_copy_is_not_read_and_names_the_first(tmp_path):
    same = "venue = 'PokerStars'\ntable = 7\nhand = 42\n"
    a = _write(tmp_path / "a.phh", same)
    b = _write(tmp_path / "b.phh", same.replace("table = 7", "table = '7'"))  # the same value, quoted
    c = _write(tmp_path / "c.phh", same.replace("hand = 42", "hand = 43"))
    reports = list(audit([a, b, c]))
    assert [r.status for r in reports] == ["valid", "unreadable", "valid"]
    (finding,) = reports[1].findings
    assert finding.code == "duplicate-hand"
    assert finding.message == f"the same site hand (venue PokerStars, table 7, hand 42) as {a}; this copy is not read"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_command_line_finds_it_whatever_the_jobs(tmp_path, jobs):
    same = "venue = 'PokerStars'\nhand = 42\n"
    body = NT3 + ACTIONS + same
    (tmp_path / "night.phhs").write_text(f"[1]\n{body}\n[2]\n{body}", encoding="utf-8")
    _write(tmp_path / "z.phh", same)
    r = run_cli("check", str(tmp_path), "--format", "jsonl", "--jobs", jobs, text=True)
    objs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(o["hand_key"], o["status"]) for o in objs] == [("1", "valid"), ("2", "unreadable"), ("", "unreadable")]
    assert all(o["findings"][0]["code"] == "duplicate-hand" for o in objs[1:])
    assert f"{tmp_path / 'night.phhs'} [1]" in objs[2]["findings"][0]["message"]
