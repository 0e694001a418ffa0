"""The overview's charts as Plotly figures (JSON the embedded plotly.js draws as SVG).

Plotly because its whole script ships inside the Python package (no converter, no network: the
file works offline) and its bars take fill patterns, so each series reads in black and white by
its hatching and by the count printed on it, not by its colour alone. Every chart has a title,
axis titles with units, and is made from the overview's small binned tables, never from rows.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from importlib import resources

from ..escape import CHART, escape, script_json
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


def _t(text: object) -> str:
    """Text as a chart draws it: only as text (plotly reads HTML in every label, legend, title
    and hover text; reports/escape.py)."""
    return escape(str(text), CHART)


def count_axis(top: int) -> dict:
    """A count axis: whole ticks from 0, never two labels the same (plotly's own steps for a
    maximum of 2 are halves, which ``,d`` prints 0, 1, 1, 2, 2): a step of 1, 2 or 5 times a
    power of ten, about five ticks."""
    step = 1
    while top > 5 * step:
        step = _next_step(step)
    return {"tickmode": "linear", "tick0": 0, "dtick": step, "tickformat": ",d", "rangemode": "tozero"}


def _next_step(step: int) -> int:
    """1, 2, 5, 10, 20, 50, ...: the step after ``step``."""
    digits = str(step)
    lead, zeros = int(digits[0]), len(digits) - 1
    return (2 if lead == 1 else 5 if lead == 2 else 10) * 10**zeros


def chart_layout(title: str, x: str, y: str, **extra) -> dict:
    layout = {
        "title": {"text": _t(title), "x": 0.01, "xanchor": "left"},
        "xaxis": {"title": {"text": _t(x)}, "automargin": True, "linecolor": "#000", "ticks": "outside",
                  "tickformat": ",d"},
        "yaxis": {"title": {"text": _t(y)}, "automargin": True, "linecolor": "#000", "ticks": "outside",
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
    labels = [_t(v) for v in x]
    # The hover text names the series by plotly's own reference to it, so that a name from a
    # hand (a currency) is never part of the template (where "%{...}" would be read).
    bar = {"type": "bar", "name": _t(name), "x": y if horizontal else labels, "y": labels if horizontal else y,
           "text": text, "textposition": "outside", "cliponaxis": False,
           "marker": {"color": color, "line": {"color": "#000", "width": 1},
                      "pattern": {"shape": shape, "fgcolor": "#000", "bgcolor": "#fff" if shape else color,
                                  "solidity": 0.3}},
           "hovertemplate": "%{x}: %{y:,}<extra>%{fullData.name}</extra>"}
    if horizontal:
        bar["orientation"] = "h"
        bar["hovertemplate"] = "%{y}: %{x:,}<extra>%{fullData.name}</extra>"
    return bar


def _counts_on(layout: dict, axis: str, data: list[dict], stacked: bool = False) -> dict:
    """``layout`` with its ``axis`` a count axis for the bars of ``data`` (the other a category
    axis: a label that looks like a number or a date stays the label)."""
    values = [trace["x" if axis == "xaxis" else "y"] for trace in data]
    top = max((sum(col) for col in zip(*values, strict=True)), default=0) if stacked else \
        max((max(v, default=0) for v in values), default=0)
    layout[axis].update(count_axis(top))
    other = "yaxis" if axis == "xaxis" else "xaxis"
    if "type" not in layout[other]:
        layout[other]["type"] = "category"
        layout[other].pop("tickformat", None)
    return layout


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
    layout = chart_layout("Findings by code and severity", "findings (count)", "finding code", barmode="stack",
                     height=max(300, 120 + 26 * len(codes)))
    return {"id": "chart-findings", "data": data, "layout": _counts_on(layout, "xaxis", data, stacked=True),
            "wide": True}


def status_chart(ov: Overview) -> dict:
    labels = list(ov.status)
    data = [_bar("hands", labels, [ov.status[s] for s in labels], 0)]
    return {"id": "chart-status", "data": data, "layout": _counts_on(
        chart_layout("Hands by status", "status", "hands (count)", showlegend=False), "yaxis", data)}


def payout_chart(ov: Overview) -> dict:
    labels = list(ov.payout)
    data = [_bar("hands", labels, [ov.payout[p] for p in labels], 1)]
    return {"id": "chart-payout", "data": data, "layout": _counts_on(
        chart_layout("Payout checks by outcome", "payout check", "hands (count)", showlegend=False), "yaxis", data)}


def rake_share_chart(ov: Overview) -> dict | None:
    """The hands that paid some rake (or got more than the pot) by share; the unraked ones are
    counted in the title, where a bar of them would flatten every other."""
    bins = [(label, n) for label, n in ov.rake_share if label != ZERO_BIN]
    if not any(n for _, n in bins):
        return None
    unraked = dict(ov.rake_share).get(ZERO_BIN, 0)
    data = [_bar("hands", [label for label, _ in bins], [n for _, n in bins], 1)]
    layout = chart_layout("Rake as a share of the pot (payout mismatches left out: theirs is no rake)",
                     f"rake / pot (percent, bins of 1%; {unraked:,} more hands paid no rake)",
                     "hands whose rake is known (count)", showlegend=False)
    return {"id": "chart-rake-share", "data": data, "layout": _counts_on(layout, "yaxis", data)}


def mismatch_chart(ov: Overview) -> dict | None:
    if not ov.mismatches:
        return None
    labels = {power: label for bins in ov.mismatches.values() for power, label, _ in bins}
    order = [labels[p] for p in sorted(labels)]  # smallest differences first, whatever the currency
    data = []
    for k, (currency, bins) in enumerate(ov.mismatches.items()):
        counts = {label: n for _, label, n in bins}
        data.append(_bar(currency, order, [counts.get(b, 0) for b in order], k, stacked=True))
    layout = chart_layout("Payout mismatches by size (largest recorded minus computed payout of the hand)",
                     "difference (currency or chips, powers of ten)", "hands (count)", barmode="group",
                     showlegend=True)  # the currency named even when there is one
    layout["xaxis"]["categoryorder"] = "array"
    layout["xaxis"]["categoryarray"] = [_t(label) for label in order]
    return {"id": "chart-mismatch", "data": data, "layout": _counts_on(layout, "yaxis", data), "wide": True}


# Hands over time: bins of a day while the days span at most this, else of a month up to
# _MONTHS_UP_TO days, else of a year (a bar a day wide on a ten-year axis would not show).
_DAYS_UP_TO = 92
_MONTHS_UP_TO = 8 * 366


def time_bins(over_time: list[tuple[str, int]]) -> tuple[str, list[tuple[str, int]]]:
    """The hands per day, binned for the span they cover: (``day``|``month``|``year``, [(the
    bin's first day, hands)]) in order."""
    first, last = dt.date.fromisoformat(over_time[0][0]), dt.date.fromisoformat(over_time[-1][0])
    span = (last - first).days + 1
    unit, cut = ("day", 10) if span <= _DAYS_UP_TO else ("month", 7) if span <= _MONTHS_UP_TO else ("year", 4)
    bins: dict[str, int] = {}
    for day, n in over_time:
        key = day[:cut] + ("", "-01", "-01-01")[(10 - cut) // 3]
        bins[key] = bins.get(key, 0) + n
    return unit, sorted(bins.items())


def time_chart(ov: Overview) -> dict | None:
    """Hands per day (month, year: for the span) on a time axis, each bar its bin's width, the
    bins without hands gaps, not squeezed out; the hands without a date counted in the axis
    title and a note, never silently left out."""
    if not ov.over_time:
        return None
    unit, bins = time_bins(ov.over_time)
    starts = [d for d, _ in bins]
    data = [_bar("hands", starts, [n for _, n in bins], 0)]
    width = {"day": 1, "month": 28, "year": 334}[unit] * _DAY_MS
    data[0].update(width=[width] * len(bins), offset=[0] * len(bins))  # a bar from the bin's first day
    data[0]["hovertemplate"] = {"day": "%{x|%Y-%m-%d}", "month": "%{x|%Y-%m}", "year": "%{x|%Y}"}[unit] + \
        ": %{y:,} hands<extra></extra>"
    undated = f"; {ov.undated:,} hand{'s' if ov.undated != 1 else ''} without a date not shown" if ov.undated else ""
    layout = chart_layout(f"Hands over time, per {unit}", f"{unit} (as the files date the hands{undated})",
                     "hands (count)", showlegend=False)
    length, margin = {"day": (1, 1), "month": (31, 7), "year": (366, 90)}[unit]  # a bin, the room around
    layout["xaxis"].update(day_axis(starts[0], _day_shift(starts[-1], length - 1)))
    layout["xaxis"]["range"] = [_day_shift(starts[0], -margin), _day_shift(starts[-1], length + margin)]
    return {"id": "chart-time", "data": data, "layout": _counts_on(layout, "yaxis", data), "wide": True}


_DAY_MS = 86_400_000
# Steps of a day axis, about ten ticks at most: days, weeks, then months (plotly's "M<n>").
_DAY_STEPS: tuple[tuple[int, object, str], ...] = (
    (10, _DAY_MS, "%Y-%m-%d"), (20, 2 * _DAY_MS, "%Y-%m-%d"), (70, 7 * _DAY_MS, "%Y-%m-%d"),
    (140, 14 * _DAY_MS, "%Y-%m-%d"), (300, "M1", "%Y-%m"), (900, "M3", "%Y-%m"), (1800, "M6", "%Y-%m"))


def day_axis(first: str, last: str) -> dict:
    """A time axis of days from ``first`` to ``last`` (ISO dates): ticks a whole number of days
    or months apart, each labelled once (plotly's own steps for a few days are hours: the same
    date printed under several ticks)."""
    span = (dt.date.fromisoformat(last) - dt.date.fromisoformat(first)).days + 1
    for most, step, fmt in _DAY_STEPS:
        if span <= most:
            return {"type": "date", "tickmode": "linear", "tick0": first, "dtick": step, "tickformat": fmt}
    years = -(-span // 3650)  # about ten ticks at most
    return {"type": "date", "tickmode": "linear", "tick0": first[:4] + "-01-01", "dtick": f"M{12 * years}",
            "tickformat": "%Y"}


def _day_shift(day: str, by: int) -> str:
    return (dt.date.fromisoformat(day) + dt.timedelta(days=by)).isoformat()


def charts(ov: Overview) -> list[dict]:
    """Every chart the overview has data for, in page order."""
    made = [status_chart(ov), payout_chart(ov), findings_chart(ov), rake_share_chart(ov), mismatch_chart(ov), time_chart(ov)]
    return [c for c in made if c is not None]


def charts_json(specs: list[dict]) -> str:
    """The specs as JSON safe inside a <script> element, whatever their text holds (no ``<``,
    ``>`` or ``&`` is left in it: reports/escape.py)."""
    return script_json({c["id"]: {"data": c["data"], "layout": c["layout"]} for c in specs})
