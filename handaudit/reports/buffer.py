"""The report tables buffered as columns, in compiled code, for the Parquet writer.

:func:`handaudit.reports.rows.add_hand` appends each value of a hand straight to its column here
(no row tuples, no Python loop over rows), and the writer (:mod:`handaudit.reports.parquet`) reads
each table's columns by the names of :data:`handaudit.reports.columns.COLUMNS`. Two encodings
save most of the conversion to Arrow (docs/performance.md, "The Parquet path"):

- a string column is a :class:`Strings`: dictionary codes (small ints) and its distinct strings;
  the writer makes an Arrow dictionary array of it, which converts and encodes some four times
  faster than one Python ``str`` per row; a column whose strings rarely repeat (the action's
  text, cards, a finding's message) is a plain list of ``str`` instead: hashing each
  new string into a dictionary costs more than Arrow's conversion and Parquet's own dictionary;
- the hand's key (``source``, ``hand_key``, ``hand_index`` and ``scale``) is kept once per hand
  in the tables of actions, findings, pots and players (:class:`HandKeys`, with the row where each
  hand's rows end), and repeated over its rows by Arrow (run-end decoding).

No pyarrow here: a JSONL run never imports it.
"""

from __future__ import annotations

from typing import Final


class Strings:
    """A string column as dictionary codes: ``codes`` (index into ``words``, None for null).
    Codes stay valid until :meth:`take_words` starts a new dictionary (the writer does so after
    each row group)."""

    def __init__(self) -> None:
        self.codes: list[object] = []
        self.index: dict[object, int] = {}
        self.words: list[object] = []
        self.nulls = 0
        # the last string added and its code: a column often repeats its last value (the street,
        # the source), and an identity test is far cheaper than a dictionary lookup
        self.last: object = None
        self.last_code: object = None

    def add(self, value: object) -> None:
        if value is None:
            self.codes.append(None)
            self.nulls += 1
            return
        if value is self.last:
            self.codes.append(self.last_code)
            return
        code = self.index.get(value)
        if code is None:
            code = len(self.words)
            self.index[value] = code
            self.words.append(value)
        self.codes.append(code)
        self.last = value
        self.last_code = code

    def take(self) -> tuple[list[object], int, int]:
        """(codes, null codes, dictionary size) since the last take; the dictionary stays."""
        out = (self.codes, self.nulls, len(self.words))
        self.codes = []
        self.nulls = 0
        return out

    def take_words(self) -> list[object]:
        words = self.words
        self.words = []
        self.index = {}
        self.last = self.last_code = None
        return words

    def truncate(self, n: int) -> None:
        if len(self.codes) > n:
            del self.codes[n:]
            self.nulls = self.codes.count(None)


class HandKeys:
    """The key of each hand that has rows in a table, and the row count at the end of its rows."""

    def __init__(self) -> None:
        self.source = Strings()
        self.hand_key = Strings()
        self.hand_index: list[object] = []
        self.scale: list[object] = []
        self.ends: list[int] = []

    def add(self, source: str, hand_key: str, hand_index: int, scale: int | None, end: int) -> None:
        self.source.add(source)
        self.hand_key.add(hand_key)
        self.hand_index.append(hand_index)
        self.scale.append(scale)
        self.ends.append(end)

    def truncate(self, n: int) -> None:
        self.source.truncate(n)
        self.hand_key.truncate(n)
        del self.hand_index[n:]
        del self.scale[n:]
        del self.ends[n:]


class Table:
    """One table's buffered columns (a subclass per table names them, as in ``COLUMNS``).
    ``rows`` counts the rows of the hands added whole; a hand that fails half way is taken back
    (:meth:`rollback`). ``keyed``: the hand's key is kept in ``keys``, once per hand."""

    def __init__(self, keyed: bool = True) -> None:
        self.rows = 0
        self.keyed = keyed
        self.keys = HandKeys()

    def count(self) -> int:
        """Rows now in the columns (the rows of the hand being added included)."""
        return 0

    def end_hand(self, source: str, hand_key: str, hand_index: int, scale: int | None) -> None:
        n = self.count()
        if n > self.rows:
            if self.keyed:
                self.keys.add(source, hand_key, hand_index, scale, n)
            self.rows = n

    def rollback(self) -> None:
        """Take back the rows added since the last :meth:`end_hand`."""
        self.truncate(self.rows)

    def truncate(self, n: int) -> None:
        pass

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
        self.hand_index: list[object] = []
        self.line: list[object] = []
        self.hand: list[object] = []  # the PHH hand number: a new one each hand
        self.variant = Strings()
        self.rulebook = Strings()
        self.status = Strings()
        self.complete: list[object] = []
        self.players: list[object] = []
        self.actions: list[object] = []
        self.scale: list[object] = []
        self.findings: list[object] = []
        self.errors: list[object] = []
        self.warnings: list[object] = []
        self.infos: list[object] = []
        self.first_error = Strings()
        self.determined: list[object] = []
        self.pots: list[object] = []
        self.pot_total: list[object] = []
        self.payout_check = Strings()
        self.rake: list[object] = []
        self.rake_check = Strings()
        self.currency = Strings()
        self.venue = Strings()
        self.table = Strings()
        self.event = Strings()
        self.seat_count: list[object] = []
        self.level: list[object] = []
        self.date: list[object] = []
        self.time: list[object] = []
        self.time_zone = Strings()
        self.timestamp: list[object] = []
        self.blinds_or_straddles: list[object] = []
        self.antes: list[object] = []
        self.bring_in: list[object] = []
        self.small_bet: list[object] = []
        self.big_bet: list[object] = []
        self.min_bet: list[object] = []

    def count(self) -> int:
        return len(self.hand_index)

    def truncate(self, n: int) -> None:
        for s in (self.source, self.hand_key, self.variant, self.rulebook, self.status,
                  self.first_error, self.payout_check, self.rake_check, self.currency, self.venue,
                  self.table, self.event, self.time_zone):
            s.truncate(n)
        for c in (self.hand_index, self.line, self.hand, self.complete, self.players, self.actions, self.scale,
                  self.findings, self.errors, self.warnings, self.infos, self.determined, self.pots,
                  self.pot_total, self.rake, self.seat_count, self.level, self.date, self.time,
                  self.timestamp, self.blinds_or_straddles, self.antes, self.bring_in, self.small_bet,
                  self.big_bet, self.min_bet):
            del c[n:]


