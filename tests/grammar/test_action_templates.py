"""Reusing the parse of an action's leading words gives exactly what a full Lark parse gives.

parse_action keeps, per leading words ('d', 'dh', 'p1'), what the grammar parsed after them (a
CARDS or AMOUNT terminal) and reuses it for new last words. For any string, the reused result
must equal the full parse's: same action, same error code and column.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from handaudit.grammar import actions as A

PREFIXES = ["d db", "d dh p1", "d dh p3", "p2 cbr", "p1 sd", "p4 sm", "p1 cc", "p2 f", "p1 pb", "d dh p0"]
PLAYER = st.one_of(st.integers(0, 12).map(lambda n: f"p{n}"), st.sampled_from(["p", "p01", "P1", "px", "p1x", "d"]))
SHAPES = ["{p} f", "{p} cc", "{p} pb", "{p} sm", "{p} sm -", "{p} sd", "{p} cbr {w}", "{p} sm {w}", "{p} sd {w}",
          "d dh {p} {w}", "d db {w}", "{p} {w}", "{p} cc {w}"]
TEACH = ["p1 f", "p1 cc", "p1 pb", "p1 sm", "p1 sm -", "p1 sd", "p1 cbr 10", "p1 sm AsKd", "p1 sd 2c",
         "d dh p1 AsKd", "d db AsKdQh"]
WORD = st.text(alphabet="23456789TJQKAcdhsx?-.0p# ", min_size=0, max_size=10)


def _full_parse(text):
    """The plain Lark parse, bypassing both the memo and the templates."""
    saved = dict(A._TEMPLATES)
    A._TEMPLATES.clear()
    try:
        return A.parse_action.__wrapped__(text)
    finally:
        A._TEMPLATES.clear()
        A._TEMPLATES.update(saved)


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
    A.parse_action.__wrapped__("d dh p2 AsKd")
    assert (True, ("d", "dh", None)) in A._TEMPLATES
    A.parse_action.__wrapped__("p3 f")
    assert (False, (None, "f")) in A._TEMPLATES
    assert A.parse_action.__wrapped__("p9 f").action.player == 8
    assert A.parse_action.__wrapped__("p0 f").code == "unknown-player"  # refused: the full parse says so
    assert A.parse_action.__wrapped__("d dh p2 7h7c").action.cards == (22, 20)
    assert A.parse_action.__wrapped__("d dh p2 7h7x").code == "invalid-card"
