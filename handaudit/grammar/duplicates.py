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

import re
from collections.abc import Callable
from typing import Final

from .chunk import Chunk
from .sources import printable

SiteHand = tuple[str, str | None, str]  # (venue, table or None, hand number)

_SIMPLE_STRING: Final = re.compile(rb"""^(?:"([^"\\]*)"|'([^']*)')$""")


def _value(raw: bytes) -> str:
    """A field's value as text: an integer as written, a one-line string without its quotes."""
    raw = raw.strip()
    m = _SIMPLE_STRING.match(raw)
    if m:
        raw = m.group(1) if m.group(1) is not None else m.group(2)
    return raw.decode("utf-8", "replace")


def _raw_field(data: bytes, key: bytes) -> bytes | None:
    """The raw value of the first top-level line ``key = value`` (to a ``#`` or the line's end),
    found with ``bytes.find`` (C speed: this runs on every hand of a run) rather than a regular
    expression tried at every byte; a line indented with spaces or tabs is found too."""
    n, size = len(key), len(data)
    i = 0 if data.startswith(key) else -1
    start = 0
    while True:
        if i < 0:
            i = data.find(key, start)
            if i < 0:
                return None
            line = data.rfind(b"\n", 0, i) + 1
            if data[line:i].strip(b" \t"):  # not at the start of its line
                start = i + 1
                i = -1
                continue
        j = i + n
        while j < size and data[j] in b" \t":
            j += 1
        if j < size and data[j] == 61:  # "=": this is the key (not "hands", not "hand_x")
            end = j + 1
            while end < size and data[end] not in b"\r\n#":
                end += 1
            return data[j + 1:end]
        start = i + 1
        i = -1


def site_hand(data: bytes) -> SiteHand | None:
    """(venue, table or None, hand number) of a hand's raw text, or None if it lacks one."""
    if b"venue" not in data:
        return None
    venue_raw = _raw_field(data, b"venue")
    if venue_raw is None:
        return None
    number_raw = _raw_field(data, b"hand")
    if number_raw is None:
        return None
    venue, number = _value(venue_raw), _value(number_raw)
    if not venue or not number:
        return None
    table_raw = _raw_field(data, b"table")
    return venue, None if table_raw is None else _value(table_raw), number


class SiteHands:
    """The site hands a run has read so far: :meth:`check` each chunk in input order.

    ``key_of`` gives a chunk's site hand from its text: for PHH alone :func:`site_hand`; a run
    that reads site logs too passes :func:`handaudit.importers.site_hand_of` (this room cannot
    import the importers, which build on it)."""

    def __init__(self, key_of: Callable[[bytes], SiteHand | None] = site_hand) -> None:
        self.key_of: Final = key_of
        self.seen: dict[SiteHand, tuple[str, str]] = {}
        self.duplicates = 0

    def check(self, chunk: Chunk) -> Chunk:
        """``chunk``, or, if its site hand was read before, an unreadable copy saying where."""
        if chunk.problem is not None:
            return chunk
        key = self.key_of(chunk.data)
        if key is None:
            return chunk
        problem = self.check_key(key, chunk.source, chunk.hand_key)
        if problem is None:
            return chunk
        return Chunk(chunk.source, chunk.hand_key, chunk.index, chunk.data, chunk.line, problem)

    def check_key(self, key: SiteHand, source: str, hand_key: str) -> tuple[str, str] | None:
        """None for a site hand first seen here (remembered), else the ``duplicate-hand`` problem
        of this copy: the Dask engine's client calls it with the keys its workers found."""
        first = self.seen.get(key)
        if first is None:
            self.seen[key] = (source, hand_key)
            return None
        self.duplicates += 1
        venue, table, number = key
        where = f"{first[0]} [{first[1]}]" if first[1] else first[0]
        what = f"venue {venue}" + (f", table {table}" if table is not None else "") + f", hand {number}"
        return ("duplicate-hand", printable(f"the same site hand ({what}) as {where}; this copy is not read"))
