"""The reader: exact amounts, the field rules, malformed inputs with code and location, sources.

Every malformed input asserts the finding code AND where it is (line/column, or action index),
and, where other hands share the input, that those hands are still read.
"""

from __future__ import annotations

import datetime as dt
import decimal
import gc
import gzip
import io
import random
import sys
import tracemalloc
import warnings
from decimal import Decimal
from types import SimpleNamespace

import pytest

from handaudit.core.cards import card_from_text
from handaudit.core.hand import Hand
from handaudit.core.variants import EXTENSION_VARIANTS, PHH_VARIANTS, VARIANTS
from handaudit.grammar.chunk import SourceError
from handaudit.grammar.reader import read_chunk, read_hands, read_text
from handaudit.grammar.result import ReadResult
from handaudit.grammar.sources import expand_paths, read_chunks

ERROR_CODES = {"syntax-error", "missing-field", "invalid-field", "unknown-variant", "invalid-card",
               "unknown-player", "duplicate-hand", "no-hands"}

# A valid 3-player no-limit hold'em hand, the ABS shape (trailing zeros, no cents in some amounts).
NT3 = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [200.30, 81.60, 197]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 3', 'p2 f']
"""
# Lines of NT3 (1-based).
L_VARIANT, L_ANTES, L_BLINDS, L_MIN_BET, L_STACKS, L_ACTIONS = 1, 2, 3, 4, 5, 6

SIX = """variant = 'NT'
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0, 0, 0]
min_bet = 2
starting_stacks = [100, 100, 100, 100, 100, 100]
actions = ['p3 f', 'p4 f', 'p5 f', 'p6 f', 'p1 cc', 'p2 cc']
"""


def codes(result: ReadResult) -> list[str]:
    return [f.code for f in result.findings]


def only(result: ReadResult, code: str):
    found = [f for f in result.findings if f.code == code]
    assert len(found) == 1, f"expected one {code}, got {[(f.code, f.message) for f in result.findings]}"
    return found[0]


def clean(result: ReadResult) -> Hand:
    assert result.hand is not None, [(f.code, f.line, f.message) for f in result.findings]
    assert not result.findings, [(f.code, f.line, f.message) for f in result.findings]
    return result.hand


def col_of(line_text: str, needle: str) -> int:
    """1-based column of ``needle`` in one line."""
    i = line_text.index(needle)
    return i + 1


def as_decimal(units: int, scale: int) -> Decimal:
    return Decimal(units).scaleb(-scale, decimal.Context(prec=decimal.MAX_PREC))


def no_float_in(hand: Hand) -> None:
    for name in Hand.FIELDS:
        if name in ("fields", "text"):
            continue
        value = getattr(hand, name)
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, (tuple, list)):
                stack.extend(v)
            elif hasattr(v, "__slots__") and not isinstance(v, (int, str)):
                stack.extend(getattr(v, s) for s in v.__slots__)
            else:
                assert not isinstance(v, float), f"{name} holds a float: {value!r}"


def minimal(variant_code: str, skip: str | None = None) -> str:
    """A small valid hand of a variant with exactly its required fields (minus ``skip``)."""
    values = {
        "antes": "[0, 0]",
        "blinds_or_straddles": "[1, 2]",
        "bring_in": "1",
        "small_bet": "2",
        "big_bet": "4",
        "min_bet": "2",
        "starting_stacks": "[200, 200]",
        "actions": "['d dh p1 AsKs', 'd dh p2 QhJh', 'p2 f']",
    }
    lines = [f"variant = '{variant_code}'"]
    lines += [f"{k} = {values[k]}" for k in VARIANTS[variant_code].required if k != skip]
    return "\n".join(lines) + "\n"


def phhs(*hands: str, keys=None) -> str:
    keys = keys or [str(i) for i in range(1, len(hands) + 1)]
    return "".join(f"[{k}]\n{h}\n" for k, h in zip(keys, hands, strict=True))


def header_lines(text: str) -> dict[str, int]:
    """Table name -> the line after its header (where the hand's text starts)."""
    out = {}
    for i, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith("[") and s.endswith("]"):
            out[s[1:-1].strip().strip("'\"")] = i + 1
    return out


# ==== exact amounts ==========================================================================


def test_exact_amounts_trailing_zeros_become_integers():
    hand = clean(read_text(NT3))
    assert hand.scale == 1  # 0.50, 200.30, 81.60: one decimal needed
    assert hand.blinds_or_straddles == (5, 10, 0)
    assert hand.starting_stacks == (2003, 816, 1970)
    assert hand.min_bet == 10
    assert hand.antes == (0, 0, 0)
    assert [a.amount for a in hand.actions if a.amount is not None] == [30]
    assert hand.format_amount(hand.starting_stacks[0]) == "200.3"
    no_float_in(hand)


def test_scale_is_the_largest_number_of_decimals():
    text = NT3.replace("[200.30, 81.60, 197]", "[200.30, 81.65, 197.125]")
    hand = clean(read_text(text))
    assert hand.scale == 3
    assert hand.starting_stacks == (200300, 81650, 197125)
    assert hand.blinds_or_straddles == (500, 1000, 0)
    for units, written in zip(hand.starting_stacks, ["200.30", "81.65", "197.125"], strict=True):
        assert as_decimal(units, hand.scale) == Decimal(written)


def test_action_amount_with_trailing_zeros_is_scaled():
    text = NT3.replace("'p1 cbr 3'", "'p1 cbr 3.00'")
    hand = clean(read_text(text))
    (raise_,) = [a for a in hand.actions if a.amount is not None]
    assert as_decimal(raise_.amount, hand.scale) == Decimal("3")
    assert hand.scale >= 1
    assert as_decimal(hand.starting_stacks[1], hand.scale) == Decimal("81.60")
    assert as_decimal(hand.blinds_or_straddles[0], hand.scale) == Decimal("0.5")
    assert hand.action_texts[4] == "p1 cbr 3.00"  # the text is kept as written
    no_float_in(hand)


def test_action_amount_decides_the_scale():
    text = NT3.replace("'p1 cbr 3'", "'p1 cbr 3.125'")
    hand = clean(read_text(text))
    assert hand.scale == 3
    assert [a.amount for a in hand.actions if a.amount] == [3125]
    assert hand.starting_stacks == (200300, 81600, 197000)


def test_integer_hand_has_scale_zero():
    hand = clean(read_text(SIX))
    assert hand.scale == 0
    assert hand.starting_stacks == (100,) * 6
    assert hand.format_amount(250) == "250"


def test_sixteen_plus_significant_digits_read_exactly():
    # 1234567890.123456789 is not a double: a float path would give ...1234567 or similar.
    text = NT3.replace("[200.30, 81.60, 197]", "[200.30, 1234567890.123456789, 197]")
    hand = clean(read_text(text))
    assert hand.scale == 9
    assert hand.starting_stacks[1] == 1234567890123456789
    assert as_decimal(hand.starting_stacks[1], hand.scale) == Decimal("1234567890.123456789")
    assert hand.blinds_or_straddles == (500000000, 1000000000, 0)
    no_float_in(hand)


def test_more_decimal_places_than_the_limit_are_refused_not_rounded():
    # 34 decimal places: beyond MAX_PLACES (18; the scale column is int8 and amounts int64).
    written = "0.1234567890123456789012345678901234"
    text = NT3.replace("[200.30, 81.60, 197]", f"[200.30, {written}, 197]")
    r = read_text(text)
    assert r.hand is None
    assert [(f.code, f.line, f.message) for f in r.findings] == [
        ("invalid-field", L_STACKS, "field 'starting_stacks' entry 2 (p2) is 0.1234567890123456789012345678901234: "
         "more than 18 decimal places")]


def test_long_amount_with_inf_stack_does_not_crash():
    text = NT3.replace("[200.30, 81.60, 197]", "[inf, 1234567890.123456789, 197]")
    hand = clean(read_text(text))
    assert hand.starting_stacks[0] is None
    assert hand.starting_stacks[1] == 1234567890123456789


def test_absurd_exponent_on_the_exact_path_is_an_invalid_field():
    text = NT3.replace("[0, 0, 0]", "[0, 0, 1e-99999999]").replace("81.60", "1234567890.123456789")
    r = read_text(text)
    f = only(r, "invalid-field")
    assert (f.line, f.column) == (L_ANTES, 1)
    assert r.hand is None


def test_inf_stacks_are_none():
    text = NT3.replace("[200.30, 81.60, 197]", "[inf, inf, 197]")
    hand = clean(read_text(text))
    assert hand.starting_stacks == (None, None, 1970)


def test_negative_and_nan_stacks_are_invalid():
    for bad in ("-inf", "nan", "-5", "0"):
        r = read_text(NT3.replace("[200.30, 81.60, 197]", f"[200.30, {bad}, 197]"))
        f = only(r, "invalid-field")
        assert (f.line, f.column) == (L_STACKS, 1), bad
        assert r.hand is None


def test_negative_blind_is_a_warning_and_keeps_its_sign():
    text = NT3.replace("[0.50, 1, 0]", "[0.50, 1, -0.25]")
    r = read_text(text)
    f = only(r, "negative-blind")
    assert f.severity == "warning"
    assert (f.line, f.column) == (L_BLINDS, 1)
    assert "p3" in f.message
    assert r.hand is not None
    assert r.hand.scale == 2
    assert r.hand.blinds_or_straddles == (50, 100, -25)
    assert codes(r) == ["negative-blind"]


def test_negative_blind_integer():
    r = read_text(SIX.replace("[1, 2, 0, 0, 0, 0]", "[1, 2, -2, 0, 0, 0]"))
    assert codes(r) == ["negative-blind"]
    assert r.hand.blinds_or_straddles == (1, 2, -2, 0, 0, 0)


# ==== TOML forms the real files use ==========================================================


def test_bare_toml_time():
    hand = clean(read_text(NT3 + "time = 00:00:09\n"))
    assert hand.fields["time"] == dt.time(0, 0, 9)


@pytest.mark.parametrize("written, value", [("3017237436", 3017237436), ("'R5-1704660-533'", "R5-1704660-533"),
                                            ('"12"', "12")])
def test_hand_field_int_or_string(written, value):
    hand = clean(read_text(NT3 + f"hand = {written}\n"))
    assert hand.hand == value


def test_hand_field_wrong_type_is_invalid_but_the_hand_reads():
    r = read_text(NT3 + "hand = 1.5\n")
    f = only(r, "invalid-field")
    assert (f.line, f.column) == (7, 1)
    assert r.hand is not None and r.hand.hand is None


def test_multi_line_literal_strings():
    hand = clean(read_text(NT3 + "table = '''AMY'S AVE'''\nevent = '''first\nsecond'''\ncity = \"\"\"a\nb\"\"\"\n"))
    assert hand.fields["table"] == "AMY'S AVE"
    assert hand.fields["event"] == "first\nsecond"
    assert hand.fields["city"] == "a\nb"


def test_double_quoted_and_double_space_strings():
    hand = clean(read_text(NT3.replace("'NT'", '"NT"') + "table = 'Table  126581'\n"))
    assert hand.fields["table"] == "Table  126581"


def test_non_ascii_text():
    hand = clean(read_text(NT3 + "event = 'Café ’ — 日本'\nplayers = ['Zoë', 'Jürgen', 'Ørn']\n"))
    assert hand.fields["event"] == "Café ’ — 日本"
    assert hand.fields["players"] == ["Zoë", "Jürgen", "Ørn"]


def test_no_final_newline():
    hand = clean(read_text(NT3.rstrip("\n")))
    assert len(hand.actions) == 6


def test_crlf_line_endings():
    hand = clean(read_text(NT3.replace("\n", "\r\n")))
    assert hand.starting_stacks == (2003, 816, 1970)


def test_comments_everywhere():
    text = (
        "# The first line is a comment\n"
        "# Link: https://example.com/#anchor\n\n"
        "variant = \"NT\"  # trailing comment\n"
        "antes = [0, 0, 0]\n"
        "blinds_or_straddles = [1, 2, 0]\n"
        "min_bet = 2\n"
        "starting_stacks = [100, 100, 100]\n"
        "actions = [\n"
        "  # Pre-flop\n"
        "  \"d dh p1 Ac2d\",  # Ivey\n"
        "  \"p3 f # folds\",\n\n"
        "  \"# a no-op with commentary\",\n"
        "  \"p1 cc\",\n"
        "]\n"
        "# the end\n"
    )
    hand = clean(read_text(text))
    assert [a.kind for a in hand.actions] == ["dh", "f", "noop", "cc"]
    assert hand.actions[1].commentary == "folds"
    assert hand.actions[2].commentary == "a no-op with commentary"


def test_unknown_field_warning_and_user_field_accepted():
    r = read_text(NT3 + "rake = 0.5\n_rake = 0.5\n_notes = 'x'\n")
    f = only(r, "unknown-field")
    assert f.severity == "warning"
    assert (f.line, f.column) == (7, 1)
    assert "rake" in f.message
    assert codes(r) == ["unknown-field"]
    assert r.hand is not None
    assert r.hand.fields["_rake"].text == "0.5" and r.hand.fields["_notes"] == "x"


def test_every_optional_field_of_the_spec_is_accepted():
    extra = """author = 'a'
event = 'e'
url = 'https://x'
venue = 'v'
address = 'ad'
city = 'c'
region = 'r'
postal_code = 'p'
country = 'co'
time = 12:30:00
time_zone = 'America/New_York'
time_zone_abbreviation = 'ET'
day = 1
month = 7
year = 2009
hand = 3
level = 4
seats = [1, 2, 3]
seat_count = 6
table = 7
players = ['a', 'b', 'c']
finishing_stacks = [201.30, 80.60, 197]
winnings = [2, 0, 0]
currency = 'USD'
currency_symbol = '$'
ante_trimming_status = false
time_limit = 30
time_banks = [60, 60, 60]
"""
    hand = clean(read_text(NT3 + extra))
    assert hand.scale == 2  # USD: its ISO 4217 minor units, though 201.30 needs one place
    assert hand.finishing_stacks == (20130, 8060, 19700)
    assert hand.winnings == (200, 0, 0)
    assert hand.ante_trimming_status is False


# ==== malformed: wrong types, lengths, values ================================================


@pytest.mark.parametrize(
    "old, new, line",
    [
        ("min_bet = 1", "min_bet = 'x'", L_MIN_BET),
        ("min_bet = 1", "min_bet = true", L_MIN_BET),
        ("min_bet = 1", "min_bet = [1]", L_MIN_BET),
        ("min_bet = 1", "min_bet = 0", L_MIN_BET),
        ("[0, 0, 0]", "[0, 'x', 0]", L_ANTES),
        ("[0, 0, 0]", "[0, 0, -1]", L_ANTES),
        ("[0.50, 1, 0]", "'0.50'", L_BLINDS),
        ("[200.30, 81.60, 197]", "[200.30, 'x', 197]", L_STACKS),
        ("[200.30, 81.60, 197]", "200", L_STACKS),
        ("[200.30, 81.60, 197]", "[200]", L_STACKS),  # a hand needs 2 players
        ("variant = 'NT'", "variant = 5", L_VARIANT),
        ("actions = [", "actions = 'p1 f' #[", L_ACTIONS),
        ("'d dh p1 ????', ", "1, ", L_ACTIONS),
    ],
)
def test_wrong_types_and_values(old, new, line):
    text = NT3.replace(old, new, 1)
    assert text != NT3
    r = read_text(text, "x.phh")
    f = only(r, "invalid-field")
    assert (f.line, f.column) == (line, 1)
    assert f.severity == "error"
    assert r.hand is None


def test_unknown_variant():
    r = read_text(NT3.replace("'NT'", "'NLHE'"))
    f = only(r, "unknown-variant")
    assert (f.line, f.column) == (L_VARIANT, 1)
    assert r.hand is None


def test_bring_in_with_blinds_is_invalid():
    r = read_text(minimal("F7S") + "blinds_or_straddles = [1, 2]\n")
    f = only(r, "invalid-field")
    assert f.line == len(minimal("F7S").splitlines()) + 1
    assert "bring_in" in f.message


@pytest.mark.parametrize(
    "key, required",
    [("antes", True), ("blinds_or_straddles", True), ("seats", False), ("players", False),
     ("finishing_stacks", False), ("winnings", False), ("time_banks", False)],
)
def test_per_player_arrays_of_the_wrong_length(key, required):
    values = {"antes": "[0, 0]", "blinds_or_straddles": "[1, 2, 0, 0]", "seats": "[1, 2]",
              "players": "['a', 'b', 'c', 'd']", "finishing_stacks": "[1]", "winnings": "[0, 0]",
              "time_banks": "[1, 2, 3, 4, 5]"}
    lines = [ln for ln in NT3.splitlines() if not ln.startswith(key + " ")]
    lines.insert(1, f"{key} = {values[key]}")
    r = read_text("\n".join(lines) + "\n")
    f = only(r, "invalid-field")
    assert (f.line, f.column) == (2, 1)
    assert "3 players" in f.message
    if required:
        assert r.hand is None
    else:  # an optional field of the wrong length is dropped; the hand is still read
        assert r.hand is not None
        assert key not in ("finishing_stacks", "winnings") or getattr(r.hand, key) is None


# ==== malformed: missing required fields, for each variant ===================================


def test_minimal_hands_read_for_every_variant():
    assert len(PHH_VARIANTS) == 11 and all(v.phh for v in PHH_VARIANTS.values())
    assert not any(v.phh for v in EXTENSION_VARIANTS.values())
    for code in VARIANTS:
        hand = clean(read_text(minimal(code)))
        assert hand.variant == code and hand.players == 2


MISSING = [(code, key) for code, v in VARIANTS.items() for key in v.required]


@pytest.mark.parametrize("code, key", MISSING, ids=[f"{c}-{k}" for c, k in MISSING])
def test_missing_required_field(tmp_path, code, key):
    good = minimal(code)
    text = phhs(good, minimal(code, skip=key), good)
    path = tmp_path / "m.phhs"
    path.write_text(text)
    results = list(read_hands([str(path)]))
    assert [r.hand_key for r in results] == ["1", "2", "3"]
    assert results[0].hand is not None and results[2].hand is not None
    assert not results[0].findings and not results[2].findings
    bad = results[1]
    assert bad.hand is None
    f = only(bad, "missing-field")
    assert repr(key) in f.message and code in f.message
    assert f.severity == "error"
    start = header_lines(text)["2"]
    assert bad.line == start
    assert (f.line, f.column) == (start, 1)  # a missing field is located at its hand


def test_missing_variant():
    r = read_text(NT3.replace("variant = 'NT'\n", ""))
    f = only(r, "missing-field")
    assert "variant" in f.message
    assert (f.line, f.column) == (1, 1)


# ==== malformed: actions, cards, players =====================================================


def test_bad_card_notation_is_located():
    text = NT3.replace("'p3 f'", "'d db 4sXc5h'")
    r = read_text(text, "x.phh")
    f = only(r, "invalid-card")
    line = text.splitlines()[L_ACTIONS - 1]
    assert f.action_index == 3
    assert (f.line, f.column) == (L_ACTIONS, col_of(line, "4sXc5h"))
    assert "Xc" in f.message
    assert r.hand is None


def test_card_outside_the_short_deck():
    text = minimal("NS").replace("'d dh p1 AsKs'", "'d dh p1 2sKs'")
    r = read_text(text)
    f = only(r, "invalid-card")
    assert f.action_index == 0
    assert "2s" in f.message and "NS" in f.message
    assert r.hand is not None  # the hand is still read; the card is kept
    assert r.hand.actions[0].cards == (card_from_text("2s"), card_from_text("Ks"))


def test_short_deck_cards_are_fine_in_the_short_deck():
    clean(read_text(minimal("NS").replace("'p2 f'", "'d db 6s7s8s'")))


def test_unknown_actor_p9_at_a_six_player_table():
    text = SIX.replace("'p5 f'", "'p9 f'")
    r = read_text(text, "six.phh")
    f = only(r, "unknown-player")
    line = text.splitlines()[L_ACTIONS - 1]
    assert f.action_index == 2
    assert (f.line, f.column) == (L_ACTIONS, col_of(line, "p9 f"))
    assert "p9" in f.message and "6 players" in f.message
    assert r.hand is None


def test_unknown_player_dealt_to():
    text = SIX.replace("'p3 f'", "'d dh p7 AsKs'")
    r = read_text(text)
    f = only(r, "unknown-player")
    line = text.splitlines()[L_ACTIONS - 1]
    assert f.action_index == 0
    assert (f.line, f.column) == (L_ACTIONS, col_of(line, "p7 AsKs"))


def test_action_syntax_error_located_at_its_own_string():
    # The same text appears earlier (in a field and inside another action): the location must be
    # the failing action's own string.
    text = ("variant = 'NT'\nevent = 'p1 cbr'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [200, 200]\nactions = ['p1 cbr 6', 'd dh p1 AsKd', 'd dh p1', 'p1 cbr']\n")
    r = read_text(text)
    errors = [f for f in r.findings if f.code == "syntax-error"]
    assert [f.action_index for f in errors] == [2, 3]
    line = text.splitlines()[6]
    assert (errors[0].line, errors[0].column) == (7, col_of(line, "'d dh p1'") + 1 + len("d dh p1"))
    assert (errors[1].line, errors[1].column) == (7, col_of(line, "'p1 cbr'") + 1 + len("p1 cbr"))


def test_every_bad_action_is_reported():
    text = SIX.replace("'p3 f'", "'p3 x'").replace("'p5 f'", "'p0 f'").replace("'p6 f'", "'d db ZZ'")
    r = read_text(text)
    assert [(f.code, f.action_index) for f in r.findings] == [
        ("syntax-error", 0), ("unknown-player", 2), ("invalid-card", 3)]
    for f in r.findings:
        assert f.line == L_ACTIONS and f.column and f.column > 1


def test_action_error_in_multi_line_array_in_a_phhs(tmp_path):
    hand = ("variant = \"NT\"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [200, 200]\nactions = [\n  \"d dh p1 AsKd\",\n  \"p2   cbr   1e5\",\n]\n")
    text = phhs(NT3, hand)
    path = tmp_path / "a.phhs"
    path.write_text(text)
    r1, r2 = read_hands([str(path)])
    clean(r1)
    f = only(r2, "syntax-error")
    start = header_lines(text)["2"]
    assert f.action_index == 1
    assert (f.line, f.column) == (start + 7, len('  "p2   cbr   ') + 1)


# ==== malformed: files =======================================================================


@pytest.mark.parametrize("cut", [10, 37, 60, 100, 150, 200])
def test_truncated_phh(tmp_path, cut):
    path = tmp_path / "t.phh"
    path.write_text(NT3[:cut])
    (r,) = read_hands([str(path)])
    assert r.hand is None
    assert r.findings
    f = r.findings[0]
    assert f.code in {"syntax-error", "missing-field"}
    assert f.line is not None and f.column is not None
    if f.code == "syntax-error":
        assert f.line == NT3[:cut].count("\n") + 1 or f.line == NT3[:cut].rstrip("\n").count("\n") + 1


def test_truncated_inside_the_actions_array():
    cut = NT3.index("'p3 f'") + 3
    r = read_text(NT3[:cut])
    f = only(r, "syntax-error")
    assert f.line == L_ACTIONS
    assert f.column is not None and f.column >= 1


def test_truncated_phhs_keeps_the_whole_hands(tmp_path):
    text = phhs(NT3, SIX, NT3)
    cut = text.rindex("'p3 f'")
    path = tmp_path / "t.phhs"
    path.write_text(text[:cut])
    results = list(read_hands([str(path)]))
    assert [r.hand_key for r in results] == ["1", "2", "3"]
    clean(results[0])
    clean(results[1])
    f = only(results[2], "syntax-error")
    assert f.line == header_lines(text)["3"] + L_ACTIONS - 1


def test_empty_phh(tmp_path):
    path = tmp_path / "empty.phh"
    path.write_bytes(b"")
    (r,) = read_hands([str(path)])
    assert r.hand is None
    f = only(r, "missing-field")
    assert (f.line, f.column) == (1, 1)
    assert r.source == str(path) and r.hand_key == ""


@pytest.mark.parametrize("content", [b"", b"\n\n", b"# only a comment\n"])
def test_empty_phhs(tmp_path, content):
    path = tmp_path / "empty.phhs"
    path.write_bytes(content)
    (r,) = read_hands([str(path)])
    assert r.hand is None
    f = r.findings[0]
    assert f.code in ERROR_CODES
    assert f.severity == "error"
    assert (f.line, f.column) == (1, 1)


@pytest.mark.parametrize("suffix", [".phh", ".phhs"])
def test_binary_data(tmp_path, suffix):
    path = tmp_path / f"bin{suffix}"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    results = list(read_hands([str(path)]))
    assert len(results) == 1
    (r,) = results
    assert r.hand is None
    (f,) = r.findings
    assert (f.code, f.message) == ("not-phh-file", "not a PHH file: the first line is neither a TOML table "
                                   "nor a field assignment")  # issue 15 item 6


def test_binary_data_not_utf8_location():
    data = NT3.encode() + b"event = '\xff\xfe'\n"
    from handaudit.grammar.chunk import Chunk

    r = read_chunk(Chunk("b.phh", "", 0, data, 1))
    f = only(r, "syntax-error")
    assert (f.line, f.column) == (7, len("event = '") + 1)


def test_nul_character_is_binary():
    r = read_text(NT3 + "event = 'a\x00b'\n")
    f = only(r, "syntax-error")
    assert (f.line, f.column) == (7, len("event = 'a") + 1)


def test_phhs_content_before_the_first_table(tmp_path):
    text = "variant = 'NT'\n\n" + phhs(NT3)
    path = tmp_path / "pre.phhs"
    path.write_text(text)
    results = list(read_hands([str(path)]))
    assert [r.hand_key for r in results] == ["", "1"]
    assert results[0].hand is None
    assert (results[0].findings[0].code, results[0].findings[0].line) == ("syntax-error", 1)
    clean(results[1])


def test_phhs_with_one_broken_hand_among_good_ones(tmp_path):
    broken_toml = NT3.replace("min_bet = 1", "min_bet = = 1")
    bad_action = SIX.replace("'p4 f'", "'p4 cbr 1e5'")
    text = phhs(NT3, broken_toml, SIX, bad_action, NT3, keys=["1", "2", "3", "4", "x y"])
    text = text.replace("[x y]", "['x y']")
    path = tmp_path / "mixed.phhs"
    path.write_text(text)
    results = list(read_hands([str(path)]))
    starts = header_lines(text)
    assert [r.hand_key for r in results] == ["1", "2", "3", "4", "x y"]
    assert [r.line for r in results] == [starts[k] for k in ["1", "2", "3", "4", "x y"]]
    for r in (results[0], results[2], results[4]):
        hand = clean(r)
        assert hand.hand_key == r.hand_key and hand.line == r.line and hand.source == str(path)
    f = only(results[1], "syntax-error")
    assert f.line == starts["2"] + L_MIN_BET - 1
    assert f.column is not None
    assert results[1].hand is None
    g = only(results[3], "syntax-error")
    assert g.action_index == 1
    assert g.line == starts["4"] + L_ACTIONS - 1
    line = text.splitlines()[g.line - 1]
    assert g.column == col_of(line, "1e5")


def test_finding_lines_are_file_lines_in_a_phhs(tmp_path):
    text = phhs(NT3, NT3 + "rake = 1\n", NT3.replace("[0.50, 1, 0]", "[0.50, 1, -1]"))
    path = tmp_path / "l.phhs"
    path.write_text(text)
    r1, r2, r3 = read_hands([str(path)])
    clean(r1)
    starts = header_lines(text)
    assert only(r2, "unknown-field").line == starts["2"] + 6
    assert only(r3, "negative-blind").line == starts["3"] + L_BLINDS - 1


def test_duplicate_table_names(tmp_path):
    text = phhs(NT3, SIX, NT3.replace("min_bet = 1", "min_bet = 2"), keys=["1", "2", "1"])
    path = tmp_path / "dup.phhs"
    path.write_text(text)
    results = list(read_hands([str(path)]))
    assert [r.hand_key for r in results] == ["1", "2", "1"]
    assert clean(results[0]).min_bet == 10
    clean(results[1])
    assert results[2].hand is None
    f = only(results[2], "duplicate-hand")
    assert f.severity == "error"
    dup_header = [i for i, ln in enumerate(text.splitlines(), 1) if ln == "[1]"][1]
    assert f.line in (dup_header, dup_header + 1)
    assert results[2].line == dup_header + 1


def test_quoted_table_names_and_header_comments(tmp_path):
    text = "# a hand list\n\n[\"7\"]  # seventh\n" + NT3 + "\n[ 'b' ]\n" + SIX
    path = tmp_path / "q.phhs"
    path.write_text(text)
    results = list(read_hands([str(path)]))
    assert [r.hand_key for r in results] == ["7", "b"]
    assert [r.line for r in results] == [4, 4 + len(NT3.splitlines()) + 2]
    for r in results:
        clean(r)


def test_multi_line_string_holding_a_header_line(tmp_path):
    text = phhs(NT3 + "event = '''\n[2]\nnot a table'''\n", SIX, keys=["1", "3"])
    path = tmp_path / "ml.phhs"
    path.write_text(text)
    results = list(read_hands([str(path)]))
    assert [r.hand_key for r in results] == ["1", "3"]
    assert clean(results[0]).fields["event"] == "[2]\nnot a table"
    clean(results[1])


# ==== 50 MB of garbage: bounded results and memory ===========================================

GARBAGE_BYTES = 50 * 1024 * 1024


@pytest.mark.slow  # 50 MB each: over 10 s for two of them
@pytest.mark.parametrize("name", ["garbage.phhs", "garbage.phh", "huge-hand.phhs"])
def test_fifty_megabytes_of_garbage(tmp_path, name):
    rng = random.Random(2026)
    path = tmp_path / name
    with open(path, "wb") as f:
        if name == "huge-hand.phhs":  # one table header, then a hand far larger than any real one
            f.write(b"[1]\n" + NT3.encode())
        written = 0
        while written < GARBAGE_BYTES:
            block = rng.randbytes(1 << 20)
            f.write(block)
            written += len(block)
    tracemalloc.start()
    try:
        count = 0
        errors = 0
        for r in read_hands([str(path)]):
            count += 1
            assert count <= 10, "garbage should give a handful of results"
            assert r.hand is None
            errors += any(f.severity == "error" and f.line is not None for f in r.findings)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count >= 1 and errors == count
    assert peak < 200 * 1024 * 1024, f"peak memory {peak / 1e6:.0f} MB"


# ==== sources: gzip, directories, stdin, bad paths ===========================================


def test_gzip_phh_and_phhs(tmp_path):
    one = tmp_path / "one.phh.gz"
    one.write_bytes(gzip.compress(NT3.encode()))
    many = tmp_path / "many.phhs.gz"
    many.write_bytes(gzip.compress(phhs(NT3, SIX, NT3).encode()))
    results = list(read_hands([str(one), str(many)]))
    assert [(r.source, r.hand_key) for r in results] == [
        (str(one), ""), (str(many), "1"), (str(many), "2"), (str(many), "3")]
    for r in results:
        clean(r)
    assert results[1].hand.starting_stacks == clean(read_text(NT3)).starting_stacks


def test_gzip_files_are_closed(tmp_path):
    paths = []
    for name, text in [("a.phh.gz", NT3), ("b.phhs.gz", phhs(NT3, SIX))]:
        (tmp_path / name).write_bytes(gzip.compress(text.encode()))
        paths.append(str(tmp_path / name))
    (tmp_path / "c.phh.gz").write_bytes(b"not gzip")
    paths.append(str(tmp_path / "c.phh.gz"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        assert len(list(read_hands(paths))) == 4
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]


@pytest.mark.parametrize("name", ["bad.phh.gz", "bad.phhs.gz"])
@pytest.mark.parametrize("kind", ["not-gzip", "cut"])
def test_corrupt_gzip(tmp_path, name, kind):
    data = gzip.compress(phhs(NT3, SIX).encode() if "phhs" in name else NT3.encode())
    path = tmp_path / name
    path.write_bytes(b"this is not gzip" if kind == "not-gzip" else data[: len(data) // 2])
    results = list(read_hands([str(path)]))
    assert results
    last = results[-1]
    assert last.hand is None
    f = last.findings[0]
    assert f.code == "syntax-error" and f.line is not None
    assert "read" in f.message or "TOML" in f.message


def test_gzip_truncated_after_some_hands(tmp_path):
    body = phhs(*([NT3] * 200)).encode()
    data = gzip.compress(body)
    path = tmp_path / "cut.phhs.gz"
    path.write_bytes(data[: int(len(data) * 0.6)])
    results = list(read_hands([str(path)]))
    good = [r for r in results if r.hand is not None]
    assert len(good) >= 10
    assert [r.hand_key for r in good] == [str(i) for i in range(1, len(good) + 1)]
    assert results[-1].hand is None
    assert results[-1].findings[0].code == "syntax-error"


def test_directories_recursive_in_sorted_order(tmp_path):
    root = tmp_path / "d"
    (root / "b" / "z").mkdir(parents=True)
    (root / "a").mkdir()
    files = {
        "b/z/2.phh": NT3,
        "b/1.phh": NT3,
        "a/x.phhs": phhs(NT3, SIX),
        "c.phh.gz": None,
        "a/readme.txt": "not PHH",
        "b/notes.json": "{}",
    }
    for rel, text in files.items():
        p = root / rel
        if rel.endswith(".gz"):
            p.write_bytes(gzip.compress(NT3.encode()))
        else:
            p.write_text(text)
    expected = sorted(str(root / rel) for rel in files if rel.endswith((".phh", ".phhs", ".gz")))
    assert expand_paths([str(root)]) == expected
    results = list(read_hands([str(root)]))
    assert [r.source for r in results] == [expected[0], expected[0]] + expected[1:]
    assert [r.hand_key for r in results][:2] == ["1", "2"]
    for r in results:
        clean(r)
    # the order does not depend on the order files were created
    assert [r.source for r in read_hands([str(root)])] == [r.source for r in results]


def test_paths_in_the_order_given(tmp_path):
    a, b = tmp_path / "a.phh", tmp_path / "b.phh"
    a.write_text(NT3)
    b.write_text(SIX)
    assert [r.source for r in read_hands([str(b), str(a)])] == [str(b), str(a)]


def _stdin(monkeypatch, data: bytes):
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(data)))


def test_stdin_single_hand(monkeypatch):
    _stdin(monkeypatch, NT3.encode())
    (r,) = read_hands(["-"])
    assert (r.source, r.hand_key) == ("-", "")
    clean(r)


def test_stdin_hand_list(monkeypatch):
    text = "# from a pipe\n" + phhs(NT3, SIX.replace("min_bet = 2", "min_bet = 'x'"))
    _stdin(monkeypatch, text.encode())
    r1, r2 = read_hands(["-"])
    assert (r1.source, r1.hand_key, r2.hand_key) == ("-", "1", "2")
    clean(r1)
    f = only(r2, "invalid-field")
    assert f.line == header_lines(text)["2"] + L_MIN_BET - 1


def test_stdin_empty(monkeypatch):
    _stdin(monkeypatch, b"")
    (r,) = read_hands(["-"])
    assert r.hand is None and r.findings


def test_missing_path(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        list(read_hands([str(tmp_path / "nope.phh")]))
    with pytest.raises(SourceError):
        expand_paths([str(tmp_path / "nope")])


def test_non_phh_path(tmp_path):
    p = tmp_path / "hands.txt"
    p.write_text(NT3)
    with pytest.raises(SourceError, match="not a PHH file"):
        list(read_hands([str(p)]))


def test_directory_without_phh(tmp_path):
    (tmp_path / "x.txt").write_text("x")
    with pytest.raises(SourceError):
        list(read_hands([str(tmp_path)]))


def test_bad_path_is_refused_before_any_hand(tmp_path):
    good = tmp_path / "good.phh"
    good.write_text(NT3)
    with pytest.raises(SourceError):
        list(read_hands([str(good), str(tmp_path / "missing.phhs")]))


def test_read_chunks_gives_raw_text_and_lines(tmp_path):
    text = phhs(NT3, SIX)
    path = tmp_path / "c.phhs"
    path.write_text(text)
    chunks = list(read_chunks(str(path)))
    assert [(c.hand_key, c.index, c.line, c.problem) for c in chunks] == [
        ("1", 0, 2, None), ("2", 1, 2 + len(NT3.splitlines()) + 2, None)]
    assert chunks[0].data.decode().strip() == NT3.strip()


def test_result_keeps_the_text_and_line():
    r = read_text(NT3, "src.phh", "k")
    assert (r.source, r.hand_key, r.text, r.line) == ("src.phh", "k", NT3, 1)
    assert r.hand.text == NT3 and r.hand.source == "src.phh" and r.hand.hand_key == "k"


def test_hand_and_read_result_are_values():
    """Compared, printed and pickled by their fields; never changed once made."""
    import pickle

    result = read_text(NT3)
    hand = clean(result)
    again = clean(read_text(NT3))
    assert hand == again and hand is not again
    assert pickle.loads(pickle.dumps(hand)) == hand
    assert pickle.loads(pickle.dumps(result)) == result
    assert repr(hand).startswith("Hand(source='<text>', hand_key='', variant='NT', players=3, scale=1,")
    assert [getattr(hand, name) for name in Hand.FIELDS][4:6] == [1, (0, 0, 0)]
    with pytest.raises(AttributeError):
        hand.scale = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        result.hand = None  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(hand)  # holds the fields dict, as the frozen dataclass did


# ==== TOML syntax errors ===================================================================


def test_toml_syntax_error_says_what_and_where():
    """The TOML reader's own message, without its source excerpt; the line and column in the file."""
    text = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [200, 200]\nactions = [\n'p1 f',,]\n")
    r = read_text(text)
    assert r.hand is None
    assert [(f.code, f.message, f.line, f.column) for f in r.findings] == [
        ("syntax-error", "TOML: extra comma in array, expected value", 7, 8)]


@pytest.mark.parametrize("line, message", [
    ("time = 12:30", "TOML: invalid time, expected `:` (MM:SS)"),
    ("venue = {name = 'x',}", "TOML: trailing commas are not supported in inline tables, expected nothing"),
    ('venue = "a\\eb"', "TOML: missing escaped value, expected `b`, `f`, `n`, `r`, `\\`, `\"`, `u`, `U`"),
])
def test_toml_1_1_syntax_is_a_syntax_error(line, message):
    """PHH files are TOML 1.0 (as tomllib, the exact re-read, and PokerKit read them)."""
    r = read_text(NT3 + line + "\n")
    assert r.hand is None
    assert [(f.code, f.message, f.line) for f in r.findings] == [("syntax-error", message, NT3.count("\n") + 1)]


def test_a_float_too_large_for_toml_is_an_invalid_amount():
    text = NT3.replace("min_bet = 1", "min_bet = 1e400")
    assert "min_bet = 1e400" in text
    r = read_text(text)
    assert [(f.code, f.message) for f in r.findings] == [
        ("invalid-field", "field 'min_bet' is 1e400: too large (more than 4 * 10**18 units of its last decimal place)")]



WHOLE = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 80, 197]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 6.00', 'p2 f']
"""


@pytest.mark.parametrize(("extra", "scale", "raise_to"), [
    ("", 0, 6),  # chips: integers ('6.00' needs no decimal place)
    ("currency = 'USD'\n", 2, 600),  # ISO 4217 minor units
    ("currency = 'usd'\n", 2, 600),
    ("currency_symbol = '$'\n", 2, 600),  # the symbol's code
    ("currency_symbol = '\u20ac'\n", 2, 600),  # EUR
    ("currency = 'JPY'\n", 0, 6),
    ("currency = 'KWD'\n", 3, 6000),
    ("currency = '<b>'\n", 0, 6),  # not a code: its hands keep the places they need
])
def test_the_scale_is_the_currencys_minor_units(extra, scale, raise_to):
    hand = clean(read_text(WHOLE + extra))
    assert hand.scale == scale
    assert hand.actions[4].amount == raise_to
    assert hand.starting_stacks[0] == 200 * 10**scale


def test_a_hand_finer_than_its_currency_keeps_its_places():
    hand = clean(read_text(WHOLE.replace("6.00", "6.125") + "currency = 'USD'\n"))
    assert hand.scale == 3 and hand.actions[4].amount == 6125 and hand.blinds_or_straddles == (1000, 2000, 0)
