"""The usual shapes the templates start from (action_shapes.py) are what the grammar teaches.

parse_action answers strings of the usual shapes ('p3 f', 'd dh p1 AsKd', 'p2 cbr 30') from
templates written down in action_shapes.py, so that a run of such strings neither imports Lark
nor builds its LALR tables. The file must be what full parses of phh.lark give, and each seeded
answer what a full parse gives.
"""

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from handaudit.grammar import action_parser, action_shapes
from handaudit.grammar import actions as A

SHAPES_FILE = Path(A.__file__).with_name("action_shapes.py")
SAMPLE = Path(__file__).parents[2] / "samples" / "odd-chip-split.phh"


def test_the_file_is_what_the_grammar_gives():
    # fails after an edit of phh.lark until action_parser.main() writes the file again
    assert SHAPES_FILE.read_text(encoding="utf-8") == action_parser.shapes_source()


def test_the_file_is_ignored_for_another_grammar():
    assert A.shapes_data(A.grammar_text()) is action_shapes
    assert A.shapes_data(A.grammar_text().replace("cbr", "cbet")) is None
    assert A.shapes_data(A.grammar_text() + "\n") is None


def test_every_seed_is_answered_by_a_seeded_template():
    A.use_templates(True)
    heads = len(A._TEMPLATES.heads)
    for text in action_parser.SEEDS:
        assert A._TEMPLATES.parse(text) == action_parser.parse(text), text
    assert len(A._TEMPLATES.heads) > heads
    assert len(A._TEMPLATES.shapes) == len({row[0] for row in action_shapes.SHAPES})


WORD = st.text(alphabet="23456789TJQKAcdhsx?-.0p# \t\x1c\u2003", min_size=0, max_size=10)
TOKEN = st.one_of(st.sampled_from(["d", "dh", "db", "cbr", "cc", "f", "sd", "sm", "pb", "-", "#", "????", "AsKd",
                                   "7h", "10", "3.00", "0.5", "1e5", "p", "p0", "p10", "p01"]),
                  st.integers(1, 9).map(lambda n: f"p{n}"), WORD.filter(lambda w: w.strip() == w and w))
SPACE = st.sampled_from([" ", " ", "  ", "\t", "\n", "\r", "\x1c", "\u2003", "\x0b"])


@st.composite
def _action_strings(draw):
    words = draw(st.lists(TOKEN, min_size=0, max_size=4))
    text = draw(st.sampled_from(["", " ", "\t"]))
    for word in words:
        text += word + draw(SPACE)
    return text if draw(st.booleans()) else text.rstrip(" ")


@settings(max_examples=400, deadline=None)
@given(_action_strings())
def test_a_seeded_answer_is_the_full_parse(text):
    A.use_templates(True)  # the seeded templates alone, nothing learned
    assert A.parse_action.__wrapped__(text) == action_parser.parse(text), text


def test_a_run_of_usual_strings_needs_no_lark():
    code = ("import sys\nfrom handaudit.cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('lark' in sys.modules, file=sys.stderr)\n"
            "from handaudit.grammar.actions import parse_action\nparse_action('p1 f # commentary')\n"
            "print('lark' in sys.modules, file=sys.stderr)\n")
    env = dict(os.environ, HANDAUDIT_TEMPLATES="on")
    done = subprocess.run([sys.executable, "-c", code, "check", str(SAMPLE)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.stderr.split()[-2:] == ["False", "True"], done.stderr
    assert "1 hand" in done.stdout, done.stdout
