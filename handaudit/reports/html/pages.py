"""The flagged hands: which ones get a page (the worst N), their rows for the table, and their
pages from the report's rows. A live HandReport (``explain --html``) goes through the same rows
(``reports.rows.hand_rows``), so both pages show the same values.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from ..columns import COLUMNS
from .data import Key, Report
from .handview import hand_view


def flagged(hands: pa.Table) -> pa.Table:
    """Hands with an error or warning, unreadable ones, and payout mismatches."""
    mask = pc.or_(pc.greater(hands["errors"], 0), pc.greater(hands["warnings"], 0))
    mask = pc.or_(mask, pc.equal(hands["status"], "unreadable"))
    mask = pc.or_(mask, pc.fill_null(pc.equal(hands["payout_check"], "mismatch"), False))
    return hands.filter(mask)


def worst(hands: pa.Table, n: int) -> list[dict]:
    """The ``n`` worst flagged hands: most errors, then warnings, then findings (then by file and
    position, so the choice is stable), as dicts of the hands table."""
    t = flagged(hands)
    if n <= 0 or t.num_rows == 0:
        return []
    order = [("errors", "descending"), ("warnings", "descending"), ("findings", "descending"),
             ("source", "ascending"), ("hand_index", "ascending")]
    # indices first: only the chosen rows are taken out of a large table (select_k on a
    # dictionary column crashes pyarrow 26: the sort keys are decoded first)
    keys = t.select([c for c, _ in order])
    keys = keys.set_column(keys.schema.get_field_index("source"), "source", _decoded(keys["source"]))
    idx = pc.select_k_unstable(keys, k=min(n, t.num_rows), sort_keys=order)
    chosen = t.take(idx)
    chosen = pa.table([_decoded(c) for c in chosen.columns], names=chosen.column_names)
    return chosen.sort_by(order).to_pylist()


def _decoded(col):
    return col.cast(col.type.value_type) if pa.types.is_dictionary(col.type) else col


def anchor(k: int) -> str:
    return f"hand-{k + 1}"


def report_pages(report: Report, chosen: list[dict], first: int = 0) -> list[dict]:
    """The page of each chosen hand, from the report's rows (four filtered reads). ``first``:
    the position of ``chosen[0]`` among all the chosen hands (pages are made a batch at a time)."""
    keys: list[Key] = [(h["source"], h["hand_index"]) for h in chosen]
    rows = {t: report.rows_of(t, keys) for t in ("actions", "findings", "pots", "players")}
    full = report.rows_of("hands", keys)
    pages = []
    for k, (key, h) in enumerate(zip(keys, chosen, strict=True)):
        hand = full[key][0] if full[key] else h
        page = hand_view(anchor(first + k), hand, rows["actions"][key], rows["findings"][key], rows["pots"][key],
                         rows["players"][key])
        page["row"] = table_row(h, rows["findings"][key], anchor(first + k))
        pages.append(page)
    return pages


def table_row(h: dict, findings: list[dict], link: str) -> dict:
    """One line of the flagged hands' table (the data its filters and sorting use)."""
    codes = sorted({f["code"] for f in findings})
    return {"link": link, "source": h["source"], "key": h.get("hand_key") or "", "hand": h.get("hand") or "",
            "variant": h.get("variant") or "", "status": h["status"], "errors": h["errors"],
            "warnings": h["warnings"], "findings": h["findings"], "first": h.get("first_error") or "",
            "payout": h.get("payout_check") or "", "codes": codes}


def live_page(report) -> dict:
    """The page of one audited hand (a HandReport) from the rows the report would hold."""
    from ..rows import hand_rows

    rows = hand_rows(report)
    tables = {t: [dict(zip(COLUMNS[t], r, strict=True)) for r in rows[t]] for t in COLUMNS}
    hand = tables["hands"][0]
    hand["complete"] = report.complete
    page = hand_view("hand", hand, tables["actions"], tables["findings"], tables["pots"], tables["players"])
    return page
