"""A file that is not PHH at all (issue 15, item 6): one line on standard error, exit status 2,
and the run goes on with the other files; a PHH file with a syntax error stays a syntax-error hand."""

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handaudit.grammar.sources import not_phh

from helpers import REPO, run_cli

BINARY = bytes(range(256)) * 2  # a NUL at offset 0


@pytest.mark.parametrize(("head", "why"), [
    (b"ab\0cd", "not a PHH file: binary data (a NUL byte) where the first table or field should be"),
    (b"\x89PNG\r\n", "not a PHH file: the first line is neither a TOML table nor a field assignment"),
    (b"hello world\njust prose\n", "not a PHH file: the first line is neither a TOML table nor a field assignment"),
    (b"variant = 'NT'\nactions = [\n", None),  # PHH with a syntax error
    (b"variant = '\xff\0'\n", None),  # a bad byte inside a value: a syntax error
    (b"[1]\n", None),
    (b"# only a comment\n", None),
    (b"", None),
])
def test_what_is_not_phh(head, why):
    assert not_phh(head) == why


def test_not_phh_exit_2_one_line_and_other_files_audited(tmp_path):
    (tmp_path / "a.phhs").write_bytes(BINARY)
    (tmp_path / "b.phh").write_text("hello world\n", encoding="utf-8")
    (tmp_path / "c.phh").write_text((REPO / "samples" / "odd-chip-split.phh").read_text(encoding="utf-8"),
                                    encoding="utf-8")
    (tmp_path / "d.phh").write_text("variant = 'NT'\nactions = [\n", encoding="utf-8")
    r = run_cli("check", "--fail-on", "never", "--format", "jsonl", str(tmp_path), text=True)
    assert r.returncode == 2
    assert r.stderr.splitlines() == [
        f"handaudit: {tmp_path}/a.phhs: not a PHH file: binary data (a NUL byte) where the first table or field should be",
        f"handaudit: {tmp_path}/b.phh: not a PHH file: the first line is neither a TOML table nor a field assignment",
    ]
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(row["source"].rsplit("/", 1)[1], row["status"], [f["code"] for f in row["findings"]]) for row in rows] == [
        ("a.phhs", "unreadable", ["not-phh-file"]),
        ("b.phh", "unreadable", ["not-phh-file"]),
        ("c.phh", "valid", []),
        ("d.phh", "unreadable", ["syntax-error"]),
    ]


_REF_SKIP = re.compile(rb"(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*")
_REF_BLANK_TAIL = re.compile(rb"[ \t]*(?:#[^\r\n]*)?")
_REF_ASSIGNMENT = re.compile(rb"[ \t]*[A-Za-z0-9_\-\"'.]+[ \t]*=")
_REF_TABLE = re.compile(rb"[ \t\x0b\x0c]*\[")


def _reference_not_phh(head: bytes) -> str | None:
    """The rule one step at a time (how not_phh read before its single pattern): skip the blank
    and comment lines; nothing but a comment left, a table, or a field is PHH; else the reason."""
    pos = _REF_SKIP.match(head, 3 if head.startswith(b"\xef\xbb\xbf") else 0).end()
    if _REF_BLANK_TAIL.match(head, pos).end() == len(head):
        return None
    if _REF_TABLE.match(head, pos) or _REF_ASSIGNMENT.match(head, pos):
        return None
    line = re.split(rb"[\r\n]", head[pos:], maxsplit=1)[0]
    if b"\0" in line:
        return "not a PHH file: binary data (a NUL byte) where the first table or field should be"
    return "not a PHH file: the first line is neither a TOML table nor a field assignment"


_PIECES = [b"", b" ", b"\t", b"\x0b", b"\x0c", b"\r", b"\n", b"\r\n", b"#", b"# note", b"[", b"[1]", b"=",
           b"variant", b"'NT'", b"\"a b\"", b"a.b", b"-", b"_", b"\0", b"\xef\xbb\xbf", b"\xff", b"x", b"9"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12) | st.binary(max_size=40))
def test_not_phh_agrees_with_the_rule_read_step_by_step(parts):
    head = b"".join(parts) if isinstance(parts, list) else parts
    assert not_phh(head) == _reference_not_phh(head), head
