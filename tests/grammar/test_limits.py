"""The reader's limits (README "Limits"): every value that could not fit a report column, or
whose digits a later stage could not print, is an invalid-field finding at the reader, and the
run goes on with every other hand.

Each extreme value sits in one hand of a .phhs file among normal hands; the file goes through
``check --out DIR`` (Parquet), ``--format jsonl`` and the Python API, all ``--jobs 1``: each run
completes, counts every hand, gives the bad hand its exact finding (code, line) and keeps the
others in the tables.
"""

from __future__ import annotations

import json
import tracemalloc

import pytest

from handaudit import audit
from handaudit import cli as cli_module
from handaudit.grammar import fields as F
from handaudit.grammar.reader import read_text
from handaudit.reports.parquet import read_table

BASE = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.05, 0.10, 0]
min_bet = 0.10
starting_stacks = [10.00, 26.85, 5.00]
seats = [1, 2, 3]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 QhQd', 'p3 cbr 0.30', 'p1 f', 'p2 f']
finishing_stacks = [9.95, 26.75, 5.15]
winnings = [0, 0, 0.25]
"""
BIG = "1" + "0" * 5000  # 5,001 digits: Python refuses to print an int of more than 4,300


def _with(key: str, value: str) -> str:
    """BASE with field ``key`` set to ``value`` (replaced, or added at the end)."""
    lines = BASE.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(key + " ="):
            lines[i] = f"{key} = {value}"
            break
    else:
        lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


def _action(text: str) -> str:
    return BASE.replace("'p3 cbr 0.30'", repr(text))


# (name, hand text, status, finding code, the key whose line the finding names, message or None)
CASES = [
    ("32,768 players", _with("starting_stacks", "[" + ", ".join(["100"] * 32768) + "]"), "unreadable",
     "invalid-field", "starting_stacks", "the hand has 32768 players; handaudit reads at most 1,000 a hand"),
    ("1,001 players", _with("starting_stacks", "[" + ", ".join(["100"] * 1001) + "]"), "unreadable",
     "invalid-field", "starting_stacks", None),
    ("seat 32,768", _with("seats", "[1, 2, 32768]"), "invalid", "invalid-field", "seats",
     "field 'seats' entry 3 (p3) is 32768: it must be an integer from 1 to 1,000"),
    ("seat 0", _with("seats", "[0, 1, 2]"), "invalid", "invalid-field", "seats", None),
    ("seat_count 5,000-digit", _with("seat_count", BIG), "invalid", "invalid-field", "seat_count",
     "field 'seat_count' is an integer of more than 18 digits: it must be an integer from 1 to 1,000"),
    ("hand 5,000-digit", _with("hand", BIG), "invalid", "invalid-field", "hand", None),
    ("level 2**63", _with("level", str(2**63)), "invalid", "invalid-field", "level",
     "field 'level' is an integer of more than 18 digits: it must be an integer from "
     "-9,223,372,036,854,775,807 to 9,223,372,036,854,775,807"),
    ("day -2**63", _with("day", str(-2**63)), "invalid", "invalid-field", "day", None),
    ("time_limit 5,000-digit", _with("time_limit", BIG), "invalid", "invalid-field", "time_limit", None),
    ("stack 2**63", _with("starting_stacks", f"[{2**63}, 26.85, 5.00]"), "unreadable", "invalid-field",
     "starting_stacks", None),
    ("stack 2**63 - 1", _with("starting_stacks", f"[{2**63 - 1}, 26, 5]"), "unreadable", "invalid-field",
     "starting_stacks", "field 'starting_stacks' entry 1 (p1) is 9223372036854775807: more than 4 * 10**18 "
     "units at 0 decimal places"),
    ("stacks totalling beyond the limit", _with("starting_stacks", "[3e18, 3e18, 5]"), "unreadable",
     "invalid-field", "starting_stacks", None),
    ("stack of 5,000 digits", _with("starting_stacks", f"[{BIG}, 26.85, 5.00]"), "unreadable",
     "invalid-field", "starting_stacks",
     "field 'starting_stacks' entry 1 (p1) is an integer of more than 18 digits: more than 4 * 10**18 "
     "units at 2 decimal places"),
    ("float stack of 5,000 digits", _with("starting_stacks", f"[{BIG}.5, 26.85, 5.00]"), "unreadable",
     "invalid-field", "starting_stacks", None),
    ("stack 1e400", _with("starting_stacks", "[1e400, 26.85, 5.00]"), "unreadable", "invalid-field",
     "starting_stacks", "field 'starting_stacks' entry 1 (p1) is 1e400: too large (more than 4 * 10**18 "
     "units of its last decimal place)"),
    ("stack 1e-400", _with("starting_stacks", "[1e-400, 26.85, 5.00]"), "unreadable", "invalid-field",
     "starting_stacks", "field 'starting_stacks' entry 1 (p1) is 1e-400: more than 18 decimal places"),
    ("min_bet of 128 places", _with("min_bet", "0." + "0" * 127 + "1"), "unreadable", "invalid-field",
     "min_bet", None),
    ("winnings of 300 places", _with("winnings", "[0, 0, 0.25" + "0" * 297 + "1]"), "invalid",
     "invalid-field", "winnings", None),
    ("blind 1e-19", _with("blinds_or_straddles", "[1e-19, 0.10, 0]"), "unreadable", "invalid-field",
     "blinds_or_straddles", None),
    ("9 places elsewhere: a stack fine alone, too many units at the hand's scale",
     _with("starting_stacks", "[5000000000.0, 26.85, 5.00]").replace("winnings = [0, 0, 0.25]",
                                                                      "winnings = [0, 0, 0.000000001]"),
     "unreadable", "invalid-field", "starting_stacks", None),
    ("inf stack with a raise to 2 * 10**16", _with("starting_stacks", "[10, 26.85, inf]").replace(
        "'p3 cbr 0.30'", "'p3 cbr 20000000000000000'"), "unreadable", "invalid-field", "starting_stacks", None),
    ("raise of 5,000 digits", _action("p3 cbr " + BIG), "unreadable", "invalid-field", "actions",
     "action 3: 5,008 characters; handaudit reads actions of at most 1,000"),
    ("raise of 900 digits", _action("p3 cbr 1" + "0" * 899), "unreadable", "invalid-field", "actions", None),
    ("raise of 19 places", _action("p3 cbr 0.3000000000000000001"), "unreadable", "invalid-field", "actions",
     "action 3: the amount is beyond the limits: at most 4 * 10**18 units and 18 decimal places"),
    ("10,001 actions", _with("actions", "[" + "'', " * 10001 + "]"), "unreadable", "invalid-field", "actions",
     "the hand has 10001 actions; handaudit reads at most 10,000 a hand"),
]
NORMAL_EVERY = 1  # a normal hand between each two cases


@pytest.fixture(scope="module")
def phhs(tmp_path_factory):
    """One .phhs file: normal, case, normal, case, ..., normal. Returns (path, expected) where
    expected[k] = (status, code, line, message) for each case hand's table name k."""
    parts: list[str] = []
    expected: dict[str, tuple] = {}
    line = 1
    k = 0

    def add(text: str) -> int:
        nonlocal line, k
        k += 1
        parts.append(f"[{k}]\n{text}\n")
        start = line + 1  # the hand's first field line
        line += 1 + text.count("\n") + 1
        return start

    add(BASE)
    for name, text, status, code, key, message in CASES:
        start = add(text)
        offset = next(i for i, ln in enumerate(text.splitlines()) if ln.startswith(key + " ="))
        expected[str(k)] = (name, status, code, start + offset, message)
        add(BASE)
    path = tmp_path_factory.mktemp("limits") / "limits.phhs"
    path.write_text("".join(parts))
    return path, expected, k


