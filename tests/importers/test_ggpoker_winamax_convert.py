"""`convert` writes GGPoker and Winamax hands as PHH that checks to the same verdicts: every hand
of the shared samples read from its log and from its `.phhs` conversion has the same status,
settlement and findings (but the two the conversion cannot carry: the log's encoding, and PHH's
own warning on the negative entry a blind posted out of position is written as)."""

from __future__ import annotations

import pytest

from handaudit.grammar.writer import phhs
from handaudit.importers import read_any
from handaudit.importers.inputs import expand_inputs, read_inputs
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from helpers import CORPUS

BOOK = load_rulebook("tda-2026")
NOT_CARRIED = {"site-encoding", "negative-blind"}


@pytest.mark.parametrize("site", ["ggpoker", "winamax"])
def test_the_conversion_audits_as_the_log(site, tmp_path):
    root = CORPUS / "sites" / site
    if not root.is_dir():
        pytest.skip(f"no samples at {root}")
    logs = []
    for path in expand_inputs([str(root)]):
        for chunk in read_inputs(path):
            read = read_any(chunk)
            if read.hand is not None:
                logs.append(audit_read(read, BOOK, chunk.index))
    out = tmp_path / "all.phhs"
    out.write_text("".join(phhs([r.read.hand for r in logs])), encoding="utf-8")
    again = [audit_read(read_any(c), BOOK, c.index) for c in read_inputs(str(out))]
    assert len(again) == len(logs) > 10
    for a, b in zip(logs, again, strict=True):
        assert b.read.hand is not None, b.findings
        assert (a.status, a.settlement.pot_total, a.settlement.returned, a.settlement.payout_check,
                a.settlement.rake, a.settlement.rake_check) == (
            b.status, b.settlement.pot_total, b.settlement.returned, b.settlement.payout_check,
            b.settlement.rake, b.settlement.rake_check), a.read.hand.fields["hand"]
        assert {f.code for f in a.findings} - NOT_CARRIED == {f.code for f in b.findings} - NOT_CARRIED
