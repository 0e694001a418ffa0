"""What the reports say adds up and names every code: the players table's recorded net beside
the computed one, amounts at one scale per currency, the codes listing, and the wording of the
hand pages and the settlement header (issue 37)."""

from __future__ import annotations

import json

from helpers import VALID_HAND

import handaudit
from handaudit.findings.codes import CODES
from handaudit.reports import rows
from handaudit.reports.columns import COLUMNS
from handaudit.reports.jsonl import report_line
from handaudit.rules.rulebook import render_codes


def _audit(text: str, tmp_path, name: str = "h.phh"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    [report] = list(handaudit.audit([str(path)]))
    return report


def _players(report) -> list[dict]:
    names = COLUMNS["players"]
    return [dict(zip(names, row, strict=True)) for row in rows.hand_rows(report)["players"]]


def test_the_players_table_has_the_recorded_net_beside_the_computed(tmp_path):
    # p3 is recorded as finishing on 5.14 (0.01 short of what the settlement gives him)
    short = VALID_HAND.replace("[9.95, 26.75, 5.15]", "[9.95, 26.75, 5.14]")
    players = _players(_audit(short, tmp_path))
    assert [(p["net"], p["net_recorded"]) for p in players] == [(-5, -5), (-10, -10), (15, 14)]
    # winnings only (net of the returns): the recorded winnings less what stayed in the pots
    only_winnings = VALID_HAND.replace("finishing_stacks = [9.95, 26.75, 5.15]\n", "").replace(
        "winnings = [0, 0, 0.25]", "winnings = [0, 0, 0.24]")
    players = _players(_audit(only_winnings, tmp_path))
    assert [(p["net"], p["net_recorded"]) for p in players] == [(-5, -5), (-10, -10), (15, 14)]
    # nothing recorded: no recorded net
    bare = VALID_HAND.replace("finishing_stacks = [9.95, 26.75, 5.15]\n", "").replace("winnings = [0, 0, 0.25]\n", "")
    assert [p["net_recorded"] for p in _players(_audit(bare, tmp_path))] == [None, None, None]


def test_amounts_of_one_currency_have_one_scale_in_jsonl(tmp_path):
    """A USD hand written '3' and '2.00': every JSON amount with the currency's two places."""
    usd = VALID_HAND.replace("min_bet = 0.10", "min_bet = 0.1").replace("starting_stacks = [10.00, 26.85, 5.00]",
                                                                        "starting_stacks = [10, 26.85, 5]") \
        + "currency = 'USD'\n"
    report = _audit(usd, tmp_path)
    line = report_line(report)
    obj = json.loads(line)
    assert obj["settlement"]["finishing_stacks"] == [9.95, 26.75, 5.15]
    assert '"returned":[0.00,0.00,0.20]' in line.replace(" ", "")
    assert '"rake":0.00' in line.replace(" ", "")
    tables = rows.hand_rows(report)
    hand = dict(zip(COLUMNS["hands"], tables["hands"][0], strict=True))
    assert (hand["scale"], hand["currency"], hand["currency_symbol"]) == (2, "USD", None)
    assert hand["min_bet"] == 10


def test_the_codes_listing_names_every_code():
    text = render_codes()
    lines = text.splitlines()
    assert lines[0].startswith(f"{len(CODES)} finding codes ")
    listed = [line.split(" (", 1)[0] for line in lines[1:] if line and not line.startswith(" ")]
    assert listed == list(CODES)
    assert len(listed) >= 54
    for code in ("winnings-mismatch", "chips-not-conserved", "duplicate-hand", "syntax-error"):
        assert f"\n{code} (" in text
    mismatch = text.split("\nwinnings-mismatch (", 1)[1].split("\nwinnings-gross (", 1)[0]
    assert "    tda-2026        TDA 2026, table stakes\n" in mismatch  # each book's own rule
    assert "changed by: jackpot_drop, no_flop_no_drop" in mismatch
    syntax = text.split("\nsyntax-error (", 1)[1].split("\n")[1]
    assert syntax.startswith("    no rulebook cites a rule for it")


SITE = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.05, 0.10, 0]
min_bet = 0.10
starting_stacks = [10.00, 26.85, 5.00]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 QhQd', 'p3 cbr 0.30', 'p1 f', 'p2 f']
winnings = [0, 0, 0.20]
hand = 7
currency = 'USD'
_site_total_pot = "0.5"
_site_rake = "0.02"
"""


def test_wording_of_site_figures_and_payout_messages(tmp_path):
    report = _audit(SITE, tmp_path)
    messages = {f.code: f.message for f in report.findings}
    # the stated rake named with its amount, the sentence whole
    assert messages["winnings-mismatch"] == ("p3: recorded winnings 0.20, expected 0.23 after rake (settlement 0.25 "
                                             "before rake) (0.03 less); the site states a rake of 0.02")
    # the stated total at the hand's scale, as the pots beside it ("0.5" beside "0.25" before)
    assert messages["site-total-pot-mismatch"] == "the site states a total pot of 0.50; the settlement's pots total 0.25"


def test_the_settle_header_names_the_hand_once(tmp_path):
    from handaudit.reports.ledger import render_ledger

    report = _audit(SITE, tmp_path)
    text = render_ledger(report.read.hand, report.replay, report.settlement)
    assert text.splitlines()[0] == f"Settlement of {tmp_path / 'h.phh'} (hand 7)"


def test_a_hand_page_names_a_findings_player_once(tmp_path):
    from handaudit.reports.html.pages import live_page

    page = live_page(_audit(SITE, tmp_path))
    shown = [f for f in page["general"] if f["code"] == "winnings-mismatch"]
    assert shown and shown[0]["actor"] == "p3"
    assert shown[0]["message"].startswith("recorded winnings 0.20")  # not "(p3): p3: recorded ..."


FLOP = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 QhQd', 'p3 f', 'p1 cc', 'p2 cc', 'd db 2h3h4c', 'p1 cc',
           'p2 cbr 2', 'p1 f']
venue = 'Casino A'
year = 2026
month = 7
"""


