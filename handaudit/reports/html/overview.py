"""The overview of a report, computed with Arrow over whole columns: counts by status, payout
check, finding code and severity; rake per currency; breakdowns per source, venue, variant; the
binned distributions the charts draw. Only the small results become Python values.

Amounts stay integers of each hand's smallest unit: sums are taken per (currency, scale) and
brought to one scale as integers before they are added; a ratio is binned by integer tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc

from ...core.amounts import amount_text, grouped_amount
from .data import Report

STATUSES = ("valid", "invalid", "unreadable")
PAYOUTS = ("match", "mismatch", "not-recorded", "undetermined")
NO_CURRENCY = "no currency"
# A timestamp column, under the names issue 17 may give it (the first present is used).
TIME_COLUMNS = ("timestamp", "time", "started", "date")
# Breakdowns: the column, its title; a column missing from the report leaves its table out.
BREAKDOWNS = (("source", "source file"), ("venue", "venue"), ("variant", "variant"))
MAX_BREAKDOWN_ROWS = 50
# Rake as a share of the pot: whole-percent bins up to this, then one bin for the rest.
SHARE_BINS = 10
ZERO_BIN = "0 (no rake)"
# The largest pot for which rake * 100 stays inside int64 (larger ones are binned in Python).
_SAFE_POT = (2**63 - 1) // 100


@dataclass
class RakeRow:
    currency: str
    hands: int
    rake: str
    pots: str
    share: str  # the total rake as a percentage of those hands' pots, to two places


@dataclass
class Breakdown:
    title: str
    column: str
    rows: list[dict]
    more: int = 0  # rows left out (the table shows the largest groups)


@dataclass
class Overview:
    hands: int
    status: dict[str, int]
    payout: dict[str, int]
    rake: list[RakeRow]
    shortfall: list[RakeRow]  # the payout mismatches' pot minus recorded winnings: not rake
    breakdowns: list[Breakdown]
    findings: list[tuple[str, str, int]]  # code, severity, count
    rake_share: list[tuple[str, int]]  # bin label, hands
    mismatches: dict[str, list[tuple[int, str, int]]]  # currency (and scale) -> (power of ten, bin label, hands)
    over_time: list[tuple[str, int]] | None  # day, hands
    undated: int = 0  # hands of the report without a date (left out of over_time, and said so)
    notes: list[str] = field(default_factory=list)  # what is left out, and why


def _counts(t: pa.Table, keys: list[str]) -> list[dict]:
    if t.num_rows == 0:
        return []
    g = t.group_by(keys).aggregate([([], "count_all")])
    return g.to_pylist()


def _currency_label(currency: str | None, scale: int | None) -> tuple[str, bool]:
    """The group an amount is summed in, and whether its scales may be combined (a named
    currency: 1.5 USD and 2 USD are the same unit; chips of unnamed hands are not)."""
    if currency:
        return currency, True
    return f"{NO_CURRENCY} (scale {scale or 0})" if scale else NO_CURRENCY, False


def _sum_exact(parts: list[tuple[int, int]]) -> tuple[int, int]:
    """(units, scale) pairs added exactly at the largest scale."""
    top = max((s for _, s in parts), default=0)
    return sum(u * 10 ** (top - s) for u, s in parts), top


def percent_text(num: int, den: int) -> str:
    """``num / den`` as a percentage with two decimals, rounded half up, from integers."""
    if den == 0:
        return "-"
    hundredths = (abs(num) * 10_000 * 2 + den) // (2 * den)
    return ("-" if num < 0 and hundredths else "") + amount_text(hundredths, 2) + "%"


def raked(hands: pa.Table) -> pa.Table:
    """The hands whose rake is known: recorded winnings (or stacks the rake model explains) that
    pay out as settled. A payout mismatch's pot minus recorded winnings is no rake (see
    :func:`shortfall_per_currency`)."""
    return hands.filter(pc.and_kleene(pc.is_valid(hands["rake"]),
                                      pc.invert(pc.fill_null(pc.equal(hands["payout_check"], "mismatch"), False))))


def mismatched(hands: pa.Table) -> pa.Table:
    """The payout mismatches whose pot total minus recorded winnings is known."""
    return hands.filter(pc.and_kleene(pc.is_valid(hands["rake"]),
                                      pc.fill_null(pc.equal(hands["payout_check"], "mismatch"), False)))


def rake_per_currency(hands: pa.Table) -> list[RakeRow]:
    """Rake over the hands whose rake is known, per currency, exactly."""
    return _per_currency(raked(hands))


def shortfall_per_currency(hands: pa.Table) -> list[RakeRow]:
    """The unexplained shortfall of the payout mismatches (their pot total minus recorded
    winnings, which no rake explains; negative when more was paid than the pots held), per
    currency, exactly: the figure a mismatch would otherwise have put into the rake."""
    return _per_currency(mismatched(hands))


def _per_currency(t: pa.Table) -> list[RakeRow]:
    if t.num_rows == 0:
        return []
    cols = ["currency", "scale"] if "currency" in t.column_names else ["scale"]
    g = t.group_by(cols).aggregate([("rake", "sum"), ("pot_total", "sum"), ([], "count_all")]).to_pylist()
    groups: dict[str, list[dict]] = {}
    for row in g:
        label, _ = _currency_label(row.get("currency"), row["scale"])
        groups.setdefault(label, []).append(row)
    out = []
    for label, rows in sorted(groups.items()):
        rake, scale = _sum_exact([(r["rake_sum"] or 0, r["scale"] or 0) for r in rows])
        pots, _ = _sum_exact([(r["pot_total_sum"] or 0, r["scale"] or 0) for r in rows])  # the same scale
        out.append(RakeRow(label, sum(r["count_all"] for r in rows), grouped_amount(rake, scale),
                           grouped_amount(pots, scale), percent_text(rake, pots)))
    return out


def _rake_text(rows: list[dict]) -> str:
    groups: dict[str, list[tuple[int, int]]] = {}
    for r in rows:
        label, _ = _currency_label(r.get("currency"), r["scale"])
        groups.setdefault(label, []).append((r["rake_sum"] or 0, r["scale"] or 0))
    parts = []
    for label, items in sorted(groups.items()):
        units, scale = _sum_exact(items)
        parts.append(grouped_amount(units, scale) + ("" if label == NO_CURRENCY else f" {label}"))
    return "; ".join(parts)


def breakdown(hands: pa.Table, column: str, title: str) -> Breakdown:
    """Per value of ``column``: hands, by status, payout mismatches, hands with errors, rake."""
    status = _counts(hands, [column, "status"])
    by: dict[object, dict] = {}
    for r in status:
        row = by.setdefault(r[column], {"label": r[column], "hands": 0, **{s: 0 for s in STATUSES},
                                        "errors": 0, "mismatch": 0, "rake": ""})
        row["hands"] += r["count_all"]
        if r["status"] in STATUSES:
            row[r["status"]] += r["count_all"]
    for r in _counts(hands.filter(pc.greater(hands["errors"], 0)), [column]):
        by[r[column]]["errors"] = r["count_all"]
    for r in _counts(hands.filter(pc.equal(hands["payout_check"], "mismatch")), [column]):
        by[r[column]]["mismatch"] = r["count_all"]
    with_rake = raked(hands)
    if with_rake.num_rows:
        cols = [column, "scale"] + (["currency"] if "currency" in hands.column_names else [])
        per: dict[object, list[dict]] = {}
        for r in with_rake.group_by(cols).aggregate([("rake", "sum")]).to_pylist():
            per.setdefault(r[column], []).append(r)
        for value, rows in per.items():
            by[value]["rake"] = _rake_text(rows)
    rows = sorted(by.values(), key=lambda r: (-r["hands"], str(r["label"])))
    for r in rows:
        r["label"] = "(none)" if r["label"] is None else str(r["label"])
    return Breakdown(title, column, rows[:MAX_BREAKDOWN_ROWS], max(0, len(rows) - MAX_BREAKDOWN_ROWS))


def share_bins(hands: pa.Table) -> list[tuple[str, int]]:
    """Hands by rake as a share of the pot: none, whole-percent bins, then the rest; exact."""
    t = raked(hands)
    t = t.filter(pc.greater(t["pot_total"], 0))
    labels = ["below 0"] + [ZERO_BIN] + [f"{k}-{k + 1}%" for k in range(SHARE_BINS)] + [f"{SHARE_BINS}% or more"]
    counts = [0] * len(labels)
    if t.num_rows:
        rake, pot = t["rake"], t["pot_total"]
        counts[0] = pc.sum(pc.less(rake, 0).cast(pa.int64())).as_py() or 0
        counts[1] = pc.sum(pc.equal(rake, 0).cast(pa.int64())).as_py() or 0
        pos = t.filter(pc.and_(pc.greater(rake, 0), pc.less_equal(pot, _SAFE_POT)))
        pct = pc.divide(pc.multiply(pos["rake"], 100), pos["pot_total"])  # integers: floor for positives
        for r in pc.value_counts(pc.min_element_wise(pct, SHARE_BINS)).to_pylist():
            counts[2 + r["values"]] += r["counts"]
        big = t.filter(pc.and_(pc.greater(rake, 0), pc.greater(pot, _SAFE_POT)))
        for r, p in zip(big["rake"].to_pylist(), big["pot_total"].to_pylist(), strict=True):
            counts[2 + min(r * 100 // p, SHARE_BINS)] += 1
    bins = list(zip(labels, counts, strict=True))
    return bins if counts[0] else bins[1:]  # no rake below 0 once the mismatches are out: no such bin


def decade_label(units: int, scale: int) -> tuple[int, str]:
    """The power-of-ten bin of a positive amount, in the currency's units: (order, label)."""
    order = len(str(units)) - 1 - scale  # 10**order <= amount < 10**(order + 1)
    low, high = _power_text(order), _power_text(order + 1)
    return order, f"{low} to {high}"


