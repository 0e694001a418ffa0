"""Reusing the parse of an action's leading words gives exactly what a full Lark parse gives.

parse_action keeps, per shape of the leading words ('d', 'dh', player), what the grammar parsed
after them (a CARDS or AMOUNT terminal, or a fixed word) and reuses it for new players and last
words. For any string, the reused result must equal the full parse's: same action, same error
code and column.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handaudit.grammar import actions as A

PREFIXES = ["d db", "d dh p1", "d dh p3", "p2 cbr", "p1 sd", "p4 sm", "p1 cc", "p2 f", "p1 pb", "d dh p0"]
PLAYER = st.one_of(st.integers(0, 12).map(lambda n: f"p{n}"), st.sampled_from(["p", "p01", "P1", "px", "p1x", "d"]))
SHAPES = ["{p} f", "{p} cc", "{p} pb", "{p} sm", "{p} sm -", "{p} sd", "{p} cbr {w}", "{p} sm {w}", "{p} sd {w}",
          "d dh {p} {w}", "d db {w}", "{p} {w}", "{p} cc {w}"]
TEACH = ["p1 f", "p1 cc", "p1 pb", "p1 sm", "p1 sm -", "p1 sd", "p1 cbr 10", "p1 sm AsKd", "p1 sd 2c",
         "d dh p1 AsKd", "d db AsKdQh"]
WORD = st.text(alphabet="23456789TJQKAcdhsx?-.0p# \t\x1c\u2003", min_size=0, max_size=10)


def _full_parse(text):
    """The plain Lark parse, bypassing both the memo and the templates (which it empties)."""
    A._TEMPLATES.clear()
    return A.parse_action.__wrapped__(text)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(PREFIXES), WORD, st.sampled_from([" ", "  ", "\t"]))
def test_template_path_equals_full_parse(prefix, word, sep):
    # teach the template with a valid string first, then compare on the random one
    A.parse_action.__wrapped__(prefix + " AsKd" if "cbr" not in prefix else prefix + " 10")
    text = prefix + sep + word
    assert A.parse_action.__wrapped__(text) == _full_parse(text)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(SHAPES), PLAYER, WORD)
def test_other_players_reuse_the_shape_exactly_as_a_full_parse(shape, player, word):
    for text in TEACH:  # teach every shape with player 1
        A.parse_action.__wrapped__(text)
    text = shape.format(p=player, w=word)
    assert A.parse_action.__wrapped__(text) == _full_parse(text)


def test_templates_are_learned_and_used():
    A._TEMPLATES.clear()
    A.parse_action.__wrapped__("d dh p2 AsKd")
    assert A._TEMPLATES.shapes[("d", "dh", None)].varying is not None
    A.parse_action.__wrapped__("p3 f")
    assert "f" in A._TEMPLATES.shapes[(None,)].fixed
    assert A.parse_action.__wrapped__("p9 f").action.player == 8
    assert A.parse_action.__wrapped__("p0 f").code == "unknown-player"  # refused: the full parse says so
    assert A.parse_action.__wrapped__("d dh p2 7h7c").action.cards == (22, 20)
    assert A.parse_action.__wrapped__("d dh p2 7h7x").code == "invalid-card"
    assert A.parse_action.__wrapped__("d dh p5 AsKd").action.player == 4
    assert "d dh p5 " in A._TEMPLATES.heads  # bound to the head's text


@pytest.mark.parametrize("space", ["\x1c", "\x0b", "\u2003", "\xa0"])
def test_only_the_grammars_whitespace_separates_words(space):
    # str.split splits at these too; the grammar (WS) does not, so a template must not apply
    for text in TEACH:
        A.parse_action.__wrapped__(text)
    for text in [f"p2{space}f", f"{space}p2 f", f"p2 f{space}", f"d dh p2{space}AsKd", f"d{space}dh p2 AsKd",
                 f"p2 cbr{space}10", f"d dh p2 AsKd{space}"]:
        assert A.parse_action.__wrapped__(text) == _full_parse(text)
        assert A.parse_action.__wrapped__(text).code == "syntax-error"


def test_the_grammars_whitespace_anywhere():
    for text in TEACH:
        A.parse_action.__wrapped__(text)
    for text in ["  p2 f", "p2\tf", "p2 f \n", "d\tdh  p2\r\nAsKd\f", "\tp2 cbr 10 "]:
        reused = A.parse_action.__wrapped__(text)
        assert reused == _full_parse(text)
        assert not isinstance(reused, A.ActionError)


def test_commentary_always_takes_the_full_parse():
    for text in TEACH:
        A.parse_action.__wrapped__(text)
    for text in ["p2 f #", "p2 f#x", "p2 #f", "#p2 f", "d dh p2 As#d", "d dh p2# AsKd", "d db #AsKd", "p2 cbr 10#",
                 "p2 cbr #10", "p2 sm -#", "d#dh p2 AsKd", "p2 sm AsKd # shown"]:
        assert A.parse_action.__wrapped__(text) == _full_parse(text)


def _full_parse_keeping_templates(text):
    """The plain Lark parse, with the learned templates set aside and put back."""
    shapes, heads = A._TEMPLATES.shapes, A._TEMPLATES.heads
    A._TEMPLATES.shapes, A._TEMPLATES.heads = {}, {}
    try:
        return A.parse_action.__wrapped__(text)
    finally:
        A._TEMPLATES.shapes, A._TEMPLATES.heads = shapes, heads


TOKEN = st.one_of(st.sampled_from(["d", "dh", "db", "cbr", "cc", "f", "sd", "sm", "pb", "-", "#", "#x", "????",
                                   "AsKd", "7h", "10", "3.00", "0.5", "1e5", "p", "p0", "p10", "p01"]),
                  st.integers(1, 9).map(lambda n: f"p{n}"), WORD.filter(lambda w: w.strip() == w and w))
SPACE = st.sampled_from([" ", " ", " ", "  ", "\t", "\n", "\x0c", "\r", "\x1c", "\u2003", "\x0b"])


@st.composite
def _action_strings(draw):
    words = draw(st.lists(TOKEN, min_size=0, max_size=5))
    text = draw(st.sampled_from(["", " ", "\t"]))
    for word in words:
        text += word + draw(SPACE)
    return text if draw(st.booleans()) else text.rstrip(" ")


@settings(max_examples=300, deadline=None)
@given(st.lists(_action_strings(), min_size=1, max_size=25))
def test_any_sequence_parses_as_the_full_parse(texts):
    # templates learned from earlier strings of the sequence must never change a later result
    A._TEMPLATES.clear()
    for text in [*TEACH, *texts]:
        assert A.parse_action.__wrapped__(text) == _full_parse_keeping_templates(text), text