def test_the_readmes_duckdb_rake_query_gives_one_row_per_venue_and_day(repo, tmp_path):
    """The README's query, run as written: the hands of one currency add up whatever their text
    ('5.7', '5.90', '6', '$' or 'USD'), and a payout mismatch's shortfall is no rake."""
    import re
    from decimal import Decimal

    import duckdb
    from helpers import run_cli

    hands = [("currency = 'USD'", 1, "5.7"), ("currency = 'USD'", 1, "5.90"), ("currency_symbol = '$'", 1, "6"),
             ("currency = 'USD'", 2, "5.8"), ("currency = 'USD'", 2, "3")]  # the last: a mismatch
    text = "".join(f"[{i}]\n{FLOP}{money}\nday = {day}\nwinnings = [0, {won}, 0]\n\n"
                   for i, (money, day, won) in enumerate(hands, 1))
    (tmp_path / "days.phhs").write_text(text, encoding="utf-8")
    out = tmp_path / "report"
    r = run_cli("check", str(tmp_path / "days.phhs"), "--out", str(out), "--fail-on", "never", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    readme = (repo / "README.md").read_text(encoding="utf-8")
    query = re.search(r"Rake per venue and day.*?```sql\n(.*?)```", readme, re.S).group(1)
    rows = duckdb.sql(query.replace("DIR", str(out))).fetchall()
    import datetime as dt

    assert rows == [("Casino A", dt.date(2026, 7, 1), "USD", Decimal("0.400000"), 3),
                    ("Casino A", dt.date(2026, 7, 2), "USD", Decimal("0.200000"), 1)]


def test_a_hand_page_names_a_mismatchs_shortfall_for_what_it_is(tmp_path):
    from handaudit.reports.html.pages import live_page

    facts = dict(live_page(_audit(SITE, tmp_path))["facts"])
    assert "rake" not in facts
    assert facts["unexplained shortfall (not rake)"] == "0.05 (unexplained)"
    assert facts["currency"] == "USD"


def test_a_site_log_in_whole_dollars_has_the_currencys_scale(corpus):
    """PokerStars logs at $200/$400 write whole dollars, at $25/$50 halves, in yuan whole yuan:
    each hand still has its currency's two places, as every other hand of that currency."""
    site = corpus / "sites" / "pokerstars"
    files = [site / "hhsmithy/CashGame/Limits/Limit5.txt", site / "hhsmithy/CashGame/ExtraHands/TableNameWithDash.txt",
             site / "italytoast/CashGame/Limits/YuanTable.txt"]
    hands = [r.read.hand for r in handaudit.audit([str(f) for f in files])]
    assert [(h.fields.get("currency"), h.scale) for h in hands if h is not None] == [
        ("USD", 2), ("USD", 2), ("CNY", 2)]
    assert hands[0] is not None and 4_000_000 in hands[0].starting_stacks  # $40000 in cents
