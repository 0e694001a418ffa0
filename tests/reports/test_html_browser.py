"""The HTML report in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, which .ci/run installs) driven by selenium.

Each page must load with no console error and no network request (everything is in the file),
draw every chart (a non-empty SVG), reach a hand page from the flagged hands' table, filter and
sort that table; screenshots of the overview and of a hand page are saved under
``$HANDAUDIT_SCREENSHOTS`` (default: the temporary directory) ``/handaudit-screenshots/``.
Without a browser these tests are skipped, with the reason; under CI they fail instead.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from helpers import in_ci, run_cli

pytestmark = pytest.mark.slow  # a browser start and a 6 MB page: several seconds each

SHOTS = Path(os.environ.get("HANDAUDIT_SCREENSHOTS", tempfile.gettempdir())) / "handaudit-screenshots"


def _browser_or_skip() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    missing = []
    if chromium is None:
        missing.append("chromium")
    if driver is None:
        missing.append("chromedriver (Debian: chromium-driver)")
    try:
        import selenium  # noqa: F401
    except ModuleNotFoundError:
        missing.append("the selenium package (pip install -e '.[test]')")
    if missing:
        reason = "no browser to test the HTML report in: missing " + ", ".join(missing) + \
                 " (apt-get install -y chromium chromium-driver)"
        if in_ci():
            pytest.fail(reason)
        pytest.skip(reason)
    assert chromium is not None and driver is not None
    return chromium, driver


@pytest.fixture(scope="module")
def browser():
    chromium, driver_path = _browser_or_skip()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1300,1800", "--no-first-run", "--disable-extensions"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=opts)
    try:
        yield driver
    finally:
        driver.quit()


def _open(driver, path: Path) -> None:
    driver.get_log("browser")  # drop what an earlier page left
    driver.get_log("performance")
    driver.get(path.as_uri())


def _problems(driver) -> tuple[list[str], list[str]]:
    """Console messages of level SEVERE, and every request for anything but the file itself."""
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    requests = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            url = msg["params"]["request"]["url"]
            if not url.startswith(("file:", "data:", "blob:", "about:")):
                requests.append(url)
    return errors, requests


def _screenshot(driver, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    height = driver.execute_script("return Math.min(document.documentElement.scrollHeight, 6000)")
    driver.set_window_size(1300, max(900, height))
    path = SHOTS / name
    assert driver.save_screenshot(str(path))
    driver.set_window_size(1300, 1800)
    return path


def _wait_for_charts(driver) -> int:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 60).until(
        lambda d: d.execute_script("return document.body.dataset.charts !== undefined && "
                                   "document.body.dataset.chartsDrawn === document.body.dataset.charts"))
    return int(driver.execute_script("return document.body.dataset.charts"))


@pytest.fixture(scope="module")
def corpus_html(tmp_path_factory, corpus):
    tmp = tmp_path_factory.mktemp("html")
    out = tmp / "real"
    r = run_cli("check", str(corpus / "real"), "--out", str(out), "--fail-on", "never", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    html = tmp / "real.html"
    r = run_cli("report", str(out), "-o", str(html))
    assert r.returncode == 0, r.stderr
    return html


def _check_overview(driver, html: Path, shot: str) -> int:
    """Open a report file: every chart drawn as an SVG with bars and a title, no console error,
    no request; the overview's screenshot saved. The number of charts."""
    _open(driver, html)
    n = _wait_for_charts(driver)
    charts = driver.execute_script("""
        return Array.from(document.querySelectorAll('div.chart')).map(function (el) {
          var svg = el.querySelector('svg.main-svg');
          return [el.id, svg ? svg.getBoundingClientRect().width : 0,
                  el.querySelectorAll('.bars .point path, .point path').length,
                  (el.querySelector('.gtitle') || {}).textContent || ''];
        });""")
    assert len(charts) == n
    for chart_id, width, bars, title in charts:
        assert width > 100, chart_id
        assert bars > 0, f"{chart_id}: no bar drawn"
        assert title, f"{chart_id}: no title"
    errors, requests = _problems(driver)
    assert errors == []
    assert requests == []
    print("overview screenshot:", _screenshot(driver, shot))
    return n