def _main(argv, monkeypatch, capsys):
    monkeypatch.delenv("HANDAUDIT_DEBUG", raising=False)
    with pytest.raises(SystemExit) as exit_info:
        cli_module.main(argv)
    return exit_info.value.code, capsys.readouterr()


def _check_objects(objs: list[dict], expected: dict, total: int) -> None:
    assert len(objs) == total
    for obj in objs:
        case = expected.get(obj["hand_key"])
        if case is None:
            assert obj["status"] == "valid", obj
            assert obj["payout_check"] == "match"
            continue
        name, status, code, line, message = case
        assert obj["status"] == status, (name, obj["findings"])
        errors = [f for f in obj["findings"] if f["severity"] == "error"]
        assert [(f["code"], f["line"]) for f in errors][:1] == [(code, line)], (name, errors)
        if message is not None:
            assert errors[0]["message"] == message, name


def test_jsonl_run_counts_every_hand_and_names_each_limit(phhs, monkeypatch, capsys):
    path, expected, total = phhs
    code, out = _main(["check", str(path), "--format", "jsonl", "--jobs", "1"], monkeypatch, capsys)
    assert code == 1, out.err
    _check_objects([json.loads(line) for line in out.out.splitlines()], expected, total)


def test_parquet_run_completes_with_every_hand_in_the_tables(phhs, tmp_path, monkeypatch, capsys):
    path, expected, total = phhs
    out = tmp_path / "report"
    code, captured = _main(["check", str(path), "--out", str(out), "--jobs", "1"], monkeypatch, capsys)
    assert code == 1, captured.err
    assert (out / "_SUCCESS").exists()
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["hands"] == total
    hands = read_table(out, "hands").to_pylist()
    assert len(hands) == total
    by_key = {h["hand_key"]: h for h in hands}
    assert len(by_key) == total
    findings = read_table(out, "findings").to_pylist()
    for key, (name, status, code, line, _message) in expected.items():
        assert by_key[key]["status"] == status, name
        assert by_key[key]["first_error"] == code, name
        assert [(f["code"], f["line"]) for f in findings if f["hand_key"] == key and f["severity"] == "error"][:1] \
            == [(code, line)], name
    normal = [k for k in by_key if k not in expected]
    assert len(normal) == len(expected) + 1
    assert all(by_key[k]["status"] == "valid" for k in normal)
    players = read_table(out, "players").to_pylist()
    seats = sorted((p["hand_key"], p["seat"]) for p in players if p["hand_key"] in normal)
    assert len(seats) == 3 * len(normal) and {s for _, s in seats} == {1, 2, 3}
    # a dropped seats field leaves the hand's players with no seat, never an out-of-range one
    seat_case = next(k for k, v in expected.items() if v[0] == "seat 32,768")
    assert [p["seat"] for p in players if p["hand_key"] == seat_case] == [None, None, None]