def _power_text(order: int) -> str:
    return f"{10**order:,}" if order >= 0 else amount_text(1, -order)


def mismatch_bins(report: Report, hands: pa.Table) -> dict[str, list[tuple[int, str, int]]]:
    """For each payout mismatch: the largest difference between a player's recorded and
    computed payout (winnings, else finishing stack), binned by powers of ten per currency."""
    bad = hands.filter(pc.equal(hands["payout_check"], "mismatch"))
    if bad.num_rows == 0:
        return {}
    cur = bad["currency"].to_pylist() if "currency" in bad.column_names else [None] * bad.num_rows
    info = {(s, i): (c, sc or 0) for s, i, c, sc in zip(bad["source"].to_pylist(), bad["hand_index"].to_pylist(),
                                                         cur, bad["scale"].to_pylist(), strict=True)}
    where = pc.field("hand_index").isin(pa.array(sorted({k[1] for k in info}), pa.int64()))
    players = report.read("players", ["source", "hand_index", "received", "winnings_recorded",
                                      "finishing_computed", "finishing_recorded"], where)
    worst: dict[tuple[str, int], int] = {}
    for row in players.to_pylist():
        key = (row["source"], row["hand_index"])
        if key not in info:
            continue
        diff = None
        if row["winnings_recorded"] is not None and row["received"] is not None:
            diff = row["winnings_recorded"] - row["received"]
        elif row["finishing_recorded"] is not None and row["finishing_computed"] is not None:
            diff = row["finishing_recorded"] - row["finishing_computed"]
        if diff is not None:
            worst[key] = max(worst.get(key, 0), abs(diff))
    bins: dict[str, dict[int, list]] = {}
    for key, amount in worst.items():
        if amount <= 0:
            continue
        currency, scale = info[key]
        label, _ = _currency_label(currency, scale)
        order, text = decade_label(amount, scale)
        slot = bins.setdefault(label, {}).setdefault(order, [text, 0])
        slot[1] += 1
    return {label: [(order, text, n) for order, (text, n) in sorted(per.items())] for label, per in sorted(bins.items())}


