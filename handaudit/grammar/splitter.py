"""Cut a ``.phhs`` stream into hands (:func:`split_tables`), following TOML's lexical state.

A ``.phhs`` file is read a piece at a time, never whole; :class:`Splitter` finds each hand's table
header (``[1]``, ``[2]``, ...) outside strings, comments and arrays, and hands on the text of each
hand as a :class:`~handaudit.grammar.chunk.Chunk`.
"""

from __future__ import annotations

import re
import typing
import zlib
from collections.abc import Iterator
from typing import Final

from . import tomlscan
from .chunk import BOM, MAX_HAND_BYTES, READ_LINE, Chunk, read_problem

_BOM_LINE: Final = b"\n" + BOM
PIECE: Final = 64 * 1024  # bytes read from a .phhs stream at once
# A table header, as TOML 1.0 writes one: `[key]` or `[[key]]` (an array of tables), the key one
# or more simple keys joined by dots -- bare (A-Za-z0-9_-), basic-quoted with TOML's escapes, or
# literal-quoted -- with blanks allowed around each, then an optional comment. Groups: the whole
# bracketed header, `[` of `[[`, the first simple key as written, the rest (".b.c", or empty).
_KEY: Final = (rb"(?:[A-Za-z0-9_-]+"
               rb'|"(?:[^"\\\x00-\x08\x0a-\x1f\x7f]|\\(?:[btnfr"\\]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}))*"'
               rb"|'[^'\x00-\x08\x0a-\x1f\x7f]*')")
HEADER = re.compile(rb"[ \t]*(\[(\[)?[ \t]*(" + _KEY + rb")((?:[ \t]*\.[ \t]*" + _KEY + rb")*)[ \t]*\](?(2)\]))"
                    rb"[ \t]*(?:#[^\n]*)?\r?\n?\Z")
_LEAD = re.compile(r"[ \t]*\[")  # a line whose first character after blanks is '['
_ESCAPE = re.compile(r'\\(?:([btnfr"\\])|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))')
_ESCAPED: Final = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}
BLANK_OR_COMMENT = re.compile(rb"^[ \t]*(?:#[^\n]*)?\r?\n?$")


def _canonical_number(key: str) -> int:
    """``key``'s value if it is a canonical decimal of at most 9 ASCII digits ("0", or no
    leading zero), else -1. A native loop: str.isascii and int() are generic calls."""
    if not 0 < len(key) < 10 or (key[0] == "0" and len(key) > 1):
        return -1
    n = 0
    for ch in key:
        digit = ord(ch) - 48
        if not 0 <= digit <= 9:
            return -1
        n = n * 10 + digit
    return n


class SeenKeys:
    """The table names seen so far in one .phhs file, for ``duplicate-hand``, in little memory.

    A file of millions of hands must not cost a set entry per hand (about 90 bytes each). Names
    are nearly always ``[1]``, ``[2]``, ...: a canonical decimal name below 2**27 is one bit of a
    bytearray (at most 16 MiB, 125 KiB for a million hands); any other name goes in a set.
    """

    _BITMAP_LIMIT: Final = 1 << 27

    def __init__(self) -> None:
        self.bits = bytearray()
        self.other: set[str] = set()

    def add(self, key: str) -> bool:
        """Record ``key``; whether it had been seen before."""
        n = _canonical_number(key)
        if 0 <= n < self._BITMAP_LIMIT:
            bits = self.bits
            byte, bit = n >> 3, 1 << (n & 7)
            if byte >= len(bits):
                bits.extend(bytes(max(byte + 1 - len(bits), len(bits))))
            seen = bool(bits[byte] & bit)
            bits[byte] |= bit
            return seen
        if key in self.other:
            return True
        self.other.add(key)
        return False


