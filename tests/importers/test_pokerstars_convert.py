"""What `convert` writes for a site hand gives the same verdict as the site's text: every hand of
the shared PokerStars logs, audited from its text and from its PHH conversion, has the same
status, the same findings (code and message: the lines not read, the site's figures, run it
twice, cash-outs, the encoding) and the same payout check."""

from __future__ import annotations

import pytest

from handaudit.grammar.reader import read_text
from handaudit.grammar.writer import hand_text
from handaudit.importers import read_any
from handaudit.importers.inputs import expand_inputs, read_inputs
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from helpers import CORPUS

BOOK = load_rulebook("tda-2026")
LOGS = [CORPUS / "sites" / name for name in ("pokerstars", "pokerstars-hhp", "pokerstars-pokerdf")]


def _verdict(report) -> tuple:
    return (report.status, report.payout_check,
            sorted((f.code, f.severity, f.message) for f in report.findings))


def test_the_conversion_of_every_shared_log_hand_gives_its_verdict():
    roots = [str(p) for p in LOGS if p.is_dir()]
    if not roots:
        pytest.skip("no samples")
    compared = 0
    for path in expand_inputs(roots):
        for chunk in read_inputs(path):
            read = read_any(chunk)
            if read.hand is None:
                continue
            report = audit_read(read, BOOK, chunk.index)
            again = audit_read(read_text(hand_text(read.hand), "c.phh"), BOOK, chunk.index)
            assert _verdict(again) == _verdict(report), (path, chunk.hand_key)
            compared += 1
    assert compared > 200
