"""The cross-hand pass on whole site sessions (PokerStars logs of the shared corpus): a clean
88-hand tournament table stays clean, and a hand removed from it is caught at the next hand."""

from __future__ import annotations

import re

import pytest

from handaudit.run.local import Runner
from handaudit.sessions import read_session_table
from helpers import CORPUS

LOG = CORPUS / "sites" / "pokerstars-pokerdf" / "pokerdf" / "HH20250516 T99999 No Limit Hold_em US$ 1,84 + US$ 0,16.txt"
pytestmark = pytest.mark.skipif(not LOG.is_file(), reason="shared corpus not present")


def _hands(text: str) -> list[str]:
    heads = [m.start() for m in re.finditer(r"(?m)^PokerStars Hand #", text)]
    return [text[a:b] for a, b in zip(heads, [*heads[1:], len(text)], strict=True)]


def _run(path, tmp_path, name):
    out = tmp_path / name
    assert Runner([str(path)], out_dir=str(out), jobs=1, sessions=True).run().complete
    return out


def test_the_whole_tournament_table_is_one_clean_session(tmp_path):
    out = _run(LOG, tmp_path, "whole")
    (s,) = read_session_table(out, "sessions").to_pylist()
    assert (s["venue"], s["table"], s["event"], s["hands"], s["findings"]) == (
        "PokerStars", "99999 1", "Tournament #99999", 88, 0)
    players = read_session_table(out, "session_players").to_pylist()
    assert sum(p["net"] for p in players) == 0  # a tournament table: no rake, every chip somewhere


@pytest.mark.parametrize("k", [10, 40, 70])
def test_a_hand_removed_is_caught_at_the_next(k, tmp_path):
    text = LOG.read_text(encoding="utf-8")
    hands = _hands(text)
    number = re.compile(r"^PokerStars Hand #(\d+)")
    before, removed, after = (number.match(hands[i]).group(1) for i in (k - 1, k, k + 1))
    cut = tmp_path / "cut.txt"
    cut.write_text("".join(h for i, h in enumerate(hands) if i != k), encoding="utf-8")
    out = _run(cut, tmp_path, "cut")
    rows = read_session_table(out, "session_findings").to_pylist()
    assert rows, removed
    assert {(r["hand"], r["earlier_hand"]) for r in rows} == {(after, before)}
    assert {r["code"] for r in rows} == {"hand-missing"}
