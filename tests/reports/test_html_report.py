"""The HTML report's figures, pages and commands, without a browser (tests/reports/test_html_browser.py
opens the files in Chromium).

A five-hand .phhs file with known money: [1] valid, rake 0; [2] in USD, winnings 0.01 short of
the pot; [3] winnings 0.15 short; [4] p1 acting out of turn; [5] unreadable.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from helpers import OUT_OF_TURN_HAND, VALID_HAND, run_cli

import handaudit
from handaudit.reports.html import charts, write_report
from handaudit.reports.html.data import Report
from handaudit.reports.html.overview import HAND_COLUMNS, compute, decade_label, percent_text
from handaudit.reports.html.pages import live_page, report_pages, worst

pytest.importorskip("jinja2")
pytest.importorskip("plotly")

USD = (VALID_HAND.replace("winnings = [0, 0, 0.25]", "winnings = [0, 0, 0.24]")
       .replace("[9.95, 26.75, 5.15]", "[9.95, 26.75, 5.14]") + "currency = 'USD'\nvenue = 'Casino A'\n"
       "year = 2026\nmonth = 7\nday = 1\ntime = 21:30:00\ntime_zone = 'America/Toronto'\n")
SHORT = (VALID_HAND.replace("winnings = [0, 0, 0.25]", "winnings = [0, 0, 0.10]")
         .replace("[9.95, 26.75, 5.15]", "[9.95, 26.75, 5.00]") + "year = 2026\nmonth = 7\nday = 2\n")
BROKEN = "variant = 'NT'\nantes = [0, 0\n"
HANDS = [VALID_HAND, USD, SHORT, OUT_OF_TURN_HAND, BROKEN]


@pytest.fixture(scope="module")
def mix(tmp_path_factory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("mix")
    phhs = tmp / "mix.phhs"
    phhs.write_text("".join(f"[{i + 1}]\n{h}\n" for i, h in enumerate(HANDS)), encoding="utf-8")
    out = tmp / "report"
    r = run_cli("check", str(phhs), "--out", str(out), "--fail-on", "never", text=True)
    assert r.returncode == 0, r.stderr
    return phhs, out


def _overview(out: Path):
    report = Report(out)
    return compute(report, report.read("hands", HAND_COLUMNS))


def test_overview_counts_and_exact_rake(mix):
    _, out = mix
    ov = _overview(out)
    assert ov.hands == 5
    assert ov.status == {"valid": 1, "invalid": 3, "unreadable": 1}
    assert ov.payout == {"match": 1, "mismatch": 3, "not-recorded": 0, "undetermined": 0, "none (unreadable)": 1}
    # Rake: only [1] pays out as settled (0 of 0.25); a payout mismatch's pot minus recorded
    # winnings is an unexplained shortfall, not rake: USD 0.01 of 0.25; unnamed 0.15 - 0.05 of 0.45
    assert [(r.currency, r.hands, r.rake, r.pots, r.share) for r in ov.rake] == [
        ("no currency (scale 2)", 1, "0.00", "0.25", "0.00%")]
    assert [(r.currency, r.hands, r.rake, r.pots, r.share) for r in ov.shortfall] == [
        ("USD", 1, "0.01", "0.25", "4.00%"), ("no currency (scale 2)", 2, "0.10", "0.45", "22.22%")]
    assert dict(ov.rake_share) == {"0 (no rake)": 1, "0-1%": 0, "1-2%": 0, "2-3%": 0, "3-4%": 0,
                                   "4-5%": 0, "5-6%": 0, "6-7%": 0, "7-8%": 0, "8-9%": 0, "9-10%": 0,
                                   "10% or more": 0}  # no "below 0": the mismatches are out
    # the largest recorded-minus-computed payout: 0.01 (USD), 0.15 and [4]'s, binned by powers of ten
    assert ov.mismatches == {"USD": [(-2, "0.01 to 0.1", 1)], "no currency (scale 2)": [(-1, "0.1 to 1", 2)]}
    assert ("out-of-turn", "error", 1) in ov.findings and ("syntax-error", "error", 1) in ov.findings
    [source, venue, variant] = ov.breakdowns
    assert (source.column, venue.column, variant.column) == ("source", "venue", "variant")
    assert venue.rows == [
        {"label": "(none)", "hands": 4, "valid": 1, "invalid": 2, "unreadable": 1, "errors": 3, "mismatch": 2,
         "rake": "0.00 no currency (scale 2)"},
        {"label": "Casino A", "hands": 1, "valid": 0, "invalid": 1, "unreadable": 0, "errors": 1, "mismatch": 1,
         "rake": ""}]
    # (the unreadable hand's variant is the one written in its text)
    assert variant.rows == [{"label": "NT", "hands": 5, "valid": 1, "invalid": 3, "unreadable": 1, "errors": 4,
                             "mismatch": 3, "rake": "0.00 no currency (scale 2)"}]
    # the local date the file gives: 2026-07-01 21:30 in Toronto is 07-02 in UTC, counted on 07-01
    assert ov.over_time == [("2026-07-01", 1), ("2026-07-02", 1)]
    # the three others have no date: counted and said, not silently left out
    assert ov.undated == 3
    assert ov.notes == ["Hands over time: 3 hands of 5 have no date (no year, month and day in the file) and "
                        "are not in the chart."]


def test_exact_helpers():
    assert percent_text(1, 3) == "33.33%" and percent_text(2, 3) == "66.67%" and percent_text(0, 5) == "0.00%"
    assert percent_text(-5, 20) == "-25.00%" and percent_text(1, 0) == "-" and percent_text(-1, 10**6) == "0.00%"
    assert decade_label(15, 2) == (-1, "0.1 to 1")
    assert decade_label(2_500_000, 0) == (6, "1,000,000 to 10,000,000")
    assert decade_label(1, 2) == (-2, "0.01 to 0.1")


def test_worst_hands_first(mix):
    _, out = mix
    report = Report(out)
    chosen = worst(report.read("hands", HAND_COLUMNS), 10)
    # every hand but [1] is flagged; most errors first: [4] (6), then [2] and [3] (4 each), [5] (1)
    assert [h["hand_key"] for h in chosen] == ["4", "2", "3", "5"]
    assert [h["hand_key"] for h in worst(report.read("hands", HAND_COLUMNS), 2)] == ["4", "2"]


def test_the_report_page_shows_what_the_live_page_shows(mix):
    """The page from the Parquet rows and the page of explain --html (hand_rows) are the same."""
    phhs, out = mix
    report = Report(out)
    [from_report] = report_pages(report, [h for h in worst(report.read("hands", HAND_COLUMNS), 10)
                                          if h["hand_key"] == "3"])
    live = [r for r in handaudit.audit([str(phhs)]) if r.read.hand_key == "3"][0]
    page = live_page(live)
    for key in ("title", "facts", "general", "streets", "pots", "ledger", "showdown", "checks", "pot_total"):
        assert from_report[key] == page[key], key
    assert from_report["pot_total"] == "0.25"
    p3 = page["ledger"][2]
    assert (p3["put_in"], p3["returned"], p3["received"], p3["winnings"], p3["won_differs"]) == \
           ("0.30", "0.20", "0.25", "0.10", True)
    assert [c for c, ok in page["checks"]] == ["put in 0.45 = in pots 0.25 + returned 0.20",
                                               "won from pots 0.25 = in pots 0.25"]
    assert all(ok for _, ok in page["checks"])


def test_live_page_of_a_sample(repo):
    [report] = list(handaudit.audit([str(repo / "samples" / "short-all-in-not-reopened.phh")]))
    page = live_page(report)
    assert [s["name"] for s in page["streets"]] == ["preflop", "flop"]
    flop = page["streets"][1]
    assert [c.rank + c.symbol for c in flop["board"]] == ["A\u2663", "K\u2666", "7\u2665"]
    by_index = {a["index"]: a for s in page["streets"] for a in s["actions"]}
    assert (by_index[9]["kind"], by_index[9]["to"], by_index[9]["allowed"]) == ("raise (all in)", "130", "130 to 130")
    assert (by_index[10]["pot"], by_index[10]["to_call"], by_index[10]["put_in"]) == ("360", "30", "30")
    assert by_index[4]["allowed"] == "20 to 1,000"  # grouped in threes, as settle and explain print
    [f] = by_index[10]["findings"]
    assert (f["code"], f["rule"], f["actor"]) == ("betting-not-reopened", "TDA 2026, Rule 49", "p1")
    assert f["ruling"].startswith("A player who already acted")
    [pot] = page["pots"]
    assert (pot["name"], pot["amount"], pot["eligible"]) == ("Main pot", "420", "p1, p2, p3")
    assert [r["state"] for r in page["ledger"]] == ["in", "in", "all in"]
    assert [g["code"] for g in page["general"]] == ["incomplete-hand"]


def test_showdown_odd_chips_and_side_pots(repo):
    """The showdown hands and awards as `handaudit settle` gives them for the same samples."""
    [split] = list(handaudit.audit([str(repo / "samples" / "odd-chip-split.phh")]))
    page = live_page(split)
    assert page["showdown"] == ["p2 3h4d: high: royal flush", "p3 5c6d: high: royal flush"]
    [pot] = page["pots"]
    assert (pot["amount"], pot["eligible"]) == ("5", "p2, p3")
    assert [(a["player"], a["amount"], a["hand"], a["odd"]) for a in pot["awards"]] == [
        ("p2", "3", "royal flush", True), ("p3", "2", "royal flush", False)]
    assert "odd chips: to p2" in pot["reason"]
    [side] = list(handaudit.audit([str(repo / "samples" / "side-pots-and-return.phh")]))
    page = live_page(side)
    assert [(p["name"], p["amount"], p["eligible"], [a["player"] for a in p["awards"]]) for p in page["pots"]] == [
        ("Main pot", "150", "p1, p2, p3", ["p1"]), ("Side pot 1", "140", "p2, p3", ["p2"])]
    assert [(r["player"], r["put_in"], r["returned"], r["received"], r["net"]) for r in page["ledger"]] == [
        ("p1", "50", "0", "150", "+100"), ("p2", "120", "0", "140", "+20"), ("p3", "200", "80", "0", "-120")]
    assert page["showdown"][0] == "p1 KhKd: high: three of a kind, kings, kickers J-9"


def test_charts_are_valid_plotly_figures(mix):
    import plotly.graph_objects as go

    _, out = mix
    specs = charts.charts(_overview(out))
    # (no rake share: the one hand that pays out as settled paid no rake)
    assert [c["id"] for c in specs] == ["chart-status", "chart-payout", "chart-findings", "chart-mismatch",
                                        "chart-time"]
    by_id = {c["id"]: c for c in specs}
    time = by_id["chart-time"]["layout"]
    # a real time axis: ticks a day apart, each date written once (plotly's own were hours)
    assert (time["xaxis"]["type"], time["xaxis"]["dtick"], time["xaxis"]["tickformat"]) == ("date", 86_400_000,
                                                                                           "%Y-%m-%d")
    assert "3 hands without a date not shown" in time["xaxis"]["title"]["text"]
    # counts of at most 3: whole ticks one apart (plotly's own steps were halves: 0, 1, 1, 2, 2)
    assert by_id["chart-payout"]["layout"]["yaxis"]["dtick"] == 1
    assert by_id["chart-findings"]["layout"]["xaxis"]["dtick"] == 1
    for c in specs:
        fig = go.Figure(data=c["data"], layout=c["layout"])  # raises on a property plotly does not have
        assert fig.layout.title.text
        assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text
        for trace in fig.data:  # every bar carries its number and a pattern or a solid fill
            assert trace.text is not None and trace.marker.line.color == "#000"


def test_report_file_is_self_contained(mix, tmp_path):
    _, out = mix
    html_path = tmp_path / "r.html"
    written = write_report(out, html_path)
    assert (written.hands, written.pages) == (5, 4)
    text = html_path.read_text(encoding="utf-8")
    assert written.bytes == len(text.encode("utf-8")) < 10_000_000
    # nothing fetched: no src/href to another place (outside plotly.js's own text, which names
    # its map servers), a policy that forbids any fetch, plotly inline
    assert charts.plotly_js() in text
    ours = text.replace(charts.plotly_js(), "")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", ours)
    assert "default-src 'none'" in text
    assert text.count("<script") == 3 and "Plotly" in text
    for k in range(1, 5):
        assert f'id="hand-{k}"' in text and f'href="#hand-{k}"' in text
    assert "out-of-turn" in text and "syntax-error" in text


def test_size_cap_drops_pages(mix, tmp_path, monkeypatch):
    import handaudit.reports.html as H

    _, out = mix
    full = write_report(out, tmp_path / "full.html")
    monkeypatch.setattr(H, "MAX_BYTES", full.bytes - 2_000)  # room for all but the last page or two
    cut = write_report(out, tmp_path / "cut.html")
    assert 0 < cut.pages < full.pages and cut.bytes <= H.MAX_BYTES
    assert "more pages were left out to keep this file under 10 MB" in (tmp_path / "cut.html").read_text()


def test_a_report_without_venue_and_time_columns_leaves_them_out_with_a_note(mix, tmp_path):
    """A report written before the hands table had `venue`, `date` and `timestamp` (schema 2)
    still opens: the per-venue table and the chart of hands over time are left out, each with a
    note saying why."""
    _, out = mix
    copy = tmp_path / "report"
    for table in ("actions", "findings", "pots", "players", "hands"):
        (copy / table).mkdir(parents=True)
        for part in (out / table).glob("part-*.parquet"):
            t = pq.read_table(part)
            if table == "hands":
                t = t.drop_columns(["venue", "date", "time", "timestamp"])
            pq.write_table(t, copy / table / part.name)
    ov = _overview(copy)
    assert [b.column for b in ov.breakdowns] == ["source", "variant"]
    assert ov.over_time is None
    assert any("venue" in n for n in ov.notes) and any("timestamp" in n for n in ov.notes)
    assert "chart-time" not in [c["id"] for c in charts.charts(ov)]


def _main(capsys, *args: str) -> tuple[int, str, str]:
    """The command line in this process (a child costs seconds): exit status, stdout, stderr."""
    from handaudit.cli import main

    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out, err = capsys.readouterr()
    return int(stop.value.code or 0), out, err


def test_report_command(mix, tmp_path, capsys):
    _, out = mix
    code, stdout, stderr = _main(capsys, "report", str(out), "--hands", "2")
    assert code == 0
    default = Path(str(out) + ".html")
    # the file written is said on standard error, as check --html says it
    assert default.is_file() and "2 hand pages" in stderr and stdout == ""
    assert default.read_text(encoding="utf-8").count('class="hand-page"') == 2
    code, _, err = _main(capsys, "report", str(tmp_path))
    assert code == 2 and "not a handaudit report" in err and "Traceback" not in err
    code, _, err = _main(capsys, "report", str(out), "-o", str(tmp_path))
    assert code == 2 and "is a directory" in err
    code, _, err = _main(capsys, "report", str(out), "-o", str(tmp_path / "missing" / "r.html"))
    assert code == 2 and "no such directory" in err


def test_check_html_without_out_leaves_no_directory(mix, tmp_path):
    phhs, _ = mix
    temp = tmp_path / "tmp"
    temp.mkdir()
    html_path = tmp_path / "check.html"
    r = run_cli("check", str(phhs), "--html", str(html_path), env={"TMPDIR": str(temp)}, text=True)
    assert r.returncode == 1, r.stderr  # error findings: exit status 1 as without --html
    assert "HTML report: " in r.stderr and html_path.is_file()
    assert os.listdir(temp) == []  # the temporary Parquet report is gone
    assert "Report: " not in r.stdout  # no report directory to point to
    text = html_path.read_text(encoding="utf-8")
    assert str(temp) not in text and "handaudit-html-" not in text  # nor does the page name the removed one
    assert "report: not kept (check --html without --out" in text and str(phhs) in text


def test_explain_html(mix, tmp_path, capsys):
    phhs, _ = mix
    code, _, err = _main(capsys, "explain", str(phhs), "--html", str(tmp_path / "x.html"))
    assert code == 2 and "5 hands match" in err and "--hand KEY" in err
    code, stdout, _ = _main(capsys, "explain", str(phhs), "--hand", "4", "--html", str(tmp_path / "x.html"))
    assert code == 0 and "hand page: " in stdout
    text = (tmp_path / "x.html").read_text(encoding="utf-8")
    assert "out-of-turn" in text and "<script" not in text and "default-src 'none'" in text
    code, _, _ = _main(capsys, "explain", str(phhs), "--hand", "5", "--html", str(tmp_path / "u.html"))
    assert code == 0 and "could not be read" in (tmp_path / "u.html").read_text(encoding="utf-8")


def test_count_axes_have_whole_distinct_ticks():
    for top in [*range(0, 300), 999, 1000, 1001, 12_345, 10**9]:
        axis = charts.count_axis(top)
        step = axis["dtick"]
        assert isinstance(step, int) and step >= 1 and str(step).strip("0") in ("1", "2", "5")
        assert top <= 5 * step and (step == 1 or top > 2 * step)  # about five ticks, never 0.5 steps
        assert (axis["tickmode"], axis["tick0"], axis["tickformat"]) == ("linear", 0, ",d")


def test_chart_text_from_a_hand_reaches_the_chart_as_text(mix):
    """A currency (any text from a hand) in a legend, a label or a category: written with
    character references plotly decodes as text, never as its <a>, <b> markup; the data block
    holds no < > & at all, so no <!--, <script or </ can form in it."""
    import json

    from handaudit.reports.html.overview import Overview

    evil = '<a href="javascript:alert(1)">Click</a><!--<script>&amp;\u2028'
    ov = Overview(hands=1, status={evil: 1}, payout={"match": 1}, rake=[], shortfall=[], breakdowns=[],
                  findings=[(evil, "error", 2)], rake_share=[], mismatches={evil: [(0, evil, 1)]},
                  over_time=[("2026-07-01", 1)])
    specs = charts.charts(ov)
    text = charts.charts_json(specs)
    assert not set("<>&\u2028\u2029") & set(text)
    back = json.loads(text)
    shown = '&lt;a href="javascript:alert(1)"&gt;Click&lt;/a&gt;&lt;!--&lt;script&gt;&amp;amp;\\u2028'
    assert back["chart-mismatch"]["data"][0]["name"] == shown
    assert back["chart-mismatch"]["data"][0]["x"] == [shown]
    assert back["chart-mismatch"]["layout"]["xaxis"]["categoryarray"] == [shown]
    assert back["chart-status"]["data"][0]["x"] == [shown]
    assert back["chart-findings"]["data"][0]["y"] == [shown]
    for c in back.values():  # a name is never part of a hover template
        for trace in c["data"]:
            assert "Click" not in trace["hovertemplate"]


def test_day_axes_label_each_tick_once():
    import datetime as dt

    first = dt.date(2026, 1, 1)
    for span in [*range(1, 400), 899, 900, 901, 1800, 1801, 5000, 20_000]:
        last = (first + dt.timedelta(days=span - 1)).isoformat()
        axis = charts.day_axis(first.isoformat(), last)
        step = axis["dtick"]
        if isinstance(step, int):  # days: at most about ten ticks, whole days apart, a date each
            assert step % 86_400_000 == 0 and span / (step // 86_400_000) <= 10 and axis["tickformat"] == "%Y-%m-%d"
        else:  # months: a month or more apart, labelled by month or year
            months = int(step[1:])
            assert months >= 1 and span / (30 * months) <= 12
            assert axis["tickformat"] == ("%Y-%m" if months < 12 else "%Y")


def test_hands_over_time_are_binned_for_their_span():
    """Days while they span three months, then months, then years: a bar is its bin's width
    (plotly widened a lone day's bar to the gap between days: 255 hands of 2009 drawn over
    2009-2011)."""
    days = [("2009-07-01", 250), ("2009-07-02", 5), ("2019-03-01", 1), ("2024-05-05", 45)]
    unit, bins = charts.time_bins(days)
    assert (unit, bins) == ("year", [("2009-01-01", 255), ("2019-01-01", 1), ("2024-01-01", 45)])
    assert charts.time_bins(days[:2]) == ("day", [("2009-07-01", 250), ("2009-07-02", 5)])
    assert charts.time_bins([days[0], ("2011-01-31", 2)]) == ("month", [("2009-07-01", 250), ("2011-01-01", 2)])
    from handaudit.reports.html.overview import Overview

    ov = Overview(hands=302, status={}, payout={}, rake=[], shortfall=[], breakdowns=[], findings=[], rake_share=[],
                  mismatches={}, over_time=days, undated=1)
    chart = charts.time_chart(ov)
    [bar] = chart["data"]
    assert bar["x"] == ["2009-01-01", "2019-01-01", "2024-01-01"] and bar["y"] == [255, 1, 45]
    assert set(bar["width"]) == {334 * 86_400_000} and set(bar["offset"]) == {0}
    assert chart["layout"]["title"]["text"] == "Hands over time, per year"
    assert "1 hand without a date not shown" in chart["layout"]["xaxis"]["title"]["text"]


def test_hand_pages_are_made_to_the_cap_not_to_n(mix, tmp_path, monkeypatch):
    """report --hands N: the pages are made a batch at a time and stop at the size cap, and N is
    bounded by what the cap can hold (issue #38, item 7): memory follows the cap, not N."""
    import handaudit.reports.html as H
    from handaudit.reports.html import pages as P

    _, out = mix
    made: list[int] = []
    real = P.report_pages

    def counting(report, chosen, first=0):
        made.append(len(chosen))
        return real(report, chosen, first)

    monkeypatch.setattr(H, "report_pages", counting, raising=False)
    monkeypatch.setattr(P, "report_pages", counting)
    monkeypatch.setattr(H, "_PAGE_BATCH", 1)
    full = write_report(out, tmp_path / "full.html", hands=10**9)  # N far past anything: no error, no blow-up
    assert full.pages >= 2 and sum(made) == full.pages
    made.clear()
    monkeypatch.setattr(H, "MAX_BYTES", full.bytes - 2_000)
    cut = write_report(out, tmp_path / "cut.html", hands=10**9)
    assert sum(made) <= cut.pages + 1  # no page made past the first that does not fit
    html = (tmp_path / "cut.html").read_text()
    assert 'id="hand-1"' in html and "more pages were left out" in html
