"""Random mutations of valid PHH files never crash the reader.

Valid hand texts (the shared corpus, real and generated) are mutated: characters and lines
deleted, inserted, replaced, swapped, duplicated, the text truncated. Whatever comes out, the
reader returns; each result is either a Hand or carries at least one error finding, and every
finding says where it is (line and column, or action index).
"""

from __future__ import annotations

import gzip
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handaudit.grammar.chunk import Chunk
from handaudit.grammar.reader import read_chunk, read_hands, read_text
from handaudit.grammar.result import ReadResult
from handaudit.grammar.sources import read_chunks

from helpers import CORPUS as SHARED_CORPUS

CORPUS = SHARED_CORPUS.resolve()

# A few hands written here, so that the test runs (less broadly) without the corpus too.
_BUILTIN = [
    """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [200.30, 81.60, inf]
actions = ['d dh p1 ????', 'd dh p2 AsKd', 'd dh p3 ????', 'p3 f', 'p1 cbr 3.00', 'p2 f # folds']
time = 00:00:09
hand = 'R5-1'
table = '''AMY'S AVE'''
""",
    """# stud
variant = "F7S"
antes = [1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100]
actions = [
  "d dh p1 ????Ac",  # up card
  "d dh p2 ????2c",
  "p2 pb",
  "p1 sm -",
  "p2 sd",
]""",
]


def _load_bases() -> list[str]:
    texts: list[str] = list(_BUILTIN)
    if CORPUS.is_dir():
        for path in sorted(CORPUS.rglob("*.phh*")):
            for chunk in read_chunks(str(path)):
                if chunk.problem is None:
                    texts.append(chunk.data.decode("utf-8"))
    return texts


BASES = _load_bases()
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck),
                derandomize=False, print_blob=True)

# Characters that matter to TOML and to the action notation, plus a few odd ones.
ALPHABET = ("pdfcbrsmh0123456789.-+_#[]{}'\"=,:; \n\t\r\\?AKQJTcdhsxeinf"
            "é’日\x00\x01\x7f\u2028\ufeff")


def _pos(draw, text: str) -> int:
    return draw(st.integers(0, len(text)))


def _delete(draw, text):
    i = _pos(draw, text)
    return text[:i] + text[i + draw(st.integers(1, 20)):]


def _insert(draw, text):
    i = _pos(draw, text)
    return text[:i] + draw(st.text(ALPHABET, min_size=1, max_size=12)) + text[i:]


def _replace(draw, text):
    i = _pos(draw, text)
    return text[:i] + draw(st.sampled_from(ALPHABET)) + text[i + 1:]


def _truncate(draw, text):
    return text[:_pos(draw, text)]


def _duplicate_span(draw, text):
    i = _pos(draw, text)
    j = min(len(text), i + draw(st.integers(1, 60)))
    return text[:j] + text[i:j] + text[j:]


def _lines_op(draw, text):
    lines = text.split("\n")
    if not lines:
        return text
    i = draw(st.integers(0, len(lines) - 1))
    j = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(["delete", "swap", "duplicate", "insert", "header", "blank"]))
    if kind == "delete":
        del lines[i]
    elif kind == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "duplicate":
        lines.insert(j, lines[i])
    elif kind == "insert":
        lines.insert(i, draw(st.text(ALPHABET, max_size=30)))
    elif kind == "header":
        lines.insert(i, draw(st.sampled_from(["[1]", "[2]", "['x']", "[ 3 ]", "[", "[[a]]", "[a.b]"])))
    else:
        lines.insert(i, "")
    return "\n".join(lines)


def _swap_field_value(draw, text):
    # Give a field a value of another type: wrong types are the commonest real mistake.
    lines = text.split("\n")
    candidates = [k for k, ln in enumerate(lines) if " = " in ln]
    if not candidates:
        return text
    k = draw(st.sampled_from(candidates))
    key = lines[k].split(" = ", 1)[0]
    value = draw(st.sampled_from(["'x'", "1", "-1", "1.5", "inf", "nan", "-inf", "true", "[]", "[1]",
                                  "['p1 f']", "[1, 'a']", "00:00:09", "1979-05-27", "{a = 1}",
                                  "1234567890.123456789", "0.1234567890123456789012345678901234",
                                  "[inf, -1, 0]", "['p9 f', 'd db 2s3s4s', 'p0 cc', 'p1 cbr 1e5']"]))
    lines[k] = f"{key} = {value}"
    return "\n".join(lines)


OPS = [_delete, _insert, _replace, _truncate, _duplicate_span, _lines_op, _lines_op, _swap_field_value]


@st.composite
def mutated_text(draw, hands: int = 1):
    count = draw(st.integers(1, hands))
    picks = [draw(st.sampled_from(BASES)) for _ in range(count)]
    if hands == 1:
        text = picks[0]
    else:
        text = "".join(f"[{i}]\n{t}\n\n" for i, t in enumerate(picks, 1))
    for _ in range(draw(st.integers(1, 4))):
        text = draw(st.sampled_from(OPS))(draw, text)
    return text


def check(result: ReadResult, source: str) -> None:
    assert isinstance(result, ReadResult)
    assert result.source == source
    for f in result.findings:
        assert f.severity in ("error", "warning", "info")
        located = (f.line is not None and f.column is not None) or f.action_index is not None
        assert located, f"finding without a location: {f}"
        if f.line is not None:
            assert f.line >= 1 and f.column >= 1, f
    if result.hand is None:
        assert any(f.severity == "error" for f in result.findings), result.findings
    else:
        h = result.hand
        assert h.players == len(h.starting_stacks) >= 2
        amounts = [*h.antes, *h.blinds_or_straddles, *h.starting_stacks, h.min_bet, h.small_bet,
                   h.big_bet, h.bring_in, *(h.winnings or ()), *(h.finishing_stacks or ()),
                   *(a.amount for a in h.actions)]
        assert all(a is None or type(a) is int for a in amounts), amounts
        assert len(h.actions) == len(h.action_texts)


@FUZZ
@given(mutated_text())
def test_mutated_hand_text_never_crashes(text):
    result = read_text(text, "fuzz.phh", "")
    check(result, "fuzz.phh")


@FUZZ
@given(st.binary(max_size=64), st.integers(0, 4000), st.sampled_from(BASES))
def test_mutated_bytes_never_crash(noise, at, base):
    data = base.encode("utf-8")
    at = min(at, len(data))
    data = data[:at] + noise + data[at:]
    result = read_chunk(Chunk("fuzz.phh", "", 0, data, 1))
    check(result, "fuzz.phh")


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory() as d:
        yield Path(d)


@FUZZ
@given(text=mutated_text(hands=4), suffix=st.sampled_from([".phhs", ".phh", ".phhs.gz", ".phh.gz"]),
       cut_gzip=st.booleans(), seed=st.integers(0, 2**16))
def test_mutated_files_never_crash(workdir, text, suffix, cut_gzip, seed):
    path = workdir / f"fuzz{suffix}"
    data = text.encode("utf-8")
    if suffix.endswith(".gz"):
        data = gzip.compress(data)
        if cut_gzip:
            data = data[: random.Random(seed).randint(0, len(data))]
    path.write_bytes(data)
    results = list(read_hands([str(path)]))
    assert results, "every file gives at least one result"
    # bounded: at most one result per header-like line, plus a preamble and a read error
    assert len(results) <= text.count("\n") + 3
    for r in results:
        check(r, str(path))
    keys = [r.hand_key for r in results if r.hand is not None]
    if suffix.startswith(".phhs"):
        assert len(set(keys)) == len(keys), "a hand key is read once"
