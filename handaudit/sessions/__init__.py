"""The cross-hand pass: a table's story, checked hand after hand.

After the per-hand audit has written its Parquet report, the pass reads the report back part by
part (``extract``), keys every hand with a ``table`` field into a table session (``keying``:
venue, table, event; hand-number and time order; broken by a time gap or a reused table name),
checks each session's consecutive hands against each other (``checks``: stacks carried over,
missing hands, the button or big blind moving as the rulebook's ``button_rule`` says, players
back from missing the blinds or new to the table posting what ``missed_blinds`` and
``new_player_posts`` require, seat changes, tournament levels and table moves), and writes four
tables beside the per-hand ones (``tables``: ``sessions``, ``session_hands``, ``session_players``,
``session_findings``). ``stage`` partitions the report by session key (in memory, or on disk
for a large report) so that memory stays flat.

The per-hand loop is untouched: the pass reads only the report.
"""

from __future__ import annotations

from .stage import SessionsResult, audit_sessions
from .tables import read_session_table

__all__ = ["SessionsResult", "audit_sessions", "read_session_table"]
