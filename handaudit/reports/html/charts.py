"""The overview's charts as Plotly figures (JSON the embedded plotly.js draws as SVG).

Plotly because its whole script ships inside the Python package (no converter, no network: the
file works offline) and its bars take fill patterns, so each series reads in black and white by
its hatching and by the count printed on it, not by its colour alone. Every chart has a title,
axis titles with units, and is made from the overview's small binned tables, never from rows.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from .overview import ZERO_BIN, Overview

# Dark-to-light greys with distinct hatchings: legible printed in black and white.
_FILLS = (("#222222", ""), ("#777777", "/"), ("#bbbbbb", "."), ("#555555", "x"), ("#999999", "\\"),
          ("#dddddd", "+"), ("#444444", "-"))
_SEVERITY = {"error": 0, "warning": 1, "info": 2}


class ChartsUnavailable(RuntimeError):
    """Plotly is not installed (the ``html`` extra)."""


@lru_cache(maxsize=1)
def plotly_js() -> str:
    """plotly.js, minified, from the installed plotly package (embedded whole in the report)."""
    try:
        return resources.files("plotly").joinpath("package_data", "plotly.min.js").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError) as err:
        raise ChartsUnavailable("the HTML report needs plotly: pip install 'handaudit[html]'") from err


def _layout(title: str, x: str, y: str, **extra) -> dict:
    layout = {
        "title": {"text": title, "x": 0.01, "xanchor": "left"},
        "xaxis": {"title": {"text": x}, "automargin": True, "linecolor": "#000", "ticks": "outside",
                  "tickformat": ",d"},
        "yaxis": {"title": {"text": y}, "automargin": True, "linecolor": "#000", "ticks": "outside",
                  "gridcolor": "#dddddd", "tickformat": ",d", "rangemode": "tozero"},
        "font": {"family": "system-ui, sans-serif", "size": 13, "color": "#000"},
        "paper_bgcolor": "#fff", "plot_bgcolor": "#fff", "margin": {"t": 56, "r": 16, "b": 48, "l": 16},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "right", "x": 1},
        "height": 380,
    }
    layout.update(extra)
    return layout


def _bar(name: str, x: list, y: list, k: int, horizontal: bool = False, stacked: bool = False) -> dict:
    """One series of bars, its count written beside each bar (outside it, where it reads on any
    fill); in a stack the zeros are not written (they would print over the other series)."""
    color, shape = _FILLS[k % len(_FILLS)]
    text = [("" if stacked and v == 0 else f"{v:,}") for v in y]
    bar = {"type": "bar", "name": name, "x": y if horizontal else x, "y": x if horizontal else y,
           "text": text, "textposition": "outside", "cliponaxis": False,
           "marker": {"color": color, "line": {"color": "#000", "width": 1},
                      "pattern": {"shape": shape, "fgcolor": "#000", "bgcolor": "#fff" if shape else color,
                                  "solidity": 0.3}},
           "hovertemplate": "%{x}: %{y:,}<extra>" + name + "</extra>"}
    if horizontal:
        bar["orientation"] = "h"
        bar["hovertemplate"] = "%{y}: %{x:,}<extra>" + name + "</extra>"
    return bar


def findings_chart(ov: Overview) -> dict | None:
    if not ov.findings:
        return None
    totals: dict[str, int] = {}
    for code, _, n in ov.findings:
        totals[code] = totals.get(code, 0) + n
    codes = sorted(totals, key=lambda c: (totals[c], c))  # largest at the top of a horizontal bar chart
    severities = sorted({s for _, s, _ in ov.findings}, key=lambda s: _SEVERITY.get(s, 9))
    data = []
    for k, sev in enumerate(severities):
        counts = {c: n for c, s, n in ov.findings if s == sev}
        data.append(_bar(sev, codes, [counts.get(c, 0) for c in codes], k, horizontal=True, stacked=True))
    layout = _layout("Findings by code and severity", "findings (count)", "finding code", barmode="stack",
                     height=max(300, 120 + 26 * len(codes)))
    return {"id": "chart-findings", "data": data, "layout": layout, "wide": True}


def status_chart(ov: Overview) -> dict:
    labels = list(ov.status)
    data = [_bar("hands", labels, [ov.status[s] for s in labels], 0)]
    return {"id": "chart-status", "data": data,
            "layout": _layout("Hands by status", "status", "hands (count)", showlegend=False)}


def payout_chart(ov: Overview) -> dict:
    labels = list(ov.payout)
    data = [_bar("hands", labels, [ov.payout[p] for p in labels], 1)]
    return {"id": "chart-payout", "data": data,
            "layout": _layout("Payout checks by outcome", "payout check", "hands (count)", showlegend=False)}


def rake_share_chart(ov: Overview) -> dict | None:
    """The hands that paid some rake (or got more than the pot) by share; the unraked ones are
    counted in the title, where a bar of them would flatten every other."""
    bins = [(label, n) for label, n in ov.rake_share if label != ZERO_BIN]
    if not any(n for _, n in bins):
        return None
    unraked = dict(ov.rake_share).get(ZERO_BIN, 0)
    data = [_bar("hands", [label for label, _ in bins], [n for _, n in bins], 1)]
    return {"id": "chart-rake-share", "data": data, "layout": _layout(
        "Rake as a share of the pot", f"rake / pot (percent, bins of 1%; {unraked:,} more hands paid no rake)",
        "hands whose rake is known (count)", showlegend=False)}


def mismatch_chart(ov: Overview) -> dict | None:
    if not ov.mismatches:
        return None
    labels = {power: label for bins in ov.mismatches.values() for power, label, _ in bins}
    order = [labels[p] for p in sorted(labels)]  # smallest differences first, whatever the currency
    data = []
    for k, (currency, bins) in enumerate(ov.mismatches.items()):
        counts = {label: n for _, label, n in bins}
        data.append(_bar(currency, order, [counts.get(b, 0) for b in order], k, stacked=True))
    layout = _layout("Payout mismatches by size (largest recorded minus computed payout of the hand)",
                     "difference (currency or chips, powers of ten)", "hands (count)", barmode="group")
    layout["xaxis"]["categoryorder"] = "array"
    layout["xaxis"]["categoryarray"] = order
    return {"id": "chart-mismatch", "data": data, "layout": layout, "wide": True}


def time_chart(ov: Overview) -> dict | None:
    if not ov.over_time:
        return None
    days = [d for d, _ in ov.over_time]
    data = [_bar("hands", days, [n for _, n in ov.over_time], 0)]
    layout = _layout("Hands over time", "day (as the files date the hands)", "hands (count)", showlegend=False)
    layout["xaxis"]["type"] = "category"
    return {"id": "chart-time", "data": data, "layout": layout, "wide": True}


def charts(ov: Overview) -> list[dict]:
    """Every chart the overview has data for, in page order."""
    made = [status_chart(ov), payout_chart(ov), findings_chart(ov), rake_share_chart(ov), mismatch_chart(ov), time_chart(ov)]
    return [c for c in made if c is not None]


def charts_json(specs: list[dict]) -> str:
    """The specs as JSON safe inside a <script> element."""
    text = json.dumps({c["id"]: {"data": c["data"], "layout": c["layout"]} for c in specs},
                      ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
