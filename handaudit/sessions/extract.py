"""The pass's records read back from a finished Parquet report, one part at a time.

The report's writers finish the parts of every table at once (``reports/parquet.py``), so the
``hands``, ``players`` and ``pots`` parts of one name hold the same hands: each part is read
and turned into records on its own, only the columns the checks need, and never the whole
report at once.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..core.variants import VARIANTS
from ..reports.layout import part_files
from .record import EVENT_KINDS, HandRecord, TableEvent

HAND_COLUMNS = ["source", "hand_index", "hand_key", "hand", "variant", "status", "scale", "venue", "table", "event",
                "seat_count", "level", "date", "time", "timestamp", "blinds_or_straddles", "pot_total", "rake"]
PLAYER_COLUMNS = ["source", "hand_index", "player", "name", "seat", "starting_stack", "finishing_computed",
                  "finishing_recorded", "net", "received"]
POT_COLUMNS = ["source", "hand_index", "rake", "awards"]
# What a site log says happened at the table before a hand, once an importer writes it (issue
# #39a): ``table_events`` (list<struct<kind: string, player: string, amount: int64>>, the kinds
# of record.EVENT_KINDS, amounts at the hand's scale) and ``max_buy_in`` (int64). Read when a
# part has them; PHH has no field for either.
OPTIONAL_COLUMNS = ["table_events", "max_buy_in"]
_DAY_US = 86_400_000_000


def _ints(column: pa.ChunkedArray | pa.Array) -> list:
    """A date, time or timestamp column as integers (days, microseconds), nulls kept."""
    t = column.type
    if pa.types.is_date32(t):
        return pc.cast(column, pa.int32()).to_pylist()
    if pa.types.is_time64(t) or pa.types.is_timestamp(t):
        return pc.cast(column, pa.int64()).to_pylist()
    return column.to_pylist()


def _button_game(code: str | None) -> bool:
    v = VARIANTS.get(code) if code else None
    return True if v is None else bool(v.button_game)


BATCH_HANDS = 5_000  # hands read at once from a part (a part may hold some 200,000)


class _Follower:
    """The rows of a child table (players, pots) of one part, taken batch by batch in step with
    the part's hands: the writer appends a hand's child rows in the hands' order, so the rows of
    a batch of hands are the next rows whose hand is in the batch."""

    def __init__(self, path: str | os.PathLike | None, columns: list[str]) -> None:
        self.batches = pq.ParquetFile(path).iter_batches(batch_size=16_384, columns=columns) if path else None
        self.schema: pa.Schema | None = None
        self.pending: pa.RecordBatch | None = None
        self.keys: list[tuple[str, int]] = []
        self.pos = 0

    def take(self, keys: set[tuple[str, int]]) -> pa.Table | None:
        if self.batches is None:
            return None
        out: list[pa.RecordBatch] = []
        while True:
            if self.pending is None or self.pos >= len(self.keys):
                self.pending = next(self.batches, None)
                if self.pending is None:
                    break
                self.schema = self.pending.schema
                self.keys = list(zip(self.pending.column("source").to_pylist(),
                                     self.pending.column("hand_index").to_pylist(), strict=True))
                self.pos = 0
            start = self.pos
            while self.pos < len(self.keys) and self.keys[self.pos] in keys:
                self.pos += 1
            if self.pos > start:
                out.append(self.pending.slice(start, self.pos - start))
            if self.pos < len(self.keys):
                break  # the next row is a later batch's
        if not out:
            return None
        return pa.Table.from_batches(out)

    def left(self) -> bool:
        """Rows no batch of hands took (the part's rows are not in its hands' order)."""
        if self.batches is None:
            return False
        return self.pos < len(self.keys) or next(self.batches, None) is not None


def read_part(hands_file: str | os.PathLike, players_file: str | os.PathLike | None,
              pots_file: str | os.PathLike | None) -> Iterator[tuple[list[HandRecord], int]]:
    """The records of one part's readable hands, ``BATCH_HANDS`` at a time, and how many hands
    were unreadable (they have no session). Pyarrow errors propagate (the caller names the file)."""
    present = set(pq.ParquetFile(hands_file).schema_arrow.names)
    extra = [c for c in OPTIONAL_COLUMNS if c in present]
    players = _Follower(players_file, PLAYER_COLUMNS)
    pots = _Follower(pots_file, POT_COLUMNS)
    for batch in pq.ParquetFile(hands_file).iter_batches(batch_size=BATCH_HANDS, columns=HAND_COLUMNS + extra):
        h = pa.Table.from_batches([batch])
        keys = set(zip(h["source"].to_pylist(), h["hand_index"].to_pylist(), strict=True))
        yield _records(h, extra, players.take(keys), pots.take(keys))
    if players.left() or pots.left():
        raise ValueError(f"{players_file}: rows that follow no hand of {hands_file} in order")


def _records(h: pa.Table, extra: list[str], players: pa.Table | None,
             pots: pa.Table | None) -> tuple[list[HandRecord], int]:
    readable = pc.not_equal(h["status"], "unreadable")
    dropped = h.num_rows
    h = h.filter(readable)
    dropped -= h.num_rows
    if h.num_rows == 0:
        return [], dropped
    cols = {name: h[name].to_pylist() for name in HAND_COLUMNS if name not in ("date", "time", "timestamp")}
    dates, times, stamps = _ints(h["date"]), _ints(h["time"]), _ints(h["timestamp"])
    events = h["table_events"].to_pylist() if "table_events" in extra else None
    buy_ins = h["max_buy_in"].to_pylist() if "max_buy_in" in extra else None
    records: dict[tuple[str, int], HandRecord] = {}
    out: list[HandRecord] = []
    for k in range(h.num_rows):
        when = stamps[k]
        if when is None and dates[k] is not None and times[k] is not None:
            when = dates[k] * _DAY_US + times[k]  # the venue's clock (no zone known)
        source, index = cols["source"][k], cols["hand_index"][k]
        hand = cols["hand"][k]
        r = HandRecord(source, index, hand_key=cols["hand_key"][k], hand=hand, venue=cols["venue"][k],
                       table=cols["table"][k], event=cols["event"][k], when=when,
                       button_game=_button_game(cols["variant"][k]), level=cols["level"][k],
                       scale=cols["scale"][k] or 0, blinds=[b or 0 for b in (cols["blinds_or_straddles"][k] or [])],
                       seat_count=cols["seat_count"][k], status=cols["status"][k], names=[])
        r.starts, r.finishes, r.nets, r.rake, r.computed, r.received = [], [], [], [], [], []
        r.pot = cols["pot_total"][k] or 0
        if events is not None and events[k]:
            r.events = [TableEvent(e["kind"], e["player"], e["amount"] or 0) for e in events[k]
                        if e and e.get("kind") in EVENT_KINDS and e.get("player") is not None]
        if buy_ins is not None:
            r.max_buy_in = buy_ins[k]
        r.rake_known = cols["rake"][k] is not None
        records[(source, index)] = r
        out.append(r)
    if players is not None:
        _players(records, players)
    if pots is not None:
        _rake(records, pots)
    for r in out:
        r.normalize()
        if not any(r.rake):
            continue
        for i in range(r.n):  # the settled finish is before the rake: take what the player paid off
            f = r.finishes[i]
            if r.computed[i] and f is not None and r.rake[i]:
                r.finishes[i] = f - r.rake[i]
    return out, dropped


def _players(records: dict[tuple[str, int], HandRecord], p: pa.Table) -> None:
    """Each hand's players, as slices of the part's columns (the rows of a hand are consecutive
    once sorted; the writer appends them in that order already)."""
    if p.num_rows == 0:
        return
    p = p.sort_by([("source", "ascending"), ("hand_index", "ascending"), ("player", "ascending")])
    sources, indexes, players = p["source"].to_pylist(), p["hand_index"].to_pylist(), p["player"].to_pylist()
    names, seats = p["name"].to_pylist(), p["seat"].to_pylist()
    starts, computed = p["starting_stack"].to_pylist(), p["finishing_computed"].to_pylist()
    recorded, nets = p["finishing_recorded"].to_pylist(), p["net"].to_pylist()
    received = p["received"].to_pylist()
    n = len(indexes)
    a = 0
    while a < n:
        b = a + 1
        index, source = indexes[a], sources[a]
        while b < n and indexes[b] == index and sources[b] == source:
            b += 1
        r = records.get((source, index))
        if r is not None:
            hand_names = names[a:b]
            if None in hand_names:
                hand_names = [x if x is not None else f"p{players[a + j]}" for j, x in enumerate(hand_names)]
            r.names = hand_names
            hand_seats = seats[a:b]
            r.seats = hand_seats if None not in hand_seats else []  # seats unknown for some player
            r.starts = starts[a:b]
            rec = recorded[a:b]
            r.computed = [x is None for x in rec]
            r.finishes = rec if True not in r.computed else [
                x if x is not None else c for x, c in zip(rec, computed[a:b], strict=True)]
            r.received = [x or 0 for x in received[a:b]]
            r.nets = nets[a:b]
            r.rake = [0] * (b - a)
        a = b


def _rake(records: dict[tuple[str, int], HandRecord], pots: pa.Table) -> None:
    """Each pot's rake shared among its winners in proportion to what they won (the odd units to
    the first winner): the rake each player paid."""
    sources, indexes = pots["source"].to_pylist(), pots["hand_index"].to_pylist()
    rakes, awards = pots["rake"].to_pylist(), pots["awards"].to_pylist()
    for k in range(pots.num_rows):
        rake = rakes[k]
        if not rake:
            continue
        r = records.get((sources[k], indexes[k]))
        if r is None or not awards[k]:
            continue
        won = [(a["player"], a["won"] or 0) for a in awards[k] if a["player"] is not None]
        total = sum(w for _, w in won)
        if total <= 0:
            continue
        shares = [(p, rake * w // total) for p, w in won]
        odd = rake - sum(s for _, s in shares)
        for j, (p, share) in enumerate(shares):
            i = p - 1
            if 0 <= i < len(r.rake):
                r.rake[i] += share + (odd if j == 0 else 0)


def read_report(out_dir: str | os.PathLike) -> Iterator[tuple[list[HandRecord], int]]:
    """Each batch of each part of the report's ``hands`` table (its records, its unreadable hands), with its players and
    pots; a part that cannot be read raises ``pa.ArrowException``/``OSError`` naming nothing (the
    caller says which)."""
    players = {f.name: f for f in part_files(out_dir, "players")}
    pots = {f.name: f for f in part_files(out_dir, "pots")}
    for f in part_files(out_dir, "hands"):
        yield from read_part(f, players.get(f.name), pots.get(f.name))
