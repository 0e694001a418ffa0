"""The cross-hand pass's four report tables (``sessions``, ``session_hands``,
``session_players``, ``session_findings``): their schemas, their rows, and their part files.

They sit beside the per-hand tables in the report directory (``DIR/sessions/part-*.parquet``)
and are read the same way (``handaudit.sessions.read_session_table``, pandas, DuckDB). Amounts
are exact ``int64`` at the session's ``scale`` (the largest scale among its hands).
"""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ..reports.layout import PART_PREFIX, SESSION_TABLES, part_files
from .checks import Session
from .keying import FIRST

_S = pa.string()

SCHEMAS: dict[str, pa.Schema] = {
    "sessions": pa.schema([
        ("session", _S), ("venue", _S), ("table", _S), ("event", _S), ("began", _S),
        ("first_source", _S), ("first_hand_index", pa.int64()), ("first_hand", _S),
        ("last_source", _S), ("last_hand_index", pa.int64()), ("last_hand", _S),
        ("hands", pa.int32()), ("players", pa.int32()), ("gaps", pa.int32()), ("findings", pa.int32()),
        ("errors", pa.int32()), ("scale", pa.int8()),
    ]),
    "session_hands": pa.schema([
        ("session", _S), ("position", pa.int32()), ("source", _S), ("hand_index", pa.int64()), ("hand", _S),
    ]),
    "session_players": pa.schema([
        ("session", _S), ("player", _S), ("hands", pa.int32()), ("net", pa.int64()), ("net_unknown", pa.int32()),
        ("rake", pa.int64()), ("first_stack", pa.int64()), ("last_stack", pa.int64()),
        ("seats", pa.list_(pa.int16())), ("scale", pa.int8()),
    ]),
    "session_findings": pa.schema([
        ("session", _S), ("source", _S), ("hand_key", _S), ("hand_index", pa.int64()), ("hand", _S),
        ("code", _S), ("severity", _S), ("player", _S), ("seat", pa.int16()), ("rule", _S), ("message", _S),
        ("earlier_source", _S), ("earlier_hand_index", pa.int64()), ("earlier_hand", _S),
    ]),
}
assert tuple(SCHEMAS) == SESSION_TABLES

DOCS = {
    "sessions": "One row per table session: keyed (venue, table, event), in hand-number and time order; "
                "`began` says why it began (first, numbering, time-gap, table-reused, new-players); `gaps` "
                "counts the hands found missing.",
    "session_hands": "One row per hand of each session, in the session's order (`position` from 0): join "
                     "the per-hand tables on (`source`, `hand_index`) to follow a table hand by hand.",
    "session_players": "One row per player of each session: hands dealt in, net (the sum over the hands "
                       "whose net is determined; `net_unknown` counts the others), rake paid (each pot's rake "
                       "shared among its winners by what they won), first and last stack.",
    "session_findings": "One row per cross-hand finding, at the later hand (`source`, `hand_index`), "
                        "naming the earlier one (`earlier_source`, `earlier_hand_index`).",
}


