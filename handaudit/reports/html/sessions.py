"""The table sessions of a report with the cross-hand pass's tables (``check --sessions``): each
of the sessions with the most findings drawn as a timeline of its players' stacks, hand after
hand, with the cross-hand findings marked where they are.

Read from the report's part files (``layout.part_files``) with pyarrow, as the rest of the HTML
report is; a report without the tables draws nothing. Stacks are integers of the session's
smallest unit (its ``scale``), as every amount of the report is; the axis title says the unit.
"""

from __future__ import annotations

import os

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..layout import part_files
from .charts import chart_layout

SESSIONS_DRAWN = 6  # the sessions with the most errors, then findings
HANDS_DRAWN = 150  # a longer session is drawn from a little before its first finding
_MARKS = {"error": ("x", "#000000"), "warning": ("triangle-up", "#555555"), "info": ("circle-open", "#999999")}


def _table(directory: str, name: str, columns: list[str] | None = None) -> pa.Table | None:
    files = part_files(directory, name)
    if not files:
        return None
    return pa.concat_tables([pq.read_table(f, columns=columns) for f in files])


def session_charts(directory: str | os.PathLike, limit: int = SESSIONS_DRAWN) -> list[dict]:
    """Plotly figures (``{"id", "data", "layout", "wide"}``), one per session drawn."""
    directory = os.fspath(directory)
    sessions = _table(directory, "sessions")
    if sessions is None or sessions.num_rows == 0:
        return []
    flagged = sessions.filter(pc.greater(sessions["findings"], 0))
    if flagged.num_rows == 0:
        return []
    flagged = flagged.sort_by([("errors", "descending"), ("findings", "descending"), ("session", "ascending")])
    chosen = flagged.slice(0, limit).to_pylist()
    ids = pa.array([s["session"] for s in chosen])
    hands = _table(directory, "session_hands")
    findings = _table(directory, "session_findings")
    if hands is None or findings is None:
        return []
    hands = hands.filter(pc.is_in(hands["session"], value_set=ids))
    findings = findings.filter(pc.is_in(findings["session"], value_set=ids)).to_pylist()
    players = _table(directory, "players", ["source", "hand_index", "name", "starting_stack", "scale"])
    out = []
    for n, s in enumerate(chosen):
        rows = sorted((h for h in hands.filter(pc.equal(hands["session"], s["session"])).to_pylist()),
                      key=lambda h: h["position"])
        mine = [f for f in findings if f["session"] == s["session"]]
        chart = _timeline(n, s, rows, mine, players)
        if chart is not None:
            out.append(chart)
    return out


def _window(rows: list[dict], faults: list[dict]) -> list[dict]:
    if len(rows) <= HANDS_DRAWN:
        return rows
    at = {(r["source"], r["hand_index"]): r["position"] for r in rows}
    first = min((at.get((f["source"], f["hand_index"]), 0) for f in faults), default=0)
    start = max(0, min(first - 10, len(rows) - HANDS_DRAWN))
    return rows[start:start + HANDS_DRAWN]


def _timeline(n: int, s: dict, rows: list[dict], faults: list[dict], players: pa.Table | None) -> dict | None:
    rows = _window(rows, faults)
    if not rows or players is None:
        return None
    scale = s["scale"] or 0
    wanted = players.filter(pc.and_(pc.is_in(players["source"], value_set=pa.array({r["source"] for r in rows})),
                                    pc.is_in(players["hand_index"], value_set=pa.array({r["hand_index"] for r in rows}))))
    by_hand: dict[tuple[str, int], list[dict]] = {}
    for p in wanted.to_pylist():
        by_hand.setdefault((p["source"], p["hand_index"]), []).append(p)
    lines: dict[str, tuple[list, list]] = {}
    stack_at: dict[tuple[int, str], int] = {}
    position = {}
    for r in rows:
        x = r["position"] + 1
        position[(r["source"], r["hand_index"])] = x
        for p in by_hand.get((r["source"], r["hand_index"]), []):
            if p["starting_stack"] is None or p["name"] is None:
                continue
            units = p["starting_stack"] * 10 ** (scale - (p["scale"] or 0))
            xs, ys = lines.setdefault(p["name"], ([], []))
            xs.append(x)
            ys.append(units)
            stack_at[(x, p["name"])] = units
    if not lines:
        return None
    data: list[dict] = []
    for k, (name, (xs, ys)) in enumerate(sorted(lines.items())):
        data.append({"type": "scatter", "mode": "lines", "name": name, "x": xs, "y": ys,
                     "line": {"color": "#000", "width": 1, "dash": ("solid", "dot", "dash", "dashdot")[k % 4]},
                     "hovertemplate": f"{name}: %{{y:,d}} at hand %{{x}}<extra></extra>"})
    top = max(max(ys) for _, ys in lines.values())
    for severity, (symbol, color) in _MARKS.items():
        xs, ys, texts = [], [], []
        for f in faults:
            if f["severity"] != severity:
                continue
            x = position.get((f["source"], f["hand_index"]))
            if x is None:
                continue
            xs.append(x)
            ys.append(stack_at.get((x, f["player"]), top) if f["player"] else top)
            texts.append(f"{f['code']}: {f['message']}")
        if xs:
            data.append({"type": "scatter", "mode": "markers", "name": f"{severity} findings", "x": xs, "y": ys,
                         "text": texts, "hovertemplate": "%{text}<extra></extra>",
                         "marker": {"symbol": symbol, "size": 12, "color": color, "line": {"width": 2}}})
    unit = "chips" if scale == 0 else f"units of {10 ** -scale:.{scale}f}"
    where = " / ".join(x for x in (s["venue"], s["table"], s["event"]) if x)
    title = (f"Session {where}: hands {s['first_hand'] or '?'} to {s['last_hand'] or '?'} "
             f"({s['hands']:,} hands, {s['findings']:,} findings)")
    layout = chart_layout(title, "hand in the session (1 is its first)", f"starting stack ({unit})",
                     showlegend=len(lines) <= 10)
    return {"id": f"chart-session-{n + 1}", "data": data, "layout": layout, "wide": True}