_NORMAL: Final = 0
_COMMENT: Final = 1  # the rest of a comment that a cut line left open
_BASIC: Final = 2  # the rest of a one-line basic string that a cut line left open
_LITERAL: Final = 3  # the rest of a one-line literal string that a cut line left open
_ML_BASIC: Final = 4
_ML_LITERAL: Final = 5
_ARRAY: Final = 91  # ord("[") on the bracket stack
_TABLE: Final = 123  # ord("{")


_BARE_KEY: Final[list[bool]] = [chr(c).isascii() and (chr(c).isalnum() or chr(c) in "_-") for c in range(256)]


def _bare_header(data: bytes, start: int, end: int) -> str | None:
    """The name of a header line that is nothing but ``[name]`` with a bare name, and its line
    end (a ``.phhs`` file's ``[1]``, ``[2]``, ...), read byte by byte; None for any other line,
    which :data:`HEADER` reads. (A pattern call and its groups cost some 2,900 instructions a
    hand from compiled code.)"""
    if start >= end or data[start] != 91:  # [
        return None
    i = start + 1
    while i < end and _BARE_KEY[data[i]]:
        i += 1
    if i == start + 1 or i >= end or data[i] != 93:  # ]
        return None
    close = i
    i += 1
    if i < end and data[i] == 13:  # \r
        i += 1
    if i < end and data[i] == 10:  # \n
        i += 1
    if i != end:
        return None
    return data[start + 1:close].decode("ascii")


