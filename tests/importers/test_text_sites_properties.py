"""888poker and PartyPoker logs under random damage: line deletions, duplications and splices
(two lines joined, as a tool that drops a line end writes them) never lose, merge or invent a
hand, and never crash the importer. A hand is its header's hand number: every hand whose header
line survives is reported exactly once, in order, and no entry names another."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handaudit.importers import read_any, site_hand_of
from handaudit.importers.common import split_log
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from text_site_hands import (P888_CASH, P888_DEAD_BLIND, P888_FIXED, P888_TOURNAMENT, P888_WALK, PARTY_ALL_IN,
                             PARTY_CASH, PARTY_NEW_PLAYER, PARTY_TOURNAMENT)

BOOK = load_rulebook("tda-2026")


def _log(hands: list[str]) -> list[str]:
    lines: list[str] = []
    for h in hands:
        lines.extend(h.rstrip("\n").split("\n"))
        lines.append("")
    return lines


LOGS = {
    "888": (_log([P888_CASH, P888_WALK, P888_TOURNAMENT, P888_DEAD_BLIND, P888_FIXED]), ["1186521350", "349568100", "655462938", "359567819",
                                                          "503663069"]),
    "party": (_log([PARTY_CASH, PARTY_ALL_IN, PARTY_TOURNAMENT, PARTY_NEW_PLAYER]), ["13550695573", "13549932236", "15414977083",
                                                               "13551495313"]),
}


def _is_header(line: str) -> bool:
    return "*****" in line  # (a header, or a line a header was spliced onto)


def _reported(lines: list[str]) -> list[str]:
    numbers = []
    for chunk in split_log("x.txt", "\n".join(lines).encode("utf-8")):
        report = audit_read(read_any(chunk), BOOK, chunk.index)  # never raises
        assert report.read.hand is not None or any(f.severity == "error" for f in report.findings)
        key = site_hand_of(chunk.data)
        if key is not None:
            numbers.append(key[2])
    return numbers


def test_the_logs_as_written():
    for lines, numbers in LOGS.values():
        assert _reported(lines) == numbers


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(LOGS)), st.lists(st.tuples(st.sampled_from(["delete", "duplicate", "splice"]),
                                                         st.integers(0, 10_000)), max_size=8))
def test_damage_never_loses_merges_or_invents_a_hand(site, damage):
    lines, numbers = LOGS[site]
    lines = list(lines)
    for what, at in damage:
        i = at % len(lines)
        if what == "splice":  # line i and the next joined (a header so joined is cut off again)
            if i + 1 < len(lines):
                lines[i:i + 2] = [lines[i] + lines[i + 1]]
        elif _is_header(lines[i]):
            continue  # a hand whose header is deleted or written twice is another question
        elif what == "delete":
            del lines[i]
        else:
            lines.insert(i, lines[i])
    assert _reported(lines) == numbers


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(LOGS)), st.integers(0, 10_000))
def test_a_log_cut_anywhere_reports_each_hand_begun_once(site, at):
    lines, numbers = LOGS[site]
    text = "\n".join(lines)
    cut = text[:at % len(text)]
    begun = [n for n in numbers if f"Game {n} *****" in cut]
    got = _reported(cut.split("\n"))
    assert got[:len(begun)] == begun and len(got) - len(begun) <= 1
