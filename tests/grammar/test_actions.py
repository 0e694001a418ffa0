"""The PHH action notation: every form of the spec, the no-ops, errors with code and column."""

from __future__ import annotations

import pytest

from handaudit.core.cards import UNKNOWN, card_from_text, cards_from_text
from handaudit.core.hand import (
    BET_RAISE,
    BRING_IN,
    CHECK_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    DISCARD,
    FOLD,
    NOOP,
    SHOW_MUCK,
)
from handaudit.grammar.actions import ActionError, ParsedAction, parse_action


def ok(text: str) -> ParsedAction:
    result = parse_action(text)
    assert isinstance(result, ParsedAction), f"{text!r} -> {result}"
    return result


def err(text: str) -> ActionError:
    result = parse_action(text)
    assert isinstance(result, ActionError), f"{text!r} should be refused, got {result}"
    return result


def C(text: str) -> tuple[int, ...]:
    return cards_from_text(text)


# --- every form of the spec -----------------------------------------------------------------


def test_deal_board():
    a = ok("d db AsKd7c").action
    assert (a.kind, a.player, a.cards, a.amount) == (DEAL_BOARD, None, C("AsKd7c"), None)
    assert a.actor == "d" and a.by_dealer


def test_deal_board_one_card():
    assert ok("d db 9d").action.cards == (card_from_text("9d"),)


def test_deal_hole_known_and_unknown():
    a = ok("d dh p3 7h6h").action
    assert (a.kind, a.player, a.cards) == (DEAL_HOLE, 2, C("7h6h"))
    assert a.actor == "d"
    b = ok("d dh p1 ????").action
    assert b.cards == (UNKNOWN, UNKNOWN)
    c = ok("d dh p2 As??").action
    assert c.cards == (card_from_text("As"), UNKNOWN)


def test_deal_hole_stud_and_draw_sizes():
    assert len(ok("d dh p1 2c3d4h").action.cards) == 3
    assert len(ok("d dh p10 2c3d4h5s6c").action.cards) == 5
    assert ok("d dh p10 2c3d4h5s6c").action.player == 9


def test_bring_in():
    a = ok("p1 pb").action
    assert (a.kind, a.player, a.cards, a.amount) == (BRING_IN, 0, None, None)
    assert a.actor == "p1"


@pytest.mark.parametrize(
    "text, amount, decimals",
    [
        ("p2 cbr 10", 10, 0),
        ("p2 cbr 0", 0, 0),
        ("p2 cbr 1067100", 1067100, 0),
        ("p2 cbr 3.5", 35, 1),
        ("p2 cbr 0.25", 25, 2),
        ("p2 cbr 3.00", 300, 2),  # trailing zeros kept as written (the reader rescales)
        ("p2 cbr 15.650", 15650, 3),
        ("p2 cbr 007", 7, 0),
    ],
)
def test_complete_bet_raise_amounts(text, amount, decimals):
    parsed = ok(text)
    a = parsed.action
    assert (a.kind, a.player, a.amount, parsed.decimals) == (BET_RAISE, 1, amount, decimals)
    assert isinstance(a.amount, int)


def test_check_call_and_fold():
    a = ok("p2 cc").action
    assert (a.kind, a.player) == (CHECK_CALL, 1)
    b = ok("p4 f").action
    assert (b.kind, b.player, b.cards) == (FOLD, 3, None)


def test_discard_with_and_without_cards():
    a = ok("p1 sd 7h2c").action
    assert (a.kind, a.player, a.cards) == (DISCARD, 0, C("7h2c"))
    pat = ok("p1 sd").action
    assert (pat.kind, pat.player, pat.cards) == (DISCARD, 0, None)  # stand pat
    assert ok("p1 sd ????").action.cards == (UNKNOWN, UNKNOWN)


def test_show_muck_cards_none_and_dash():
    shown = ok("p1 sm AsKd").action
    assert (shown.kind, shown.cards, shown.show_dash) == (SHOW_MUCK, C("AsKd"), False)
    mucked = ok("p1 sm").action
    assert (mucked.kind, mucked.cards, mucked.show_dash) == (SHOW_MUCK, None, False)
    dash = ok("p1 sm -").action
    assert (dash.kind, dash.cards, dash.show_dash) == (SHOW_MUCK, None, True)
    hidden = ok("p2 sm ????").action
    assert hidden.cards == (UNKNOWN, UNKNOWN)


# --- commentary and no-ops --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, kind, commentary",
    [
        ("p1 cc # Ivey calls", CHECK_CALL, "Ivey calls"),
        ("p1 cc #no space", CHECK_CALL, "no space"),
        ("p1 f#glued", FOLD, "glued"),
        ("d db Jc3d5c # Flop", DEAL_BOARD, "Flop"),
        ("p3 cbr 7000  #  Dwan  ", BET_RAISE, "Dwan"),
        ("p1 sm -# as dealt", SHOW_MUCK, "as dealt"),
        ("p1 sm # mucks", SHOW_MUCK, "mucks"),
        ("p1 sd # stands pat", DISCARD, "stands pat"),
        ("# Burn card 6s is exposed", NOOP, "Burn card 6s is exposed"),
        ("   # indented", NOOP, "indented"),
        ("p1 cc # a # b", CHECK_CALL, "a # b"),
    ],
)
def test_commentary_is_kept(text, kind, commentary):
    a = ok(text).action
    assert a.kind == kind
    assert a.commentary == commentary


