"""The report tables buffered as columns, in compiled code, for the Parquet writer.

:func:`handaudit.reports.rows.add_hand` appends each value of a hand straight to its column here
(no row tuples, no Python loop over rows), and the writer (:mod:`handaudit.reports.parquet`) reads
each table's columns by the names of :data:`handaudit.reports.columns.COLUMNS`. Every column is
laid out as Arrow holds it, so that the writer wraps bytes in Arrow buffers instead of converting
one Python object per value (docs/performance.md, "The Parquet path"):

- a number or a flag is its little-endian bytes and a validity byte (:class:`Ints` and the
  narrower widths, :class:`Flags`), appended by librt's native writers in the compiled build; a
  date and a time are numbers too (days since 1970-01-01, microseconds since midnight);
- a string column whose values repeat is a :class:`Strings`: dictionary codes and its distinct
  strings, which the writer makes one Arrow dictionary array of (Parquet writes its dictionary
  pages from it, without hashing each string again); one whose values rarely repeat (the
  action's text, cards, a finding's message) is a :class:`Texts`: the characters one after
  another and their offsets;
- a list column is a :class:`Lists`: offsets, validity and a column per item field (a pot's
  eligible players and winners, the hand's blinds and antes, a pot's awards);
- the hand's key (``source``, ``hand_key``, ``hand_index`` and ``scale``) is kept once per hand
  in the tables of actions, findings, pots and players (:class:`HandKeys`, with the row where each
  hand's rows end), and repeated over its rows by Arrow (run-end decoding).

No pyarrow here: a JSONL run never imports it.
"""

from __future__ import annotations

from typing import Final

from librt.strings import (
    BytesWriter,
    StringWriter,
    read_i16_le,
    read_i32_le,
    read_i64_le,
    write_i16_le,
    write_i32_le,
    write_i64_le,
)


