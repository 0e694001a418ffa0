"""What every site importer shares: telling a site log by its content, cutting it into hands,
exact amounts as sites write them, and the PHH player order.

A second site reuses all of it: its entry in the registry (:mod:`.sites`) gives its header
prefixes, and its module reads one hand's lines.
"""

from __future__ import annotations

import re
from typing import Final

from ..grammar.chunk import BOM, MAX_HAND_BYTES, Chunk
from ..grammar.duplicates import SiteHand
from .sites import HEADS, SITES

# The first bytes of a hand, per site (the registry, :data:`.sites.HEADS`): a file (or standard
# input) whose first non-blank line starts with one of these is that site's text log, whatever its
# name. The value is the venue.
SITE_HEADS: Final[tuple[tuple[str, str], ...]] = tuple([(prefix, venue) for prefix, venue, _ in HEADS])
_HEAD_BYTES: Final[tuple[bytes, ...]] = tuple([h.encode("ascii") for h, _ in SITE_HEADS])
_HEAD_FIRST: Final[frozenset[int]] = frozenset([h[0] for h in _HEAD_BYTES])  # their first bytes
_HEAD_CHARS: Final[str] = "".join(sorted(set([h[0] for h, _ in SITE_HEADS])))  # ... as characters
_UTF16_BOMS: Final = (b"\xff\xfe", b"\xfe\xff")
SNIFF_BYTES: Final = 4096  # how much of a file detection reads


