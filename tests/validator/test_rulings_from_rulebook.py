"""Every finding's ruling comes from the rulebook (issue 15, item 4): a user rulebook that
overrides the ``[rulings]`` text of a cited code sees that text in the finding, for every code of
:data:`~handaudit.rules.params.CITED_CODES`; the placeholders are filled from what the replay did."""

from pathlib import Path

import pytest

from handaudit.grammar.reader import read_hands
from handaudit.rules.params import CITED_CODES
from handaudit.rules.rulebook import load_rulebook
from handaudit.validator import replay

from helpers import NT3

SAMPLES = Path(__file__).resolve().parents[2] / "samples"

# code -> a sample (samples/NAME.phh) or an inline hand that triggers it
FROM_SAMPLES = {
    "out-of-turn": "out-of-turn", "bet-below-minimum": "bet-below-minimum",
    "raise-below-minimum": "raise-below-minimum", "betting-not-reopened": "short-all-in-not-reopened",
    "raise-cap-exceeded": "limit-raise-cap", "over-pot-limit": "pot-limit-maximum",
    "unnecessary-fold": "unnecessary-fold",
    "bet-after-check-out-of-turn": "check-out-of-turn-heads-up",
    "out-of-turn-bet-returned": "out-of-turn-bet-returned",
    "raise-after-call-out-of-turn": "call-out-of-turn-then-raise",
    "turn-lost-after-substantial-action": "substantial-action-bet-stands",
}
# parameters the user rulebook (extending tda-2026) sets so that its case triggers the code
PARAMETERS_FOR = {"raise-after-call-out-of-turn": 'call_out_of_turn = "call-or-fold"\n'}
INLINE = {
    'action-after-end': NT3 + """\
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p3 cc', 'p1 f']
""",
    'duplicate-card': NT3 + """\
actions = ['d dh p1 AsAh', 'd dh p2 AsKd', 'd dh p3 ????', 'p3 f', 'p1 f']
""",
    'exceeds-stack': NT3 + """\
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 500', 'p1 f', 'p2 f']
""",
    'incomplete-hand': NT3 + """\
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f']
""",
    'invalid-discard': """\
variant = 'F2L3D'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [200, 200, 200]
actions = ['d dh p1 2c3c4c5c7d', 'd dh p2 ??????????', 'd dh p3 ??????????', 'p3 f', 'p1 cc', 'p2 cc', 'p1 sd AsKs', 'p2 sd', 'd dh p1 ????']
""",
    'premature-deal': NT3 + """\
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd db 2c3c4c', 'p3 f', 'p1 f']
""",
    'show-order': NT3 + """\
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 ????', 'p3 f', 'p1 cc', 'p2 cc', 'd db 2c3c4d', 'p1 cc', 'p2 cbr 4', 'p1 cc', 'd db 9h', 'p1 cc', 'p2 cc', 'd db Td', 'p1 cc', 'p2 cc', 'p2 sm KsKh', 'p1 sm AsAh']
""",
    'wrong-bring-in': """\
variant = 'F7S'
antes = [1, 1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [200, 200, 200]
actions = ['d dh p1 ????2c', 'd dh p2 ????Kd', 'd dh p3 ????Ah', 'p3 pb', 'p1 f', 'p2 f']
""",
    'wrong-card-count': NT3 + """\
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc', 'd db 2c3c', 'p1 f', 'p2 f']
""",
    'wrong-limit-amount': """\
variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [200, 200, 200]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6', 'p1 f', 'p2 f']
""",
}


def _hand_path(code: str, tmp_path: Path) -> Path:
    if code in FROM_SAMPLES:
        return SAMPLES / f"{FROM_SAMPLES[code]}.phh"
    path = tmp_path / f"{code}.phh"
    path.write_text(INLINE[code], encoding="utf-8")
    return path


def _findings(path: Path, book_path: Path, code: str):
    read = next(read_hands([str(path)]))
    assert read.hand is not None, read.findings
    return [f for f in replay(read.hand, load_rulebook(str(book_path))).findings if f.code == code]


def test_every_cited_code_has_a_case():
    assert sorted(CITED_CODES) == sorted([*FROM_SAMPLES, *INLINE])


@pytest.mark.parametrize("code", CITED_CODES)
def test_a_user_ruling_override_shows_in_the_finding(code, tmp_path):
    book = tmp_path / "mine.toml"
    params = f"[parameters]\n{PARAMETERS_FOR[code]}" if code in PARAMETERS_FOR else ""
    book.write_text(f'name = "mine"\nextends = "tda-2026"\n{params}[rulings]\n"{code}" = "MY RULING for {code}"\n',
                    encoding="utf-8")
    found = _findings(_hand_path(code, tmp_path), book, code)
    assert found, f"the case for {code} does not trigger it"
    assert {f.ruling for f in found} == {f"MY RULING for {code}"}


def test_placeholders_are_filled_and_unknown_ones_left(tmp_path):
    book = tmp_path / "mine.toml"
    book.write_text('name = "mine"\nextends = "tda-2026"\n[rulings]\n'
                    '"over-pot-limit" = "to {to} (max {max}) by {player}: {applied} {nope}"\n', encoding="utf-8")
    (f,) = _findings(SAMPLES / "pot-limit-maximum.phh", book, "over-pot-limit")
    assert f.ruling == "to 250 (max 250) by p2: cut back to a pot-sized raise: to 250 {nope}"


def test_a_stray_brace_is_shown_as_written(tmp_path):
    book = tmp_path / "mine.toml"
    book.write_text('name = "mine"\nextends = "tda-2026"\n[rulings]\n"over-pot-limit" = "cut { back"\n',
                    encoding="utf-8")
    (f,) = _findings(SAMPLES / "pot-limit-maximum.phh", book, "over-pot-limit")
    assert f.ruling == "cut { back"
