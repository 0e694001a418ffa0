"""The exit-status gate cannot be selected away (issue #38, item 12): a hand that could not be
read, or on which handaudit failed (internal-error), fails the run under --fail-on error or
warning whatever --select, --ignore or handaudit.toml's select leave reported, and the summary
says how many hands were not audited. For PHH, .phhs.gz and site logs."""

from __future__ import annotations

import gzip
import json

import pytest
from helpers import VALID_HAND

from handaudit.findings.selection import Selection
from handaudit.run.local import Runner

BROKEN = "[1]\nvariant = 'NT'\nantes = [\n[2]\nthis is = = not toml\n"


def _inputs(tmp_path, kind: str) -> str:
    if kind == "phhs":
        (tmp_path / "bad.phhs").write_text(BROKEN)
        return str(tmp_path / "bad.phhs")
    if kind == "gz":
        (tmp_path / "bad.phhs.gz").write_bytes(gzip.compress(BROKEN.encode()))
        return str(tmp_path / "bad.phhs.gz")
    (tmp_path / "bad.txt").write_text("PokerStars Hand #1: Hold'em No Limit ($1/$2 USD) - 2020/01/01 1:00:00 ET\n"
                                      "nonsense\n")
    return str(tmp_path / "bad.txt")


@pytest.mark.parametrize("kind", ["phhs", "gz", "site"])
@pytest.mark.parametrize("how", [("--select", "out-of-turn"), ("--ignore", "syntax-error,site-unknown-line,"
                                                                "site-truncated,missing-field,toml-error")])
def test_unreadable_hands_fail_the_run_whatever_the_selection(tmp_path, kind, how, cli):
    path = _inputs(tmp_path, kind)
    how = (how[0], ",".join(c for c in how[1].split(",") if _known(c)))
    proc = cli("check", path, *how, text=True)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "No hand has an error finding" not in proc.stdout
    if how[0] == "--select":  # every error left out: the summary still says what was not audited
        assert "were not audited" in proc.stdout
    js = cli("check", path, *how, "--format", "json", text=True)
    obj = json.loads(js.stdout)
    assert js.returncode == obj["exit_status"] == 1
    assert obj["not_audited"] == obj["unreadable"] >= 1
    assert cli("check", path, *how, "--fail-on", "never").returncode == 0


def _known(code: str) -> bool:
    from handaudit.findings.codes import CODES

    return code in CODES


def test_select_in_handaudit_toml_does_not_hide_unreadable_hands(tmp_path, cli):
    path = _inputs(tmp_path, "phhs")
    (tmp_path / "handaudit.toml").write_text("[findings]\nselect = ['out-of-turn']\n")
    proc = cli("check", path, cwd=tmp_path)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)


def test_an_ignored_internal_error_still_fails_the_run(tmp_path, monkeypatch):
    from handaudit.run import hand_loop

    monkeypatch.delenv("HANDAUDIT_DEBUG", raising=False)
    path = tmp_path / "a.phhs"
    path.write_text("".join(f"[{i}]\n{VALID_HAND}\n" for i in (1, 2, 3)))
    real = hand_loop.replay

    def failing(hand, *a, **kw):
        if hand.hand_key == "2":
            raise RuntimeError("simulated")
        return real(hand, *a, **kw)

    monkeypatch.setattr(hand_loop, "replay", failing)
    result = Runner([str(path)], jobs=1, selection=Selection(ignore=("internal-error",))).run()
    s = result.summary
    assert (s.hands, s.valid, s.unreadable, s.internal, s.not_audited) == (3, 3, 0, 1, 1)
    assert s.ignored["internal-error"] == 1
    assert result.exit_status("error") == 1 and result.exit_status("warning") == 1
    assert result.exit_status("never") == 0
    from handaudit.reports.text import render_counts, render_worst

    assert "internal error 1" in render_counts(s)
    assert "1 hands were not audited (0 unreadable, 1 internal errors)" in render_worst(s)


def test_a_clean_run_still_passes(tmp_path, cli):
    (tmp_path / "a.phh").write_text(VALID_HAND)
    assert cli("check", str(tmp_path / "a.phh"), "--select", "out-of-turn").returncode == 0