def test_python_api_yields_every_hand(phhs):
    path, expected, total = phhs
    objs = [report.to_json() for report in audit([str(path)])]
    _check_objects(json.loads(json.dumps(objs, default=str)), expected, total)


def test_exact_floats_beyond_a_double():
    """3.0000000000000001 is not 3; -0.0 is 0; underscores and signs as TOML defines them."""
    hand = read_text(_with("starting_stacks", "[3.0000000000000001, +2_6.85, 5.00]")
                     .replace("winnings = [0, 0, 0.25]", "winnings = [-0.0, 0, 0.25]")
                     .replace("finishing_stacks = [9.95, 26.75, 5.15]",
                              "finishing_stacks = [2.9500000000000001, 26.75, 5.15]")).hand
    assert hand is not None
    assert hand.scale == 16
    assert hand.starting_stacks == (30000000000000001, 268500000000000000, 50000000000000000)
    assert hand.winnings == (0, 0, 2500000000000000)


def test_empty_actions_read():
    r = read_text(_with("actions", "[]"))
    assert r.hand is not None and r.hand.actions == () and r.hand.action_texts == ()


def test_memory_of_the_largest_hand_is_bounded():
    """A hand of MAX_ACTIONS actions (the most the reader takes), read, replayed, settled and
    reported (its JSONL line, and its rows buffered for Parquet, as a run does): peak memory under
    1.2 KB an action (measured: ~800 bytes, ~50x its text)."""
    from handaudit.grammar.chunk import Chunk
    from handaudit.reports.buffer import ReportBuffer
    from handaudit.reports.jsonl import report_line
    from handaudit.reports.rows import add_hand
    from handaudit.rules.rulebook import load_rulebook
    from handaudit.run.hand_loop import audit_chunk

    n = F.MAX_ACTIONS
    acts = ["d dh p1 ????", "d dh p2 ????"] + [f"p{2 - k % 2} cbr {4 + 2 * k}" for k in range(n - 2)]
    text = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            f"starting_stacks = [{10**12}, {10**12}]\nactions = [" + ", ".join(f"'{a}'" for a in acts) + "]\n")
    book = load_rulebook("tda-2026", [])
    tracemalloc.start()
    try:
        report = audit_chunk(Chunk("big", "", 0, text.encode(), 1), book)
        report_line(report)
        add_hand(ReportBuffer(), report)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.status == "valid" and len(report.replay.records) == n
    assert peak < 1200 * n, peak
    over = read_text(text.replace("actions = [", "actions = ['', "))
    assert over.hand is None and [f.code for f in over.findings] == ["invalid-field"]
