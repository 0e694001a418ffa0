"""What every site importer shares: telling a site log by its content, cutting it into hands,
exact amounts as sites write them, and the PHH player order.

A second site reuses all of it: its entry in the registry (:mod:`.sites`) gives its header
prefixes, and its module reads one hand's lines.
"""

from __future__ import annotations

import codecs
import io
import re
import typing
from collections.abc import Iterator
from typing import Final

from ..grammar.chunk import BOM, MAX_HAND_BYTES, READ_LINE, Chunk, read_problem
from ..grammar.duplicates import SiteHand
from .sites import HEADS, LEADS, SITES, block_patterns, header_patterns

# The first bytes of a hand, per site (the registry, :data:`.sites.HEADS`): a file (or standard
# input) whose first non-blank line starts with one of these is that site's text log, whatever its
# name. The value is the venue.
SITE_HEADS: Final[tuple[tuple[str, str], ...]] = tuple([(prefix, venue) for prefix, venue, _ in HEADS])
_HEAD_BYTES: Final[tuple[bytes, ...]] = tuple([h.encode("ascii") for h, _ in SITE_HEADS])
_HEAD_FIRST: Final[frozenset[int]] = frozenset([h[0] for h in _HEAD_BYTES])  # their first bytes
_UTF16_BOMS: Final = (b"\xff\xfe", b"\xfe\xff")
SNIFF_BYTES: Final = 1024 * 1024  # how much of a file detection reads, at most (a header may follow a preamble)