class Rows:
    """The four tables' rows as columns, written as a part every ``part_rows`` sessions."""

    def __init__(self) -> None:
        self.cols: dict[str, dict[str, list]] = {t: {f.name: [] for f in s} for t, s in SCHEMAS.items()}
        self.sessions = 0

    def add(self, s: Session) -> None:
        self.sessions += 1
        first, last = s.hands[0], s.hands[-1]
        c = self.cols["sessions"]
        value: object
        errors = sum(1 for f in s.findings if f.severity == "error")
        for name, value in (("session", s.id), ("venue", s.venue), ("table", s.table), ("event", s.event),
                            ("began", s.began or FIRST), ("first_source", first.source),
                            ("first_hand_index", first.hand_index), ("first_hand", first.hand),
                            ("last_source", last.source), ("last_hand_index", last.hand_index),
                            ("last_hand", last.hand), ("hands", len(s.hands)), ("players", len(s.players)),
                            ("gaps", s.gaps), ("findings", len(s.findings)), ("errors", errors),
                            ("scale", s.scale)):
            c[name].append(value)
        h = self.cols["session_hands"]
        for k, r in enumerate(s.hands):
            h["session"].append(s.id)
            h["position"].append(k)
            h["source"].append(r.source)
            h["hand_index"].append(r.hand_index)
            h["hand"].append(r.hand)
        p = self.cols["session_players"]
        for t in s.players.values():
            for name, value in (("session", s.id), ("player", t.name), ("hands", t.hands), ("net", t.net),
                                ("net_unknown", t.unknown), ("rake", t.rake), ("first_stack", t.first_stack),
                                ("last_stack", t.last_stack), ("seats", t.seats), ("scale", s.scale)):
                p[name].append(value)
        f = self.cols["session_findings"]
        for x in s.findings:
            e = x.earlier
            for name, value in (("session", s.id), ("source", x.hand.source), ("hand_key", x.hand.hand_key),
                                ("hand_index", x.hand.hand_index), ("hand", x.hand.hand), ("code", x.code),
                                ("severity", x.severity), ("player", x.player), ("seat", x.seat), ("rule", x.rule),
                                ("message", x.message), ("earlier_source", e.source if e else None),
                                ("earlier_hand_index", e.hand_index if e else None),
                                ("earlier_hand", e.hand if e else None)):
                f[name].append(value)

    def table(self, name: str) -> pa.Table:
        return pa.table(self.cols[name], schema=SCHEMAS[name])

    def clear(self) -> None:
        for cols in self.cols.values():
            for column in cols.values():
                column.clear()
        self.sessions = 0


class Writer:
    """Part files of the four tables: ``DIR/<table>/part-<tag>-<seq>.parquet``, written under a
    hidden temporary name and renamed once whole (as the per-hand parts are)."""

    def __init__(self, out_dir: str | os.PathLike, tag: str, metadata: dict | None = None) -> None:
        self.out_dir = Path(out_dir)
        self.tag = tag
        self.seq = 0
        self.rows = {t: 0 for t in SESSION_TABLES}
        self.files = {t: 0 for t in SESSION_TABLES}
        self.metadata = {k.encode(): str(v).encode() for k, v in (metadata or {}).items()}
        for t in SESSION_TABLES:
            (self.out_dir / t).mkdir(exist_ok=True)

    def _part(self, t: str, table: pa.Table) -> None:
        name = f"{PART_PREFIX}{self.tag}-{self.seq}.parquet"
        tmp = self.out_dir / t / f".{name}.tmp"
        pq.write_table(table.replace_schema_metadata({**(table.schema.metadata or {}), **self.metadata}), tmp)
        os.replace(tmp, self.out_dir / t / name)
        self.rows[t] += table.num_rows
        self.files[t] += 1

    def write(self, rows: Rows) -> None:
        for t in SESSION_TABLES:
            table = rows.table(t)
            if table.num_rows:
                self._part(t, table)
        self.seq += 1
        rows.clear()

    def finish(self, counts: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        """Give a table no bucket wrote an empty part (it reads with its schema); the counts."""
        out = {}
        for t in SESSION_TABLES:
            c = dict(counts.get(t, {"files": 0, "rows": 0}))
            if c["files"] == 0:
                self.seq = 0
                self.tag = self.tag + "-empty" if not self.tag.endswith("-empty") else self.tag
                self._part(t, SCHEMAS[t].empty_table())
                c["files"] = 1
            out[t] = c
        return out


def read_session_table(out_dir: str | os.PathLike, table: str) -> pa.Table:
    """One of the pass's tables, all its parts (empty, with its schema, when the pass did not run)."""
    if table not in SCHEMAS:
        raise ValueError(f"unknown table {table!r}; the cross-hand pass writes {', '.join(SESSION_TABLES)}")
    files = part_files(out_dir, table)
    if not files:
        return SCHEMAS[table].empty_table()
    return pa.concat_tables([pq.read_table(f, schema=SCHEMAS[table]) for f in files])
