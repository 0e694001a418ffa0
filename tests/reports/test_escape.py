"""The one escaping of text from a hand (reports/escape.py), for every output; and a whole HTML
report from hostile hands checked without a browser (tests/reports/test_html_browser.py opens it)."""

from __future__ import annotations

import json
import re

import pytest
from helpers import VALID_HAND, run_cli

from handaudit.reports.escape import CHART, HTML, SCRIPT, TERMINAL, escape, script_json

EVIL = '<b>x</b><a href="javascript:alert(1)">y</a><!--<script></script>{{ 7*7 }}&amp;\u2028\x1b[31m'


def test_each_output_gets_the_text_as_text():
    assert escape(EVIL, TERMINAL) == ('<b>x</b><a href="javascript:alert(1)">y</a><!--<script></script>{{ 7*7 }}'
                                      '&amp;\\u2028\\x1b[31m')
    assert escape(EVIL, HTML) == ("&lt;b&gt;x&lt;/b&gt;&lt;a href=&quot;javascript:alert(1)&quot;&gt;y&lt;/a&gt;"
                                  "&lt;!--&lt;script&gt;&lt;/script&gt;{{ 7*7 }}&amp;amp;\\u2028\\x1b[31m")
    # plotly decodes &amp; &lt; &gt; once: the chart shows the very text, never its markup
    assert escape(EVIL, CHART) == ('&lt;b&gt;x&lt;/b&gt;&lt;a href="javascript:alert(1)"&gt;y&lt;/a&gt;'
                                   '&lt;!--&lt;script&gt;&lt;/script&gt;{{ 7*7 }}&amp;amp;\\u2028\\x1b[31m')
    assert escape("plain text 1.50 USD", HTML) == "plain text 1.50 USD"
    with pytest.raises(ValueError):
        escape("x", "pdf")


def test_the_script_data_block_can_hold_any_text():
    text = script_json({"k": [EVIL, "</script>", "<!--", "\u2029"]})
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == {"k": [EVIL, "</script>", "<!--", "\u2029"]}
    assert escape('"<"', SCRIPT) == '"\\u003c"'


def test_a_report_from_hostile_hands_keeps_their_text_out_of_the_markup(tmp_path):
    pytest.importorskip("jinja2")
    pytest.importorskip("plotly")
    from handaudit.reports.html.charts import plotly_js

    evil = "<!--<script>" + EVIL.replace("\x1b", "").replace("\u2028", "")
    fields = "".join(f"{k} = '''{evil}'''\n" for k in ("venue", "table", "event", "currency"))
    short = VALID_HAND.replace("winnings = [0, 0, 0.25]", "winnings = [0, 0, 0.20]")
    (tmp_path / "h.phhs").write_text(f"[1]\n{short}{fields}\n[2]\n{VALID_HAND}{fields}\n", encoding="utf-8")
    out, html = tmp_path / "r", tmp_path / "r.html"
    assert run_cli("check", str(tmp_path / "h.phhs"), "--out", str(out), "--fail-on", "never").returncode == 0
    r = run_cli("report", str(out), "-o", str(html))
    assert r.returncode == 0, r.stderr
    page = html.read_text(encoding="utf-8").replace(plotly_js(), "")
    block = re.search(r'<script type="application/json" id="chart-specs">(.*?)</script>', page, re.S).group(1)
    assert not set("<>&") & set(block)  # no <!--, <script or </ can form in the data block
    assert "<b>x</b>" not in page
    assert not re.search(r"""href\s*=\s*["']?\s*javascript:""", page)  # (as text, &quot; quoted, it is there)
    assert page.count("<script") == 3 and page.count("<!--") == 0
    assert "&lt;b&gt;x&lt;/b&gt;" in page  # the text shown, as text


def test_the_terminal_summary_writes_a_hands_currency_through_the_same_escape():
    from handaudit.reports.summary import Summary
    from handaudit.reports.text import render_summary

    s = Summary()
    s.add("valid", (), "match", 5, 2, "a.phh", 0, "", currency="\x1b]0;owned\x07<b>US</b>")
    s.add("invalid", (), "mismatch", -100, 2, "a.phh", 1, "", currency="USD")
    text = render_summary(s)
    assert "\x1b" not in text and "\x07" not in text
    assert "Rake (hands with recorded winnings that pay out as settled): \\x1b]0;owned\\x07<b>US</b> 0.05 over 1 hand" \
        in text
    # the mismatch's -1.00 is no rake: it is the unexplained shortfall, apart
    assert "Unexplained shortfall, not rake" in text and "USD -1.00 over 1 hand" in text
    assert "USD -1.00" not in text.split("Unexplained shortfall")[0]
