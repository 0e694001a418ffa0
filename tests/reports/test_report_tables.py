"""The Parquet report read back with pandas, pyarrow, DuckDB and Polars, checked against JSONL.

One report of the shared corpus (real and generated hands) plus a file of broken hands is
written with ``audit_to_parquet(jobs=2)``; the JSONL of the same input comes from the command
line (``python -m handaudit.cli check --format jsonl``). Every table is read with all four
libraries and its counts and amounts are compared with the JSON objects, hand by hand.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from decimal import Decimal

import duckdb
import pandas as pd
import polars as pl
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from handaudit.reports import to_dataframes
from handaudit.reports.layout import TABLE_NAMES
from handaudit.reports.parquet import MANIFEST, SUCCESS, read_table
from handaudit.reports.schema import TABLES, markdown, schema
from handaudit.run.local import audit_to_parquet

from helpers import REPO, VALID_HAND, run_cli

GOOD = VALID_HAND

BROKEN = (
    "[1]\n" + GOOD + "\n"
    "[2]\nvariant = 'NT'\nactions = ['p1 f'\n\n"           # TOML syntax error
    "[3]\n" + GOOD.replace("'NT'", "'XX'") + "\n"          # unknown variant
    "[1]\n" + GOOD + "\n"                                   # duplicate table name
    "[5]\n" + GOOD.replace("'p2 f'", "'p9 f'") + "\n"      # unknown player
)


def _amount(units: int | None, scale: int | None):
    if units is None:
        return None
    return Decimal(units).scaleb(-scale)


@pytest.fixture(scope="module")
def report(tmp_path_factory, corpus):
    base = tmp_path_factory.mktemp("report")
    extra = base / "extra"
    extra.mkdir()
    (extra / "broken.phhs").write_text(BROKEN)
    (extra / "garbage.phh").write_bytes(b"\x00\x01\x02 not toml \xff\xfe")
    inputs = [str(corpus), str(extra)]
    out = base / "out"
    summary = audit_to_parquet(inputs, out, jobs=2, batch_size=64)
    proc = run_cli("check", *inputs, "--format", "jsonl", "--jobs", "2", text=True, timeout=None)
    assert proc.returncode == 2, proc.stderr  # garbage.phh is not a PHH file (the corpus also has illegal hands)
    # not a terminal: no progress, only the not-PHH line
    assert proc.stderr.splitlines() == [f"handaudit: {extra / 'garbage.phh'}: not a PHH file: binary data (a NUL byte) where the first table or field should be"]
    objs = [json.loads(line, parse_float=Decimal) for line in proc.stdout.splitlines()]
    # JSONL is in input order: the k-th object of a source is hand_index k
    seen: Counter = Counter()
    by_key = {}
    for obj in objs:
        by_key[(obj["source"], seen[obj["source"]])] = obj
        seen[obj["source"]] += 1
    return {"out": out, "summary": summary, "objs": objs, "by_key": by_key, "inputs": inputs}


def test_run_finished_with_success_marker_and_manifest(report):
    out = report["out"]
    assert (out / SUCCESS).exists()
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["status"] == "complete"
    assert manifest["hands"] == len(report["objs"]) == report["summary"].hands
    for table in TABLE_NAMES:
        files = list((out / table).iterdir())
        assert files and all(f.name.startswith("part-") and f.name.endswith(".parquet") for f in files)
        assert manifest["tables"][table]["rows"] == sum(pq.ParquetFile(f).metadata.num_rows for f in files)


def test_every_table_reads_with_pandas_pyarrow_duckdb_polars_alike(report):
    out = report["out"]
    frames = to_dataframes(out)
    for table in TABLE_NAMES:
        glob = str(out / table / "*.parquet")
        n_pandas = len(pd.read_parquet(out / table))
        n_arrow = ds.dataset(out / table, format="parquet").count_rows()
        n_duck = duckdb.sql(f"select count(*) from read_parquet('{glob}')").fetchall()[0][0]
        n_polars = pl.read_parquet(glob).height
        assert n_pandas == n_arrow == n_duck == n_polars == len(frames[table]), table
        # the columns are the documented ones, with the documented types
        assert ds.dataset(out / table, format="parquet").schema.remove_metadata().equals(
            schema(table).remove_metadata(), check_metadata=False)
        assert list(frames[table].columns) == [c.name for c in TABLES[table]]


def test_no_amount_column_is_a_float(report):
    import pyarrow as pa

    for table in TABLE_NAMES:
        for field in read_table(report["out"], table).schema:
            assert not pa.types.is_floating(field.type), (table, field.name)
    frames = to_dataframes(report["out"])
    assert str(frames["players"]["starting_stack"].dtype) == "Int64"


def test_hands_every_input_hand_exactly_once_and_as_in_jsonl(report):
    out, by_key = report["out"], report["by_key"]
    hands = pl.read_parquet(str(out / "hands" / "*.parquet"))
    assert hands.height == len(report["objs"])
    keys = list(zip(hands["source"].to_list(), hands["hand_index"].to_list(), strict=True))
    assert len(set(keys)) == len(keys)
    assert set(keys) == set(by_key)
    for row in hands.iter_rows(named=True):
        obj = by_key[(row["source"], row["hand_index"])]
        assert row["hand_key"] == obj["hand_key"]
        assert row["status"] == obj["status"]
        assert row["variant"] == obj["variant"]
        assert row["complete"] == obj["complete"]
        assert row["payout_check"] == obj["payout_check"]
        assert row["findings"] == len(obj["findings"])
        assert row["errors"] == sum(f["severity"] == "error" for f in obj["findings"])
        assert _amount(row["rake"], row["scale"]) == obj["rake"]
        if obj["settlement"] is None:
            assert row["pots"] is None and row["pot_total"] is None
        else:
            assert row["determined"] == obj["settlement"]["determined"]
            assert row["pots"] == len(obj["settlement"]["pots"])
            assert _amount(row["pot_total"], row["scale"]) == sum(p["amount"] for p in obj["settlement"]["pots"])


def test_unreadable_hands_are_in_hands(report):
    out = report["out"]
    rows = duckdb.sql(
        f"select source, hand_key, hand_index, status, first_error from read_parquet('{out}/hands/*.parquet') "
        "where source like '%extra%' order by source, hand_index").fetchall()
    broken = [r for r in rows if r[0].endswith("broken.phhs")]
    assert [(r[1], r[2], r[3]) for r in broken] == [
        ("1", 0, "valid"), ("2", 1, "unreadable"), ("3", 2, "unreadable"), ("1", 3, "unreadable"),
        ("5", 4, "unreadable")]
    assert [r[4] for r in broken[1:]] == ["syntax-error", "unknown-variant", "duplicate-hand", "unknown-player"]
    garbage = [r for r in rows if r[0].endswith("garbage.phh")]
    assert [(r[1], r[2], r[3]) for r in garbage] == [("", 0, "unreadable")]


def test_findings_match_jsonl(report):
    out, by_key = report["out"], report["by_key"]
    f = duckdb.sql(f"select * from read_parquet('{out}/findings/*.parquet')").df()
    assert len(f) == sum(len(o["findings"]) for o in report["objs"])
    for (source, index), group in f.groupby(["source", "hand_index"]):
        obj = by_key[(source, int(index))]
        group = group.sort_values("finding_index")
        assert list(group["code"]) == [x["code"] for x in obj["findings"]]
        assert list(group["severity"]) == [x["severity"] for x in obj["findings"]]
        assert [None if pd.isna(v) else int(v) for v in group["action_index"]] == [x["action_index"] for x in obj["findings"]]
        assert [None if pd.isna(v) else v for v in group["rule"]] == [x["rule"] for x in obj["findings"]]


def test_pots_match_jsonl(report):
    out, by_key = report["out"], report["by_key"]
    pots = ds.dataset(out / "pots", format="parquet").to_table().to_pylist()
    assert len(pots) == sum(len(o["settlement"]["pots"]) for o in report["objs"] if o["settlement"])
    for row in pots:
        obj = by_key[(row["source"], row["hand_index"])]
        pot = obj["settlement"]["pots"][row["pot_index"]]
        assert _amount(row["amount"], row["scale"]) == pot["amount"]
        assert row["eligible"] == pot["eligible"]
        assert [(a["player"], _amount(a["won"], row["scale"]), a["share"]) for a in row["awards"]] == [
            (a["player"], a["amount"], a["share"]) for a in pot["awards"]]
        assert row["winners"] == sorted({a["player"] for a in pot["awards"]})


def test_players_match_jsonl(report):
    out, by_key = report["out"], report["by_key"]
    players = pl.read_parquet(str(out / "players" / "*.parquet"))
    readable = [o for o in report["objs"] if o["status"] != "unreadable"]
    assert players.height == sum(len(o["settlement"]["returned"]) for o in readable)
    per_hand = defaultdict(list)
    for row in players.iter_rows(named=True):
        per_hand[(row["source"], row["hand_index"])].append(row)
    for key, rows in per_hand.items():
        obj = by_key[key]
        rows.sort(key=lambda r: r["player"])
        s, scale = obj["settlement"], rows[0]["scale"]
        assert [_amount(r["returned"], scale) for r in rows] == s["returned"]
        if s["winnings"] is not None:
            assert [_amount(r["received"], scale) for r in rows] == s["winnings"]
        else:
            assert all(r["received"] is None for r in rows)
        if s["finishing_stacks"] is not None:
            assert [_amount(r["finishing_computed"], scale) for r in rows] == s["finishing_stacks"]
        recorded = obj["recorded"] or {}
        if recorded.get("finishing_stacks") is not None:
            assert [_amount(r["finishing_recorded"], scale) for r in rows] == recorded["finishing_stacks"]
        if recorded.get("winnings") is not None:
            assert [_amount(r["winnings_recorded"], scale) for r in rows] == recorded["winnings"]
        for r in rows:
            assert r["contributed"] == r["put_in"] - r["returned"]
            if r["received"] is not None:
                assert r["net"] == r["received"] - r["contributed"]
                if r["starting_stack"] is not None and r["finishing_computed"] is not None:
                    assert r["finishing_computed"] == r["starting_stack"] + r["net"]


def test_chips_add_up_in_duckdb(report):
    """Pots = contributions (put in minus returned), per hand, exactly (integers)."""
    out = report["out"]
    bad = duckdb.sql(f"""
        with p as (select source, hand_index, sum(contributed) c from read_parquet('{out}/players/*.parquet')
                   group by all),
             h as (select source, hand_index, pot_total from read_parquet('{out}/hands/*.parquet')
                   where pot_total is not null)
        select count(*) from h join p using (source, hand_index) where h.pot_total != p.c
    """).fetchall()[0][0]
    assert bad == 0


def test_actions_one_row_per_action(report):
    out = report["out"]
    mismatched = duckdb.sql(f"""
        with a as (select source, hand_index, count(*) n, min(action_index) lo, max(action_index) hi
                   from read_parquet('{out}/actions/*.parquet') group by all)
        select count(*) from read_parquet('{out}/hands/*.parquet') h left join a using (source, hand_index)
        where h.status != 'unreadable' and h.actions > 0 and (a.n != h.actions or a.lo != 0 or a.hi != h.actions - 1)
    """).fetchall()[0][0]
    assert mismatched == 0
    actions = pl.read_parquet(str(out / "actions" / "*.parquet"))
    kinds = set(actions["kind"].unique().to_list())
    assert {"deal-hole", "fold", "call", "check"} <= kinds
    # the exact action text is kept, and amounts are integers of the minor unit
    row = actions.filter(pl.col("action") == "p3 cbr 0.30").row(0, named=True)
    assert (row["to"], row["scale"]) == (30, 2)


def test_exact_amounts_survive_all_readers(report):
    out = report["out"]
    q = f"select starting_stack, scale from read_parquet('{out}/players/*.parquet') where source like '%broken.phhs' and player = 2"
    assert duckdb.sql(q).fetchall() == [(2685, 2)]
    df = pd.read_parquet(out / "players")
    row = df[(df["source"].str.endswith("broken.phhs")) & (df["player"] == 2)].iloc[0]
    assert _amount(int(row["starting_stack"]), int(row["scale"])) == Decimal("26.85")


def test_summary_of_the_report_is_the_runs_summary(report):
    from handaudit.reports.text import render_summary, summary_from_report

    s, manifest = summary_from_report(report["out"])
    run = report["summary"]
    assert (s.hands, s.valid, s.invalid, s.unreadable) == (run.hands, run.valid, run.invalid, run.unreadable)
    assert s.findings == run.findings and s.code_hands == run.code_hands and s.payout == run.payout
    assert s.rake == run.rake and s.rake_hands == run.rake_hands
    assert s.worst_hands() == run.worst_hands()
    s.elapsed, s.jobs = run.elapsed, run.jobs
    run.files = s.files
    assert render_summary(s) == render_summary(run)


def test_schema_document_is_current():
    doc = (REPO / "docs" / "report-schema.md").read_text()
    assert doc == markdown(), "regenerate: python -m handaudit.reports.schema > docs/report-schema.md"


def test_awards_unnest_beside_the_pot_columns_in_polars(tmp_path):
    import polars as pl

    from handaudit.run.local import Runner

    out = tmp_path / "report"
    Runner([str(REPO / "samples" / "side-pots-and-return.phh")], jobs=1, out_dir=str(out)).run()
    pots = pl.read_parquet(str(out / "pots" / "*.parquet"))
    awards = pots.explode("awards").unnest("awards")
    assert awards.select("pot_index", "amount", "player", "won").rows() == [(0, 150, 1, 150), (1, 140, 2, 140)]


# ---------------------------------------------------------------------------------------------
# where a hand comes from (issue 17): the columns and their types in pandas, polars and DuckDB

_PLACED = VALID_HAND + """venue = 'Casino A'
table = 7
event = 'Friday deepstack'
seat_count = 9
level = 4
year = 2026
month = 7
day = 1
time = 21:30:05
time_zone = 'America/Toronto'
currency = 'CAD'
hand = 1234
"""


@pytest.fixture(scope="module")
def placed(tmp_path_factory):
    d = tmp_path_factory.mktemp("placed")
    # [early]: half past midnight on 1 January of year 1 in Tokyo is in year 0 in UTC, which no
    # timestamp holds (this once stopped the whole run with an OverflowError)
    early = VALID_HAND + "year = 1\nmonth = 1\nday = 1\ntime = 00:30:00\ntime_zone_abbreviation = 'JST'\n"
    (d / "in.phhs").write_text(f"[placed]\n{_PLACED}\n[bare]\n{VALID_HAND}\n[early]\n{early}\n"
                               "[broken]\nvariant = 'NT'\nantes = [0\n")
    out = d / "report"
    result = run_cli("check", str(d / "in.phhs"), "--out", str(out), "--fail-on", "never")
    assert result.returncode == 0, result.stderr
    return out


def test_the_hands_table_says_where_each_hand_comes_from(placed):
    import datetime as dt

    rows = {r["hand_key"]: r for r in pq.read_table(placed / "hands").to_pylist()}
    got = {k: rows["placed"][k] for k in ("venue", "table", "event", "seat_count", "level", "date", "time",
                                          "time_zone", "timestamp", "currency", "hand", "blinds_or_straddles",
                                          "antes", "bring_in", "small_bet", "big_bet", "min_bet", "scale")}
    assert got == {"venue": "Casino A", "table": "7", "event": "Friday deepstack", "seat_count": 9, "level": 4,
                   "date": dt.date(2026, 7, 1), "time": dt.time(21, 30, 5), "time_zone": "America/Toronto",
                   "timestamp": dt.datetime(2026, 7, 2, 1, 30, 5, tzinfo=dt.timezone.utc),  # EDT: UTC-4
                   "currency": "CAD", "hand": "1234", "blinds_or_straddles": [5, 10, 0], "antes": [0, 0, 0],
                   "bring_in": None, "small_bet": None, "big_bet": None, "min_bet": 10, "scale": 2}
    bare = rows["bare"]
    assert [bare[k] for k in ("venue", "table", "date", "time", "timestamp", "currency")] == [None] * 6
    assert bare["blinds_or_straddles"] == [5, 10, 0] and bare["min_bet"] == 10
    early = rows["early"]
    assert (early["date"], early["time"], early["time_zone"], early["timestamp"]) == (
        dt.date(1, 1, 1), dt.time(0, 30), "JST", None)
    broken = rows["broken"]
    assert broken["status"] == "unreadable"
    assert [broken[k] for k in ("blinds_or_straddles", "antes", "min_bet", "timestamp")] == [None] * 4


def test_pandas_polars_and_duckdb_read_the_types_of_the_schema(placed):
    """pandas.read_parquet gives nullable integers and booleans (the parts' pandas metadata), never
    float64; polars and DuckDB read the Parquet types; all three agree on the values."""
    df = pd.read_parquet(placed / "hands")
    for column in ("hand_index", "pot_total", "rake", "min_bet", "bring_in", "seat_count", "level", "scale"):
        assert str(df[column].dtype) in ("Int64", "Int32", "Int16", "Int8"), column
    assert str(df["complete"].dtype) == "boolean" and str(df["determined"].dtype) == "boolean"
    assert str(df["timestamp"].dtype) == "datetime64[us, UTC]"
    assert not any(str(t).startswith("float") for t in df.dtypes)
    assert df.loc[df.hand_key == "broken", "min_bet"].isna().all()  # a null stays a null, not NaN
    for table in TABLE_NAMES:
        frame = pd.read_parquet(placed / table)
        assert not any(str(t).startswith("float") for t in frame.dtypes), table

    pl_hands = pl.read_parquet(str(placed / "hands" / "*.parquet"))
    assert pl_hands.schema["timestamp"] == pl.Datetime("us", "UTC")
    assert pl_hands.schema["date"] == pl.Date and pl_hands.schema["time"] == pl.Time
    assert pl_hands.schema["min_bet"] == pl.Int64 and pl_hands.schema["seat_count"] == pl.Int16
    assert pl_hands.schema["blinds_or_straddles"] == pl.List(pl.Int64)

    rel = duckdb.sql(f"select * from read_parquet('{placed}/hands/*.parquet')")
    types = dict(zip(rel.columns, (str(t) for t in rel.types), strict=True))
    assert (types["timestamp"], types["date"], types["time"]) == ("TIMESTAMP WITH TIME ZONE", "DATE", "TIME")
    assert (types["min_bet"], types["seat_count"], types["blinds_or_straddles"]) == ("BIGINT", "SMALLINT", "BIGINT[]")
    q = (f"select venue, \"table\", min_bet, scale from read_parquet('{placed}/hands/*.parquet') "
         "where venue is not null")
    assert duckdb.sql(q).fetchall() == [("Casino A", "7", 10, 2)]


def test_rake_per_venue_per_day_is_one_query(placed):
    """The question the columns are for: rake per venue and day, exact (minor units and scale)."""
    q = (f"select venue, date, currency, scale, sum(rake) as rake, count(*) as hands "
         f"from read_parquet('{placed}/hands/*.parquet') where status != 'unreadable' "
         "group by all order by venue nulls last, date nulls last")
    import datetime as dt

    assert duckdb.sql(q).fetchall() == [("Casino A", dt.date(2026, 7, 1), "CAD", 2, 0, 1),
                                        (None, dt.date(1, 1, 1), None, 2, 0, 1), (None, None, None, 2, 0, 1)]
