"""The library API's arguments (issue #38, "also"): a wrong type is a TypeError and a wrong value
a ValueError naming the argument, never an AttributeError from inside; a single str is one item."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import REPO

import handaudit

SAMPLE = str(REPO / "samples" / "odd-chip-split.phh")


@pytest.mark.parametrize("call,error,words", [
    (lambda: handaudit.audit(5), TypeError, "paths: expected a path or a list of paths"),
    (lambda: handaudit.audit([5]), TypeError, "paths: each path must be a str or an os.PathLike, not int"),
    (lambda: handaudit.audit([b"samples"]), TypeError, "not bytes"),
    (lambda: handaudit.audit([]), ValueError, "paths: no path given"),
    (lambda: handaudit.audit([""]), ValueError, "paths: an empty path"),
    (lambda: handaudit.audit([SAMPLE], rulebook=3), TypeError, "rulebook: expected"),
    (lambda: handaudit.audit([SAMPLE], overrides=[1]), TypeError, "overrides: each item must be a str"),
    (lambda: handaudit.audit([SAMPLE], select=[3]), TypeError, "select: each item must be a str, not int"),
    (lambda: handaudit.audit([SAMPLE], ignore=5), TypeError, "ignore: expected a str or a list of str"),
    (lambda: handaudit.audit([SAMPLE], severity={"out-of-turn": 3}), TypeError, "severity: expected code = level"),
    (lambda: handaudit.audit_read(None, None), TypeError, "read: expected a ReadResult"),
    (lambda: handaudit.audit_to_parquet([SAMPLE], 5), TypeError, "out_dir: expected a path"),
    (lambda: handaudit.audit_to_parquet([SAMPLE], "/tmp/x", jobs="2"), TypeError, "jobs: expected an int"),
    (lambda: handaudit.audit_to_parquet([SAMPLE], "/tmp/x", jobs=0), ValueError, "jobs: at least 1"),
    (lambda: handaudit.to_dataframes(5), TypeError, "out_dir: expected a path"),
    (lambda: handaudit.to_dataframes("/no/such/report"), FileNotFoundError, "no report directory"),
])
def test_wrong_arguments_are_clear_errors(call, error, words):
    with pytest.raises(error, match=None) as caught:
        result = call()
        list(result) if hasattr(result, "__next__") else None
    assert words in str(caught.value)


def test_a_single_str_or_path_is_one_item(tmp_path):
    assert len(list(handaudit.audit(SAMPLE))) == 1
    assert len(list(handaudit.audit(Path(SAMPLE)))) == 1
    assert len(list(handaudit.audit([Path(SAMPLE)], select="out-of-turn,show-order"))) == 1
    out = tmp_path / "r"
    handaudit.audit_to_parquet(Path(SAMPLE), out, jobs=1)
    frames = handaudit.to_dataframes(out, "hands")
    assert list(frames) == ["hands"] and len(frames["hands"]) == 1
    with pytest.raises(ValueError, match="unknown table 'hand'"):
        handaudit.to_dataframes(out, ["hand"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="not a handaudit report"):
        handaudit.to_dataframes(tmp_path / "empty")


def test_audit_read_checks_the_rulebook():
    from handaudit.grammar.reader import read_text

    read = read_text((REPO / "samples" / "odd-chip-split.phh").read_text())
    with pytest.raises(TypeError, match="rulebook: expected a loaded Rulebook"):
        handaudit.audit_read(read, "tda-2026")