def _check_hand_page(driver, row, shot: str) -> str:
    """Follow a table line's link: its page shown, the overview hidden, cards drawn; back again."""
    from selenium.webdriver.common.by import By

    link = row.find_element(By.CSS_SELECTOR, "a")
    target = link.get_attribute("href").split("#", 1)[1]
    link.click()
    page = driver.find_element(By.ID, target)
    assert page.is_displayed()
    assert not driver.find_element(By.ID, "overview").is_displayed()
    text = page.text
    assert "Replay" in text or "could not be read" in text
    errors, requests = _problems(driver)
    assert errors == [] and requests == []
    print("hand page screenshot:", _screenshot(driver, shot))
    driver.find_element(By.CSS_SELECTOR, f"#{target} a.back").click()
    assert driver.find_element(By.ID, "overview").is_displayed()
    return text


def test_overview_draws_every_chart_offline(browser, corpus_html):
    n = _check_overview(browser, corpus_html, "overview.png")
    assert n == 6  # status, payout, findings, rake share, mismatches, hands per day (the corpus gives dates)


def test_a_hand_page_is_reachable_from_the_table(browser, corpus_html):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _open(browser, corpus_html)
    _wait_for_charts(browser)
    rows = browser.find_elements(By.CSS_SELECTOR, "#flagged tbody tr")
    assert len(rows) == 106  # every flagged hand of the real corpus (under the default 200)
    # filter by code: only the hands with that finding stay
    Select(browser.find_element(By.CSS_SELECTOR, "select[data-filter=codes]")).select_by_value("winnings-mismatch")
    shown = [r for r in rows if r.is_displayed()]
    assert len(shown) == 3
    assert browser.find_element(By.ID, "flagged-count").text == "3"
    # sort by errors: descending on the second click
    th = browser.find_elements(By.CSS_SELECTOR, "#flagged thead th")[6]
    th.click()
    th.click()
    assert th.get_attribute("aria-sort") == "descending"
    text = _check_hand_page(browser, shown[0], "hand-page.png")
    assert "winnings-mismatch" in text and "Settlement" in text
    assert browser.find_elements(By.CSS_SELECTOR, "i.k")  # cards drawn


@pytest.mark.skipif(not os.environ.get("HANDAUDIT_HTML_FILE"), reason="set HANDAUDIT_HTML_FILE=FILE.html to "
                    "check a report made elsewhere (the 1,000,000-hand one of benchmarks/scale.py)")
def test_a_given_report_file(browser):
    from selenium.webdriver.common.by import By

    html = Path(os.environ["HANDAUDIT_HTML_FILE"]).resolve()
    assert html.stat().st_size < 10_000_000
    _check_overview(browser, html, f"{html.stem}-overview.png")
    rows = browser.find_elements(By.CSS_SELECTOR, "#flagged tbody tr")
    assert rows
    _check_hand_page(browser, rows[0], f"{html.stem}-hand-page.png")


def test_explain_html_page(browser, tmp_path, repo):
    out = tmp_path / "hand.html"
    r = run_cli("explain", "samples/short-all-in-not-reopened.phh", "--html", str(out))
    assert r.returncode == 0, r.stderr
    _open(browser, out)
    from selenium.webdriver.common.by import By

    text = browser.find_element(By.TAG_NAME, "body").text
    assert "betting-not-reopened" in text and "TDA 2026, Rule 49" in text
    # hole cards dealt (3 x 2), the flop in the street heading and in its action (2 x 3), the ledger (3 x 2)
    assert len(browser.find_elements(By.CSS_SELECTOR, "i.k")) == 6 + 6 + 6
    errors, requests = _problems(browser)
    assert errors == [] and requests == []
    print("dispute sheet screenshot:", _screenshot(browser, "explain-hand.png"))


# Markup, comment openers, script closers, template syntax and javascript: URLs, in one text.
HOSTILE = ("<b>bold</b><a href=\"javascript:window.pwned=1\">Click here to verify your account</a>"
           "<!--<script>window.pwned=2</script></script><img src=x onerror=\"window.pwned=3\">"
           "<style>body{display:none}</style>{{ 7*7 }}{% if 1 %}x{% endif %}${7*7}%{x}"
           "\u2028javascript:alert(1)")


def _toml(text: str) -> str:
    return "'''" + text + "'''"


