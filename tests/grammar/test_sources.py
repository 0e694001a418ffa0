"""The .phhs splitter's memory of table names (duplicate-hand) answers exactly like a set; chunks
packed for a worker come back equal."""

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handaudit.grammar.chunk import Chunk, pack_chunks, unpack_chunks
from handaudit.grammar.splitter import SeenKeys

_ODD = ["01", "007", "0", "00", "1a", "x", "", "١", "99999999999", str(1 << 27), str((1 << 27) - 1), "+1", " 1"]


@given(st.lists(st.one_of(st.integers(0, 3000).map(str), st.sampled_from(_ODD)), max_size=200))
def test_seen_keys_says_duplicate_exactly_like_a_set(keys):
    seen, plain = SeenKeys(), set()
    for key in keys:
        assert seen.add(key) == (key in plain), key
        plain.add(key)


def test_a_million_numbered_hands_cost_a_bitmap_not_a_set():
    seen = SeenKeys()
    for n in range(1, 1_000_001):
        assert not seen.add(str(n))
    assert seen.add("500000") and seen.add("1000000")
    assert not seen.other and len(seen.bits) <= 2 * (1_000_001 // 8 + 1)


def test_directory_listing_is_the_one_pathlib_gives(tmp_path, monkeypatch):
    """expand_paths walks with os.scandir; the paths and their order are pathlib's rglob's."""
    import os
    from pathlib import Path

    from handaudit.grammar.sources import expand_paths, is_phh_path

    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    for name in ("a/1.phh", "a/b/2.phhs", "a/b/3.phh.gz", "a/notes.txt", "z.phhs.gz", "elsewhere/9.phh"):
        (tmp_path / name).write_text("")
    (tmp_path / "a" / "dir.phh").mkdir()  # a directory with a PHH name is not a file
    os.symlink(tmp_path / "elsewhere", tmp_path / "a" / "linked-dir")  # not entered, as rglob
    os.symlink(tmp_path / "elsewhere" / "9.phh", tmp_path / "a" / "linked.phh")  # a file: read
    os.symlink(tmp_path / "missing.phh", tmp_path / "a" / "broken.phh")  # not a file: to report, marked "/"

    def pathlib_way(p):
        return sorted([str(f) for f in Path(p).rglob("*") if f.is_file() and is_phh_path(f.name)]
                      + [f"{f}/" for f in Path(p).rglob("*") if f.is_symlink() and not f.exists()])

    for arg in (str(tmp_path), str(tmp_path) + "/", str(tmp_path / "a") + "//"):
        assert expand_paths([arg]) == pathlib_way(arg)
    monkeypatch.chdir(tmp_path)
    for arg in (".", "a", "./a", "a/../a"):
        assert expand_paths([arg]) == pathlib_way(arg), arg
    assert "a/linked.phh" in expand_paths(["."]) and "a/b/2.phhs" in expand_paths(["."])


def test_the_tail_of_a_line_longer_than_a_read_is_never_a_header():
    """A line longer than READ_LINE is handed on in pieces; a piece that begins with "[2]" is
    the middle of that line, not a table header (the old line splitter took it for one)."""
    import io

    from handaudit.grammar import splitter
    from handaudit.grammar.chunk import READ_LINE

    piece = 65536
    length = piece - len(b"[1]\n")  # the comment line's length at which a piece ends right before "[2]"
    while length < READ_LINE:
        length += piece
    text = b"[1]\n" + b"#" * length + b"[2]\nvariant = 'NT'\n"
    chunks = list(splitter.split_tables("f.phhs", io.BufferedReader(io.BytesIO(text)), piece))
    assert [(c.hand_key, c.index, c.line, c.problem) for c in chunks] == [("1", 0, 2, None)]
    assert chunks[0].data == text[len(b"[1]\n"):]


@given(st.lists(st.tuples(st.sampled_from(["a.phhs", "b.phh", "dir/c.phhs"]), st.text(max_size=8),
                          st.integers(0, 10**6), st.binary(max_size=200), st.integers(1, 10**7),
                          st.none() | st.tuples(st.sampled_from(["too-large", "bad-gzip"]), st.text(max_size=20))),
                max_size=30))
def test_packed_chunks_come_back_equal_and_in_order(fields):
    """Chunks cross to --jobs workers packed (one bytes object for all texts), through pickle."""
    chunks = [Chunk(*f) for f in fields]
    assert unpack_chunks(pickle.loads(pickle.dumps(pack_chunks(chunks)))) == chunks


# ---- the splitter follows TOML's strings, comments and arrays: one case each ------------------


def _cut(text: str, piece: int = 65536) -> list[tuple[str, int, tuple[str, str] | None]]:
    import io

    from handaudit.grammar import splitter

    chunks = list(splitter.split_tables("f.phhs", io.BufferedReader(io.BytesIO(text.encode())), piece))
    return [(c.hand_key, c.line, c.problem) for c in chunks]


_CASES = {
    "triple quote in a comment": ("[1]\n# it'''s\na = 1\n[2]\nb = 2\n", [("1", 2), ("2", 5)]),
    "triple quote in a header's comment": ("[1] # it'''s\na = 1\n[2]\nb = 2\n", [("1", 2), ("2", 4)]),
    "triple quote in a one-line string": ("[1]\nevent = \"it'''s\"\n[2]\nb = 'x\"\"\"y'\n[3]\n", [("1", 2), ("2", 4), ("3", 6)]),
    "escaped triple quote in a multi-line basic string": ('[1]\ne = """x \\""" \n[9]\n"""\n[2]\n', [("1", 2), ("2", 6)]),
    "escaped quote before the end": ('[1]\ne = """x\\"""""\n[2]\n', [("1", 2), ("2", 4)]),
    "one or two quotes before a closing delimiter": ("[1]\na = \"\"\"a\"\"\"\"\nb = '''b'''''\n[2]\n", [("1", 2), ("2", 5)]),
    "escaped quotes in a table name": ('["hand \\"two\\""]\na = 1\n[2]\n', [('hand "two"', 2), ("2", 4)]),
    "a \\u escape in a table name": ('["\\u00e9t\\U0001F600"]\n[2]\n', [("ét😀", 2), ("2", 3)]),
    "a literal table name with a double quote": ("['say \"hi\"']\n[2]\n", [('say "hi"', 2), ("2", 3)]),
    "blanks inside the brackets": ("[ \t1\t ]\n[  '2' ]  # c\n", [("1", 2), ("2", 3)]),
    "a [8] line inside a multi-line array": ("[1]\nactions = [\n[8]\n]\n[2]\n", [("1", 2), ("2", 6)]),
    "a table name line inside a multi-line array": ("[1]\na = [\n  ['x'],\n  [\"2\"]\n]\n[2]\n", [("1", 2), ("2", 7)]),
    "a header inside a multi-line literal string": ("[1]\ne = '''\n[2]\n'''\n[3]\n", [("1", 2), ("3", 6)]),
    "CRLF": ("[1]\r\na = '''\r\n[2]\r\n'''\r\n[3]\r\n", [("1", 2), ("3", 6)]),
    "a byte-order mark": ("\ufeff[1]\na = 1\n[2]\n", [("1", 2), ("2", 4)]),
    "a sub-table of the current hand": ("[1]\na = 1\n[1.x]\nb = 2\n[[1.y]]\n[2]\n", [("1", 2), ("2", 7)]),
}


@pytest.mark.parametrize("name", sorted(_CASES))
def test_each_case_that_fooled_the_splitter(name):
    import tomllib

    text, expected = _CASES[name]
    assert list(tomllib.loads(text.removeprefix("\ufeff"))) == [key for key, _ in expected]
    for piece in (1, 4, 65536):
        assert _cut(text, piece) == [(key, line, None) for key, line in expected], piece


def test_a_sub_table_keeps_its_columns_and_reads_as_the_hands_table():
    import io
    import tomllib

    from handaudit.grammar import splitter

    text = '[1]\na = 1\n[ 1 . x ]\nb = 2\n[["1".y]]\nc = 3\n'
    (chunk,) = splitter.split_tables("f.phhs", io.BufferedReader(io.BytesIO(text.encode())))
    assert chunk.data == b'a = 1\n[     x ]\nb = 2\n[[    y]]\nc = 3\n'
    assert tomllib.loads(chunk.data.decode()) == tomllib.loads(text)["1"]


def test_headers_a_hand_list_does_not_use_are_a_finding_not_a_hand():
    text = "[1]\na = 1\n[2.x]\nb = 1\n[[z]]\n[3]\n[\"n\\u0000ul\"]\n[4]\n[\"\\uD800\"]\n[5]\n"
    problem = "the text up to the next table is not read"
    assert _cut(text) == [
        ("1", 2, None),
        ("2", 3, ("syntax-error", f"line 3: table [2.x] is not inside hand [2]'s table (a hand's sub-tables follow its header); {problem}")),
        ("z", 5, ("syntax-error", f"line 5: [[z]] is an array of tables, not a hand's table ([1], [2], ...); {problem}")),
        ("3", 7, None),
        ("n\\u0000ul", 7, ("syntax-error", f"line 7: the table name holds a NUL character (\\u0000); {problem}")),
        ("4", 9, None),
        ("", 9, ("syntax-error", f'line 9: table header ["\\uD800"] holds an escape that is no Unicode character; {problem}')),
        ("5", 11, None),
    ]


def test_an_unclosed_array_does_not_swallow_the_next_hands():
    """Not TOML, so no parser to agree with: the hand-like line after it is taken as the header
    it looks like, as it is not followed by ',' or ']' as an element would be."""
    text = "[1]\nactions = ['p1 f',\n[2]\nvariant = 'NT'\n[3]\nt = {a = 1,\n[4]\nx = \"open\n[5]\n"
    for piece in (1, 3, 65536):
        assert _cut(text, piece) == [("1", 2, None), ("2", 4, None), ("3", 6, None), ("4", 8, None), ("5", 10, None)]


@pytest.mark.parametrize("via", ["file", "gzip", "stdin"])
def test_a_byte_order_mark_keeps_the_first_hand(tmp_path, monkeypatch, via):
    import gzip
    import io
    import sys

    from handaudit.grammar.sources import read_chunks

    data = b"\xef\xbb\xbf[1]\na = 1\n[2]\nb = 2\n"
    if via == "file":
        path = tmp_path / "b.phhs"
        path.write_bytes(data)
    elif via == "gzip":
        path = tmp_path / "b.phhs.gz"
        path.write_bytes(gzip.compress(data))
    else:
        path = "-"
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
    assert [(c.hand_key, c.line, c.data, c.problem) for c in read_chunks(str(path))] == [
        ("1", 2, b"a = 1\n", None), ("2", 4, b"b = 2\n", None)]


def test_a_phh_file_with_a_byte_order_mark_reads_without_it(tmp_path):
    from handaudit.grammar.sources import read_chunks

    path = tmp_path / "b.phh"
    path.write_bytes(b"\xef\xbb\xbfvariant = 'NT'\n")
    assert [c.data for c in read_chunks(str(path))] == [b"variant = 'NT'\n"]