def over_time(report: Report, hands: pa.Table, notes: list[str]) -> tuple[list[tuple[str, int]] | None, int]:
    """Hands per day: the day the file gives (``date``, local to the venue), else the UTC day of
    ``timestamp`` (or of an older report's time column); and the hands without a date, which a
    note counts."""
    columns = [c for c in TIME_COLUMNS if report.has("hands", c)]
    if not columns:
        notes.append("Hands over time: left out, the report's hands table has no timestamp column "
                      "(a report written by a handaudit that records the hands' dates shows it).")
        return None, hands.num_rows
    read = report.read("hands", columns)
    days = None
    for column in ("date", *[c for c in columns if c != "date"]):
        if column not in columns:
            continue
        t = read[column]
        if not (pa.types.is_timestamp(t.type) or pa.types.is_date(t.type)):
            continue
        day = pc.cast(t, pa.date32())
        days = day if days is None else pc.coalesce(days, day)
    if days is None:
        notes.append(f"Hands over time: left out, the hands table's {columns[0]!r} column is not a date or time.")
        return None, hands.num_rows
    undated = days.null_count
    days = pc.drop_null(days)
    if len(days) == 0:
        notes.append(f"Hands over time: left out, no hand of the report gives its date ({undated:,} hands).")
        return None, undated
    if undated:
        notes.append(f"Hands over time: {undated:,} hand{'s' if undated != 1 else ''} of {undated + len(days):,} "
                     f"{'have' if undated != 1 else 'has'} no date (no year, month and day in the file) and "
                     f"{'are' if undated != 1 else 'is'} not in the chart.")
    counts = sorted(pc.value_counts(days).to_pylist(), key=lambda r: r["values"])
    return [(r["values"].isoformat(), r["counts"]) for r in counts], undated


