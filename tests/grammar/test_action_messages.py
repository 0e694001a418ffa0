"""A refused action names what the notation expected there, in the notation's own words."""

import pytest

from handaudit.grammar.actions import parse_action


@pytest.mark.parametrize("text,column,expected", [
    ("p1 xx", 4, "unexpected 'xx'; expected f, cc, cbr AMOUNT, pb, sm [CARDS] or sd [CARDS]"),
    ("p1 cbr", 7, "unexpected end of action; expected an amount (10, 3.00)"),
    ("p1 cbr abc", 8, "unexpected 'abc'; expected an amount (10, 3.00)"),
    ("d dh", 5, "unexpected end of action; expected a player (p1, p2, ...)"),
    ("d xx p1", 3, "expected db CARDS (board cards) or dh PLAYER CARDS (hole cards)"),
    ("q1 f", 1, "expected d (the dealer), a player (p1, p2, ...) or # and a comment"),
    ("p1 cc 5", 7, "unexpected '5'; expected the end of the action (or # and a comment)"),
    ("p1 sm As Kd", 10, "(cards are written together, with no space: AsKd)"),
])
def test_the_message_says_what_was_expected(text, column, expected):
    parse_action.cache_clear()
    err = parse_action(text)
    assert err.code == "syntax-error" and err.column == column
    assert expected in err.message
    for name in ("CBR", "FOLD", "COMMENTARY", "DEALER", "expected one of"):
        assert name not in err.message  # no grammar terminal names


def test_the_cards_hint_only_where_cards_were_written():
    assert "written together" not in parse_action("p1 cc As").message
