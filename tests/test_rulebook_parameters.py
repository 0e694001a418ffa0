"""Every rulebook parameter changes some sample's outcome (issue 15, item 4): a dead parameter,
or one whose consumer stops mattering, fails here.

A case is one entry of :data:`CASES`: the parameter, a sample, the built-in rulebook it is
judged under and a value of the parameter that differs from that book's; the test asserts that
the outcome (findings with index, severity and ruling; pots and their awards; contributions and
returns; payout verdict; finishing stacks) differs. Parameters with their own exact tests elsewhere still need an entry here.
:data:`NO_CASE_YET` may only shrink (a parameter on it that gains a case fails the test).
"""

from pathlib import Path

import pytest

from handaudit import audit
from handaudit.rules.params import PARAMETERS
from handaudit.rules.rulebook import load_rulebook

SAMPLES = Path(__file__).resolve().parents[1] / "samples"

# (parameter, sample, rulebook, value that changes the outcome)
CASES = [
    ("limit_raises", "limit-cap-becomes-heads-up", "tda-2026", "0"),
    ("heads_up_uncap", "limit-cap-becomes-heads-up", "tda-2026", "when-heads-up"),
    ("limit_allin_reopen", "limit-half-bet-all-in-reopens", "tda-2026", "full-bet"),
    ("limit_raise_over_half_allin", "limit-half-bet-all-in-reopens", "tda-2026", "completed-plus-bet"),
    ("straddle_min_raise", "straddle-minimum-raise", "tda-2026", "straddle-plus-raise"),
    ("unnecessary_fold", "unnecessary-fold", "tda-2026", "info"),
    ("show_order", "show-order", "tda-2026", "off"),
    ("odd_chip_button", "odd-chip-high-card", "tda-2026", "high-card-by-suit"),
    ("short_raise_ruling", "short-raise-call", "tda-2026", "bring-to-minimum"),
    ("check_out_of_turn", "check-out-of-turn-then-raise", "roberts-v11", "may-bet"),
    ("changed_action_out_of_turn", "out-of-turn-bet-returned", "tda-2026", "binding"),
    ("rake_limit_percent", "rake-within-limit", "tda-2026", "0"),
    ("rake_rounding_units", "rake-within-limit", "tda-2026", "0"),
]

# parameter -> why it has no case here yet (only shrinks; each has unit tests elsewhere)
NO_CASE_YET = {
    name: "no sample yet shows it changing an outcome end to end (issue 15, item 4)"
    for name in ("limit_raises_short", "cap_counts", "straddle_counts_as_raise",
                 "completion_counts_as_raise", "odd_chip_stud", "short_deck_trips_beat_straight")
}


def _outcome(report):
    s = report.settlement
    return (tuple((f.code, f.action_index, f.severity, f.ruling) for f in report.findings),
            tuple((p.amount, tuple((a.player, a.amount) for a in p.awards)) for p in s.pots) if s else None,
            s.contributions if s else None, s.returned if s else None,
            s.payout_check if s else None, s.finishing_stacks if s else None)


def test_every_parameter_has_a_case():
    covered = {c[0] for c in CASES}
    missing = sorted(set(PARAMETERS) - covered - set(NO_CASE_YET))
    assert not missing, f"rulebook parameters with no case in CASES: {missing} (add one entry each)"
    revived = sorted(covered & set(NO_CASE_YET))
    assert not revived, f"remove from NO_CASE_YET, they have a case now: {revived}"
    assert not set(NO_CASE_YET) - set(PARAMETERS), "NO_CASE_YET names a parameter that does not exist"


@pytest.mark.parametrize(("name", "sample", "book", "value"), CASES, ids=[c[0] for c in CASES])
def test_the_parameter_changes_the_outcome(name, sample, book, value):
    path = str(SAMPLES / f"{sample}.phh")
    assert PARAMETERS[name].parse(value, "test") != getattr(load_rulebook(book), name), "not a different value"
    before = _outcome(next(audit([path], book)))
    after = _outcome(next(audit([path], book, [f"{name}={value}"])))
    assert before != after, f"{name}={value} changes nothing on {sample} under {book}"
