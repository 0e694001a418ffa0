"""The same site hand given twice is read once: the second copy is a duplicate-hand entry."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
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


# The reading the scanner replaced, kept as the reference: a regular expression over the lines.
_REFERENCE = __import__("re").compile(rb"^[ \t]*(venue|table|hand)[ \t]*=[ \t]*([^\r\n#]*)", __import__("re").M)


def _reference_site_hand(data: bytes):
    from handaudit.grammar.duplicates import _value

    if b"venue" not in data:
        return None
    found: dict = {}
    for key, raw in _REFERENCE.findall(data):
        found.setdefault(key, _value(raw))
    venue, number = found.get(b"venue"), found.get(b"hand")
    if not venue or not number:
        return None
    return venue, found.get(b"table"), number


_PIECES = ["venue = 'PokerStars'\n", "  venue='Full Tilt'  # x\n", "hand = 12\n", "hands = 3\n", "hand_x = 1\n",
           "table = 'T 1'\r\n", "\ttable = 9\n", "x = 'venue = 1'\n", "# hand = 5\n", "venue\n", "hand =\n",
           "_note = 'hand = 9'\n", "venue = ''\n", "hand = \"R5-1\"\n", "[1]\n", "a = 1 hand = 2\n"]


@given(st.lists(st.sampled_from(_PIECES), max_size=12))
def test_site_hand_scanner_agrees_with_the_regular_expression(pieces):
    data = "".join(pieces).encode()
    assert site_hand(data) == _reference_site_hand(data)