HAND_COLUMNS = ("source", "hand_index", "hand_key", "hand", "variant", "status", "payout_check", "errors",
                "warnings", "findings", "first_error", "rake", "pot_total", "scale", "currency", "venue", "table")


def compute(report: Report, hands: pa.Table) -> Overview:
    """The whole overview, from the hands table (``HAND_COLUMNS``) and two grouped reads."""
    notes: list[str] = []
    status = {s: 0 for s in STATUSES}
    for r in _counts(hands, ["status"]):
        status[r["status"]] = status.get(r["status"], 0) + r["count_all"]
    payout = {p: 0 for p in PAYOUTS}
    for r in _counts(hands, ["payout_check"]):
        payout[r["payout_check"] or "none (unreadable)"] = r["count_all"]
    findings = report.read("findings", ["code", "severity"])
    by_code = sorted(((r["code"], r["severity"], r["count_all"]) for r in _counts(findings, ["code", "severity"])),
                     key=lambda r: (-r[2], r[0], r[1]))
    tables = []
    for column, title in BREAKDOWNS:
        if column in hands.column_names:
            tables.append(breakdown(hands, column, title))
        else:
            notes.append(f"Per {title}: left out, the report's hands table has no {column!r} column.")
    if "currency" not in hands.column_names:
        notes.append("Rake per currency: the report has no currency column; rake is summed per scale.")
    days, undated = over_time(report, hands, notes)
    return Overview(
        hands=hands.num_rows, status=status, payout=payout, rake=rake_per_currency(hands),
        shortfall=shortfall_per_currency(hands), breakdowns=tables,
        findings=by_code, rake_share=share_bins(hands), mismatches=mismatch_bins(report, hands),
        over_time=days, undated=undated, notes=notes,
    )