def utf8_head(head: bytes) -> bytes:
    """A file's first bytes as UTF-8 when they are UTF-16 with a byte-order mark (as some tools
    save logs; a character cut at the end is dropped), else as they are: what detection reads."""
    if head.startswith(_UTF16_BOMS):
        return head[:len(head) // 2 * 2].decode("utf-16", "ignore").encode("utf-8")
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
    i = head_index(data)  # (a chunk starts with its header: no byte-order mark, no blank line)
    if i < 0:
        return None
    venue = SITE_HEADS[i][1]
    site = HEADS[i][2]
    end = data.find(b"\n")
    first = data if end < 0 else data[:end]
    m = _HAND_NUMBER[site].search(first)
    if m is None:
        return None
    table = None
    while end >= 0:
        start = end + 1
        end = data.find(b"\n", start)
        line = data[start:] if end < 0 else data[start:end]
        if line.strip():
            t = _TABLE_NAME[site].match(line)
            if t is not None:
                table = t.group(1).decode("utf-8", "replace")
            break
    number = m.group(1).decode("ascii")
    return venue, table, str(int(number)) if number.isdigit() else number


# The table line, as the importer reads it (importers/pokerstars.py compiles the same text).
# Every era's: the seat count is missing from some 2005 lines, the button from stud's (no button).
TABLE_LINE: Final = (r"Table '(?P<name>.*)'(?: (?P<max>\d+)-max)?(?: \((?:Play|Real) Money\))?"
                     r"(?: Seat #(?P<button>\d+) is the button)?\s*$")
# Per site (registry order): the header's hand number, the table line's name (sites.Site).
_HAND_NUMBER: Final = [re.compile(s.hand_number.encode("ascii")) for s in SITES]
_TABLE_NAME: Final = [re.compile(s.table_name.encode("ascii")) for s in SITES]


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
    for i in range(len(SITE_HEADS)):
        if line.startswith(SITE_HEADS[i][0]):
            return True
    return False


def split_lines(text: str) -> list[str]:
    """Lines of a log with any line end (``\\r\\n``, ``\\n``, a lone ``\\r`` of the oldest logs)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def split_log(source: str, data: bytes) -> list[Chunk]:
    """A whole site log cut into hands: each hand starts at a header line (blank lines between
    hands are optional). Each chunk's text is the hand's lines as UTF-8, its ``line`` the
    1-based line of the file where the hand starts, ``hand_key`` the hand's ordinal in the file
    (``"1"``, ``"2"``, ...). Text before the first header is one chunk with a problem."""
    text, encoding = decode(data)
    lines = split_lines(text)
    at: list[int] | None = None  # each line's line of the file, when a spliced header was cut off
    for m in _HEADER_ANYWHERE.finditer(text):
        if m.start() > 0 and text[m.start() - 1] not in "\n\r\ufeff":
            lines, at = unspliced(lines)  # a hand header in the middle of a line: two hands spliced
            break
    chunks: list[Chunk] = []
    start = -1
    index = 0
    first_content = -1
    for i in range(len(lines)):
        line = lines[i]
        if line.startswith("\ufeff"):  # files joined together: each one's byte-order mark
            line = lines[i] = line[1:]
        if first_content < 0 and line.strip():
            first_content = i
        if line and line[0] in _HEAD_CHARS and is_head_line(line):
            if start >= 0 and line == lines[start] and _only_blank(lines, start + 1, i):
                start = i  # the header written twice (a line duplicated): one hand, not an empty one
                continue
            if start >= 0:
                chunks.append(_chunk(source, lines, start, i, index, encoding, at))
                index += 1
            elif first_content >= 0 and first_content < i:
                first = first_content + 1 if at is None else at[first_content] + 1
                chunks.append(Chunk(source, "", index, b"", first, (
                    "site-unreadable-line", f"line {first}: text before the first hand header; not read")))
                index += 1
            start = i
    if start >= 0:
        chunks.append(_chunk(source, lines, start, len(lines), index, encoding, at))
    elif first_content >= 0:
        foreign = foreign_chunks(source, lines, first_content)
        chunks.extend(foreign or [Chunk(source, "", 0, b"", first_content + 1,
                                        ("site-unreadable-line", "no hand header in the file; not read"))])
    return chunks


def foreign_chunks(source: str, lines: list[str], first: int) -> list[Chunk]:
    """A file of another site's format (no PokerStars-format header): one unreadable chunk per
    hand header it holds, saying which site (:mod:`.foreign`); [] when it holds none."""
    from .foreign import foreign_file, foreign_head, message

    out: list[Chunk] = []
    site = foreign_file(lines[first].lstrip("\ufeff"))
    if site is not None:
        return [Chunk(source, "", 0, b"", first + 1, ("site-format-not-read", f"a {site} file that holds no hand "
                                                      f"(a summary): handaudit reads PokerStars-format logs and PHH; "
                                                      "not read"))]
    for i in range(first, len(lines)):
        line = lines[i].lstrip("\ufeff")
        site = foreign_head(line)
        if site is not None:
            out.append(Chunk(source, str(len(out) + 1), len(out), b"", i + 1,
                             ("site-format-not-read", message(site, line))))
    return out


def _only_blank(lines: list[str], start: int, end: int) -> bool:
    for k in range(start, end):
        if lines[k].strip():
            return False
    return True


# A hand header anywhere in a log (split_log looks for one in the middle of a line: a splice).
_HEADER_ANYWHERE: Final = re.compile(r"P(?:okerStars(?: Zoom| Home Game)?|PPoker) (?:Hand|Game) #\d+: ")


def unspliced(lines: list[str]) -> tuple[list[str], list[int]]:
    """``lines`` with every hand header that starts in the middle of a line (two hands spliced
    mid-line) moved to a line of its own, so that neither hand is folded into the other; and
    each line's 0-based line of the file (a cut line's two parts share theirs)."""
    out: list[str] = []
    at: list[int] = []
    for i in range(len(lines)):
        line = lines[i]
        cut = 0
        for m in _HEADER_ANYWHERE.finditer(line, 1):
            if m.start() > cut:
                out.append(line[cut:m.start()])
                at.append(i)
                cut = m.start()
        out.append(line[cut:])
        at.append(i)
    return out, at


def _chunk(source: str, lines: list[str], start: int, end: int, index: int, encoding: str | None,
           at: list[int] | None = None) -> Chunk:
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    first = start + 1 if at is None else at[start] + 1  # the line of the file where the hand starts
    body = "\n".join(lines[start:end]).encode("utf-8", "surrogatepass")
    if lines[start].startswith("PokerStars Tournament #"):
        # a tournament summary, no hand: routed by its kind (run/batches.py) to the tournaments output
        return Chunk(source, "", index, body, first, (
            "site-tournament-summary", "a PokerStars tournament summary (no hand): read into the tournaments output, "
            "not audited"))
    if len(body) > MAX_HAND_BYTES:
        return Chunk(source, str(index + 1), index, b"", first,
                     ("syntax-error", f"the hand is larger than {MAX_HAND_BYTES} bytes; not read"))
    if encoding is not None:
        # The decoding is said in the text the importer reads (a line it skips): the finding
        # then names it with the hand.
        body = body + f"\n#encoding {encoding}".encode("ascii")
    return Chunk(source, str(index + 1), index, body, first)


# ---------------------------------------------------------------------------------------------
# amounts

CURRENCY_OF_SYMBOL: Final[dict[str, str]] = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "₹": "INR"}
_SYMBOLS: Final = "$€£¥₹"


def amount_units(text: str) -> tuple[int, int]:
    """An amount as the site writes it (``$0.25``, ``1,500``, ``€7.50``) -> (digits as an int,
    decimal places written, trailing zeros not counted); (-1, 0) when it is not an amount.
    Exact: read digit by digit, never through a float."""
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