def utf8_head(head: bytes) -> bytes:
    """A file's first bytes as UTF-8 when they are UTF-16 (as some tools save logs; with or
    without a byte-order mark, :func:`utf16_codec`; a character cut at the end is dropped), else
    as they are: what detection reads."""
    codec = utf16_codec(head)
    if codec is not None:
        return head[:len(head) // 2 * 2].decode(codec, "ignore").encode("utf-8")
    return head


def site_of_head(head: bytes) -> str | None:
    """The venue whose log ``head`` (a file's first bytes) is, or None: its first line that is
    not blank starts a hand of a known site."""
    head = utf8_head(head)
    if head.startswith(BOM):
        head = head[3:]
    return _venue_at(head.lstrip(b" \t\r\n"))


def _venue_at(data: bytes) -> str | None:
    """The venue whose hand header ``data`` starts with, or None."""
    i = head_index(data)
    return None if i < 0 else SITE_HEADS[i][1]


def head_index(data: bytes) -> int:
    """The index in :data:`.sites.HEADS` of the hand header ``data`` starts with, or -1."""
    for i in range(len(_HEAD_BYTES)):
        if data.startswith(_HEAD_BYTES[i]):
            return i
    return -1


def is_site_chunk(data: bytes) -> bool:
    """A chunk cut by :func:`split_log` (its text starts with a site's hand header): the run's
    routing test (:mod:`handaudit.importers`), twice a hand. Its first byte first: a PHH hand
    (``variant = ...``, a comment) is told at once, without the ``startswith`` of a tuple, a
    method call from compiled code."""
    return len(data) > 0 and data[0] in _HEAD_FIRST and data.startswith(_HEAD_BYTES)


def site_log_hand(data: bytes) -> SiteHand | None:
    """(venue, table or None, hand number) of a site hand's text (a :func:`split_log` chunk),
    as its PHH conversion names it (``venue``, ``table``, ``hand``), so that a hand given twice
    is a ``duplicate-hand`` whether its copies are logs or conversions; None when the header
    gives no hand number. The table is the hand's second line that is not blank, as the
    importer reads it (:data:`TABLE_LINE`); a hand whose table line it cannot read (its conversion
    has no ``table``) is keyed without one."""
    venue = _venue_at(data)  # (a chunk starts with its header: no byte-order mark, no blank line)
    if venue is None:
        return None
    end = data.find(b"\n")
    first = data if end < 0 else data[:end]
    while end >= 0 and _is_lead_line(first.decode("utf-8", "replace")):
        # lead-in lines ("Game #1 starts.", "#Game No : 1"): the hand's own header follows
        start = end + 1
        end = data.find(b"\n", start)
        line = data[start:] if end < 0 else data[start:end]
        if line.strip():
            first = line
            venue = _venue_at(line) or venue
    m = _HAND_NUMBER.search(first)
    digits = b"" if m is None else (m.group(1) or m.group(2) or m.group(3))
    if m is None or len(digits) > 18:  # (a number past the limits: the importer says so; no key)
        return None
    table = None
    looked = 0
    while end >= 0 and looked < 3:
        start = end + 1
        end = data.find(b"\n", start)
        line = data[start:] if end < 0 else data[start:end]
        if line.strip():
            t = _TABLE_NAME.match(line)
            if t is not None:
                table = t.group(1).decode("utf-8", "replace")
                break
            if line.startswith((b"Table ", b"Tournament #")):
                # another site's table line (after its game line): named as its importer names it
                table = _site_table(first, line.decode("utf-8", "replace"))
                break
            looked += 1
    return venue, table, str(int(digits))


def _site_table(header: bytes, line: str) -> str | None:
    """The table ``line`` names, read by the ``table_of`` of the importer of the site whose
    header ``header`` is (a site without one names none)."""
    i = head_index(header)
    if i < 0:
        return None
    module = SITES[HEADS[i][2]].module
    reader = _TABLE_READERS.get(module)
    if reader is None:
        import importlib

        reader = getattr(importlib.import_module(f"handaudit.importers.{module}"), "table_of", None)
        if reader is None:
            return None
        _TABLE_READERS[module] = reader
    name: str | None = reader(line)
    return name


_TABLE_READERS: dict = {}  # importer module -> its table_of


# The table line, as the importer reads it (importers/pokerstars.py compiles the same text).
# Every era's: the seat count is missing from some 2005 lines, the button from stud's (no button).
TABLE_LINE: Final = (r"Table '(?P<name>.*)'(?: (?P<max>\d+)-max)?(?: \((?:Play|Real) Money\))?"
                     r"(?: Seat #(?P<button>\d+) is the button)?\s*$")
# The header's hand number: "PokerStars Hand #123: ...", "***** Hand History for Game 123 *****",
# "#Game No : 123", "Game #123 starts."
_HAND_NUMBER: Final = re.compile(rb" #(\d+):|[Ff]or Game (\d+)\b|^(?:#Game No : |Game #)(\d+)")
_TABLE_NAME: Final = re.compile(TABLE_LINE.encode("ascii"))


def decode(data: bytes) -> tuple[str, str | None]:
    """The text of a log and the encoding it was read in when not UTF-8: sites wrote their
    older logs in single-byte code pages (Windows-1252 for the western ones), and that is the
    fallback when the bytes are not UTF-8. A byte-order mark is dropped; a file with a UTF-16
    one is UTF-16 (lossless: no encoding to report; bytes that are no UTF-16 become U+FFFD)."""
    if data.startswith(_UTF16_BOMS):
        return data.decode("utf-16", "replace"), None
    if data.startswith(BOM):
        data = data[3:]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace"), "cp1252"


def is_head_line(line: str) -> bool:
    """``line`` is a hand's whole header line of a known site (:func:`.sites.header_patterns`)."""
    return _HEADER_TEXT.match(line) is not None


# Mid-line splices: a header written onto the end of the last line of the hand before (a log cut
# and joined by a tool: "... wins $3 USD***** Hand History for Game 123 *****"). Only the headers
# that open with a run of stars are searched for mid-line: no ordinary line holds five stars.
_SPLICE: Final = b"*****"
_LEAD_BYTES: Final[tuple[bytes, ...]] = tuple([p.encode("ascii") for p in LEADS])


def _is_lead_line(line: str) -> bool:
    """A header line that only leads in a hand whose own header follows (:data:`.sites.LEADS`)."""
    for i in range(len(LEADS)):
        if line.startswith(LEADS[i]):
            return True
    return False


def _is_lead(line: bytes) -> bool:
    for i in range(len(_LEAD_BYTES)):
        if line.startswith(_LEAD_BYTES[i]):
            return True
    return False


def split_lines(text: str) -> list[str]:
    """Lines of a log with any line end (``\\r\\n``, ``\\n``, a lone ``\\r`` of the oldest logs)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


_HEADERS: Final = header_patterns()
_HEADER_TEXT: Final = re.compile("|".join([f"(?:{p})" for p, _ in _HEADERS]))
# A whole header line's start, as bytes (the log is cut on bytes, before decoding).
HEADER_LINE: Final = re.compile("|".join([f"(?:{p})" for p, _ in _HEADERS]).encode("utf-8"))
# A header at any line's start of a file's head, after an optional byte-order mark: detection.
_HEADER_ANYWHERE: Final = re.compile(b"(?m)^(?:\xef\xbb\xbf)?(?:" + HEADER_LINE.pattern + b")")
_BLOCKS: Final = block_patterns()
_BLOCK_LINE: Final = re.compile("|".join([f"(?P<b{i}>{_BLOCKS[i][0]})" for i in range(len(_BLOCKS))]).encode("utf-8")) \
    if _BLOCKS else None


def header_in(head: bytes) -> bool:
    """Some line of ``head`` (UTF-8 text: see :func:`utf8_head`) is a whole hand header line of a
    known site: the file is a log, whatever comes before its first hand (blank lines, an export
    tool's preamble)."""
    return _HEADER_ANYWHERE.search(head) is not None


def utf16_codec(head: bytes) -> str | None:
    """The UTF-16 codec ``head`` (a file's first bytes) is written in, or None: by its
    byte-order mark, or without one by the pattern of its NUL bytes (a log is mostly ASCII,
    whose characters are a NUL and the letter in UTF-16: every other byte NUL, the same side)."""
    if head.startswith(_UTF16_BOMS):
        return "utf-16"
    n = min(len(head), 4096) // 2
    if n < 4:
        return None
    sample = head[:2 * n]
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    if odd * 10 >= n * 3 and even * 20 < n:
        return "utf-16-le"
    if even * 10 >= n * 3 and odd * 20 < n:
        return "utf-16-be"
    return None


class _Utf16(io.RawIOBase):
    """A UTF-16 stream as UTF-8 bytes (what the log splitter reads), decoded a piece at a time."""

    def __init__(self, raw: typing.BinaryIO, codec: str) -> None:
        self.raw = raw
        self.decoder = codecs.getincrementaldecoder(codec)("replace")
        self.out = b""
        self.pos = 0
        self.done = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: typing.Any) -> int:
        while self.pos >= len(self.out):
            if self.done:
                return 0
            piece = self.raw.read(64 * 1024)
            if not piece:
                self.done = True
            self.out = self.decoder.decode(piece, final=not piece).encode("utf-8")
            self.pos = 0
        n = min(len(buffer), len(self.out) - self.pos)
        buffer[:n] = self.out[self.pos:self.pos + n]
        self.pos += n
        return n


def log_stream(raw: typing.BinaryIO, head: bytes) -> typing.BinaryIO:
    """The stream the log splitter reads: ``raw`` itself, or its UTF-16 text as UTF-8."""
    codec = utf16_codec(head)
    if codec is None:
        return raw
    return typing.cast(typing.BinaryIO, io.BufferedReader(_Utf16(raw, codec)))


def split_log(source: str, data: bytes) -> list[Chunk]:
    """A whole site log (bytes) cut into hands: :func:`split_log_stream` of it."""
    return list(split_log_stream(source, log_stream(io.BytesIO(data), data[:4096])))


class _LogSplitter:
    """Cuts a site log into hands, fed its lines in order (without their line ends).

    Each hand starts at a whole header line of a known site (:data:`HEADER_LINE`); blank lines
    between hands are optional; a byte-order mark that begins a line (logs joined with ``cat``)
    is dropped. A hand's text is decoded when it is complete: UTF-8, or Windows-1252 (said in
    its text, see :func:`_chunk`) when it is not. Text before the first header is one chunk
    with a problem; a hand over :data:`MAX_HAND_BYTES` is one chunk with a problem, its text
    never held: memory is one hand, whatever the log.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines: list[bytes] = []
        self.size = 0
        self.overflow = False
        self.start = 0  # the current hand's first line (1-based), 0 before the first header
        self.block = -1  # the current text is a non-hand block of this index in _BLOCKS
        self.index = 0
        self.first_content = 0  # the first line that is not blank before any header
        self.blanks = 0  # blank lines at the current hand's end so far
        self.lead = False  # the current hand is lead-in header lines only so far (:data:`.sites.LEADS`)
        self.foreign: list[Chunk] = []  # before any header: another site's hands, one entry each (.foreign)
        self.foreign_done = False  # the file was told another site's file of no hand (a summary)

    def line(self, number: int, line: bytes, done: list[Chunk]) -> None:
        if line and line[0] == 0xEF and line.startswith(BOM):
            line = line[3:]
        if len(line) > 5 and (b"#" in line or _SPLICE in line):
            m = HEADER_LINE.search(line, 1)
            if m is not None and line[m.start() - 1] != 42:  # (42: a star; a header's own stars are no splice)
                # a header spliced onto the end of a line (two hands cut and joined mid-line): two
                # lines, the hand before's and this one's
                self.line(number, line[:m.start()], done)
                self.line(number, line[m.start():], done)
                return
        if line and line[0] in _HEAD_FIRST and HEADER_LINE.match(line) is not None:
            if self.start and self.block < 0 and not self.overflow and self.lines and line == self.lines[0] \
                    and self.blanks == len(self.lines) - 1:
                return  # the header written twice (a line duplicated): one hand, not an empty one
            if self.lead and self.block < 0:
                # One hand may open with several header lines (PartyPoker's "Game #N starts.",
                # "#Game No : N", "***** Hand History for Game N *****"): a header after only
                # lead-in headers (and blank lines) continues the hand they began.
                self.lead = _is_lead(line)
                if not self.overflow:
                    self.lines.append(line)
                    self.size += len(line) + 1
                    self.blanks = 0
                return
            self._flush(done)
            self.start, self.block = number, -1
            self.lead = _is_lead(line)
        elif _BLOCK_LINE is not None and (m := _BLOCK_LINE.match(line)) is not None:
            self._flush(done)
            self.start, self.block = number, int(typing.cast(str, m.lastgroup)[1:])
            self.lead = False
        elif self.start == 0:
            if not self.first_content and line.strip():
                self.first_content = number
                self._foreign_file(line)
            self._foreign_line(number, line)
            return
        elif self.lead and line.strip():
            self.lead = False
        if self.overflow:
            return
        if not line.strip():
            self.blanks += 1
        else:
            self.blanks = 0
        self.size += len(line) + 1
        if self.size > MAX_HAND_BYTES:
            self.overflow, self.lines = True, []
            return
        self.lines.append(line)

    def _foreign_file(self, line: bytes) -> None:
        """The file's first line says it is another site's file of no hand (a summary)?"""
        from .foreign import foreign_file

        site = foreign_file(line.decode("utf-8", "replace").lstrip("\ufeff"))
        if site is not None:
            self.foreign_done = True
            self.foreign.append(Chunk(self.source, "", 0, b"", self.first_content, (
                "site-format-not-read", f"a {site} file that holds no hand (a summary): handaudit reads the "
                "logs of the sites it knows and PHH; not read")))

    def _foreign_line(self, number: int, line: bytes) -> None:
        """A hand header of a site handaudit does not read: an unreadable entry saying which."""
        if self.foreign_done or not line.strip():
            return
        from .foreign import foreign_head, message

        text = line.decode("utf-8", "replace").lstrip("\ufeff")
        site = foreign_head(text)
        if site is not None:
            self.foreign.append(Chunk(self.source, str(len(self.foreign) + 1), len(self.foreign), b"", number,
                                      ("site-format-not-read", message(site, text))))

    def piece(self, line: bytes) -> None:
        """More of the last line (a line longer than one read)."""
        if self.start == 0 or self.overflow:
            return
        self.size += len(line)
        if self.size > MAX_HAND_BYTES:
            self.overflow, self.lines = True, []
            return
        if line.strip():
            self.blanks = 0
        self.lines[-1] += line

    def _flush(self, done: list[Chunk]) -> None:
        if self.start == 0:
            if self.first_content:
                done.append(Chunk(self.source, "", self.index, b"", self.first_content, (
                    "site-unreadable-line", f"line {self.first_content}: text before the first hand header; not read")))
                self.index += 1
                self.first_content = 0
            return
        if self.block >= 0:
            self._block(done)
        elif self.overflow:
            done.append(Chunk(self.source, str(self.index + 1), self.index, b"", self.start,
                              ("syntax-error", f"the hand is larger than {MAX_HAND_BYTES} bytes; not read")))
            self.index += 1
        else:
            end = len(self.lines) - min(self.blanks, len(self.lines) - 1)
            done.append(_chunk(self.source, b"\n".join(self.lines[:end]), self.start, self.index))
            self.index += 1
        self.lines, self.size, self.overflow, self.blanks = [], 0, False, 0

    def _block(self, done: list[Chunk]) -> None:
        """A block that is no hand: its site's ``read_block`` says what it gives, if anything."""
        import importlib

        _, kind, site = _BLOCKS[self.block]
        module = importlib.import_module(f"handaudit.importers.{SITES[site].module}")
        reader = getattr(module, "read_block", None)
        if self.overflow:
            return
        end = len(self.lines) - min(self.blanks, len(self.lines) - 1)
        chunk = Chunk(self.source, "", self.index, b"\n".join(self.lines[:end]), self.start)
        if reader is None and kind == "tournament-summary" and SITES[site].name == "pokerstars":
            # a PokerStars tournament summary, no hand: routed by its kind (run/batches.py) to the
            # tournaments output (importers/tournaments.py)
            done.append(Chunk(self.source, "", self.index, chunk.data, self.start, (
                "site-tournament-summary", "a PokerStars tournament summary (no hand): read into the tournaments "
                "output, not audited")))
            return
        if reader is None:
            return
        given: list[Chunk] = reader(kind, chunk)
        done.extend(given)
        self.index += len(given)

    def finish(self, done: list[Chunk]) -> None:
        if self.start == 0 and self.index == 0:
            if self.foreign:
                done.extend(self.foreign)  # another site's format: one entry per hand it holds
            elif self.first_content:
                done.append(Chunk(self.source, "", 0, b"", self.first_content,
                                  ("site-unreadable-line", "no hand header in the file; not read")))
            return
        if self.lead and self.index > 0 and self.block < 0:
            # The file ends in lead-in lines only ("Game #N starts.", "#Game No : N"): the client
            # writes them as the next hand begins; that hand is not in the file.
            return
        self._flush(done)


def split_log_stream(source: str, stream: typing.BinaryIO) -> Iterator[Chunk]:
    """Every hand of a site log read from ``stream`` (UTF-8 or a single-byte code page: see
    :func:`log_stream` for UTF-16), a line at a time: the memory of one hand, and of one read
    (:data:`READ_LINE`) for a longer line. Each chunk's text is the hand's lines as UTF-8 joined
    by ``\\n``, its ``line`` the 1-based line of the file where the hand starts, ``hand_key`` the
    hand's ordinal in the file (``"1"``, ``"2"``, ...). Any line end (``\\r\\n``, ``\\n``, a lone
    ``\\r``). A read that fails is one entry for the rest of the file, after the hands before
    the one it cuts."""
    splitter = _LogSplitter(source)
    done: list[Chunk] = []
    number = 0
    mid = False  # the last line read was cut: the next piece continues it
    while True:
        try:
            piece = stream.readline(READ_LINE)
        except (OSError, EOFError, ValueError) as err:
            yield from done
            yield _broken(splitter, source, number, err)
            return
        if not piece:
            break
        whole = piece.endswith(b"\n")
        body = piece[:-1] if whole else piece
        if whole and body.endswith(b"\r"):
            body = body[:-1]
        parts = body.split(b"\r") if b"\r" in body else None
        if parts is None:
            if mid:
                splitter.piece(body)
            else:
                number += 1
                splitter.line(number, body, done)
        else:
            for j in range(len(parts)):
                if j == 0 and mid:
                    splitter.piece(parts[0])
                else:
                    number += 1
                    splitter.line(number, parts[j], done)
        mid = not whole
        if done:
            yield from done
            done.clear()
    splitter.finish(done)
    yield from done


def _broken(splitter: _LogSplitter, source: str, number: int, err: BaseException) -> Chunk:
    """The entry for a log whose reading failed after line ``number``: the hand it cuts, or the
    rest of the file."""
    code, message = read_problem(source, err)
    if splitter.start:
        message = f"hand {splitter.index + 1} (line {splitter.start}) is cut off after line {number}: {message}"
        return Chunk(source, str(splitter.index + 1), splitter.index, b"", splitter.start, (code, message))
    return Chunk(source, "", splitter.index, b"", number + 1, (code, f"after line {number}: {message}"))


def _chunk(source: str, body: bytes, start: int, index: int) -> Chunk:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        # The decoding is said in the text the importer reads (a line it skips): the finding
        # then names it with the hand.
        body = body.decode("cp1252", "replace").encode("utf-8") + b"\n#encoding cp1252"
    return Chunk(source, str(index + 1), index, body, start)


# ---------------------------------------------------------------------------------------------
# amounts

CURRENCY_OF_SYMBOL: Final[dict[str, str]] = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "₹": "INR"}
_SYMBOLS: Final = "$€£¥₹"
_AMOUNT_DIGITS: Final = 40  # (limits.MAX_AMOUNT_DIGITS: that module imports this one's neighbours)