@pytest.fixture(scope="module")
def hostile_html(tmp_path_factory):
    """A report from hands whose every text field holds HOSTILE: venue, table, event, currency
    (a payout mismatch: the currency is a chart's legend and the shortfall table's), the symbol,
    players, author, place, url, an action's commentary, a user field, the table name."""
    from helpers import OUT_OF_TURN_HAND, VALID_HAND

    fields = "".join(f"{k} = {_toml(HOSTILE)}\n" for k in (
        "venue", "table", "event", "author", "url", "address", "city", "region", "country", "_note"))
    players = f"players = [{_toml(HOSTILE)}, {_toml(HOSTILE + '2')}, {_toml(HOSTILE + '3')}]\n"
    hands = [
        VALID_HAND.replace("'p2 f']", f"'p2 f # {HOSTILE.replace(chr(39), '')}']") + fields + players
        + f"currency = {_toml(HOSTILE)}\nyear = 2026\nmonth = 7\nday = 1\n",
        VALID_HAND.replace("winnings = [0, 0, 0.25]", "winnings = [0, 0, 0.20]") + fields + players
        + f"currency_symbol = {_toml(HOSTILE)}\nyear = 2026\nmonth = 7\nday = 3\n",
        OUT_OF_TURN_HAND + fields + players + f"currency = {_toml(HOSTILE)}\n",
        "variant = 'NT'\nantes = [0, 0\n" + fields,
    ]
    tmp = tmp_path_factory.mktemp("hostile")
    phhs = tmp / "hostile.phhs"
    key = HOSTILE.replace("'", "").replace("\u2028", " ")
    phhs.write_text("".join(f"['{key}{i}']\n{h}\n" for i, h in enumerate(hands)), encoding="utf-8")
    out = tmp / "report"
    r = run_cli("check", str(phhs), "--out", str(out), "--fail-on", "never", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    html = tmp / "hostile.html"
    r = run_cli("report", str(out), "-o", str(html))
    assert r.returncode == 0, r.stderr
    return html


def test_text_from_hostile_hands_stays_text(browser, hostile_html):
    """No element, link, style or script of the input in the DOM (HTML or the charts' SVG), no
    handler run, every chart drawn, no console error; the text itself shown as written."""
    from selenium.webdriver.common.by import By

    n = _check_overview(browser, hostile_html, "hostile-overview.png")
    assert n >= 4
    found = browser.execute_script("""
        var d = document;
        return {
          pwned: window.pwned === undefined ? null : window.pwned,
          scripts: d.querySelectorAll('script').length,
          styles: Array.from(d.querySelectorAll('style')).filter(function (e) {  // plotly adds its own
            return e.parentNode !== d.head || /body{display:none}/.test(e.textContent); }).length,
          imgs: d.querySelectorAll('img, image').length,
          handlers: Array.from(d.querySelectorAll('*')).filter(function (e) {
            return Array.from(e.attributes).some(function (a) { return /^on/i.test(a.name); }); }).length,
          bold: Array.from(d.querySelectorAll('b, strong, a, img')).filter(function (e) {
            return /bold|Click here|display:none/.test(e.textContent); }).length,
          links: Array.from(d.querySelectorAll('a')).map(function (a) {
            return a.getAttribute('href') || a.getAttribute('xlink:href') || ''; }).filter(function (h) {
            return h.charAt(0) !== '#'; }),
          svgLinks: d.querySelectorAll('svg a').length,
          svgBold: Array.from(d.querySelectorAll('svg tspan')).filter(function (t) {
            return /bold/.test(t.getAttribute('style') || ''); }).length,
          legend: Array.from(d.querySelectorAll('#chart-mismatch .legendtext')).map(function (t) {
            return t.textContent; }),
          shown: d.body.innerText.indexOf('<a href="javascript:window.pwned=1">Click here') >= 0,
          hidden: getComputedStyle(d.body).display
        };""")
    assert found["pwned"] is None
    assert (found["scripts"], found["styles"]) == (3, 0)  # the data block, plotly, ours; no style of the input
    assert found["imgs"] == 0 and found["handlers"] == 0
    assert found["bold"] == 0  # no <b>bold</b>, <a>Click here</a> of the input
    assert found["links"] == [] and found["svgLinks"] == 0 and found["svgBold"] == 0
    assert found["legend"] and all(t.startswith("<b>bold</b><a href=") for t in found["legend"])
    assert found["shown"] and found["hidden"] != "none"
    # a hand page: the same text, as text
    rows = browser.find_elements(By.CSS_SELECTOR, "#flagged tbody tr")
    assert rows
    text = _check_hand_page(browser, rows[0], "hostile-hand-page.png")
    assert "Click here to verify your account" in text
    assert browser.execute_script("return window.pwned === undefined")