class Column:
    """A column of fixed-width values as Arrow holds one: ``data``, ``width`` bytes a value (zero
    under a null), and ``valid``, one byte a value (1 valid, 0 null; :meth:`buffers` packs them
    into Arrow's validity bitmap). ``nulls`` counts the zeros of ``valid``. A subclass per width
    appends (the writer checks that each column's width is its type's)."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.data = BytesWriter()
        self.valid = BytesWriter()
        self.nulls = 0

    def __len__(self) -> int:
        return len(self.valid)

    def buffers(self) -> tuple[bytes, bytes | None, int, int]:
        """(data, validity bitmap or None when no value is null, null count, length)."""
        valid = pack_bits(self.valid.getvalue()) if self.nulls else None
        return self.data.getvalue(), valid, self.nulls, len(self.valid)

    def values(self) -> list:
        """The values added, read back as signed integers of the column's width (for tests and
        :func:`~handaudit.reports.rows.hand_rows`; flags and strings decode theirs)."""
        data, valid, width = self.data.getvalue(), self.valid.getvalue(), self.width
        return [_read_int(data, width * i, width) if valid[i] else None for i in range(len(valid))]

    def truncate(self, n: int) -> None:
        if len(self.valid) > n:
            self.data.truncate(self.width * n)
            self.valid.truncate(n)
            self.nulls = self.valid.getvalue().count(0) if self.nulls else 0


class Ints(Column):
    """An int64 column (None for null); also a timestamp's microseconds. A value beyond the type
    is refused when added (OverflowError compiled, ValueError from librt in pure Python), as
    Arrow's conversion refused it; the reader's limits keep every value inside (README "Limits")."""

    def __init__(self) -> None:
        super().__init__(8)

    def append(self, value: int | None) -> None:
        if value is None:
            write_i64_le(self.data, 0)
            self.valid.append(0)
            self.nulls += 1
        else:
            write_i64_le(self.data, value)
            self.valid.append(1)

    def add(self, value: int) -> None:
        """A value that is never null: compiled, the int is passed unboxed (no object made)."""
        write_i64_le(self.data, value)
        self.valid.append(1)


class Int32s(Column):
    """An int32 column (None for null); see :class:`Ints`."""

    def __init__(self) -> None:
        super().__init__(4)

    def append(self, value: int | None) -> None:
        if value is None:
            write_i32_le(self.data, 0)
            self.valid.append(0)
            self.nulls += 1
        else:
            write_i32_le(self.data, value)
            self.valid.append(1)

    def add(self, value: int) -> None:
        """A value that is never null: compiled, the int is passed unboxed (no object made)."""
        write_i32_le(self.data, value)
        self.valid.append(1)


class Int16s(Column):
    """An int16 column (None for null); see :class:`Ints`."""

    def __init__(self) -> None:
        super().__init__(2)

    def append(self, value: int | None) -> None:
        if value is None:
            write_i16_le(self.data, 0)
            self.valid.append(0)
            self.nulls += 1
        else:
            write_i16_le(self.data, value)
            self.valid.append(1)

    def add(self, value: int) -> None:
        """A value that is never null: compiled, the int is passed unboxed (no object made)."""
        write_i16_le(self.data, value)
        self.valid.append(1)


class Int8s(Column):
    """An int8 column (None for null): the scale, 0 to 18; see :class:`Ints`."""

    def __init__(self) -> None:
        super().__init__(1)

    def append(self, value: int | None) -> None:
        if value is None:
            self.data.append(0)
            self.valid.append(0)
            self.nulls += 1
        elif -128 <= value <= 127:
            self.data.append(value & 0xFF)
            self.valid.append(1)
        else:
            raise OverflowError(f"{value} does not fit int8")


class Flags(Column):
    """A true/false column (None for null), one byte a value (:meth:`buffers` packs them into bits)."""

    def __init__(self) -> None:
        super().__init__(1)

    def append(self, value: bool | None) -> None:
        if value is None:
            self.data.append(0)
            self.valid.append(0)
            self.nulls += 1
        else:
            self.data.append(1 if value else 0)
            self.valid.append(1)

    def buffers(self) -> tuple[bytes, bytes | None, int, int]:
        """(values bitmap, validity bitmap or None, null count, length)."""
        data, valid, nulls, n = super().buffers()
        return pack_bits(data), valid, nulls, n

    def values(self) -> list[bool | None]:
        data, valid = self.data.getvalue(), self.valid.getvalue()
        return [bool(data[i]) if valid[i] else None for i in range(len(valid))]


def _read_int(data: bytes, at: int, width: int) -> int:
    """The signed little-endian integer of ``width`` bytes at ``at``."""
    if width == 8:
        return read_i64_le(data, at)
    if width == 4:
        return read_i32_le(data, at)
    if width == 2:
        return read_i16_le(data, at)
    return (data[at] ^ 0x80) - 0x80


def pack_bits(flags: bytes) -> bytes:
    """One byte a value (0 or 1) packed into Arrow's bitmap: value i at bit i % 8 of byte i // 8.

    Eight values at a time: read as one little-endian int64 (under 2**57, so compiled it stays
    an unboxed int), value k is bit 8k; three shifted ors gather bits 8k into bits k of the
    low byte (``x >> 7`` puts value k+1 next to value k in each byte, ``>> 14`` the next two,
    ``>> 28`` the next four; no two bits land on one). No per-value work in Arrow's cast."""
    out = BytesWriter()
    n = len(flags)
    i = 0
    while i + 8 <= n:
        x = read_i64_le(flags, i)
        x |= x >> 7
        x |= x >> 14
        x |= x >> 28
        out.append(int(x & 0xFF))  # (as an int: compiled, an i64 argument made append a generic method call)
        i += 8
    if i < n:
        last = 0
        for k in range(n - i):
            last |= flags[i + k] << k
        out.append(last)
    return out.getvalue()


