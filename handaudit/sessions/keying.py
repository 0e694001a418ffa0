"""Which hands make one table session, in what order, and what breaks a session.

A session is keyed by ``(venue, table, event)`` (the PHH fields; ``event`` names a tournament)
across every input: a table's hands may be spread over several files. A hand without a
``table`` field belongs to no session (nothing says which table it was played at).

Within a key the hands are ordered by their hand number (the ``hand`` field's trailing integer,
after the text before it: ``R5-1704660-533``), then by time, then by input position. A new
session begins (``began``) when:

- ``numbering``: the text before the number changes (another numbering series);
- ``time-gap``: more than ``gap_minutes`` (default 60) pass between two hands;
- ``table-reused``: the clock goes back by more than a minute in number order (the same table
  name used again later with other numbers, e.g. another day's table of the same name);
- ``new-players``: fewer than half the players of the smaller of two hands are in the other (a
  table name reused at once, or hands of several tables under one name).
"""

from __future__ import annotations

from .record import HandRecord

GAP_MINUTES = 60
_BACK_TOLERANCE_US = 60 * 1_000_000

FIRST = "first"
NUMBERING = "numbering"
TIME_GAP = "time-gap"
TABLE_REUSED = "table-reused"
NEW_PLAYERS = "new-players"


def table_key(r: HandRecord) -> tuple[str, str, str] | None:
    """The session key, or None for a hand without a table."""
    if r.table is None or r.table == "":
        return None
    return (r.venue or "", r.table, r.event or "")


def bucket_key(r: HandRecord) -> tuple[str, str]:
    """What must be checked together: a tournament's tables (players move between them), else
    one table. The pass partitions by this key (on disk, or over Dask's workers)."""
    if r.event:
        return (r.venue or "", "\x00" + r.event)
    return (r.venue or "", r.table or "")


def order_key(r: HandRecord) -> tuple:
    return (r.prefix, -1 if r.number is None else r.number, -1 if r.when is None else r.when, r.source,
            r.hand_index)


def split_sessions(hands: list[HandRecord], gap_minutes: int = GAP_MINUTES) -> list[tuple[str, list[HandRecord]]]:
    """One key's hands (any order) -> its sessions in order, each with why it began."""
    hands = sorted(hands, key=order_key)
    gap = gap_minutes * 60 * 1_000_000
    sessions: list[tuple[str, list[HandRecord]]] = []
    current: list[HandRecord] = []
    began = FIRST
    for r in hands:
        if current:
            prev = current[-1]
            why = ""
            if r.prefix != prev.prefix:
                why = NUMBERING
            elif r.when is not None and prev.when is not None and r.when - prev.when > gap:
                why = TIME_GAP
            elif r.when is not None and prev.when is not None and r.when + _BACK_TOLERANCE_US < prev.when:
                why = TABLE_REUSED
            elif r.names and prev.names and 2 * len(set(r.names) & set(prev.names)) < min(len(r.names),
                                                                                         len(prev.names)):
                why = NEW_PLAYERS
            if why:
                sessions.append((began, current))
                current = []
                began = why
        current.append(r)
    if current:
        sessions.append((began, current))
    return sessions
