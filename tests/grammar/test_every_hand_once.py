"""Every hand counted once (issue #38): gzip tails, byte-order marks between hands, a header
by its whole line, detection by content alone, site logs streamed. Through the readers and the
command line, in every input format each concerns (PHH .phhs, .phh.gz, .phhs.gz, PokerStars and
PPPoker logs)."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handaudit.importers import read_any
from handaudit.importers.common import split_log, split_log_stream
from handaudit.importers.inputs import expand_inputs, is_site_head, read_inputs
from helpers import REPO, VALID_HAND, cli_env

PS = """\
PokerStars Game #109681313810:  Hold'em No Limit ($0.05/$0.10 USD) - 2014/01/06 7:21:05 ET
Table 'Skat III' 6-max Seat #1 is the button
Seat 1: PokerStars Fan ($10 in chips)
Seat 2: PokerStarsX ($10 in chips)
Seat 3: Bob ($10 in chips)
PokerStarsX: posts small blind $0.05
Bob: posts big blind $0.10
*** HOLE CARDS ***
PokerStars Fan: folds
PokerStarsX: folds
Uncalled bet ($0.05) returned to Bob
Bob collected $0.10 from pot
Bob: doesn't show hand
*** SUMMARY ***
Total pot $0.10 | Rake $0
Seat 3: Bob (big blind) collected ($0.10)
"""
PP = PS.replace("PokerStars Game #109681313810:", "PPPoker Hand #2000:")


def ps(n: int) -> str:
    return PS.replace("#109681313810", f"#{109681313810 + n}")


def phhs(n: int) -> bytes:
    return "".join(f"[{i + 1}]\n{VALID_HAND}\n" for i in range(n)).encode()


def outcomes(paths: list[str]) -> list[tuple[str, bool]]:
    out = []
    for path in expand_inputs(paths):
        for chunk in read_inputs(path):
            r = read_any(chunk)
            out.append((r.hand_key, r.hand is not None))
    return out


def jsonl(cli, *args: str, stdin: bytes | None = None) -> tuple[int, list[dict]]:
    proc = cli("check", *args, "--format", "jsonl", "--fail-on", "never", stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()]


# ---- 1. gzip: trailing bytes, many members, a cut ------------------------------------------

@pytest.mark.parametrize("tail", [b"\n", b"junk bytes", b"\x00" * 10])
def test_gzip_trailing_bytes_keep_every_hand_then_one_entry(tmp_path, tail, cli):
    path = tmp_path / "a.phhs.gz"
    path.write_bytes(gzip.compress(phhs(3)) + tail)
    got = outcomes([str(path)])
    assert got == [("1", True), ("2", True), ("3", True), ("", False)]
    _, rows = jsonl(cli, str(path))
    assert [r["status"] for r in rows] == ["valid", "valid", "valid", "unreadable"]
    assert "after the end of the last gzip member" in rows[-1]["findings"][0]["message"]


def test_gzip_many_hands_with_a_newline_after_lose_none(tmp_path):
    path = tmp_path / "a.phhs.gz"
    path.write_bytes(gzip.compress(phhs(5000)) + b"\n")
    got = outcomes([str(path)])
    assert len(got) == 5001 and all(ok for _, ok in got[:5000]) and got[-1] == ("", False)
    assert [k for k, _ in got[:5000]] == [str(i) for i in range(1, 5001)]


def test_gzip_members_concatenated_are_all_read(tmp_path):
    path = tmp_path / "a.phhs.gz"
    body = phhs(4)
    path.write_bytes(gzip.compress(body[:body.index(b"[3]")]) + gzip.compress(body[body.index(b"[3]"):]))
    assert outcomes([str(path)]) == [(str(i), True) for i in range(1, 5)]


def test_a_phh_gz_with_trailing_bytes_is_its_hand_and_one_entry(tmp_path):
    path = tmp_path / "a.phh.gz"
    path.write_bytes(gzip.compress(VALID_HAND.encode()) + b"\n")
    assert outcomes([str(path)]) == [("", True), ("", False)]


def test_a_cut_gzip_gives_every_whole_hand_and_one_entry_for_the_hand_it_cuts(tmp_path):
    data = gzip.compress(phhs(300))
    path = tmp_path / "cut.phhs.gz"
    path.write_bytes(data[: int(len(data) * 0.7)])
    got = outcomes([str(path)])
    assert all(ok for _, ok in got[:-1]) and not got[-1][1]
    assert [k for k, _ in got] == [str(i) for i in range(1, len(got) + 1)]  # the cut hand's own name
    assert len(got) > 150


# ---- 2. byte-order marks between hands; a header by its whole line -------------------------

def test_a_bom_between_hands_of_a_phhs_keeps_both(tmp_path):
    one = b"\xef\xbb\xbf" + phhs(1)
    two = b"\xef\xbb\xbf" + phhs(2).replace(b"[1]", b"[x]", 1)
    path = tmp_path / "cat.phhs"
    path.write_bytes(one + two)
    assert outcomes([str(path)]) == [("1", True), ("x", True), ("2", True)]


@pytest.mark.parametrize("hand", [PS, PP], ids=["pokerstars", "pppoker"])
def test_two_logs_each_with_its_bom_concatenated_are_two_hands(tmp_path, hand, cli):
    path = tmp_path / "cat.txt"
    path.write_bytes(b"\xef\xbb\xbf" + hand.encode() + b"\xef\xbb\xbf" + hand.replace("#109681313810", "#3").replace("#2000", "#3").encode())
    got = outcomes([str(path)])
    assert got == [("1", True), ("2", True)]
    _, rows = jsonl(cli, str(path))
    assert [r["status"] for r in rows] == ["valid", "valid"]


def test_a_player_named_like_the_site_does_not_split_a_hand():
    chunks = split_log("t.txt", PS.encode())
    assert len(chunks) == 1
    report = read_any(chunks[0])
    assert report.hand is not None and [f.code for f in report.findings] == []
    assert report.hand.fields["players"] == ["PokerStarsX", "Bob", "PokerStars Fan"]
    assert report.hand.action_texts[3:] == ("p3 f", "p1 f")


# ---- 3. detection by content alone ---------------------------------------------------------

@pytest.mark.parametrize("before", [b"\n" * 5000, b"Exported by SomeTool 1.2\n" + b"x" * 6000 + b"\n\n"],
                         ids=["blank-lines", "preamble"])
def test_a_log_whose_first_header_is_past_4096_bytes_is_a_log(tmp_path, before, cli):
    (tmp_path / "d").mkdir()
    path = tmp_path / "d" / "late.txt"
    path.write_bytes(before + PS.encode())
    assert expand_inputs([str(tmp_path / "d")]) == [str(path)]
    got = outcomes([str(path)])
    # the hand is read; a preamble is one entry of its own (text before the first header)
    assert [ok for _, ok in got] == ([True] if before.strip() == b"" else [False, True])
    proc = cli("check", str(path), "--format", "jsonl", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_told_by_its_nul_bytes(tmp_path, codec, cli):
    (tmp_path / "d").mkdir()
    path = tmp_path / "d" / "u16.txt"
    path.write_bytes((PS + "\n" + ps(1)).encode(codec))
    assert expand_inputs([str(tmp_path / "d")]) == [str(path)]
    assert outcomes([str(path)]) == [("1", True), ("2", True)]
    _, rows = jsonl(cli, str(tmp_path / "d"))
    assert [r["status"] for r in rows] == ["valid", "valid"]


def _stdin_by_pieces(data: bytes, size: int) -> subprocess.CompletedProcess:
    """``check -`` fed ``data`` through a pipe ``size`` bytes at a time, with pauses."""
    proc = subprocess.Popen([sys.executable, "-m", "handaudit.cli", "check", "-", "--format", "jsonl",
                             "--fail-on", "never"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=cli_env(None), cwd=REPO)
    assert proc.stdin is not None
    for i in range(0, len(data), size):
        proc.stdin.write(data[i:i + size])
        proc.stdin.flush()
        if i < 64:
            time.sleep(0.05)
    proc.stdin.close()
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.wait(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.parametrize("data", [(b"\n" * 3 + PS.encode()), phhs(2)], ids=["log", "phhs"])
def test_stdin_verdict_does_not_depend_on_how_the_pipe_delivers_bytes(data):
    whole = _stdin_by_pieces(data, len(data))
    dribbled = _stdin_by_pieces(data, 1 if len(data) < 5000 else 7)
    assert whole.returncode == dribbled.returncode == 0, (whole.stderr, dribbled.stderr)
    assert whole.stdout == dribbled.stdout
    assert [json.loads(line)["status"] for line in whole.stdout.splitlines()] == ["valid"] * (1 if b"Poker" in data else 2)


def test_is_site_head_reads_a_preamble_and_not_phh():
    assert is_site_head(b"\n\n\nsome preamble\nPokerStars Hand #1: Hold'em No Limit ($1/$2) - 2020/01/01 1:00:00 ET\n")
    assert not is_site_head(b"[1]\nvariant = 'NT'\n# PokerStars Hand #1: x\n")
    assert not is_site_head(b"PokerStarsFan: folds\n")


# ---- 7. site logs streamed: a hand at a time -----------------------------------------------

def test_a_site_log_is_split_from_a_stream_a_hand_at_a_time():
    class Dribble(io.BytesIO):
        """A stream that gives at most 700 bytes a read, counting what was read."""

        taken = 0

        def read1(self, size=-1):  # type: ignore[override]
            piece = super().read1(min(size, 700) if size and size > 0 else 700)
            self.taken += len(piece)
            return piece

    data = ("\n".join(ps(i) for i in range(50))).encode()
    stream = Dribble(data)
    it = split_log_stream("t.txt", stream)
    first = next(it)
    assert first.hand_key == "1" and stream.taken < 3 * len(PS)  # the first hand before the rest is read
    rest = list(it)
    assert len(rest) == 49 and [c.data for c in [first, *rest]] == [c.data for c in split_log("t.txt", data)]


@pytest.mark.parametrize("ends", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
@pytest.mark.parametrize("size", [1, 7, 700, 1 << 20])
def test_any_line_end_and_any_read_size_cut_the_same_hands(ends, size):
    class Pieces(io.BytesIO):
        def read1(self, n=-1):  # type: ignore[override]
            return super().read1(size)

    text = ("\n\n".join(ps(i) for i in range(4))).replace("\n", ends)
    chunks = list(split_log_stream("t.txt", Pieces(text.encode())))
    assert [(c.hand_key, c.line, c.problem) for c in chunks] == [
        (str(i + 1), 1 + i * (PS.count("\n") + 2), None) for i in range(4)]
    assert [c.data for c in chunks] == [ps(i).rstrip("\n").encode() for i in range(4)]


@pytest.mark.slow
def test_memory_of_a_50mb_site_log_is_one_hand(tmp_path):
    import tracemalloc

    hand = (PS + "\n").encode()
    path = tmp_path / "big.txt"
    count = 50 * 1024 * 1024 // len(hand) + 1
    with open(path, "wb") as f:
        for i in range(count):
            f.write(hand.replace(b"#109681313810", b"#%d" % (i + 1)))
    tracemalloc.start()
    n = 0
    for chunk in read_inputs(str(path)):
        assert chunk.problem is None
        n += 1
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert n == count
    assert peak < 4 * 1024 * 1024, peak  # the file is 50 MB


def test_a_long_line_is_read_in_pieces_and_the_hand_is_bounded():
    from handaudit.grammar.chunk import MAX_HAND_BYTES

    long = PS.replace("Bob: doesn't show hand", "Bob: says " + "x" * (MAX_HAND_BYTES + 10))
    chunks = split_log("t.txt", (long + "\n" + ps(1)).encode())
    assert [c.problem[0] if c.problem else None for c in chunks] == ["syntax-error", None]


# ---- the property: concatenations, BOMs, blank lines, preambles, gzip tails, cuts ----------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(st.tuples(st.integers(1, 3), st.booleans(), st.integers(0, 3)), min_size=1, max_size=5),
       preamble=st.booleans(), tail=st.sampled_from([b"", b"\n", b"garbage"]), site=st.booleans())
def test_concatenation_never_loses_merges_or_invents_a_hand(tmp_path_factory, parts, preamble, tail, site):
    """Files joined with cat (each maybe with its BOM, blank lines between), maybe after a
    preamble, maybe gzip with bytes after: the entries are the hands that can be read plus
    one for each unreadable tail (the preamble, the bytes after the gzip data)."""
    d = tmp_path_factory.mktemp("cat")
    data = b""
    hands = 0
    key = 0
    for count, bom, blanks in parts:
        if site:
            piece = "".join(ps(key + i) + "\n" * (1 + blanks) for i in range(count)).encode()
        else:
            piece = b"".join(f"[{key + i + 1}]\n{VALID_HAND}\n".encode() + b"\n" * blanks for i in range(count))
        key += count
        hands += count
        data += (b"\xef\xbb\xbf" if bom else b"") + piece
    entries = hands
    if preamble:
        data = (b"Exported hands\n\n" if site else b"title = 'x'\n") + data
        entries += 1
    if site:
        path = d / "log.txt"
        path.write_bytes(data)
    else:
        path = d / "hands.phhs.gz"
        path.write_bytes(gzip.compress(data) + tail)
        entries += 1 if tail else 0
    got = outcomes([str(path)])
    assert len(got) == entries
    assert sum(ok for _, ok in got) == hands


@settings(max_examples=25, deadline=None)
@given(cut=st.floats(0.05, 0.99))
def test_a_real_log_cut_anywhere_gives_its_whole_hands(corpus, cut):
    path = corpus / "sites" / "pokerstars" / "hhsmithy" / "CashGame" / "MultipleHandsTests" / "10MultipleHands.txt"
    data = path.read_bytes()
    whole = split_log("t.txt", data)
    part = split_log("t.txt", data[: int(len(data) * cut)])
    # every hand before the cut is as it was; at most the last is cut short, none invented
    assert len(part) <= len(whole)
    assert [c.data for c in part[:-1]] == [c.data for c in whole[:len(part) - 1]]


def _entries(path) -> list[tuple[str, bool]]:
    return outcomes([str(path)])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_real_files_joined_cut_and_gzipped_keep_every_hand(corpus, tmp_path_factory, data):
    """Real files (the corpus's .phhs and PokerStars logs) joined with cat, each maybe with a
    BOM and blank lines before it, maybe gzip-compressed with bytes after or cut: the entries
    are the sum of each file's (a site log's hands; a .phhs's tables, a repeated name an entry
    of its own), plus one for each unreadable tail, and a cut never invents a hand."""
    d = tmp_path_factory.mktemp("real")
    site = data.draw(st.booleans(), "site")
    if site:
        from handaudit.importers.common import site_of_head

        # logs that begin with a hand (a fragment's text before its first header is one entry,
        # which the text before it would join)
        pool = [f for f in sorted((corpus / "sites" / "pokerstars").rglob("*.txt"))
                if site_of_head(f.read_bytes()[:4096]) is not None]
    else:
        pool = sorted((corpus / "real").rglob("*.phhs"))[:6]
    chosen = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3), "files")
    joined = b""
    expected = 0
    for i, f in enumerate(chosen):
        raw = f.read_bytes()
        if raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        single = d / f"{i}{'.txt' if site else '.phhs'}"
        single.write_bytes(raw)
        expected += len(_entries(single))
        lead = b"\n" * data.draw(st.integers(0, 3), "blanks") if site or not joined else b""
        bom = b"\xef\xbb\xbf" if data.draw(st.booleans(), "bom") else b""
        piece = lead + raw if site else raw
        if joined and not joined.endswith(b"\n"):
            joined += b"\n"
        joined += bom + piece
    if site:
        path = d / "joined.txt"
        path.write_bytes(joined)
        assert len(_entries(path)) == expected
        return
    tail = data.draw(st.sampled_from([b"", b"\n", b"junk"]), "tail")
    path = d / "joined.phhs.gz"
    packed = gzip.compress(joined)
    path.write_bytes(packed + tail)
    got = _entries(path)
    assert len(got) == expected + (1 if tail else 0)
    cut = data.draw(st.integers(20, len(packed) - 1), "cut")
    path.write_bytes(packed[:cut])
    part = _entries(path)
    # every entry before the last is one of the whole file's, in order (the hand the cut ends in
    # among them when the cut falls at a line's end: it may be whole); the last is the tail
    assert len(part) <= len(got) + 1 and not part[-1][1]
    assert [k for k, _ in part[:-1]] == [k for k, _ in got[:len(part) - 1]]


def test_two_utf16_logs_each_with_its_bom_concatenated_are_two_hands(tmp_path):
    path = tmp_path / "u16.txt"
    path.write_bytes(ps(1).encode("utf-16") + ps(2).encode("utf-16"))
    assert outcomes([str(path)]) == [("1", True), ("2", True)]
