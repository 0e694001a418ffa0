"""handaudit.audit() isolates each hand as the CLI does: a failure of handaudit itself on one
hand becomes that hand's report (an internal-error finding) and the generator goes on."""

from __future__ import annotations

import importlib

import pytest

from handaudit import audit

# The module of audit_read, whose replay and settle calls are patched.
audit_module = importlib.import_module("handaudit.run.hand_loop")

HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 f']
"""


@pytest.fixture
def phhs(tmp_path):
    path = tmp_path / "three.phhs"
    path.write_text("".join(f"[{k}]\n{HAND}\n" for k in (1, 2, 3)))
    return str(path)


@pytest.mark.parametrize("stage", ["replay", "settle"])
def test_a_failing_stage_on_one_hand_is_that_hands_finding(phhs, monkeypatch, stage):
    monkeypatch.delenv("HANDAUDIT_DEBUG", raising=False)
    real = getattr(audit_module, stage)

    def flaky(hand, *args):
        if hand.hand_key == "2":
            raise ZeroDivisionError("simulated")
        return real(hand, *args)

    monkeypatch.setattr(audit_module, stage, flaky)
    reports = list(audit([phhs]))
    assert [(r.hand_key, r.index, r.status) for r in reports] == [("1", 0, "valid"), ("2", 1, "invalid"),
                                                                   ("3", 2, "valid")]
    bad = reports[1]
    assert [f.code for f in bad.findings] == ["internal-error"]
    assert bad.findings[0].message == "handaudit failed while auditing this hand: ZeroDivisionError: simulated"
    assert bad.to_json()["findings"][0]["code"] == "internal-error"


def test_a_failing_reader_on_one_hand_is_that_hands_finding(phhs, monkeypatch):
    import handaudit.run.hand_loop as auditing

    monkeypatch.delenv("HANDAUDIT_DEBUG", raising=False)
    real = auditing.read_any  # the hand loop reads through the importers' router (PHH or a site log)

    def flaky(chunk):
        if chunk.hand_key == "1":
            raise MemoryError("simulated")
        return real(chunk)

    monkeypatch.setattr(auditing, "read_any", flaky)
    reports = list(audit([phhs]))
    assert [(r.hand_key, r.status) for r in reports] == [("1", "unreadable"), ("2", "valid"), ("3", "valid")]
    assert reports[0].findings[0].message == "handaudit failed while reading this hand: MemoryError: simulated"


def test_debug_raises(phhs, monkeypatch):
    monkeypatch.setenv("HANDAUDIT_DEBUG", "1")

    def boom(hand, *args):
        raise ZeroDivisionError("simulated")

    monkeypatch.setattr(audit_module, "replay", boom)
    with pytest.raises(ZeroDivisionError):
        list(audit([phhs]))


def test_a_failing_jsonl_line_is_that_hands_finding_and_the_line_is_still_written(phhs, monkeypatch):
    """The JSONL writer (imported by the first batch that wants lines) fails on one hand: that
    hand's line is its report with an internal-error finding, and the run goes on."""
    import io
    import json

    from handaudit.reports.jsonl import report_line
    from handaudit.run.local import Runner

    monkeypatch.delenv("HANDAUDIT_DEBUG", raising=False)

    def flaky(report):
        if report.hand_key == "2" and not any(f.code == "internal-error" for f in report.findings):
            raise ValueError("simulated")
        return report_line(report)

    monkeypatch.setattr(audit_module, "_jsonl_writer", lambda: flaky)
    stream = io.StringIO()
    result = Runner([phhs], jobs=1, jsonl_stream=stream).run()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(d["hand_key"], d["status"]) for d in lines] == [("1", "valid"), ("2", "invalid"), ("3", "valid")]
    assert [f["code"] for f in lines[1]["findings"]] == ["internal-error"]
    assert "while reporting on this hand: ValueError: simulated" in lines[1]["findings"][0]["message"]
    assert result.summary.invalid == 1
