"""Arrays nested deeper than tomlscan.MAX_DEPTH are refused before a TOML parser sees them.

toml-rs overflows its stack at some 7,000 levels (SIGSEGV: the whole process dies, no output) and
tomllib raises RecursionError at some 450; a PHH hand needs 2. The guard is a syntax-error at the
line and column of the first bracket past the limit; the hand is unreadable and the run goes on.
"""

import json

import pytest

from handaudit.grammar.reader import read_hands, read_text
from handaudit.grammar.tomlscan import MAX_DEPTH, deepest, nesting_finding

from helpers import run_cli

NT3 = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
min_bet = 1
starting_stacks = [200.30, 81.60, 197]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 3', 'p2 f']
"""
DEEP = "_deep = " + "[" * 10_000 + "]" * 10_000 + "\n"  # a 20 KB hand field, 10,000 deep
COLUMN = len("_deep = ") + MAX_DEPTH + 1  # the bracket that opens level MAX_DEPTH + 1


def _where(result):
    return [(f.code, f.line, f.column) for f in result.findings]


def test_a_phh_hand_nested_ten_thousand_deep_is_a_syntax_error_and_the_next_file_is_read(tmp_path):
    deep = tmp_path / "a-deep.phh"
    deep.write_text(NT3 + DEEP)
    good = tmp_path / "b-good.phh"
    good.write_text(NT3)
    first, second = list(read_hands([str(tmp_path)]))
    assert first.hand is None and _where(first) == [("syntax-error", 7, COLUMN)]
    assert first.findings[0].message == f"arrays and inline tables nested more than {MAX_DEPTH} deep; not read"
    assert second.hand is not None and not second.findings


def test_a_phhs_hand_nested_ten_thousand_deep_is_refused_and_the_next_hand_is_read(tmp_path):
    path = tmp_path / "deep.phhs"
    path.write_text("[1]\n" + NT3 + "[2]\n" + NT3 + DEEP + "[3]\n" + NT3)
    results = list(read_hands([str(path)]))
    assert [r.hand_key for r in results] == ["1", "2", "3"]
    assert results[0].hand is not None and results[2].hand is not None
    assert results[1].hand is None and _where(results[1]) == [("syntax-error", 15, COLUMN)]


def test_the_command_line_survives_a_ten_thousand_deep_hand(tmp_path):
    """In a process of its own: without the guard toml-rs kills it (SIGSEGV)."""
    path = tmp_path / "deep.phhs"
    path.write_text("[1]\n" + NT3 + DEEP + "[2]\n" + NT3 + "_inline = " + "{a = " * 10_000 + "1" + "}" * 10_000 + "\n[3]\n" + NT3)
    proc = run_cli("check", str(path), "--format", "jsonl", text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["hand_key"], r["status"]) for r in lines] == [("1", "unreadable"), ("2", "unreadable"), ("3", lines[2]["status"])]
    assert lines[2]["status"] != "unreadable"
    assert [(f["code"], f["line"], f["column"]) for f in lines[1]["findings"]] == [("syntax-error", 16, len("_inline = ") + 5 * MAX_DEPTH + 1)]


@pytest.mark.parametrize("depth, refused", [(2, False), (MAX_DEPTH, False), (MAX_DEPTH + 1, True)])
def test_the_limit_is_exact(depth, refused):
    for text in ("a = " + "[" * depth + "]" * depth + "\n", "a = " + "{b = " * (depth - 1) + "{}" + "}" * (depth - 1) + "\n",
                 "a = [\n" + "[\n" * (depth - 1) + "]\n" * depth):
        result = read_text(NT3 + text)
        assert (_where(result) and result.findings[0].message.startswith("arrays and inline tables nested")) == refused, text[:80]


def test_brackets_in_strings_and_comments_are_not_nesting():
    many = "[[[[{{{{" * 40
    text = (NT3 + f"_a = '{many}'\n_b = \"{many}\\\"\"\n# {many}\n_c = '''\n{many}\n'''\n_d = \"\"\"{many}\\\"\"\"\"\"\"\n"
            + f"_e = [[['{many}']]]\n")
    assert text.count("[") + text.count("{") > MAX_DEPTH
    assert deepest(text, MAX_DEPTH) == -1 and nesting_finding(text, 1) is None
    assert not _where(read_text(text))
    deeper = text + "_f = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n"
    finding = nesting_finding(deeper, 10)
    assert finding is not None and (finding.line, finding.column) == (10 + deeper.count("\n") - 1, len("_f = ") + MAX_DEPTH + 1)
