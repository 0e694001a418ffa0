"""A file that is not PHH at all (issue 15, item 6): one line on standard error, exit status 2,
and the run goes on with the other files; a PHH file with a syntax error stays a syntax-error hand."""

import json

import pytest

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
