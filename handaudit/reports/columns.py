"""The report tables' columns by name, in order: the one list the row builders and the schema share.

:mod:`handaudit.reports.rows` builds each row with a function whose parameters are these names
(called by keyword, so each value is put under its name), and :mod:`handaudit.reports.schema`
gives each name its Arrow type and meaning, checked against this order at import. Light (no
pyarrow): a JSONL run imports it through the row builders' tests only.
"""

from __future__ import annotations

from typing import Final

from .layout import TABLE_NAMES

KEY: Final = ("source", "hand_key", "hand_index")

COLUMNS: Final[dict[str, tuple[str, ...]]] = {
    "hands": KEY + (
        "line", "hand", "variant", "rulebook", "status", "complete", "players", "actions", "scale",
        "findings", "errors", "warnings", "infos", "first_error", "determined", "pots", "pot_total",
        "payout_check", "rake", "rake_check", "currency", "currency_symbol", "venue", "table", "event", "seat_count", "level",
        "date", "time", "time_zone", "timestamp", "blinds_or_straddles", "antes", "bring_in", "small_bet",
        "big_bet", "min_bet"),
    "actions": KEY + (
        "action_index", "street", "actor", "kind", "amount", "to", "pot_before", "to_call", "min_to",
        "max_to", "all_in", "cards", "action", "scale"),
    "findings": KEY + (
        "finding_index", "code", "severity", "action_index", "actor", "rule", "message", "ruling",
        "line", "column"),
    "pots": KEY + (
        "pot_index", "amount", "eligible", "winners", "awards", "determined", "reason", "rake", "scale"),
    "players": KEY + (
        "player", "name", "seat", "starting_stack", "ante", "blind", "put_in", "returned",
        "contributed", "received", "finishing_computed", "finishing_recorded", "winnings_recorded",
        "net", "net_recorded", "folded", "all_in", "hole_cards", "scale"),
}

# The fields of each award in the pots table's ``awards`` list, in order: the row builder buffers
# an award as a tuple of these (schema checks its struct has them, in this order).
AWARD_FIELDS: Final = ("player", "won", "share", "hand")

if tuple(COLUMNS) != TABLE_NAMES:
    raise ImportError("reports.columns: COLUMNS must list the tables of layout.TABLE_NAMES, in order")
