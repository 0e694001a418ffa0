"""The HTML report: one self-contained file (styles, scripts and chart library inside, no network
fetch) with the overview of a Parquet report, its charts, the flagged hands' table and a page per
hand for the worst N; and one hand's printable page for ``explain --html``.

``data`` reads the report (Arrow datasets), ``overview`` computes the figures with Arrow compute,
``charts`` makes the Plotly figures, ``pages`` picks the hands and builds their pages
(``handview``), and the Jinja2 templates in ``templates/`` lay them out.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from ..escape import HTML, escape
from ..layout import OutputError
from .data import Report
from .overview import HAND_COLUMNS, compute

DEFAULT_HANDS = 200  # hand pages in a report file: the worst N flagged hands
MAX_BYTES = 9_900_000  # the file stays under 10 MB (10**7 bytes): fewer hand pages if theirs would not fit
_MIN_PAGE_BYTES = 700  # a hand page costs at least its line of the flagged hands' table (_row_bytes)
_PAGE_BATCH = 256  # hand pages made at once


class HtmlUnavailable(OutputError):
    """A library the HTML report needs is not installed (one line for the user, exit status 2)."""


@dataclass
class Written:
    path: str
    bytes: int
    hands: int  # hands in the report
    pages: int  # hand pages written
    seconds: float


def _env():
    try:
        import jinja2
    except ModuleNotFoundError as err:
        raise HtmlUnavailable("the HTML report needs Jinja2 and plotly: pip install 'handaudit[html]'") from err
    env = jinja2.Environment(loader=jinja2.PackageLoader("handaudit.reports.html", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, finalize=_html_text)
    env.filters["thousands"] = lambda n: f"{n:,}"
    return env


def _html_text(value: object) -> object:
    """Every text a template writes, through the one escaping of the reports (reports/escape.py:
    markup and controls written as text); what a template already made safe (``Markup``: a hand's
    page, the data block) as it is."""
    from markupsafe import Markup

    if isinstance(value, str) and not isinstance(value, Markup):
        return Markup(escape(value, HTML))
    return value


def _version() -> str:
    from ... import __version__

    return __version__


# What the report's facts call a Parquet report that ``check --html`` wrote without ``--out``: it is
# removed once the HTML file is written, so its (temporary) path would name nothing.
NOT_KEPT = "not kept (check --html without --out: only this file was written)"


def _run_facts(directory: str, kept: bool = True) -> tuple[list[tuple[str, str]], str | None]:
    from ..layout import read_manifest

    manifest = read_manifest(directory)
    facts = [("report", directory if kept else NOT_KEPT), ("written by", f"handaudit {_version()}")]
    if manifest is None:
        return facts, "No _manifest.json: the run that wrote this report did not finish; the report is incomplete."
    if manifest.get("rulebook"):
        facts.append(("rulebook", str(manifest["rulebook"])))
    if manifest.get("overrides"):
        facts.append(("overrides", ", ".join(map(str, manifest["overrides"]))))
    inputs = manifest.get("inputs")
    if isinstance(inputs, list):
        facts.append(("inputs", ", ".join(map(str, inputs[:5])) + (f" and {len(inputs) - 5} more" if len(inputs) > 5 else "")))
    note = None
    if manifest.get("status") != "complete":
        note = (f"This report is incomplete: the run that wrote it was {manifest.get('status')}; "
                f"{manifest.get('hands', 0):,} hands are in it.")
    return facts, note


def render_report(directory: str | os.PathLike, hands: int = DEFAULT_HANDS, kept: bool = True) -> tuple[str, int, int]:
    """The HTML text of the report in ``directory``; with the hands counted and pages made.
    ``kept``: False when ``directory`` is a temporary one removed after (``check --html`` without
    ``--out``): the page then names the run's inputs, never that directory."""
    from .charts import ChartsUnavailable, charts, charts_json, plotly_js
    from .pages import flagged, report_pages, worst

    env = _env()
    try:
        script = plotly_js()
    except ChartsUnavailable as err:
        raise HtmlUnavailable(str(err)) from None
    directory = os.fspath(directory)
    report = Report(directory)
    table = report.read("hands", HAND_COLUMNS)
    ov = compute(report, table)
    n_flagged = flagged(table).num_rows
    # No more hands than the size cap can hold (a page costs at least its table line): memory is
    # bounded by the cap, not by --hands N.
    chosen = worst(table, min(hands, MAX_BYTES // _MIN_PAGE_BYTES))
    del table
    hand = env.get_template("hand.html.j2").module.hand  # type: ignore[attr-defined]
    specs = charts(ov)
    from .sessions import session_charts

    specs += session_charts(directory)  # the cross-hand pass's sessions, when the report has them
    drawn = {c["id"] for c in specs}
    notes = list(ov.notes)
    if "chart-findings" not in drawn:
        notes.append("Findings by code and severity: no finding in the report, nothing to draw.")
    if "chart-rake-share" not in drawn:
        notes.append("Rake as a share of the pot: no hand that pays out as settled paid rake, nothing to draw.")
    if "chart-mismatch" not in drawn:
        notes.append("Payout mismatches by size: no payout mismatch with a known difference, nothing to draw.")
    run, incomplete = _run_facts(directory, kept)
    template = env.get_template("report.html.j2")
    inputs = [v for k, v in run if k == "inputs"]
    title = directory if kept else (inputs[0] if inputs else "check --html")
    values = dict(title=title, ov=ov, run=run, incomplete=incomplete, charts=specs, charts_json=charts_json(specs),
                  notes=notes, flagged=n_flagged, plotly_js=script)
    base = len(template.render(**values, rows=[], pages=[], cut=0).encode("utf-8"))
    used = base
    pages: list[dict] = []
    full = False
    for start in range(0, len(chosen), _PAGE_BATCH):  # the worst first, a batch at a time, to the cap
        for p in report_pages(report, chosen[start:start + _PAGE_BATCH], start):
            p["html"] = hand(p)
            used += len(p["html"].encode("utf-8")) + _row_bytes(p["row"])
            if used > MAX_BYTES:
                full = True
                break
            pages.append(p)
        if full:
            break
    fit = len(pages)
    pages_total = len(chosen)
    while True:  # the estimate of a table line is generous; the file's real size decides
        html = template.render(**values, rows=[p["row"] for p in pages[:fit]], pages=pages[:fit],
                               cut=pages_total - fit)
        if fit == 0 or len(html.encode("utf-8")) <= MAX_BYTES:
            return html, ov.hands, fit
        fit -= 1


def _row_bytes(row: dict) -> int:
    """A generous bound on the flagged hands' table line of a page (its text appears twice)."""
    return 700 + 2 * sum(len(str(v).encode("utf-8")) for v in row.values())


def write_report(directory: str | os.PathLike, out: str | os.PathLike, hands: int = DEFAULT_HANDS,
                 kept: bool = True) -> Written:
    """Write the HTML report of ``directory`` to ``out`` (replaced whole: written beside it, renamed)."""
    start = time.perf_counter()
    html, n, pages = render_report(directory, hands, kept)
    data = html.encode("utf-8")
    _write_file(os.fspath(out), data)
    return Written(os.fspath(out), len(data), n, pages, time.perf_counter() - start)


def render_hand(report) -> str:
    """One audited hand's page (a HandReport), as a standalone printable document."""
    from .pages import live_page

    env = _env()
    return env.get_template("hand_doc.html.j2").render(page=live_page(report), version=_version())


def write_hand(report, out: str | os.PathLike) -> int:
    data = render_hand(report).encode("utf-8")
    _write_file(os.fspath(out), data)
    return len(data)


def _write_file(path: str, data: bytes) -> None:
    """Through the one safe writer (reports/safe_file.py): a random temporary name beside it,
    exclusive and no-follow, renamed over a regular file only; removed on every exit path."""
    from ..safe_file import write_file

    write_file(path, data, "")