class Strings(Column):
    """A string column as dictionary codes: 32-bit indexes into ``words`` (null: no code).
    Codes stay valid until :meth:`take_words` starts a new dictionary (the writer does so after
    each row group)."""

    def __init__(self) -> None:
        super().__init__(4)
        self.index: dict[object, int] = {}
        self.words: list[object] = []
        # the last string added and its code: a column often repeats its last value (the street,
        # the source), and an identity test is far cheaper than a dictionary lookup
        self.last: object = None
        self.last_code = 0

    def add(self, value: object) -> None:
        if value is None:
            write_i32_le(self.data, 0)
            self.valid.append(0)
            self.nulls += 1
            return
        if value is self.last:
            write_i32_le(self.data, self.last_code)
            self.valid.append(1)
            return
        code = self.index.get(value)
        if code is None:
            code = len(self.words)
            self.index[value] = code
            self.words.append(value)
        write_i32_le(self.data, code)
        self.valid.append(1)
        self.last = value
        self.last_code = code

    def values(self) -> list[object]:
        """The strings added since the last :meth:`take` (codes decoded with the current words)."""
        words = self.words
        return [None if c is None else words[c] for c in self.codes()]

    def codes(self) -> list[int | None]:
        """The codes added since the last :meth:`take` (None for null)."""
        data, valid = self.data.getvalue(), self.valid.getvalue()
        return [read_i32_le(data, 4 * i) if valid[i] else None for i in range(len(valid))]

    def take(self) -> tuple[list[int | None], int, int]:
        """(codes, null codes, dictionary size) since the last take; the dictionary stays."""
        out = (self.codes(), self.nulls, len(self.words))
        self.truncate(0)
        return out

    def take_words(self) -> list[object]:
        words = self.words
        self.words = []
        self.index = {}
        self.last = None
        self.last_code = 0
        return words


class Texts(Column):
    """A string column whose values rarely repeat (an action's text, its cards, a finding's
    message), laid out as Arrow holds one: ``chars`` the values' characters one after another
    (copied when added, so that a value is freed with its hand, not kept until the batch),
    ``data`` the int32 offset where each value ends among them, counted in code points, and
    ``valid`` one byte a value. When the text is ASCII (nearly always), code points are its
    UTF-8 bytes and the offsets are Arrow's as they stand: the writer wraps the text encoded
    once instead of converting each ``str`` (some 70 ns a value saved); otherwise it converts
    the values one by one. ``size`` is the code points so far: :class:`ReportBuffer` has the
    writer take the rows long before it nears the int32 offsets' limit."""

    def __init__(self) -> None:
        super().__init__(4)
        self.chars = StringWriter()
        self.size = 0
        write_i32_le(self.data, 0)

    def append(self, value: str | None) -> None:
        if value is None:
            self.valid.append(0)
            self.nulls += 1
        else:
            self.chars.write(value)
            self.size += len(value)
            self.valid.append(1)
        write_i32_le(self.data, self.size)

    def text(self) -> str:
        """The values one after another (their offsets are ``data``)."""
        return self.chars.getvalue()

    def values(self) -> list:
        text, data, valid = self.text(), self.data.getvalue(), self.valid.getvalue()
        return [text[read_i32_le(data, 4 * i):read_i32_le(data, 4 * i + 4)] if valid[i] else None
                for i in range(len(valid))]

    def truncate(self, n: int) -> None:
        if len(self.valid) > n:
            self.data.truncate(4 * (n + 1))
            size = read_i32_le(self.data.getvalue(), 4 * n)
            kept = self.chars.getvalue()[:size] if size else ""
            self.chars = StringWriter()  # (a StringWriter is not cut short: the rest written anew)
            if kept:
                self.chars.write(kept)
            self.size = size
            self.valid.truncate(n)
            self.nulls = self.valid.getvalue().count(0) if self.nulls else 0


