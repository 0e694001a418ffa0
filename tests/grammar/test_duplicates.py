"""The same site hand given twice is read once: the second copy is a duplicate-hand entry."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from helpers import NT3, run_cli

from handaudit import audit
from handaudit.grammar.duplicates import site_hand
from handaudit.grammar.sources import printable

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
    if b"venue" not in data:
        return None
    found: dict = {}
    for key, raw in _REFERENCE.findall(data):
        found.setdefault(key, _reference_value(raw))
    venue, number = found.get(b"venue"), found.get(b"hand")
    if not venue or not number:
        return None
    return venue, found.get(b"table"), number


_PIECES = ["venue = 'PokerStars'\n", "  venue='Full Tilt'  # x\n", "hand = 12\n", "hands = 3\n", "hand_x = 1\n",
           "table = 'T 1'\r\n", "\ttable = 9\n", "x = 'venue = 1'\n", "# hand = 5\n", "venue\n", "hand =\n",
           "_note = 'hand = 9'\n", "venue = ''\n", "hand = \"R5-1\"\n", "[1]\n", "a = 1 hand = 2\n",
           " \t hand = 7\n", "hand\t= 8 # c\r\n", "\rhand = 9\n", "venue = 'A#B'\n", "hand = 1\r", "x\rvenue = 'V'\n",
           "venue =", "hand", " ", "\n", "table\t=\t'T'",
           # beyond ASCII: the scanner searches the text as Latin-1, one character a byte
           "venue = 'Café'\n", "x = 'é hand = 3'\n", "hand = 'Ö-7'\n", "é\nhand = 6\n", "table = \"€\"\n"]


@given(st.lists(st.sampled_from(_PIECES), max_size=12))
def test_site_hand_scanner_agrees_with_the_regular_expression(pieces):
    data = "".join(pieces).encode()
    assert site_hand(data) == _reference_site_hand(data)


# SiteHands keeps digests, not keys: it must answer as a dict of the keys would, the first
# copy named exactly, across its table's growth.
class _ReferenceSiteHands:
    def __init__(self):
        self.seen = {}

    def check_key(self, key, source, hand_key, index):
        first = self.seen.get(key)
        if first is None:
            self.seen[key] = (source, hand_key)
            return None
        venue, table, number = key
        where = f"{first[0]} [{first[1]}]" if first[1] else first[0]
        what = f"venue {venue}" + (f", table {table}" if table is not None else "") + f", hand {number}"
        return ("duplicate-hand", printable(f"the same site hand ({what}) as {where}; this copy is not read"))


_KEYS = st.tuples(st.sampled_from(["PokerStars", "Full Tilt", "a\x00b", "a", "1:a", ""]),
                  st.one_of(st.none(), st.sampled_from(["", "T", "Mirfak", "a\x00b", "b", "1:b", "-1:"])),
                  st.sampled_from(["1", "2", "12", "2297417432", "R5-1"]))
# (source, hand_key for the hand at index i): a .phh file (no key), a .phhs with [1], [2], ...,
# one with other names, a site log (ordinals)
_FILES = [("a.phh", lambda i: ""), ("night.phhs", lambda i: str(i + 1)), ("odd.phhs", lambda i: f"k{i}"),
          ("log.txt", lambda i: str(i + 1)), ("-", lambda i: "")]


@given(st.lists(st.tuples(_KEYS, st.integers(0, len(_FILES) - 1)), max_size=60))
def test_site_hands_answers_as_a_dict_of_the_keys_would(hands):
    from handaudit.grammar.duplicates import SiteHands

    ours, ref = SiteHands(), _ReferenceSiteHands()
    index = [0] * len(_FILES)
    for key, f in hands:
        source, hand_key = _FILES[f]
        i = index[f] if hand_key(0) else 0  # a .phh file holds one hand: each is its own file
        src = source if hand_key(0) else f"{len(ref.seen)}-{source}"
        index[f] += 1
        assert ours.check_key(key, src, hand_key(i), i) == ref.check_key(key, src, hand_key(i), i)
    assert ours.count == len(ref.seen)


def test_site_hands_grows_and_forgets_nothing():
    from handaudit.grammar.duplicates import SiteHands

    hands = SiteHands()
    n = 50_000  # the table starts at 1,024 slots: six doublings
    for i in range(n):
        assert hands.check_key(("PokerStars", f"T{i % 97}", str(i)), "big.phhs", str(i + 1), i) is None
    assert hands.count == n and len(hands._hi) == 1 << 17
    for i in (0, 1, 12_345, n - 1):
        code, message = hands.check_key(("PokerStars", f"T{i % 97}", str(i)), "again.phhs", "1", 0)
        assert code == "duplicate-hand" and message.endswith(f"as big.phhs [{i + 1}]; this copy is not read")
    # a key differing in any part is another hand; no table is not the empty table
    assert hands.check_key(("PokerStars", "T1", "97"), "x", "1", 0) is None
    assert hands.check_key(("PokerStars", None, "0"), "x", "2", 1) is None
    assert hands.check_key(("PokerStars", "", "0"), "x", "3", 2) is None
    assert hands.duplicates == 4


_SIMPLE_STRING = __import__("re").compile(rb"""^(?:"([^"\\]*)"|'([^']*)')$""")


def _reference_value(raw: bytes) -> str:
    """The value reading the scanner's replaced: a one-line string matched by a regular expression."""
    raw = raw.strip()
    m = _SIMPLE_STRING.match(raw)
    if m:
        raw = m.group(1) if m.group(1) is not None else m.group(2)
    return raw.decode("utf-8", "replace")


@given(st.text(alphabet=st.sampled_from(list("\"'\\ \t\r\na1é#")), max_size=8).map(str.encode))
def test_a_value_reads_as_the_regular_expression_read_it(raw):
    from handaudit.grammar.duplicates import _value

    assert _value(raw, raw.decode("latin-1"), 0, len(raw)) == _reference_value(raw)
    assert _value(b"x = " + raw + b"#", ("x = " + raw.decode("latin-1") + "#"), 4, 4 + len(raw)) == _reference_value(raw)
