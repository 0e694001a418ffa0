"""The Parquet audit report: the five tables, every column, its Arrow type and its meaning.

This module is the single definition of the report's column types and meanings, in the order of
:data:`handaudit.reports.columns.COLUMNS` (checked at import; the row builders share that order):
the writer builds its record batches from :data:`TABLES`, and ``docs/report-schema.md`` is
generated from it (``python -m handaudit.reports.schema > docs/report-schema.md``; a test keeps
them in step).

Amounts are exact: ``int64`` counts of the hand's smallest unit, with the hand's ``scale``
(number of decimal places) on the same row, so an amount ``a`` means ``a / 10**scale`` of the
hand's chips or currency (``2685`` at scale ``2`` is ``26.85``). No column is a float.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pyarrow as pa

from .columns import AWARD_FIELDS, COLUMNS
from .layout import TABLE_NAMES

SCHEMA_VERSION = "3"  # 2: awards.amount is awards.won; 3: hands has venue ... min_bet


@dataclass(frozen=True)
class Column:
    name: str
    type: pa.DataType
    doc: str
    nullable: bool = True


def _c(name, type_, doc, nullable=True) -> Column:
    return Column(name, type_, doc, nullable)


_KEY = [
    _c("source", pa.string(), "The input path as given on the command line (directories expanded; `-` for standard input). "
       "A path that is not printable text is escaped, so the column is valid UTF-8 on one line: a byte of the name "
       "that is not UTF-8 and a control character as `\\xNN` (`bad\\xff.phh`), a C1 control, U+2028 or U+2029 as "
       "`\\uNNNN`, a backslash as `\\\\` (README, *File names in reports*).", False),
    _c("hand_key", pa.string(), "The hand's table name in a `.phhs` file (`\"12\"`); `\"\"` for a `.phh` file. Not unique in a broken file: use `hand_index`.", False),
    _c("hand_index", pa.int64(), "0-based position of the hand in its source file. `(source, hand_index)` identifies a hand; join the tables on it.", False),
]
_SCALE = _c("scale", pa.int8(), "Decimal places of this hand's amounts: an amount `a` is `a / 10**scale` chips or currency units. The currency's ISO 4217 minor units (0 for chips), more only when the hand needs finer.")

_AWARD = pa.struct([
    pa.field("player", pa.int16()),
    pa.field("won", pa.int64()),  # not "amount": pots has an amount column (explode + unnest, polars)
    pa.field("share", pa.string()),
    pa.field("hand", pa.string()),
])

TABLES: dict[str, list[Column]] = {
    "hands": _KEY + [
        _c("line", pa.int32(), "1-based line of the source file where the hand's text starts."),
        _c("hand", pa.string(), "The PHH `hand` field (as text), or null."),
        _c("variant", pa.string(), "PHH variant code (`NT`, `FO/8`, ...); for an unreadable hand, the `variant` written in its text if any."),
        _c("rulebook", pa.string(), "The rulebook the hand was audited under (`tda-2026`, ...).", False),
        _c("status", pa.string(), "`valid` (no finding of severity error), `invalid`, or `unreadable` (the hand could not be read; see `findings`).", False),
        _c("complete", pa.bool_(), "True when the history reaches the end of the hand.", False),
        _c("players", pa.int16(), "Number of players (null when unreadable)."),
        _c("actions", pa.int32(), "Number of entries in the hand's `actions` array (null when unreadable)."),
        _SCALE,
        _c("findings", pa.int32(), "Number of findings of any severity for this hand (rows in `findings`).", False),
        _c("errors", pa.int32(), "Number of findings of severity `error`.", False),
        _c("warnings", pa.int32(), "Number of findings of severity `warning`.", False),
        _c("infos", pa.int32(), "Number of findings of severity `info`.", False),
        _c("first_error", pa.string(), "Code of the hand's first error finding, or null."),
        _c("determined", pa.bool_(), "False when winners cannot be computed (hidden cards at showdown, incomplete hand); null when there is no settlement."),
        _c("pots", pa.int16(), "Number of pots (main pot plus side pots; rows in `pots`); null when there is no settlement."),
        _c("pot_total", pa.int64(), "Sum of all pot amounts (minor units), after uncalled chips are returned; null when there is no settlement."),
        _c("payout_check", pa.string(), "`match`, `mismatch`, `not-recorded` or `undetermined`: the recorded finishing stacks and winnings against the settlement; null when unreadable."),
        _c("rake", pa.int64(), "Pot total minus recorded winnings (minor units), when winnings are recorded (net; gross winnings: plus the returns); with finishing stacks only, the rake they show when the rake model explains them; else null."),
        _c("rake_check", pa.string(), "The rake model's verdict on the recorded payouts: `exact` (a rake structure is set and each payout is exactly the winner's share of the raked pots), `explained` (no structure set: some rake per pot within `rake_limit_percent` explains every payout), `unexplained` (a payout mismatch), or null (nothing recorded, or winners not determined)."),
        _c("currency", pa.string(), "The hand's currency as an ISO 4217 code: the PHH `currency` field (`usd` read as `USD`), else the code of its `currency_symbol` (`$` is `USD`, `\u20ac` `EUR`, `\u00a3` `GBP`); a text that is neither a code nor a known symbol as written; null for chips. Every hand of one currency has the same `scale` (its ISO 4217 minor units) unless one needs finer. The run's summary gives the rake per currency."),
        _c("currency_symbol", pa.string(), "The PHH `currency_symbol` field as written (`$`), or null."),
        _c("venue", pa.string(), "The PHH `venue` field (the site or card room, `PokerStars`), or null."),
        _c("table", pa.string(), "The PHH `table` field (as text), or null. A keyword in SQL: quote it (`\"table\"` in DuckDB)."),
        _c("event", pa.string(), "The PHH `event` field (a tournament or event name), or null."),
        _c("seat_count", pa.int16(), "The PHH `seat_count` field (seats at the table, occupied or not), or null."),
        _c("level", pa.int32(), "The PHH `level` field (a tournament's blind level), or null."),
        _c("date", pa.date32(), "The date the hand was played, from the PHH `year`, `month` and `day` fields (as the file gives it, local to the venue); null if one is missing or the date is impossible."),
        _c("time", pa.time64("us"), "The PHH `time` field: the local time of day the hand began, in `time_zone`; null if not given."),
        _c("time_zone", pa.string(), "The PHH `time_zone` field (an IANA name, `America/Toronto`), else `time_zone_abbreviation` (`EDT`), or null."),
        _c("timestamp", pa.timestamp("us", tz="UTC"), "When the hand began, in UTC: `date` and `time` read in `time_zone` (an IANA name, or a common abbreviation as a fixed offset; UTC when the file names no zone and no venue location). Null when the date or time is missing, or the zone is unknown or ambiguous (`IST`), or the file gives only the venue's city (its zone is not known to us), or the instant falls outside the years 1 to 9999 in UTC."),
        _c("blinds_or_straddles", pa.list_(pa.int64()), "The PHH `blinds_or_straddles` field, per player in PHH order (minor units; `0` for none); null when unreadable."),
        _c("antes", pa.list_(pa.int64()), "The PHH `antes` field, per player in PHH order (minor units); null when unreadable."),
        _c("bring_in", pa.int64(), "The PHH `bring_in` field (stud variants; minor units), or null."),
        _c("small_bet", pa.int64(), "The PHH `small_bet` field (fixed-limit variants; minor units), or null."),
        _c("big_bet", pa.int64(), "The PHH `big_bet` field (fixed-limit variants; minor units), or null."),
        _c("min_bet", pa.int64(), "The PHH `min_bet` field (no-limit and pot-limit variants; minor units), or null."),
    ],
    "actions": _KEY + [
        _c("action_index", pa.int32(), "0-based index into the hand's `actions` array (the `action_index` of findings).", False),
        _c("street", pa.string(), "The betting round or dealing street the action belongs to (as named by the replay, e.g. `preflop`, `flop`), or null."),
        _c("actor", pa.string(), "`p3` for player 3, `d` for the dealer, null for a no-op (empty or commentary-only action)."),
        _c("kind", pa.string(), "What the action turned out to be once replayed: `deal-hole`, `deal-board`, `bring-in`, `complete`, `bet`, `raise`, `check`, `call`, `fold`, `discard`, `stand-pat`, `show`, `muck`, `no-op`.", False),
        _c("amount", pa.int64(), "Chips this action put in (a call's or raise's added chips); null when none."),
        _c("to", pa.int64(), "For bets, raises and completions: the total the player's bet in this round was brought to (as ruled); else null."),
        _c("pot_before", pa.int64(), "All chips in the middle before the action (antes, blinds, earlier bets)."),
        _c("to_call", pa.int64(), "Chips the actor needed to call when acting (0: checking was free); null for dealer actions."),
        _c("min_to", pa.int64(), "Smallest legal bet/raise-to for the actor at that moment; null when the actor could not bet or raise."),
        _c("max_to", pa.int64(), "Largest legal bet/raise-to (limit, pot limit or stack); null when the actor could not bet or raise, or when it is unbounded (an `inf` starting stack in no-limit)."),
        _c("all_in", pa.bool_(), "True when the action put the actor all in."),
        _c("cards", pa.string(), "Cards in the notation (dealt, discarded or shown), `??` for unknown; null when the action has none."),
        _c("action", pa.string(), "The action exactly as written in the file (commentary included).", False),
        _SCALE,
    ],
    "findings": _KEY + [
        _c("finding_index", pa.int32(), "0-based order of the finding within its hand (reader's, then replay's, then settlement's).", False),
        _c("code", pa.string(), "The finding code (`out-of-turn`, `syntax-error`, ...; see `handaudit rulebooks` / the README).", False),
        _c("severity", pa.string(), "`error`, `warning` or `info`.", False),
        _c("action_index", pa.int32(), "0-based index of the action concerned in the hand's `actions` array, or null."),
        _c("actor", pa.string(), "`p3`, `d`, or null."),
        _c("rule", pa.string(), "The rule cited (e.g. `TDA 2026 Rule 45`), or null."),
        _c("message", pa.string(), "What is wrong, in one sentence.", False),
        _c("ruling", pa.string(), "What the rulebook makes of the irregular action, or null."),
        _c("line", pa.int32(), "1-based line in the source file (reading findings), or null."),
        _c("column", pa.int32(), "1-based column in that line, or null."),
    ],
    "pots": _KEY + [
        _c("pot_index", pa.int16(), "0 for the main pot, 1.. for side pots in order.", False),
        _c("amount", pa.int64(), "Chips in the pot.", False),
        _c("eligible", pa.list_(pa.int16()), "PHH numbers of the players eligible to win the pot (`1` is `p1`)."),
        _c("winners", pa.list_(pa.int16()), "PHH numbers of the players awarded some of the pot (empty when not determined)."),
        _c("awards", pa.list_(_AWARD), "Each award: `player` (PHH number), `won` (minor units; not `amount`, so that the struct unnests beside the pot's own columns), `share` (`whole`, `high` or `low`), `hand` (the winning hand described, e.g. `two pair, kings and sevens`; null when uncontested)."),
        _c("determined", pa.bool_(), "The hand's `determined` flag (winners computable)."),
        _c("reason", pa.string(), "One line saying who won the pot and why (or why it is undetermined), as `handaudit settle` prints it; null if none."),
        _c("rake", pa.int64(), "The rake model's rake of this pot (minor units): the rulebook's rake structure when one is set, else the rake per pot that explains the recorded payouts; null when unknown (no structure and nothing recorded, or no rake explains the payouts)."),
        _SCALE,
    ],
    "players": _KEY + [
        _c("player", pa.int16(), "PHH player number (`1` is `p1`), in PHH player order.", False),
        _c("name", pa.string(), "The player's name from the PHH `players` field, or null."),
        _c("seat", pa.int16(), "The player's seat from the PHH `seats` field, or null."),
        _c("starting_stack", pa.int64(), "Starting stack; null for `inf` (an unknown stack)."),
        _c("ante", pa.int64(), "The player's `antes` entry."),
        _c("blind", pa.int64(), "The player's `blinds_or_straddles` entry (negative: a blind posted from outside the blind seats, as written)."),
        _c("put_in", pa.int64(), "Every chip the player put in (antes, blinds, bring-in, bets), before uncalled chips are returned; null without a replay."),
        _c("returned", pa.int64(), "Uncalled chips given back to the player."),
        _c("contributed", pa.int64(), "Chips the player left in the pots: `put_in - returned`."),
        _c("received", pa.int64(), "Chips the player received from pots (returns excluded); null when not determined."),
        _c("finishing_computed", pa.int64(), "Finishing stack as settled by handaudit; null when not determined or the starting stack is unknown."),
        _c("finishing_recorded", pa.int64(), "Finishing stack as recorded in the file (`finishing_stacks`), or null."),
        _c("winnings_recorded", pa.int64(), "Winnings as recorded in the file (`winnings`), or null."),
        _c("net", pa.int64(), "Net change as settled: `received - contributed` (= finishing minus starting stack); null when not determined."),
        _c("net_recorded", pa.int64(), "Net change as the file records it, to compare with `net`: `finishing_recorded - starting_stack`, else `winnings_recorded - contributed` (`winnings_recorded - put_in` when the file's winnings include the returns); null when the file records neither (or its winnings are all 0 although a pot was won)."),
        _c("folded", pa.bool_(), "The player folded."),
        _c("all_in", pa.bool_(), "The player ended the hand with no chips behind."),
        _c("hole_cards", pa.string(), "The player's final hole cards in the notation (`??` for unknown), or null."),
        _SCALE,
    ],
}


for _table, _columns in TABLES.items():
    if tuple(c.name for c in _columns) != COLUMNS[_table]:
        raise ImportError(f"reports.schema: the columns of {_table!r} are not reports.columns.COLUMNS[{_table!r}]")
if tuple(f.name for f in _AWARD) != AWARD_FIELDS:
    raise ImportError("reports.schema: the awards struct's fields are not reports.columns.AWARD_FIELDS")
if tuple(TABLES) != TABLE_NAMES:
    raise ImportError("reports.schema: TABLES must list the tables of layout.TABLE_NAMES, in order")


def schema(table: str) -> pa.Schema:
    """The Arrow schema of one report table (with each column's meaning as field metadata)."""
    return _SCHEMAS[table]


def stamped_metadata(table: str, metadata: dict) -> dict:
    """The key/value metadata of every part of a run: the table's own (the ``pandas`` key, the
    schema version) and the run's (each value as text). The part writers add it to the file
    themselves (they do not store the Arrow schema), so no schema need be made to carry it."""
    return {**_SCHEMAS[table].metadata, **{k: str(v) for k, v in metadata.items()}}


_PANDAS_INTS = {pa.int8(): "Int8", pa.int16(): "Int16", pa.int32(): "Int32", pa.int64(): "Int64"}


def pandas_metadata(columns: list[Column]) -> str:
    """The ``pandas`` key of a part's metadata, as pyarrow writes it for a DataFrame: it names a
    nullable dtype (``Int64``, ``boolean``) for each integer and boolean column, so that
    ``pandas.read_parquet(DIR / "hands")`` never turns an amount with a null into ``float64``.
    (Other columns are left to pyarrow's default conversion.)"""
    entries = []
    for c in columns:
        if c.type in _PANDAS_INTS:
            pandas_type, numpy_type = str(c.type), _PANDAS_INTS[c.type]
        elif c.type == pa.bool_():
            pandas_type, numpy_type = "bool", "boolean"
        else:
            continue
        entries.append({"name": c.name, "field_name": c.name, "pandas_type": pandas_type,
                        "numpy_type": numpy_type, "metadata": None})
    return json.dumps({"index_columns": [], "column_indexes": [], "columns": entries, "attributes": {},
                       "creator": {"library": "handaudit", "version": SCHEMA_VERSION},
                       "pandas_version": "2.0.0"}, separators=(",", ":"))


def _build(table: str) -> pa.Schema:
    fields = [pa.field(c.name, c.type, nullable=c.nullable, metadata={"doc": c.doc}) for c in TABLES[table]]
    return pa.schema(fields, metadata={"handaudit.table": table, "handaudit.schema_version": SCHEMA_VERSION,
                                       "pandas": pandas_metadata(TABLES[table])})


_SCHEMAS = {t: _build(t) for t in TABLE_NAMES}

_INTRO = {
    "hands": "One row per input hand, unreadable ones included: every input hand appears exactly once.",
    "actions": "One row per replayed action of each readable hand (`explain` shows the same rows).",
    "findings": "One row per finding (what is wrong with a hand, where, which rule, the ruling).",
    "pots": "One row per pot (main pot first, then side pots) of each settled hand.",
    "players": "One row per player of each readable hand: the money from start to finish.",
}


def _type_text(t: pa.DataType) -> str:
    if pa.types.is_list(t):
        return f"list<{_type_text(t.value_type)}>"
    if pa.types.is_struct(t):
        return "struct<" + ", ".join(f"{f.name}: {_type_text(f.type)}" for f in t) + ">"
    return {"string": "string", "large_string": "string", "bool": "bool"}.get(str(t), str(t))


def markdown() -> str:
    """docs/report-schema.md, generated from :data:`TABLES`."""
    out = [
        "# The Parquet audit report (`handaudit check --out DIR`)",
        "",
        "<!-- Generated by `python -m handaudit.reports.schema > docs/report-schema.md`; edit",
        "     handaudit/reports/schema.py, not this file. -->",
        "",
        "`DIR` holds one directory per table, each a set of Parquet part files written by the",
        "worker processes: `DIR/<table>/part-<worker>-<seq>.parquet`. Read a table as a whole",
        "directory (pandas, pyarrow) or with a glob (DuckDB, Polars):",
        "",
        "```python",
        "import pandas as pd, pyarrow.dataset as ds, duckdb, polars as pl",
        "pd.read_parquet(\"DIR/hands\")",
        "ds.dataset(\"DIR/actions\").to_table()",
        "duckdb.sql(\"select code, count(*) from 'DIR/findings/*.parquet' group by code\")",
        "pl.read_parquet(\"DIR/players/*.parquet\")",
        "# or: handaudit.reports.to_dataframes(\"DIR\") -> {table: DataFrame}",
        "```",
        "",
        "Files of a run:",
        "",
        "- `DIR/<table>/part-<worker>-<seq>.parquet`: complete part files. A part is written under a",
        "  hidden temporary name (`.part-<worker>-<seq>.parquet.tmp`) and renamed only once its",
        "  footer is written, so a file named `*.parquet` is always whole, even after Ctrl-C or a",
        "  killed worker. Readers skip the hidden temporary names.",
        "  A table that got no row at all has one empty part, `part-empty.parquet`, so that every",
        "  table reads with its schema.",
        "- `DIR/_manifest.json`: written last: `status` (`complete`, `interrupted` after Ctrl-C, or",
        "  `failed` when a worker died or an input broke off), the inputs, the rulebook and",
        "  overrides, `hands` (rows of `hands` in the complete part files), row and file counts per",
        "  table, elapsed time, and the run's summary.",
        "- `DIR/_SUCCESS`: an empty file written last, only when the run finished. No `_SUCCESS`",
        "  means the report is incomplete: the part files present are whole, but some input hands",
        "  are missing from them (`_manifest.json` says how many are in).",
        "",
        "A new run with `--out DIR` first removes the report files of an earlier run in `DIR`",
        "(part files, `_manifest.json`, `_SUCCESS`) and nothing else.",
        "",
        "## Keys and amounts",
        "",
        "Every row carries `source`, `hand_key` and `hand_index`. A hand is identified by",
        "`(source, hand_index)`: the table name (`hand_key`) can repeat in a broken `.phhs` file.",
        "Join the tables on `(source, hand_index)`.",
        "",
        "Amounts are exact: `int64` counts of the hand's smallest unit, with the hand's `scale` on",
        "the same row: an amount `a` is `a / 10**scale` chips or currency units, e.g. `2685` at",
        "scale `2` is `26.85`. The scale is fixed per currency: its ISO 4217 minor units (2 for",
        "`USD`, 0 for `JPY`, 3 for `KWD`; 0 for chips), more only for a hand whose amounts need finer",
        "(a fraction of a cent), whatever the text wrote (`3`, `3.0` and `3.00` USD are all `300`).",
        "So the amounts of one currency add up as they are. No column is a binary float. To add",
        "amounts of hands with different scales",
        "exactly, bring them to one scale as integers first, e.g. in DuckDB",
        "`sum(rake * (10 ** (6 - scale))::BIGINT)` is the total in millionths (exact for scales up",
        "to 6); divide by `1e6` only to display it. Within one hand every amount has the same scale.",
        "`handaudit.reports.to_dataframes(DIR)` gives pandas nullable `Int64` columns (never float).",
        "",
        "Players are named by their PHH number (`1` is `p1`) in `player`, `eligible`, `winners` and",
        "`awards`; `actor` uses the notation's `p1`, `d`.",
        "",
        "## Limits: why every value fits its column",
        "",
        "The reader refuses (`invalid-field`, README \"Limits\") any hand whose values could overflow a",
        "column: at most 1,000 players (`int16` `players`, `player`, `eligible`, `winners`; at most",
        "1,001 pots), seats 1 to 1,000 (`int16` `seat`), at most 18 decimal places (`int8` `scale`),",
        "each amount and the hand's total money (finite stacks, antes, blinds, bring-in, recorded",
        "winnings; with an `inf` stack also A² × M for A actions and M the largest amount) at most",
        "4 × 10^18 units, so that every `int64` amount, pot, stack, net and rake fits with room to spare",
        "(a `min_to`/`max_to` beyond `int64` is written as null), and at most 10,000 actions a hand",
        "(`int32` `actions`, `action_index`, `findings`).",
        "",
        "Row order within a table is not specified (several workers write in parallel); the rows",
        "themselves do not depend on `--jobs`.",
        "",
    ]
    for table in TABLE_NAMES:
        out += [f"## `{table}`", "", _INTRO[table], "", "| column | type | null | meaning |", "|---|---|---|---|"]
        for c in TABLES[table]:
            out.append(f"| `{c.name}` | {_type_text(c.type)} | {'yes' if c.nullable else 'no'} | {c.doc} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print(markdown(), end="")
