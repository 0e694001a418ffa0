"""The .phhs splitter agrees with a real TOML parser (tomllib, TOML 1.0) on every document it accepts.

Generated documents hold hand tables whose names are bare, escaped or literal-quoted, with blanks
inside the brackets and comments after them; strings of all four kinds holding quotes, triple
quotes, escapes, '#', '[' and newlines; comments holding quotes and brackets; multi-line arrays
holding header-like lines ([8]), nested arrays and inline tables; sub-tables of a hand; blank
lines, CRLF, a byte-order mark. For every document tomllib accepts, the splitter must give the
hands tomllib sees, in order, each chunk parsing alone to that hand's table, at the right line,
whatever the size of the pieces the file is read in -- and with lines cut into pieces too.
"""

from __future__ import annotations

import io
import random
import re
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handaudit.grammar import sources, splitter

from helpers import CORPUS

# ---- generating TOML ---------------------------------------------------------------------------

_BITS = (["a", "1", " ", "'", "''", "'''", '"', '""', '"""', "#", "[", "]", "[8]", "[2]",
                         "{", "}", "\\", "\t", "é", "\n", "\n[3]\n", "=", ",", ".", "\\u00e9"])


# Plain documents hold only what a .phhs hand usually does (literal strings, arrays; no double
# quote, '#', backslash, brace or triple quote): the splitter's fast walk reads those.
_PLAIN = [False]
_PLAIN_BITS = ["a", "1", " ", "[", "]", "[8]", "[2]", "\t", "é", "\n", "\n[3]\n", "=", ",", "."]


def _text(rng: random.Random) -> str:
    bits = _PLAIN_BITS if _PLAIN[0] else _BITS
    return "".join(rng.choice(bits) for _ in range(rng.randint(0, 8)))


def _basic(s: str, rng) -> str:
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "é" and rng.random() < 0.5:
            out.append(rng.choice(["\\u00e9", "\\U000000E9"]))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _literal(s: str) -> str:
    return "'" + s.replace("'", "").replace("\n", "") + "'"


def _ml_basic(s: str, rng) -> str:
    body = s.replace("\\", "\\\\").replace('"', '\\"')
    if rng.random() < 0.5 and "\n" in body:  # a line-ending backslash
        body = body.replace("\n", "\\\n   ", 1)
    lead = rng.choice(["", "\n", "\r\n"])
    return '"""' + lead + body + rng.choice(["", '"', '""']) + '"""'


def _ml_literal(s: str, rng) -> str:
    while "'''" in s:
        s = s.replace("'''", "''")
    tail = rng.choice(["", "'", "''"])
    if s.endswith("'"):
        tail = ""
    return "'''" + rng.choice(["", "\n"]) + s + tail + "'''"


def _string(rng: random.Random) -> str:
    s = _text(rng)
    kind = 1 if _PLAIN[0] else rng.randint(0, 3)
    if kind == 0:
        return _basic(s, rng)
    if kind == 1:
        return _literal(s)
    if kind == 2:
        return _ml_basic(s, rng)
    return _ml_literal(s, rng)


def _comment(rng) -> str:
    if _PLAIN[0]:
        return ""
    return "#" + _text(rng).replace("\n", " ").replace("\r", " ")


