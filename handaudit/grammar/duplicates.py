"""The same site hand given twice (in two files, or twice in one): the second copy is not read.

A site's hand is named by its ``venue`` and its ``hand`` number (and its ``table``, when the file
gives one). Two copies of one hand in a run would count its pots, rake and findings twice, so the
second is an unreadable entry with a ``duplicate-hand`` finding naming the first, as a ``.phhs``
table name used twice is. The check reads the raw text (the top-level ``venue``, ``table`` and
``hand`` lines), before any parse, in the process that cuts the input into batches, so it sees
every hand in input order whatever ``--jobs`` says; a hand without a venue or a hand number is
never a duplicate (hand numbers alone repeat across files of a dataset).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Final

from librt.strings import read_i64_le

from ..core.digest import blake2b
from .chunk import Chunk
from .sources import printable

SiteHand = tuple[str, str | None, str]  # (venue, table or None, hand number)


def _value(data: bytes, text: str, start: int, end: int) -> str:
    """The value ``data[start:end]`` as text: an integer as written, a one-line string without its
    quotes (a basic string without escapes, or a literal one); blanks around it dropped.
    ``text`` is ``data`` decoded as Latin-1 (the same offsets), searched by native str calls."""
    while start < end and _blank(data[start]):
        start += 1
    while end > start and _blank(data[end - 1]):
        end -= 1
    if end - start >= 2:
        quote = data[start]
        if quote == data[end - 1] and (quote == 34 or quote == 39):  # "..." or '...'
            if text.find('"' if quote == 34 else "'", start + 1, end - 1) < 0 and \
                    (quote == 39 or text.find("\\", start + 1, end - 1) < 0):
                start, end = start + 1, end - 1
    return data[start:end].decode("utf-8", "replace")


def _blank(c: int) -> bool:
    """What ``bytes.strip`` strips: space, tab, newline, vertical tab, form feed, carriage return."""
    return c == 32 or 9 <= c <= 13


def _raw_field(data: bytes, text: str, key: str) -> tuple[int, int]:
    """Where the raw value of the first top-level line ``key = value`` lies in ``data`` (to a
    ``#``, a carriage return or the line's end): ``(start, end)``, or ``(-1, -1)`` without one;
    a line indented with spaces or tabs is found too. The key is found by ``str.find`` in
    ``text`` (``data`` as Latin-1: one character a byte), a native call where ``bytes.find`` is a
    generic method call; what is around it is read byte by byte, a few bytes each."""
    n = len(key)
    size = len(data)
    start = 0
    while True:
        i = text.find(key, start)
        if i < 0:
            return -1, -1
        start = i + 1
        j = i - 1
        while j >= 0 and (data[j] == 32 or data[j] == 9):  # only blanks before it on its line
            j -= 1
        if j >= 0 and data[j] != 10:
            continue
        j = i + n
        while j < size and (data[j] == 32 or data[j] == 9):
            j += 1
        if j >= size or data[j] != 61:  # not this key ("hands", "hand_x", "venue" in a value)
            continue
        j += 1
        value = j
        while j < size:
            c = data[j]
            if c == 10 or c == 13 or c == 35:  # the line's end, a carriage return, a comment
                break
            j += 1
        return value, j


def site_hand(data: bytes) -> SiteHand | None:
    """(venue, table or None, hand number) of a hand's raw text, or None if it lacks one (the
    search for ``venue`` is the only pass over a hand that has none)."""
    text = data.decode("latin-1")
    venue_at, venue_end = _raw_field(data, text, "venue")
    if venue_at < 0:
        return None
    number_at, number_end = _raw_field(data, text, "hand")
    if number_at < 0:
        return None
    venue, number = _value(data, text, venue_at, venue_end), _value(data, text, number_at, number_end)
    if not venue or not number:
        return None
    table_at, table_end = _raw_field(data, text, "table")
    return venue, None if table_at < 0 else _value(data, text, table_at, table_end), number


class SiteHands:
    """The site hands a run has read so far: :meth:`check` each chunk in input order.

    ``key_of`` gives a chunk's site hand from its text: for PHH alone :func:`site_hand`; a run
    that reads site logs too passes :func:`handaudit.importers.site_hand_of` (this room cannot
    import the importers, which build on it).

    A run of millions of hands must not hold each hand's key (a dict entry of strings, some 400
    bytes a hand: 9 GB for the public dataset's 21.6 million hands). Each key is kept as its
    128-bit BLAKE2b digest in an open-addressing table of ``array('q')`` slots with where it was
    first seen (file number and hand index): 24 bytes a slot, about 40 a hand. Two different
    keys share a digest with a chance of about n² / 2**129 (under 10**-24 for 21.6 million
    hands), so a hand is never taken for another's copy in practice. For the message, a hand
    key that is not the hand's ordinal (``[1]``, ``[2]``, ..., as in every site log) is kept in a
    dict, and a file whose hands have none (a ``.phh`` file) in a set.
    """

    _START: Final = 1 << 10  # slots at first; doubled when two thirds are taken

    def __init__(self, key_of: Callable[[bytes], SiteHand | None] = site_hand) -> None:
        self.key_of: Final = key_of
        self.duplicates = 0
        self.count = 0  # site hands remembered
        self._hi = _slots(self._START)  # the digest's high 64 bits, 0 for an empty slot
        self._lo = _slots(self._START)
        self._where = _slots(self._START)  # file number << 32 | hand index
        self._sources: list[str] = []
        self._source_no: dict[str, int] = {}
        self._odd_keys: dict[int, str] = {}  # where -> a hand key that is not the ordinal
        self._keyless: set[int] = set()  # the file numbers whose hands have no key (.phh files)

    def check(self, chunk: Chunk) -> Chunk:
        """``chunk``, or, if its site hand was read before, an unreadable copy saying where."""
        if chunk.problem is not None:
            return chunk
        key = self.key_of(chunk.data)
        if key is None:
            return chunk
        problem = self.check_key(key, chunk.source, chunk.hand_key, chunk.index)
        if problem is None:
            return chunk
        return Chunk(chunk.source, chunk.hand_key, chunk.index, chunk.data, chunk.line, problem)

    def check_key(self, key: SiteHand, source: str, hand_key: str, index: int) -> tuple[str, str] | None:
        """None for a site hand first seen here (remembered), else the ``duplicate-hand`` problem
        of this copy: the Dask engine's client calls it with the keys its workers found."""
        venue, table, number = key
        # (each part with its length: no two keys give one text)
        text = f"{len(venue)}:{venue}{-1 if table is None else len(table)}:{table or ''}{number}"
        digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        # (signed halves, read natively: int.from_bytes is a generic method call)
        hi: int = read_i64_le(digest, 0) or 1
        lo: int = read_i64_le(digest, 8)
        his, los = self._hi, self._lo
        mask = len(his) - 1
        slot = hi & mask
        while True:
            h = his[slot]
            if h == 0:
                break
            if h == hi and los[slot] == lo:
                self.duplicates += 1
                return _problem(key, self._first(self._where[slot]))
            slot = (slot + 1) & mask
        no = self._source_no.get(source)
        if no is None:
            no = len(self._sources)
            self._sources.append(source)
            self._source_no[source] = no
        where = no << 32 | (index & 0xFFFFFFFF)
        if not hand_key:
            self._keyless.add(no)
        elif hand_key != str(index + 1):
            self._odd_keys[where] = hand_key
        his[slot], los[slot], self._where[slot] = hi, lo, where
        self.count += 1
        if self.count * 3 > len(his) * 2:
            self._grow()
        return None

    def _first(self, where: int) -> str:
        """Where the first copy was seen, as the message names it: ``source [hand key]``."""
        source = self._sources[where >> 32]
        index = where & 0xFFFFFFFF
        hand_key = self._odd_keys.get(where)
        if hand_key is None:
            hand_key = "" if where >> 32 in self._keyless else str(index + 1)
        return f"{source} [{hand_key}]" if hand_key else source

    def _grow(self) -> None:
        old_hi, old_lo, old_where = self._hi, self._lo, self._where
        size = len(old_hi) * 2
        his, los, wheres = _slots(size), _slots(size), _slots(size)
        mask = size - 1
        for i in range(len(old_hi)):
            hi = old_hi[i]
            if hi == 0:
                continue
            slot = hi & mask
            while his[slot] != 0:
                slot = (slot + 1) & mask
            his[slot], los[slot], wheres[slot] = hi, old_lo[i], old_where[i]
        self._hi, self._lo, self._where = his, los, wheres


def _slots(n: int) -> array:
    slots = array("q")
    slots.frombytes(bytes(8 * n))
    return slots


def _problem(key: SiteHand, where: str) -> tuple[str, str]:
    venue, table, number = key
    what = f"venue {venue}" + (f", table {table}" if table is not None else "") + f", hand {number}"
    return ("duplicate-hand", printable(f"the same site hand ({what}) as {where}; this copy is not read"))