def test_commentary_does_not_change_the_action():
    a = ok("p1 sm AsKd # shows").action
    assert a.cards == C("AsKd") and a.player == 0


@pytest.mark.parametrize("text", ["", " ", "   ", "\t", " \t  \t", "\n"])
def test_noops_without_commentary(text):
    a = ok(text).action
    assert a.kind == NOOP
    assert a.actor is None and a.player is None and a.cards is None and a.commentary is None


@pytest.mark.parametrize(
    "text",
    [
        "p1 cbr 5",
        "p1  cbr 5",
        "p1\tcbr\t5",
        "p1 \t cbr  \t  5",
        "  p1 cbr 5",
        "p1 cbr 5   ",
        "\tp1 cbr 5\t",
        "   p1     cbr     5    ",
    ],
)
def test_any_whitespace_runs(text):
    a = ok(text).action
    assert (a.kind, a.player, a.amount) == (BET_RAISE, 0, 5)


def test_whitespace_in_dealer_actions():
    assert ok("  d   dh\tp2   AsKd  ").action.cards == C("AsKd")
    assert ok("d  db   2c3c4c").action.kind == DEAL_BOARD


# --- errors: exact code and column -----------------------------------------------------------


@pytest.mark.parametrize(
    "text, code, column",
    [
        ("p1cc", "syntax-error", 1),  # words must be separated
        ("p1 cbr", "syntax-error", 7),  # the amount is missing: column just after the text
        ("p1 cbr   ", "syntax-error", 7),
        ("p1 cbr 1e5", "syntax-error", 8),  # not a PHH amount
        ("p1 cbr -5", "syntax-error", 8),
        ("p1 cbr .5", "syntax-error", 8),
        ("p1 cbr 5.", "syntax-error", 8),
        ("p1 cbr 5,00", "syntax-error", 8),
        ("p1 xx", "syntax-error", 4),
        ("p1 cc extra", "syntax-error", 7),
        ("P1 f", "syntax-error", 1),
        ("d db", "syntax-error", 5),
        ("d dh p1", "syntax-error", 8),
        ("d f", "syntax-error", 3),
        ("p1 ccc", "syntax-error", 4),
        ("d db 4sXc5h", "invalid-card", 6),  # the column of the cards word
        ("d db 4s5", "invalid-card", 6),  # odd length
        ("d dh p1 1s2s", "invalid-card", 9),
        ("  d db AsKs1c", "invalid-card", 8),
        ("p1 sm --", "invalid-card", 7),
        ("p1 sd 7h2", "invalid-card", 7),
        ("p0 f", "unknown-player", 1),
        ("p0 cbr 5", "unknown-player", 1),
        ("d dh p0 AsKd", "unknown-player", 6),
        ("   p0 cc", "unknown-player", 4),
    ],
)
def test_errors_code_and_column(text, code, column):
    e = err(text)
    assert (e.code, e.column) == (code, column), e.message
    assert e.message


def test_invalid_card_message_names_the_card():
    e = err("d db 4sXc5h")
    assert "Xc" in e.message


def test_parse_action_never_raises_on_odd_strings():
    for text in ["\x00", "p", "p1", "d", "#\n#", "p1 cbr 99999999999999999999999999999", "pp1 f", "p1 f f",
                 "p1 sm - -", "d db ??", "p-1 f", "p1 sm AsKd # x\ny", "\u2003p1 f", "p１ f"]:
        result = parse_action(text)
        assert isinstance(result, (ParsedAction, ActionError))


def test_huge_amount_is_exact():
    a = ok("p1 cbr 123456789012345678901234567890.000000001").action
    assert a.amount == 123456789012345678901234567890000000001


# --- memoisation ------------------------------------------------------------------------------


def test_memoised_same_object_back():
    first = parse_action("p3 f # memo test")
    assert parse_action("p3 f # memo test") is first
    error = parse_action("p3 cbr 1e5 # memo test")
    assert parse_action("p3 cbr 1e5 # memo test") is error


def test_memo_cache_counts_hits():
    info = getattr(parse_action, "cache_info", None)
    if info is None:
        pytest.skip("parse_action is memoised without functools.lru_cache")
    text = "d dh p7 ???? # cache-hit probe"
    parse_action(text)
    before = parse_action.cache_info().hits
    for _ in range(10):
        parse_action(text)
    assert parse_action.cache_info().hits == before + 10


def test_results_are_immutable():
    parsed = ok("p1 cbr 5")
    with pytest.raises(AttributeError):  # a frozen value, pure or compiled
        parsed.action.amount = 6  # type: ignore[misc]