def _value(rng: random.Random, depth: int = 0) -> str:
    kind = rng.randint(0, 5 if depth < 2 else 2)
    if kind == 0:
        return str(rng.randint(-5, 500))
    if kind in (1, 2):
        return _string(rng)
    if kind == 3 and _PLAIN[0]:
        return _string(rng)
    if kind == 3:  # an inline table (one line, but an array inside may span lines)
        items = [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
        return "{" + ", ".join(f"i{i} = {v}" for i, v in enumerate(items)) + "}"
    # an array, maybe across lines, with header-like lines, comments and nested arrays
    items = [_value(rng, depth + 1) if rng.random() < 0.6 else rng.choice(["[8]", "[ 'x' ]", '["2"]', "[[1], [2]]", "[1.5]"])
             for _ in range(rng.randint(0, 4))]
    if kind == 4:
        return "[" + ", ".join(items) + "]"
    lines = ["["]
    for item in items:
        if rng.random() < 0.5:
            lines.append(rng.choice(["", "  "]) + _comment(rng))
        lines.append(rng.choice(["", "  ", "\t"]) + item + "," + (" " + _comment(rng) if rng.random() < 0.5 else ""))
    lines.append("]")
    return "\n".join(lines)


_KEYS = (["1", "2", "3", "10", "x", "a-b_c", 'hand "two"', "x y", "é", "a.b", "[8]", "#", "it's",
                         "back\\slash", "tab\there", "", "1 ", "'''", '"""', "\n"])
_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _name(key: str, rng) -> str:
    """``key`` written as a table name's simple key, in one of the forms TOML allows."""
    forms = [] if _PLAIN[0] else ["basic"]  # (plain keys are all bare or literal)
    if _BARE.fullmatch(key):
        forms.append("bare")
    if "'" not in key and "\n" not in key:
        forms.append("literal")
    form = rng.choice(forms)
    if form == "bare":
        return key
    if form == "literal":
        return "'" + key + "'"
    out = []
    for ch in key:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append(rng.choice(["\\t", "\\u0009"]))
        elif ch == "é" and rng.random() < 0.5:
            out.append("\\u00e9")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _pad(rng) -> str:
    return rng.choice(["", " ", "\t", " \t "])


def _header(rng, names: str, array: bool = False) -> str:
    open_, close = ("[[", "]]") if array else ("[", "]")
    tail = rng.choice(["", " ", "  " + _comment(rng)])
    return _pad(rng) + open_ + _pad(rng) + names + _pad(rng) + close + tail


def _body(rng, prefix: str) -> list[str]:
    lines = []
    for i in range(rng.randint(0, 4)):
        extra = rng.randint(0, 3)
        if extra == 1:
            lines.append(_pad(rng) + _comment(rng))
        elif extra == 2:
            lines.append(_pad(rng))
        key = rng.choice([f"{prefix}{i}", f"'{prefix}{i}[x]'", f"{prefix}{i}.d"] if _PLAIN[0] else
                         [f"{prefix}{i}", f'"{prefix}{i}[x]"', f"'{prefix}{i}#'", f'"{prefix}{i}\'\'\'"', f"{prefix}{i}.d"])
        lines.append(f"{_pad(rng)}{key}{_pad(rng)}={_pad(rng)}{_value(rng)}" + (" " + _comment(rng) if rng.random() < 0.5 else ""))
    return lines


def documents(rng: random.Random, plain: bool = False) -> tuple[str, list[int]]:
    """(text, the line of each hand's header): a document of hand tables, maybe not valid TOML."""
    _PLAIN[0] = plain
    try:
        return _document(rng)
    finally:
        _PLAIN[0] = False


def _document(rng: random.Random) -> tuple[str, list[int]]:
    keys = rng.sample(_KEYS, rng.randint(0, 4))
    if _PLAIN[0]:
        keys = [key for key in keys if not set(key) & set("\"'\\#\n")]
    lines: list[str] = []
    if rng.random() < 0.5:
        lines.append(_comment(rng))
    header_lines = []
    for key in keys:
        header_lines.append(len(lines) + 1)
        lines.append(_header(rng, _name(key, rng)))
        lines += _body(rng, "k")
        sub = rng.randint(0, 3)  # a sub-table of this hand, in its table
        if sub == 1:
            lines.append(_header(rng, _name(key, rng) + _pad(rng) + "." + _pad(rng) + rng.choice(["sub", "'s.u b'", "'sub'"])))
            lines += _body(rng, "s")
        elif sub == 2:
            for _ in range(rng.randint(1, 2)):
                lines.append(_header(rng, _name(key, rng) + "." + "arr", array=True))
                lines += _body(rng, "a")
    text = "\n".join(lines)
    # a line that holds a newline inside a string counts more than one line: recount
    starts = []
    joined = ""
    for i, line in enumerate(lines):
        if i + 1 in header_lines:
            starts.append(joined.count("\n") + 1)
        joined += line + "\n"
    if rng.random() < 0.5:
        text += "\n"
    if rng.random() < 0.5:
        text = text.replace("\n", "\r\n")
    return text, starts


# ---- the property -----------------------------------------------------------------------------


def _split(data: bytes, piece: int) -> list[sources.Chunk]:
    return list(splitter.split_tables("f.phhs", io.BufferedReader(io.BytesIO(data)), piece))


def _agree(text: str, header_lines: list[int], pieces: list[int], bom: bool) -> bool:
    """Whether tomllib accepts ``text``; if it does, the splitter must agree with it."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
    for piece in pieces:
        chunks = _split(data, piece)
        if not doc:  # no table: the file holds no hand (or only comments)
            assert [(c.hand_key, c.problem) for c in chunks] == [("", ("no-hands", "the file holds no hand"))]
            continue
        assert [c.hand_key for c in chunks] == list(doc), piece
        assert [c.problem for c in chunks] == [None] * len(doc)
        assert [c.line for c in chunks] == [line + 1 for line in header_lines], piece
        for chunk in chunks:
            assert tomllib.loads(chunk.data.decode()) == doc[chunk.hand_key], (piece, chunk.hand_key)
    return True


def test_the_splitter_finds_the_hands_tomllib_finds():
    seen = {"all": 0, "valid": 0}

    @settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.randoms(use_true_random=False), st.lists(st.integers(1, 64), min_size=1, max_size=2), st.booleans())
    def run(rng, pieces, bom):
        text, header_lines = documents(rng, plain=rng.random() < 0.4)
        seen["all"] += 1
        seen["valid"] += _agree(text, header_lines, [*pieces, 65536], bom)

    run()
    assert seen["valid"] * 2 >= seen["all"], seen  # a differential of rejected documents tests nothing


_SMALL_LINE = 40


def test_lines_cut_into_pieces_change_nothing(monkeypatch):
    """Lines longer than READ_LINE are fed in pieces (cut inside strings, escapes, comments and
    delimiters); with READ_LINE made small, most lines of a generated document are."""
    monkeypatch.setattr(splitter, "READ_LINE", _SMALL_LINE)
    seen = {"all": 0, "valid": 0}

    @settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.randoms(use_true_random=False), st.integers(1, 16), st.booleans())
    def run(rng, piece, bom):
        text, header_lines = documents(rng)
        if any(len(line) + 4 >= _SMALL_LINE for line in text.splitlines() if line.lstrip(" \t").startswith("[")):
            return  # a header (or header-like) line longer than a line read whole is refused, rightly
        seen["all"] += 1
        seen["valid"] += _agree(text, header_lines, [piece], bom)

    run()
    assert seen["valid"] * 3 >= seen["all"], seen


# ---- mutations of the real corpus ---------------------------------------------------------------

_CORPUS = CORPUS
_INSERTS = ["'", '"', "'''", '"""', "[", "]", "[8]", "\n[2]\n", "#", "# it'''s ", "\\", '\\"', "{", "}", "\n", ",",
            "\r\n", "\ufeff", "\n[[1]]\n", "\n[1.x]\n", "\n['a'.b]\n", "\\u00e9"]


