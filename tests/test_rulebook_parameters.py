"""Every rulebook parameter changes some sample's outcome (issue 15, item 4): a dead parameter,
or one whose consumer stops mattering, fails here.

A case is one entry of :data:`CASES`: the parameter, a sample, the built-in rulebook it is
judged under and a value of the parameter that differs from that book's, and optionally
``--set`` items both runs share (a rake structure, for the parameters that shape one); the test
asserts that the outcome (findings with index, severity and ruling; pots with their awards and
rake; contributions and returns; payout verdict and rake verdict; finishing stacks) differs. Parameters with their own exact tests elsewhere still need an entry here.

A parameter no hand could reach would be derived from the variant table (:func:`_unreachable`):
``limit_raises_short`` governs fixed-limit games with fewer than three betting rounds, which no
PHH 1.0 variant is (triple draw and badugi have four); handaudit's extension codes have such
games (fixed-limit 5-card draw ``F5CD``, 2-7 single draw ``F2L1D``), so it has a case like any
other (samples/limit-two-rounds-raise-cap.phh).
"""

from pathlib import Path

import pytest

from handaudit import audit
from handaudit.core.variants import FIXED, VARIANTS
from handaudit.rules.params import PARAMETERS
from handaudit.rules.rulebook import load_rulebook

SAMPLES = Path(__file__).resolve().parents[1] / "samples"

# the rake structure of samples/rake-structure.phh: 5% of the hand, capped at 1.00, a 0.50 jackpot drop
SITE = ("rake_percent=5", "rake_cap=1", "jackpot_drop=0.50")

# (parameter, sample, rulebook, value that changes the outcome[, --set items both runs share])
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
    ("call_out_of_turn", "call-out-of-turn-then-raise", "roberts-v11", "may-raise"),
    ("substantial_action_count", "substantial-action-two-checks", "wsop-2023-live", "3"),
    ("substantial_action_chips", "substantial-action-bet-stands", "tda-2026", "0"),
    ("rake_limit_percent", "rake-within-limit", "tda-2026", "0"),
    ("rake_rounding_units", "rake-within-limit", "tda-2026", "0"),
    ("odd_chip_stud", "odd-chip-stud-all-cards", "roberts-v11", "hand-cards"),
    ("short_deck_trips_beat_straight", "short-deck-trips-vs-straight", "tda-2026", "true"),
    ("cap_counts", "limit-cap-all-in-not-counted", "roberts-v11", "players-in-hand"),
    ("straddle_counts_as_raise", "limit-straddle-counts-as-raise", "tda-2026", "false"),
    ("completion_counts_as_raise", "stud-completion-counts-as-raise", "tda-2026", "true"),
    ("rake_percent", "rake-structure", "tda-2026", "5"),
    ("rake_cap", "rake-structure", "tda-2026", "none", SITE),
    ("rake_cap_scope", "rake-structure", "tda-2026", "pot", SITE),
    ("jackpot_drop", "rake-structure", "tda-2026", "0", SITE),
    ("rake_rounding", "rake-structure", "tda-2026", "up", ("rake_percent=4.5",)),
    ("no_flop_no_drop", "rake-no-flop-no-drop", "tda-2026", "false"),
    ("limit_raises_short", "limit-two-rounds-raise-cap", "tda-2026", "3"),
    ("stud_open_pair_big_bet", "stud-open-pair-big-bet", "roberts-v11", "false"),
]


# The cross-hand pass's parameters: a session, not one hand, shows them; their cases are
# tests/sessions/test_samples.py::test_rulebook_parameters_change_the_verdict.
SESSION_PARAMETERS = {"button_rule", "missed_blinds", "new_player_posts"}


def _unreachable() -> set[str]:
    """The parameters that no PHH hand can bring into play, from the variant table."""
    short_limit_games = [v.code for v in VARIANTS.values() if v.structure == FIXED and v.betting_rounds < 3]
    return set() if short_limit_games else {"limit_raises_short"}


def _outcome(report):
    s = report.settlement
    return (tuple((f.code, f.action_index, f.severity, f.ruling) for f in report.findings),
            tuple((p.amount, tuple((a.player, a.amount) for a in p.awards)) for p in s.pots) if s else None,
            s.pot_rakes if s else None, s.contributions if s else None, s.returned if s else None,
            s.payout_check if s else None, s.rake_check if s else None, s.finishing_stacks if s else None)


def test_every_parameter_has_a_case():
    covered = {c[0] for c in CASES} | SESSION_PARAMETERS
    missing = sorted(set(PARAMETERS) - covered - _unreachable())
    assert not missing, f"rulebook parameters with no case in CASES: {missing} (add one entry each)"
    assert not covered - set(PARAMETERS), "CASES names a parameter that does not exist"


def test_limit_raises_short_does_not_reach_a_game_of_three_or_more_rounds():
    """The cap of a fixed-limit game of three or more betting rounds reads limit_raises, whatever
    limit_raises_short says (it governs two-round games only: its case above)."""
    assert _unreachable() == set()
    path = str(SAMPLES / "limit-raise-cap.phh")  # fixed-limit hold'em: a fourth raise at index 13
    before = _outcome(next(audit([path], "tda-2026")))
    assert [f[:2] for f in before[0]][:1] == [("raise-cap-exceeded", 13)]
    for value in ("0", "9"):
        assert _outcome(next(audit([path], "tda-2026", [f"limit_raises_short={value}"]))) == before, value


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_parameter_changes_the_outcome(case):
    name, sample, book, value = case[:4]
    shared = list(case[4]) if len(case) > 4 else []
    path = str(SAMPLES / f"{sample}.phh")
    base = load_rulebook(book, shared)
    assert PARAMETERS[name].parse(value, "test") != getattr(base, name), "not a different value"
    before = _outcome(next(audit([path], book, shared)))
    after = _outcome(next(audit([path], book, [*shared, f"{name}={value}"])))
    assert before != after, f"{name}={value} changes nothing on {sample} under {book}"


def test_every_parameter_names_the_codes_it_changes():
    from handaudit.findings.codes import CODES
    from handaudit.rules.params import CODES_CHANGED_BY

    assert set(CODES_CHANGED_BY) == set(PARAMETERS)
    for name, codes in CODES_CHANGED_BY.items():
        assert codes and all(c in CODES for c in codes), name
