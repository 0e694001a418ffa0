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

from .overview import Overview

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
        "legend": {"orientation": "h", "y": -0.25, "x": 0},
        "height": 380,
    }
    layout.update(extra)
    return layout


def _bar(name: str, x: list, y: list, k: int, horizontal: bool = False) -> dict:
    color, shape = _FILLS[k % len(_FILLS)]
    bar = {"type": "bar", "name": name, "x": y if horizontal else x, "y": x if horizontal else y,
           "text": [f"{v:,}" for v in y], "textposition": "outside", "cliponaxis": False,
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
        data.append(_bar(sev, codes, [counts.get(c, 0) for c in codes], k, horizontal=True))
    layout = _layout("Findings by code and severity", "findings (count)", "finding code", barmode="stack",
                     height=max(300, 120 + 26 * len(codes)))
    return {"id": "chart-findings", "data": data, "layout": layout}


def status_chart(ov: Overview) -> dict:
    labels = list(ov.status)
    data = [_bar("hands", labels, [ov.status[s] for s in labels], 0)]
    payout = list(ov.payout)
    data.append(_bar("payout check", payout, [ov.payout[p] for p in payout], 1))
    data[1]["xaxis"], data[1]["yaxis"] = "x2", "y2"
    layout = _layout("Hands by status, and payout checks by outcome", "status", "hands (count)",
                     grid={"rows": 1, "columns": 2, "pattern": "independent"}, showlegend=False)
    layout["xaxis2"] = {"title": {"text": "payout check"}, "automargin": True, "linecolor": "#000"}
    layout["yaxis2"] = {"title": {"text": "hands (count)"}, "automargin": True, "linecolor": "#000",
                        "gridcolor": "#dddddd", "tickformat": ",d", "rangemode": "tozero"}
    return {"id": "chart-status", "data": data, "layout": layout}


def rake_share_chart(ov: Overview) -> dict | None:
    if not any(n for _, n in ov.rake_share):
        return None
    labels = [label for label, _ in ov.rake_share]
    data = [_bar("hands", labels, [n for _, n in ov.rake_share], 1)]
    return {"id": "chart-rake-share", "data": data, "layout": _layout(
        "Rake as a share of the pot (hands whose rake is known)", "rake / pot (percent, bins of 1%)",
        "hands (count)", showlegend=False)}


def mismatch_chart(ov: Overview) -> dict | None:
    if not ov.mismatches:
        return None
    order: list[str] = []
    for bins in ov.mismatches.values():
        for label, _ in bins:
            if label not in order:
                order.append(label)
    data = []
    for k, (currency, bins) in enumerate(ov.mismatches.items()):
        counts = dict(bins)
        data.append(_bar(currency, order, [counts.get(b, 0) for b in order], k))
    layout = _layout("Payout mismatches by size (largest recorded minus computed payout of the hand)",
                     "difference (currency or chips, powers of ten)", "hands (count)", barmode="group")
    layout["xaxis"]["categoryorder"] = "array"
    layout["xaxis"]["categoryarray"] = order
    return {"id": "chart-mismatch", "data": data, "layout": layout}


def time_chart(ov: Overview) -> dict | None:
    if not ov.over_time:
        return None
    days = [d for d, _ in ov.over_time]
    data = [_bar("hands", days, [n for _, n in ov.over_time], 0)]
    layout = _layout("Hands over time", "day (as the files date the hands)", "hands (count)", showlegend=False)
    layout["xaxis"]["type"] = "category"
    return {"id": "chart-time", "data": data, "layout": layout}


def charts(ov: Overview) -> list[dict]:
    """Every chart the overview has data for, in page order."""
    made = [status_chart(ov), findings_chart(ov), rake_share_chart(ov), mismatch_chart(ov), time_chart(ov)]
    return [c for c in made if c is not None]


def charts_json(specs: list[dict]) -> str:
    """The specs as JSON safe inside a <script> element."""
    text = json.dumps({c["id"]: {"data": c["data"], "layout": c["layout"]} for c in specs},
                      ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
