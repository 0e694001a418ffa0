"""The .phhs splitter's memory of table names (duplicate-hand) answers exactly like a set; chunks
packed for a worker come back equal."""

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from handaudit.grammar.sources import Chunk, SeenKeys, pack_chunks, unpack_chunks

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
    os.symlink(tmp_path / "missing.phh", tmp_path / "a" / "broken.phh")  # not a file

    def pathlib_way(p):
        return sorted(str(f) for f in Path(p).rglob("*") if f.is_file() and is_phh_path(f.name))

    for given in (str(tmp_path), str(tmp_path) + "/", str(tmp_path / "a") + "//"):
        assert expand_paths([given]) == pathlib_way(given)
    monkeypatch.chdir(tmp_path)
    for given in (".", "a", "./a", "a/../a"):
        assert expand_paths([given]) == pathlib_way(given), given
    assert "a/linked.phh" in expand_paths(["."]) and "a/b/2.phhs" in expand_paths(["."])


def test_the_tail_of_a_line_longer_than_a_read_is_never_a_header():
    """A line longer than _READ_LINE is handed on in pieces; a piece that begins with "[2]" is
    the middle of that line, not a table header (the old line splitter took it for one)."""
    import io

    from handaudit.grammar import sources

    piece = 65536
    length = piece - len(b"[1]\n")  # the comment line's length at which a piece ends right before "[2]"
    while length < sources._READ_LINE:
        length += piece
    text = b"[1]\n" + b"#" * length + b"[2]\nvariant = 'NT'\n"
    chunks = list(sources._split_tables("f.phhs", io.BufferedReader(io.BytesIO(text)), piece))
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