class Lists(Column):
    """A column of lists, laid out as Arrow holds one: ``data`` the int32 offset where each list
    ends among the items, ``valid`` one byte a list; the items are ``fields``, a column each (one
    for a list of integers, one per field for a list of structs). A subclass adds the items, then
    :meth:`end` closes the list; the writer wraps offsets and items as they are instead of
    converting one Python list at a time (some 200 to 500 ns a list)."""

    def __init__(self, fields: list[Column]) -> None:
        super().__init__(4)
        self.fields = fields
        self.count = 0  # items so far (those of a list not yet ended included)
        write_i32_le(self.data, 0)

    def end(self) -> None:
        """The list whose items were added since the last end is whole."""
        write_i32_le(self.data, self.count)
        self.valid.append(1)

    def end_null(self) -> None:
        """A null list (no item may have been added since the last end)."""
        write_i32_le(self.data, self.count)
        self.valid.append(0)
        self.nulls += 1

    def split(self, items: list) -> list:
        """``items`` (one per item added) cut into the lists (None for a null list)."""
        data, valid = self.data.getvalue(), self.valid.getvalue()
        return [items[read_i32_le(data, 4 * i):read_i32_le(data, 4 * i + 4)] if valid[i] else None
                for i in range(len(valid))]

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` lists (and drop the items of a list begun and not ended)."""
        if len(self.valid) > n:
            self.data.truncate(4 * (n + 1))
            self.valid.truncate(n)
            self.nulls = self.valid.getvalue().count(0) if self.nulls else 0
        self.count = read_i32_le(self.data.getvalue(), 4 * len(self.valid))
        for field in self.fields:
            field.truncate(self.count)


class IntLists(Lists):
    """A column of lists of integers: ``items``, a column of the item type."""

    def __init__(self, items: Column) -> None:
        super().__init__([items])
        self.items = items

    def values(self) -> list:
        return self.split(self.items.values())


class Int16Lists(IntLists):
    """A list<int16> column (PHH player numbers): its items added one at a time."""

    def __init__(self) -> None:
        self.int16s = Int16s()  # ``items``, typed as what it is: compiled, add() is a native call
        super().__init__(self.int16s)

    def add(self, item: int) -> None:
        self.int16s.add(item)
        self.count += 1


class Int64Lists(IntLists):
    """A list<int64> column (per-player amounts): a whole tuple at a time, or None."""

    def __init__(self) -> None:
        self.ints = Ints()  # ``items``, typed as what it is (see Int16Lists)
        super().__init__(self.ints)

    def append(self, values: tuple[int, ...] | None) -> None:
        if values is None:
            self.end_null()
            return
        for value in values:
            self.ints.add(value)
        self.count += len(values)
        self.end()


class AwardLists(Lists):
    """The pots table's ``awards``: a list of (player, won, share, hand) structs per pot, a
    column per struct field (``hand`` null when uncontested)."""

    def __init__(self) -> None:
        self.player = Int16s()
        self.won = Ints()
        self.share = Texts()
        self.hand = Texts()
        super().__init__([self.player, self.won, self.share, self.hand])

    def add(self, player: int, won: int, share: str, hand: str | None) -> None:
        """One award of the pot's list (then :meth:`end`)."""
        self.player.add(player)
        self.won.add(won)
        self.share.append(share)
        self.hand.append(hand)
        self.count += 1

    def values(self) -> list:
        """Each pot's awards as tuples in the struct's field order (None for a null list)."""
        return self.split(list(zip(self.player.values(), self.won.values(), self.share.values(),  # noqa: B905
                                   self.hand.values())))


def texts_in(columns: list[Column]) -> list[Texts]:
    """Every :class:`Texts` among ``columns``, a list column's item fields included."""
    out: list[Texts] = []
    for column in columns:
        if isinstance(column, Texts):
            out.append(column)
        elif isinstance(column, Lists):
            out.extend(texts_in(column.fields))
    return out


# The code points a Texts column may hold before the writer takes its rows: far below int32's
# limit (2**31 - 1), with room for a whole hand beyond it (at most 16 MiB of text, and a column
# holds no more than a few times its hand's text).
TEXT_LIMIT: Final = 1 << 30


class HandKeys:
    """The key of each hand that has rows in a table, and the row count at the end of its rows."""

    def __init__(self) -> None:
        self.source = Strings()
        self.hand_key = Strings()
        self.hand_index = Ints()
        self.scale = Int8s()
        self.ends = Int32s()  # (Arrow's run ends: int32)

    def add(self, source: str, hand_key: str, hand_index: int, scale: int | None, end: int) -> None:
        self.source.add(source)
        self.hand_key.add(hand_key)
        self.hand_index.add(hand_index)
        self.scale.append(scale)
        self.ends.add(end)

    def truncate(self, n: int) -> None:
        self.source.truncate(n)
        self.hand_key.truncate(n)
        self.hand_index.truncate(n)
        self.scale.truncate(n)
        self.ends.truncate(n)


class Table:
    """One table's buffered columns (a subclass per table names them, as in ``COLUMNS``).
    ``rows`` counts the rows of the hands added whole; a hand that fails half way is taken back
    (:meth:`rollback`). ``keyed``: the hand's key is kept in ``keys``, once per hand."""

    def __init__(self, keyed: bool = True) -> None:
        self.rows = 0
        self.keyed = keyed
        self.keys = HandKeys()
        # every column of the table, for truncate (a subclass lists its own; a test checks that
        # none is left out)
        self.columns: list[Column] = []
        self.texts: list[Texts] = []  # its Texts columns, list fields included (ReportBuffer: texts_in)

    def count(self) -> int:
        """Rows now in the columns (the rows of the hand being added included)."""
        return 0

    def end_hand(self, source: str, hand_key: str, hand_index: int, scale: int | None) -> None:
        n = self.count()
        if n > self.rows:
            if self.keyed:
                self.keys.add(source, hand_key, hand_index, scale, n)
            self.rows = n

    def full(self, batch_rows: int) -> bool:
        """Time for the writer to take the rows: ``batch_rows`` of them, or a text column of
        :data:`TEXT_LIMIT` code points."""
        if self.rows >= batch_rows:
            return True
        for texts in self.texts:
            if texts.size >= TEXT_LIMIT:
                return True
        return False

    def rollback(self) -> None:
        """Take back the rows added since the last :meth:`end_hand`."""
        self.truncate(self.rows)

    def truncate(self, n: int) -> None:
        for column in self.columns:
            column.truncate(n)

    def reset(self) -> None:
        """After the writer took the rows: empty columns, the string dictionaries kept."""
        self.truncate(0)
        self.keys.truncate(0)
        self.rows = 0


class HandsTable(Table):
    def __init__(self) -> None:
        super().__init__(keyed=False)
        self.source = Strings()
        self.hand_key = Strings()
        self.hand_index = Ints()
        self.line = Int32s()
        self.hand = Texts()  # the PHH hand number: a new one each hand
        self.variant = Strings()
        self.rulebook = Strings()
        self.status = Strings()
        self.complete = Flags()
        self.players = Int16s()
        self.actions = Int32s()
        self.scale = Int8s()
        self.findings = Int32s()
        self.errors = Int32s()
        self.warnings = Int32s()
        self.infos = Int32s()
        self.first_error = Strings()
        self.determined = Flags()
        self.pots = Int16s()
        self.pot_total = Ints()
        self.payout_check = Strings()
        self.rake = Ints()
        self.rake_check = Strings()
        self.currency = Strings()
        self.currency_symbol = Strings()
        self.venue = Strings()
        self.table = Strings()
        self.event = Strings()
        self.seat_count = Int16s()
        self.level = Int32s()
        self.date = Int32s()  # days since 1970-01-01 (date32)
        self.time = Ints()  # microseconds since midnight (time64[us])
        self.time_zone = Strings()
        self.timestamp = Ints()
        self.blinds_or_straddles = Int64Lists()
        self.antes = Int64Lists()
        self.bring_in = Ints()
        self.small_bet = Ints()
        self.big_bet = Ints()
        self.min_bet = Ints()
        self.columns = [
            self.source, self.hand_key, self.hand_index, self.line, self.variant, self.rulebook, self.status,
            self.complete, self.players, self.actions, self.scale, self.findings, self.errors, self.warnings,
            self.infos, self.first_error, self.determined, self.pots, self.pot_total, self.payout_check, self.rake,
            self.rake_check, self.currency, self.currency_symbol, self.venue, self.table, self.event, self.seat_count, self.level,
            self.time_zone, self.timestamp, self.bring_in, self.small_bet, self.big_bet, self.min_bet, self.hand,
            self.blinds_or_straddles, self.antes, self.date, self.time,
        ]

    def count(self) -> int:
        return len(self.hand_index)


class ActionsTable(Table):
    def __init__(self) -> None:
        super().__init__()
        self.action_index = Int32s()
        self.street = Strings()
        self.actor = Strings()
        self.kind = Strings()
        self.amount = Ints()
        self.to = Ints()
        self.pot_before = Ints()
        self.to_call = Ints()
        self.min_to = Ints()
        self.max_to = Ints()
        self.all_in = Flags()
        self.cards = Texts()
        self.action = Texts()
        self.columns = [
            self.action_index, self.street, self.actor, self.kind, self.amount, self.to, self.pot_before, self.to_call,
            self.min_to, self.max_to, self.all_in, self.cards, self.action,
        ]

    def count(self) -> int:
        return len(self.action_index)


class FindingsTable(Table):
    def __init__(self) -> None:
        super().__init__()
        self.finding_index = Int32s()
        self.code = Strings()
        self.severity = Strings()
        self.action_index = Int32s()
        self.actor = Strings()
        self.rule = Strings()
        self.message = Texts()
        self.ruling = Strings()
        self.line = Int32s()
        self.column = Int32s()
        self.columns = [
            self.finding_index, self.code, self.severity, self.action_index, self.actor, self.rule, self.ruling,
            self.line, self.column, self.message,
        ]

    def count(self) -> int:
        return len(self.finding_index)


class PotsTable(Table):
    def __init__(self) -> None:
        super().__init__()
        self.pot_index = Int16s()
        self.amount = Ints()
        self.eligible = Int16Lists()
        self.winners = Int16Lists()
        self.awards = AwardLists()
        self.determined = Flags()
        self.reason = Strings()
        self.rake = Ints()
        self.columns = [self.pot_index, self.amount, self.determined, self.reason, self.rake, self.eligible,
                        self.winners, self.awards]

    def count(self) -> int:
        return len(self.pot_index)


class PlayersTable(Table):
    def __init__(self) -> None:
        super().__init__()
        self.player = Int16s()
        self.name = Strings()
        self.seat = Int16s()
        self.starting_stack = Ints()
        self.ante = Ints()
        self.blind = Ints()
        self.put_in = Ints()
        self.returned = Ints()
        self.contributed = Ints()
        self.received = Ints()
        self.finishing_computed = Ints()
        self.finishing_recorded = Ints()
        self.winnings_recorded = Ints()
        self.net = Ints()
        self.net_recorded = Ints()
        self.folded = Flags()
        self.all_in = Flags()
        self.hole_cards = Texts()
        self.columns = [
            self.player, self.name, self.seat, self.starting_stack, self.ante, self.blind, self.put_in, self.returned,
            self.contributed, self.received, self.finishing_computed, self.finishing_recorded, self.winnings_recorded,
            self.net, self.net_recorded, self.folded, self.all_in, self.hole_cards,
        ]

    def count(self) -> int:
        return len(self.player)


KEY_COLUMNS: Final = ("source", "hand_key", "hand_index", "scale")  # kept in Table.keys by the keyed tables


class ReportBuffer:
    """The five tables' buffers (:data:`handaudit.reports.layout.TABLE_NAMES` order in ``tables``)."""

    def __init__(self, batch_rows: int = 8192) -> None:
        self.hands = HandsTable()
        self.actions = ActionsTable()
        self.findings = FindingsTable()
        self.pots = PotsTable()
        self.players = PlayersTable()
        self.tables: list[Table] = [self.hands, self.actions, self.findings, self.pots, self.players]
        for table in self.tables:  # the text columns whose size is watched, found once
            table.texts = texts_in(table.columns)
        self.batch_rows = batch_rows

    def end_hand(self, source: str, hand_key: str, hand_index: int, scale: int | None) -> bool:
        """The hand's rows are all added; True when some table has ``batch_rows`` rows, or a text
        column :data:`TEXT_LIMIT` code points (time for the writer to take them)."""
        due = False
        for table in self.tables:
            table.end_hand(source, hand_key, hand_index, scale)
            if table.full(self.batch_rows):
                due = True
        return due

    def rollback(self) -> None:
        for table in self.tables:
            table.rollback()