# Fields that keep a hand TOML while holding what used to fool the splitter.
_FIELDS = ["'''\n[2]\n# x'''", '"""a \\""" [9]\n"""""', "[\n[8],\n  # it'''s\n['a', \"b]\"],\n]", "{a = [\n[1],\n]}",
           "'it\"s [3]'", "\"it'''s # [4]\"", '"""\\\n  [5]"""', "'''x'''''", '"\\"\\"\\""']


def _mutate(text: str, rng: random.Random, n: int) -> str:
    """One mutation: most keep the text TOML (quotes, brackets and comments where TOML allows
    them), the rest are damage (a deletion, a random insertion)."""
    kind = rng.randrange(5)
    at = rng.randrange(len(text) + 1)
    if kind == 0:  # a comment at a line's end
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        junk = "".join(rng.choice(_INSERTS) for _ in range(3)).replace("\n", " ").replace("\r", " ")
        return text[:end] + " # " + junk + text[end:]
    if kind == 1:  # inside a literal string
        quote = text.find("'", at)
        if quote < 0:
            return text
        return text[:quote + 1] + rng.choice(['"', '"""', "[", "]", "[8]", "#", "\\", "{", "\\u00e9"]) + text[quote + 1:]
    if kind == 2:  # a field right after a header line
        header = text.find("]\n", at)
        if header < 0:
            return text
        return text[:header + 2] + f"_m{n} = {rng.choice(_FIELDS)}\n" + text[header + 2:]
    if kind == 3:
        return text[:at] + text[at + rng.randint(1, 5):]
    return text[:at] + rng.choice(_INSERTS) + text[at:]


