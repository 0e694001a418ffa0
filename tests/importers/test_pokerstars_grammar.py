"""The grammar (importers/pokerstars.lark) and the fast path (importers/lines.py) read every line
of the shared samples alike: for each distinct shape of line (digits and names set aside), the
grammar's event equals the string tests' event."""

from __future__ import annotations

import re

import pytest

from handaudit.importers import lines as L
from handaudit.importers.common import split_lines

from helpers import CORPUS

SITES = CORPUS / "sites" / "pokerstars"
_SEAT = re.compile(r"Seat \d+: (.+) \([^()]* in chips[^()]*\)")


def _hands():
    for path in sorted(SITES.rglob("*.txt")):
        text = path.read_bytes().decode("utf-8", "replace").lstrip("\ufeff")
        hand: list[str] = []
        for line in split_lines(text):
            if line.startswith(("PokerStars ", "PPPoker ")) and hand:
                yield hand
                hand = []
            hand.append(line.rstrip())
        if hand:
            yield hand


def test_grammar_and_fast_path_agree_on_every_kind_of_line():
    if not SITES.is_dir():
        pytest.skip("no samples")
    shapes: dict[str, tuple[str, L.Event]] = {}
    for hand in _hands():
        names = sorted({m.group(1) for line in hand if (m := _SEAT.match(line))}, key=len, reverse=True)
        for line in hand:
            k = L.player_at(line, names)
            if k < 0:
                continue
            fast = L.player_line(line[len(names[k]):], k)
            if fast[0] == L.E_UNKNOWN:
                continue
            shape = re.sub(r"\d", "0", line[len(names[k]):])
            shapes.setdefault(shape, (L.placeholder(line, 0, len(names[k]), k), fast))
    assert len(shapes) > 40
    for shape, (text, fast) in shapes.items():
        got = L.grammar_event(text)
        if fast[0] == L.E_OTHER:
            assert got[0] == L.E_OTHER, shape
        elif fast[0] == L.E_EVENT:
            assert (got[0], got[1], got[3]) == (fast[0], fast[1], fast[3]), shape
        else:
            assert got == fast, shape