def _key_text(raw: bytes) -> str | None:
    """A simple key as a header writes it (bare, "basic" or 'literal') -> its text; None for an
    escape that is no Unicode scalar value (``\\uD800``), which TOML refuses."""
    first = raw[0]
    if first == 0x27:  # '
        return raw[1:-1].decode("utf-8", "replace")
    if first != 0x22:  # "
        return raw.decode("ascii")
    body = raw[1:-1].decode("utf-8", "replace")
    if "\\" not in body:
        return body
    out: list[str] = []
    start = 0
    for m in _ESCAPE.finditer(body):  # the header pattern allowed only whole, valid escapes
        out.append(body[start:m.start()])
        simple, short, long = m.group(1, 2, 3)
        if simple is not None:
            out.append(_ESCAPED[simple])
        else:
            code = int(short if short is not None else long, 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                return None
            out.append(chr(code))
        start = m.end()
    out.append(body[start:])
    return "".join(out)


_DANGER: Final = ('"', "#", "\\", "{", "}", "'''")  # what the plain walk cannot read


def _plain_until(text: str, pos: int, end: int) -> int:
    """How far the lexer may jump from ``pos`` (outside every string and bracket): ``text``
    from ``pos`` to ``end`` holds nothing of _DANGER, so only one-line literal strings and
    brackets change the lexical state. A walk over the brackets alone, at C-search speed,
    with a bracket inside a string when an odd number of quotes precede it on its line (as
    the lexer pairs them), finds the answer: ``~start`` (negative) for the start of the first
    header line (a '[' first on its line at depth 0); else ``end`` if all is plain to it; else
    the last position before which nothing is left open (a header-like line inside an array,
    an array open at ``end``), where the lexer reads on."""
    depth = 0
    safe = pos  # outside strings, at depth 0
    start = pos  # the start of the last bracket's line, or pos
    quotes = 0  # the quotes from start to the last bracket
    last = pos - 1  # the last bracket
    opening = text.find("[", pos, end)
    closing = text.find("]", pos, end)
    while opening >= 0 or closing >= 0:
        at = opening if closing < 0 or 0 <= opening < closing else closing
        newline = text.rfind("\n", last + 1, at)  # (only back to the last bracket)
        if newline < 0:
            quotes += text.count("'", last + 1, at)
        else:
            start = newline + 1
            quotes = text.count("'", start, at)
            if depth == 0:
                safe = start
        last = at
        if at == opening:
            opening = text.find("[", at + 1, end)
            if quotes & 1:
                continue
            if quotes == 0:
                blank = at
                while blank > start and (text[blank - 1] == " " or text[blank - 1] == "\t"):
                    blank -= 1
                if blank == start and (start == 0 or text[start - 1] == "\n"):  # first on its line
                    return ~start if depth == 0 else safe
            depth += 1
        else:
            closing = text.find("]", at + 1, end)
            if quotes & 1:
                continue
            if depth:
                depth -= 1
                if depth == 0:
                    safe = at + 1
    if depth:
        return safe
    if end == len(text):
        return end
    newline = text.rfind("\n", last + 1, end)
    return newline + 1 if newline >= 0 and newline + 1 > safe else safe


class Splitter:
    """Cuts one ``.phhs`` file into hands, fed pieces of it in order.

    A hand begins at its table header, and TOML says where those are: a line whose first
    character (after blanks) is ``[`` outside every string, comment, array and inline table.
    So the splitter follows TOML's lexical state through the file (handaudit/grammar/tomlscan.py):
    strings of the four kinds, comments, and the stack of open arrays and inline tables; a
    header-like line inside a multi-line string or array is text. Compiled regular expressions
    skip whole runs of text that cannot change that state (plain text, complete one-line strings
    and comments, arrays holding no bracket, whole such lines), so a hand of the usual form costs
    a few searches, not a step per character.

    Headers a hand list does not use:

    - a sub-table of the current hand, ``[1.x]`` or ``[[1.x]]`` right inside hand ``[1]``:
      part of that hand. Its first key is blanked in the hand's text (``[  x]``, same columns),
      so the hand's text read alone is the hand's table, as a TOML reader of the file sees it;
    - any other dotted header (``[2.x]`` outside hand ``[2]``), an array of tables ``[[x]]``, a
      header longer than a line read whole, a name with an escape that is no character
      (``\\uD800``) and a table name holding NUL: a chunk of its own, with a ``syntax-error``
      problem at the header's line; the text up to the next table is not read;
    - a line that begins with ``[`` but is no TOML table header (``[1] x``, ``[bad``): text of
      the current table, whose TOML reader reports the error at that line (random bytes must
      not become a chunk per line). The line ends every open array.

    Recovering from text no TOML reader accepts: a string left open at a line's end closes
    there; a newline inside an inline table (not TOML 1.0) closes every open bracket; and a
    line inside an array that has a hand header's form (``[2]``) but is not followed by ``,``
    or ``]`` -- as an array element would be -- is taken as the header it looks like (an
    unclosed ``actions = [`` does not swallow the hands after it).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.seen = SeenKeys()
        self.index = 0
        self.key: str | None = None  # None: before the first header
        self.skip: tuple[str, str] | None = None  # the current table is not read: its problem
        self.start_line = 1  # the current hand's first line
        self.parts: list[bytes] = []
        self.size = 0
        self.overflow = False
        self.preamble_line = 0  # first line of non-comment content before any header
        self.state = _NORMAL
        self.stack = bytearray()  # the open arrays and inline tables, innermost last
        self.lines = 0  # newlines fed so far
        self.keep = 0  # after feed(): bytes at the end of its data to feed again, with more
        self.blank_line = False  # the line a cut piece ended in is blank so far
        self.started = False

    def feed(self, data: bytes, mid_line: bool, cut: bool, final: bool) -> list[Chunk]:
        """Cut ``data``, the next piece of the file: whole lines (``final``: the end of the file,
        whose last line may lack its newline), or with ``cut`` a piece of a line longer than
        :data:`READ_LINE`. ``mid_line``: ``data`` begins inside a line. The hands completed by
        ``data``. Afterwards :attr:`keep` says how many bytes at the end of ``data`` are not
        taken (a delimiter a cut may have split, or a header-like line in an array whose meaning
        the next piece decides): they are to begin the next piece."""
        done: list[Chunk] = []
        if not self.started:
            self.started = True
        if not mid_line and data.startswith(BOM):
            data = data[3:]
        if _BOM_LINE in data:
            # A byte-order mark that begins a line (.phhs files joined with cat, each with its
            # own) is no text of the hand: a header after it is a header.
            data = data.replace(_BOM_LINE, b"\n")
        # Latin-1 is one character per byte, so offsets in text are offsets in data; compiled,
        # str methods are direct C calls, where bytes methods are generic method calls.
        text = data.decode("latin-1")
        size = len(text)
        end = size  # text[:end] is taken by this call
        given = 0  # data[given:end] is not yet given to the current hand
        counted, newlines = 0, 0  # newlines in text[:counted]
        state = self.state
        stack = self.stack
        pos = 0
        # The plain walk (_plain_until) needs whole lines and the next of each _DANGER mark.
        plain = not cut and not mid_line
        dangers = [-2] * len(_DANGER)  # -2: to be searched, -1: none
        danger = -1
        while pos < size:
            if state == _NORMAL:
                inner = stack[-1] if stack else 0
                header = False
                if inner == 0 and plain:  # the usual hand: to its end in one walk
                    if danger < pos:
                        for i in range(len(_DANGER)):
                            if dangers[i] < -1 or 0 <= dangers[i] < pos:
                                dangers[i] = text.find(_DANGER[i], pos)
                        danger = min([d if d >= 0 else size for d in dangers])
                    to = _plain_until(text, pos, danger)
                    if to < 0:  # a header line begins at ~to
                        pos, header = ~to, True
                    elif to > pos:
                        pos = to
                        if pos >= size:
                            break
                if header or inner != _TABLE:
                    if not header:
                        m = tomlscan.LINES.match(text, pos)
                        if m is not None:
                            pos = m.end()
                        if pos >= size:
                            break
                    if header or _LEAD.match(text, pos) is not None and self._line_start(text, pos, mid_line):
                        line_end = text.find("\n", pos) + 1 or size
                        if inner == _ARRAY:
                            decided = self._in_array(data, text, pos, line_end, cut, final)
                            if decided == 0:  # an array element
                                stack.append(_ARRAY)
                                pos = text.find("[", pos) + 1
                                continue
                            if decided < 0:  # the next piece decides
                                end = pos
                                break
                        newlines += text.count("\n", counted, pos)
                        counted = pos
                        self._text(data, given, pos)
                        stack.clear()
                        if line_end == size and cut:  # the header goes on past this piece
                            self._open(self.lines + newlines + 1, "", ("syntax-error", (
                                f"line {self.lines + newlines + 1}: a table header longer than {READ_LINE} bytes; "
                                "the text up to the next table is not read")), done)
                            state = _COMMENT
                            given = pos = size
                            break
                        self._header(data, pos, line_end, self.lines + newlines + 1, done)
                        given = pos = line_end
                        continue
                m = tomlscan.IN_LINE.match(text, pos)
                p = m.end() if m is not None else pos
                if p >= size:
                    pos = size
                    break
                c = text[p]
                if c == "[":
                    q = p
                    while q > pos and (text[q - 1] == " " or text[q - 1] == "\t"):
                        q -= 1
                    if q == pos and inner != _TABLE and self._line_start(text, q, mid_line):
                        pos = q  # a header-like line: the test above takes it
                        continue
                    stack.append(_ARRAY)
                    pos = p + 1
                elif c == "{":
                    stack.append(_TABLE)
                    pos = p + 1
                elif c == "]" or c == "}":
                    if stack:
                        stack.pop()
                    pos = p + 1
                elif c == "\n":
                    if inner == _TABLE:  # not TOML 1.0: an inline table is one line
                        stack.clear()
                    pos = p + 1
                elif c == "#":  # a comment the data's end cuts off
                    if cut:
                        state = _COMMENT
                    pos = size
                elif text.startswith(c * 3, p):
                    state = _ML_LITERAL if c == "'" else _ML_BASIC
                    pos = p + 3
                elif cut and size - p < 3:  # a quote or two: the next piece says what they open
                    end = p
                    break
                else:  # a one-line string with no end on this line (so far)
                    newline = text.find("\n", p)
                    if newline < 0 and cut:
                        if c == '"':
                            m = tomlscan.BASIC_BODY.match(text, p + 1)
                            if m is not None and m.end() == size - 1:  # a backslash: what it escapes is next
                                end = size - 1
                                state = _BASIC
                                break
                        state = _LITERAL if c == "'" else _BASIC
                        pos = size
                    else:  # not TOML: the string ends with its line
                        pos = newline if newline >= 0 else size
            elif state == _ML_LITERAL or state == _ML_BASIC:
                if state == _ML_LITERAL:
                    at = text.find("'''", pos)
                    if at < 0:
                        if cut:  # keep a quote or two that may begin the delimiter
                            t = size
                            while t > pos and size - t < 2 and text[t - 1] == "'":
                                t -= 1
                            end = t
                        pos = size
                        break
                else:
                    m = tomlscan.ML_BASIC_BODY.match(text, pos)
                    at = m.end() if m is not None else pos
                    if at >= size:
                        pos = size
                        break
                    if text[at] == "\\":  # the data's last character: what it escapes is next
                        if cut:
                            end = at
                        pos = size
                        break
                m = tomlscan.QUOTES.match(text, at)
                run = m.end() - at if m is not None else 1
                if cut and at + run == size and run < 5:
                    end = at
                    break
                if run >= 3:
                    state = _NORMAL
                    pos = at + min(run, 5)
                else:
                    pos = at + run
            elif state == _COMMENT:
                newline = text.find("\n", pos)
                if newline < 0:
                    pos = size
                    break
                state = _NORMAL
                pos = newline
            else:  # _BASIC or _LITERAL, left open by a cut
                if state == _LITERAL:
                    m = tomlscan.LITERAL_BODY.match(text, pos)
                else:
                    m = tomlscan.BASIC_BODY.match(text, pos)
                b = m.end() if m is not None else pos
                if b >= size:
                    pos = size
                    break
                if text[b] == "\\":  # the last character
                    if cut:
                        end = b
                    pos = size
                    break
                state = _NORMAL
                pos = b + 1 if text[b] != "\n" else b
        if cut:
            self.blank_line = (not mid_line or self.blank_line) and not text[:end].strip(" \t")
        self._text(data, given, end)
        self.lines += newlines + text.count("\n", counted, end)
        self.state = state
        self.keep = size - end
        return done

    def _line_start(self, text: str, pos: int, mid_line: bool) -> bool:
        """``text[pos:]`` begins a line (blanks before it allowed at a piece's start)."""
        if pos > 0:
            return text[pos - 1] == "\n"
        return not mid_line or self.blank_line

    def _in_array(self, data: bytes, text: str, start: int, line_end: int, cut: bool, final: bool) -> int:
        """The line ``text[start:line_end]`` begins with '[' inside an array: 0 if it is an array
        element, 1 if it is a table header (the array was never closed), -1 if only the next
        piece can tell. In a TOML text an element is followed by ',' or ']'; a line of a
        header's form that is followed by anything else is taken as the header."""
        if text[line_end - 1] != "\n" and not final:
            return 0  # a cut line: not a header line (one is shorter)
        if HEADER.match(data, start, line_end) is None:
            return 0
        m = tomlscan.GAP.match(text, line_end)
        after = m.end() if m is not None else line_end
        if after >= len(text):
            if final:
                return 1
            return -1 if len(text) - start <= READ_LINE else 0
        return 0 if text[after] == "," or text[after] == "]" else 1

    def _header(self, data: bytes, start: int, end: int, line: int, done: list[Chunk]) -> None:
        """The table header ``data[start:end]`` on ``line`` (whole, with its newline)."""
        bare = _bare_header(data, start, end)
        if bare is not None:  # [1], [2], ...: a hand, as HEADER would say
            self._open(line + 1, bare, None, done)
            return
        m = HEADER.match(data, start, end)
        if m is None:  # text of the current table, where the TOML reader will say what is wrong
            self._text(data, start, end)
            return
        written, array, first, rest = m.group(1, 2, 3, 4)
        key = _key_text(first)
        if array is None and not rest and key is not None and "\x00" not in key:  # a hand
            self._open(line + 1, key, None, done)
            return
        shown = written.decode("utf-8", "replace")
        if key is None:
            self._open(line, "", ("syntax-error", f"line {line}: table header {shown} holds an escape that is no Unicode character; the text up to the next table is not read"), done)
            return
        if rest:
            if key == self.key:  # a sub-table of the current hand: its first key blanked
                cut_from, dot = m.start(3), data.index(b".", m.start(4))
                self._text(data[start:cut_from] + b" " * (dot + 1 - cut_from) + data[dot + 1:end], 0, end - start)
                return
            self._open(line, key, ("syntax-error", (
                f"line {line}: table {shown} is not inside hand [{key}]'s table (a hand's sub-tables follow its "
                "header); the text up to the next table is not read")), done)
        elif array is not None:
            self._open(line, key, ("syntax-error", (
                f"line {line}: {shown} is an array of tables, not a hand's table ([1], [2], ...); "
                "the text up to the next table is not read")), done)
        elif "\x00" in key:  # never in a table name: no output string holds a NUL
            self._open(line, key.replace("\x00", "\\u0000"), ("syntax-error", (
                f"line {line}: the table name holds a NUL character (\\u0000); the text up to the next table is not read")), done)
        else:
            self._open(line + 1, key, None, done)

    def _text(self, data: bytes, start: int, end: int) -> None:
        """``data[start:end]`` is text of the current hand (or, before the first header, of the
        file's preamble)."""
        if start >= end or self.skip is not None:
            return
        if self.key is None:
            if not self.preamble_line:
                first_line = self.lines + data.count(b"\n", 0, start) + 1
                for offset, line in enumerate(data[start:end].split(b"\n")):
                    if line and not BLANK_OR_COMMENT.match(line):
                        self.preamble_line = first_line + offset
                        break
            return
        if not self.overflow:
            self.size += end - start
            if self.size > MAX_HAND_BYTES:
                self.overflow, self.parts = True, []
            else:
                self.parts.append(data[start:end] if start or end < len(data) else data)

    def _open(self, line: int, key: str, problem: tuple[str, str] | None, done: list[Chunk]) -> None:
        """A table begins, with its text on ``line`` (a hand), or a table that is not read
        (``problem``: the chunk says so at ``line``). The one before it is complete."""
        if self.key is not None:
            done.append(self._flush())
        elif self.preamble_line:
            done.append(Chunk(self.path, "", self.index, b"", self.preamble_line,
                              ("syntax-error", f"content before the first hand table, from line {self.preamble_line}; not read")))
            self.index += 1
        self.key, self.skip = key, problem
        self.start_line = line
        self.parts, self.size, self.overflow = [], 0, False

    def _flush(self) -> Chunk:
        key = self.key or ""
        if self.skip is not None:
            chunk = Chunk(self.path, key, self.index, b"", self.start_line, self.skip)
            self.index += 1
            return chunk
        data = self.parts[0] if len(self.parts) == 1 else b"".join(self.parts)
        problem = None
        again = self.seen.add(key)
        if self.overflow:
            problem = ("syntax-error", f"hand [{key}] is larger than {MAX_HAND_BYTES} bytes; not read")
            data = b""
        elif again:
            problem = ("duplicate-hand", f"table [{key}] appears again at line {self.start_line - 1}; this copy is not read")
        chunk = Chunk(self.path, key, self.index, data, self.start_line, problem)
        self.index += 1
        return chunk

    def finish(self) -> list[Chunk]:
        """The end of the file: the last hand, or what the file lacked."""
        if self.key is not None:
            return [self._flush()]
        if self.preamble_line:
            return [Chunk(self.path, "", self.index, b"", self.preamble_line,
                          ("syntax-error", "no hand table ([1], [2], ...) found; the text is not a .phhs hand list"))]
        return [Chunk(self.path, "", self.index, b"", 1, ("no-hands", "the file holds no hand"))]

    def broken(self, err: BaseException, carry: bytes = b"") -> list[Chunk]:
        """The file could not be read past what was fed so far (bad or cut gzip, an I/O error).

        The hands before the last are complete and were given. A break inside a line
        (``carry``: the unfinished line) cuts the hand in progress: it is not read, as a half
        hand would be judged on what is left of it, and is the one entry for the tail, with its
        name and line. A break at a line's end may be a hand's end: that hand is read, and the
        tail is one entry after it."""
        code, message = read_problem(self.path, err)
        lines = self.lines + (carry.count(b"\n") + 1 if carry else 0)
        if code == "syntax-error":  # bad gzip: the bytes, not the system
            message = f"cannot read the rest of the file after line {lines}: {err}"
        else:
            message = f"{message}, after line {lines}; the rest of the file is not read"
        key = self.key if self.key is not None and self.skip is None and carry.strip() else None
        if key is not None:
            message = f"hand [{key}] is cut off: {message}"
            chunk = Chunk(self.path, key, self.index, b"", self.start_line, (code, message))
        else:
            out = [self._flush()] if self.key is not None else []
            out.append(Chunk(self.path, "", self.index + len(out), b"", lines + 1, (code, message)))
            self.index += len(out)
            return out
        self.index += 1
        self.key = None
        return [chunk]

    def tail(self, err: BaseException) -> Chunk:
        """The entry for bytes past the end of a whole text (a gzip file's trailing garbage),
        after every hand of that text."""
        return Chunk(self.path, "", self.index, b"", self.lines + 1,
                     ("syntax-error", f"cannot read the end of the file, after line {self.lines}: {err}"))


def split_tables(source: str, reader: typing.BinaryIO, piece_size: int = PIECE) -> Iterator[Chunk]:
    """Every hand of a ``.phhs`` stream, read ``piece_size`` bytes at a time (flat memory).
    ``source``: the file's report form (:func:`report_path`), the chunks' ``source``."""
    splitter = Splitter(source)
    carry = b""  # the start of a line whose end is not read yet (or bytes the splitter kept)
    mid_line = False
    while True:
        try:
            piece = reader.read1(piece_size)  # type: ignore[attr-defined]  # buffered streams all have read1
        except (OSError, EOFError, zlib.error) as err:
            if getattr(err, "complete", False):  # (grammar/gz.py) the text is whole; bytes follow it
                if carry:
                    yield from splitter.feed(carry, mid_line, False, True)
                yield from splitter.finish()
                yield splitter.tail(err)
                return
            yield from splitter.broken(err, carry)
            return
        if not piece:
            if carry:
                yield from splitter.feed(carry, mid_line, False, True)
            break
        data = carry + piece if carry else piece
        cut = data.rfind(b"\n") + 1
        if cut == 0:  # no line ends here
            if len(data) < READ_LINE:
                carry = data
                continue
            # a line longer than READ_LINE: hand on this piece of it (memory stays bounded)
            chunks, cut, mid_line = splitter.feed(data, mid_line, True, False), len(data), True
        else:
            chunks, mid_line = splitter.feed(data if cut == len(data) else data[:cut], mid_line, False, False), False
        keep = splitter.keep
        carry = data[cut - keep:] if keep or cut < len(data) else b""
        yield from chunks
    yield from splitter.finish()