def _phhs_texts() -> list[str]:
    found = sorted(_CORPUS.rglob("*.phhs")) if _CORPUS.is_dir() else []
    return [p.read_text(encoding="utf-8") for p in found[:12]]


def test_mutated_corpus_files_split_as_tomllib_reads_them():
    """Random insertions and deletions in real .phhs files: for each mutant tomllib accepts, the
    splitter agrees with it; for every mutant, no exception and every byte accounted for."""
    texts = _phhs_texts()
    if not texts:
        pytest.skip("the shared corpus is not here")
    rng = random.Random(1414)
    accepted = 0
    for n in range(600):
        text = texts[n % len(texts)]
        if len(text) > 6000:  # a window of whole hands keeps the test fast
            start = text.find("\n[", rng.randrange(len(text) - 3000)) + 1
            end = text.find("\n[", start + 3000)
            text = text[start:end + 1 if end > 0 else len(text)]
        for m in range(rng.randint(1, 4)):
            text = _mutate(text, rng, m)
        data = text.encode("utf-8", "surrogatepass")
        piece = rng.choice([1, 7, 100, 65536])
        chunks = _split(data, piece)  # never raises
        assert chunks and all(isinstance(c.hand_key, str) for c in chunks)
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            continue
        if not all(isinstance(v, dict) for v in doc.values()) or any(
                re.match(r"[ \t]*\[\[|[ \t]*\[[^\]\n]*\.", line) for line in text.splitlines()):
            continue  # a top-level field or a dotted / array-of-tables header: a finding, tested apart
        accepted += 1
        assert [c.hand_key for c in chunks] == list(doc)
        for chunk in chunks:
            assert chunk.problem is None
            assert tomllib.loads(chunk.data.decode()) == doc[chunk.hand_key]
    assert accepted >= 100, accepted


_HEADER_PIECES = [b"[", b"]", b"1", b"23", b"a", b"_", b"-", b".", b" ", b"\t", b"\r", b"\n", b"#", b'"', b"'",
                  b"\xff", b"\x00", b"[[", b"]]"]


_HEADER_LINES = st.one_of(
    st.lists(st.sampled_from(_HEADER_PIECES), max_size=10).map(b"".join),
    st.tuples(st.sampled_from([b"[", b"[[", b" [", b"\t["]),
              st.lists(st.sampled_from(_HEADER_PIECES), max_size=5).map(b"".join),
              st.sampled_from([b"]", b"]]", b" ]", b""]),
              st.sampled_from([b"", b"\n", b"\r\n", b"\r", b" \n", b"#x\n", b"\n\n", b"x"])).map(b"".join),
)


@settings(max_examples=3000, deadline=None)
@given(_HEADER_LINES)
def test_a_bare_header_read_byte_by_byte_is_what_the_header_pattern_reads(line):
    """The splitter's fast path for ``[1]``-style lines accepts only lines HEADER reads as that
    hand's table (no array of tables, no dotted name, the same name)."""
    from handaudit.grammar.splitter import HEADER, _bare_header, _key_text

    bare = _bare_header(line, 0, len(line))
    if bare is not None:
        m = HEADER.match(line, 0, len(line))
        assert m is not None, line
        _written, array, first, rest = m.group(1, 2, 3, 4)
        assert array is None and not rest and _key_text(first) == bare, line


@pytest.mark.parametrize("line", [b"[1]\n", b"[12345]\r\n", b"[abc_-9]", b"[1]\r"])
def test_the_usual_headers_take_the_fast_path(line):
    from handaudit.grammar.splitter import _bare_header

    assert _bare_header(line, 0, len(line)) == line.strip(b"\r\n")[1:-1].decode()
