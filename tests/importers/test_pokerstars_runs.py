"""Run it twice on PokerStars, and cash-outs: each pot split between the runs and each share
settled on its own run's board, compared with what the site paid; a cashed-out pot settled as
the site awarded it."""

from __future__ import annotations

from handaudit.importers import read_any
from handaudit.importers.common import split_log
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from helpers import CORPUS

BOOK = load_rulebook("tda-2026")
SITES = CORPUS / "sites" / "pokerstars"
RUN_TWICE = (SITES / "hhsmithy" / "CashGame" / "RunItTwiceTests" / "RunItTwice1.txt").read_bytes()
CASH_OUT = (SITES / "italytoast" / "CashGame" / "HandActionTests" / "CashOut.txt").read_bytes()


def _audit(data: bytes):
    [chunk] = split_log("t.txt", data)
    return audit_read(read_any(chunk), BOOK, 0)


def _split_second_run(data: bytes) -> bytes:
    """The second river a nine (KENZA_MILOU's trips win that run's main pot), the site's lines to match."""
    text = data.decode("utf-8")
    text = text.replace("*** SECOND RIVER *** [3d Kd 9h 8h] [Kc]", "*** SECOND RIVER *** [3d Kd 9h 8h] [9c]")
    second = text.index("*** SECOND SHOW DOWN ***")
    head, tail = text[:second], text[second:]
    tail = tail.replace("FLATC@T collected $1503.50 from main pot", "KENZA_MILOU collected $1503.50 from main pot", 1)
    tail = tail.replace("SECOND Board [3d Kd 9h 8h Kc]", "SECOND Board [3d Kd 9h 8h 9c]")
    return (head + tail).encode("utf-8")


def test_a_pot_run_twice_is_settled_on_both_boards():
    report = _audit(RUN_TWICE)
    assert report.status == "valid" and report.settlement.payout_check == "match"
    pots = report.settlement.pots
    assert [(p.amount, [(a.player, a.amount) for a in p.awards]) for p in pots] == [
        (150500, [(1, 150500)]), (150500, [(1, 150500)]), (1000, [(1, 1000)]), (1000, [(1, 1000)])]  # (scale 2: cents)


def test_a_pot_split_between_the_runs_pays_each_run_winner_half():
    report = _audit(_split_second_run(RUN_TWICE))
    assert report.status == "valid", report.findings
    assert report.settlement.payout_check == "match"
    pots = report.settlement.pots
    assert [[(a.player, a.amount) for a in p.awards] for p in pots] == [
        [(1, 150500)], [(2, 150500)], [(1, 1000)], [(1, 1000)]]  # p2 FLATC@T, p3 KENZA_MILOU
    assert report.read.hand.winnings == (0, 152350, 150350, 0, 0, 0)


def test_one_player_paid_both_runs_when_the_second_was_lost_is_a_mismatch():
    wrong = _split_second_run(RUN_TWICE).replace(b"KENZA_MILOU collected $1503.50 from main pot",
                                                 b"FLATC@T collected $1503.50 from main pot")
    report = _audit(wrong)
    assert report.status == "invalid"
    codes = {f.code for f in report.findings}
    assert "site-collected-mismatch" in codes and "winnings-mismatch" in codes


def test_a_cash_out_is_settled_as_the_site_awarded_the_pot():
    report = _audit(CASH_OUT)
    assert report.status == "valid" and report.settlement.payout_check == "match"
    [finding] = [f for f in report.findings if f.code == "site-cash-out"]
    assert "not awarded" not in finding.message and "$26.10" in finding.message
    # the pot the summary says m788 won ($38.95 after the rake) is what the settlement pays
    assert report.read.hand.winnings[report.read.hand.fields["players"].index("m788")] == 3895


def test_a_cash_out_whose_pot_the_site_gave_another_is_a_mismatch():
    wrong = CASH_OUT.replace(b"Seat 2: m788 (button) showed [Th Ts] and won ($38.95)",
                             b"Seat 2: m788 (button) showed [Th Ts] and won ($28.95)")
    report = _audit(wrong)
    assert report.status == "invalid" and report.settlement.payout_check == "mismatch"