class ActionsTable(Table):
    def __init__(self) -> None:
        super().__init__()
        self.action_index: list[object] = []
        self.street = Strings()
        self.actor = Strings()
        self.kind = Strings()
        self.amount: list[object] = []
        self.to: list[object] = []
        self.pot_before: list[object] = []
        self.to_call: list[object] = []
        self.min_to: list[object] = []
        self.max_to: list[object] = []
        self.all_in: list[object] = []
        self.cards: list[object] = []
        self.action: list[object] = []

    def count(self) -> int:
        return len(self.action_index)

    def truncate(self, n: int) -> None:
        for s in (self.street, self.actor, self.kind):
            s.truncate(n)
        for c in (self.action_index, self.cards, self.action, self.amount, self.to, self.pot_before, self.to_call, self.min_to,
                  self.max_to, self.all_in):
            del c[n:]


class FindingsTable(Table):
    def __init__(self) -> None:
        super().__init__()
        self.finding_index: list[object] = []
        self.code = Strings()
        self.severity = Strings()
        self.action_index: list[object] = []
        self.actor = Strings()
        self.rule = Strings()
        self.message: list[object] = []
        self.ruling = Strings()
        self.line: list[object] = []
        self.column: list[object] = []

    def count(self) -> int:
        return len(self.finding_index)

    def truncate(self, n: int) -> None:
        for s in (self.code, self.severity, self.actor, self.rule, self.ruling):
            s.truncate(n)
        for c in (self.finding_index, self.message, self.action_index, self.line, self.column):
            del c[n:]


class PotsTable(Table):
    def __init__(self) -> None:
        super().__init__()
        self.pot_index: list[object] = []
        self.amount: list[object] = []
        self.eligible: list[object] = []
        self.winners: list[object] = []
        self.awards: list[object] = []
        self.determined: list[object] = []
        self.reason = Strings()
        self.rake: list[object] = []

    def count(self) -> int:
        return len(self.pot_index)

    def truncate(self, n: int) -> None:
        self.reason.truncate(n)
        for c in (self.pot_index, self.amount, self.eligible, self.winners, self.awards, self.determined,
                  self.rake):
            del c[n:]


class PlayersTable(Table):
    def __init__(self) -> None:
        super().__init__()
        self.player: list[object] = []
        self.name = Strings()
        self.seat: list[object] = []
        self.starting_stack: list[object] = []
        self.ante: list[object] = []
        self.blind: list[object] = []
        self.put_in: list[object] = []
        self.returned: list[object] = []
        self.contributed: list[object] = []
        self.received: list[object] = []
        self.finishing_computed: list[object] = []
        self.finishing_recorded: list[object] = []
        self.winnings_recorded: list[object] = []
        self.net: list[object] = []
        self.folded: list[object] = []
        self.all_in: list[object] = []
        self.hole_cards: list[object] = []

    def count(self) -> int:
        return len(self.player)

    def truncate(self, n: int) -> None:
        self.name.truncate(n)
        for c in (self.player, self.hole_cards, self.seat, self.starting_stack, self.ante, self.blind, self.put_in, self.returned,
                  self.contributed, self.received, self.finishing_computed, self.finishing_recorded,
                  self.winnings_recorded, self.net, self.folded, self.all_in):
            del c[n:]


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
        self.batch_rows = batch_rows

    def end_hand(self, source: str, hand_key: str, hand_index: int, scale: int | None) -> bool:
        """The hand's rows are all added; True when some table has ``batch_rows`` rows (time for
        the writer to take them)."""
        due = False
        for table in self.tables:
            table.end_hand(source, hand_key, hand_index, scale)
            if table.rows >= self.batch_rows:
                due = True
        return due

    def rollback(self) -> None:
        for table in self.tables:
            table.rollback()