def amount_units(text: str) -> tuple[int, int]:
    """An amount as the site writes it (``$0.25``, ``1,500``, ``€7.50``) -> (digits as an int,
    decimal places written, trailing zeros not counted); (-1, 0) when it is not an amount, (-2, 0)
    when it has more digits than any amount handaudit reads (:mod:`.limits`: a 5,000-digit
    number is not turned into an integer). Exact: read digit by digit, never through a float."""
    if len(text) > 3 * _AMOUNT_DIGITS:
        n = 0
        for ch in text:
            if "0" <= ch <= "9":
                n += 1
        return (-2, 0) if n > _AMOUNT_DIGITS else (-1, 0)
    n = len(text)
    i = 0
    if i < n and text[i] in _SYMBOLS:
        i += 1
    value = 0
    digits = 0
    places = -1
    zeros = 0  # trailing zeros after the point
    while i < n:
        ch = text[i]
        o = ord(ch)
        if 48 <= o <= 57:
            value = value * 10 + (o - 48)
            digits += 1
            if digits > _AMOUNT_DIGITS:
                return -2, 0
            if places >= 0:
                places += 1
                zeros = zeros + 1 if o == 48 else 0
        elif ch == "," and places < 0 and digits > 0:
            pass
        elif ch == "." and places < 0 and digits > 0:
            places = 0
        else:
            return -1, 0
        i += 1
    if digits == 0 or places == 0:
        return -1, 0
    if places < 0:
        return value, 0
    while zeros > 0:
        value //= 10
        places -= 1
        zeros -= 1
    return value, places


def currency_symbol(text: str) -> str | None:
    return text[0] if text and text[0] in _SYMBOLS else None


# ---------------------------------------------------------------------------------------------
# the PHH player order

def phh_order(seats: list[int], button: int, small_blind_seat: int) -> list[int]:
    """Positions (indices into ``seats``, the dealt-in players' seat numbers in table order) in
    PHH player order: from the first seat after the button round to the button, so that the
    blinds come first (PHH spec, required.rst "Blinds or Straddles"). Heads-up the forced bets
    are reverse-assigned: p1 is the big blind, p2 the button, who posts the small blind
    (``small_blind_seat``: that player's seat, or -1 when nobody posted one)."""
    n = len(seats)
    order = sorted(range(n), key=lambda i: (seats[i] <= button, seats[i]))
    if n == 2:
        if small_blind_seat >= 0:
            sb = 0 if seats[order[0]] == small_blind_seat else 1
        else:
            sb = 1 if seats[order[1]] == button else 0
        return [order[1 - sb], order[sb]]
    return order
