"""Every hand of a PokerStars log reported exactly once: random line deletions, duplications and
splices (a hand header run onto the end of the line before it) never lose, merge or invent a
hand. The log: hands of the shared samples, renumbered so that each is a distinct site hand."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handaudit.importers import read_any
from handaudit.importers.common import split_log
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from helpers import CORPUS

BOOK = load_rulebook("tda-2026")
SAMPLE = CORPUS / "sites" / "pokerstars" / "hhsmithy" / "CashGame" / "MultipleHandsTests" / "10MultipleHands.txt"
_HEAD = re.compile(r"^(PokerStars (?:Game|Hand) #)\d+:", re.M)


def _log() -> tuple[list[str], list[int]]:
    text = SAMPLE.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    count = iter(range(1, 1000))
    text = _HEAD.sub(lambda m: f"{m.group(1)}{900000000 + next(count)}:", text)
    lines = text.split("\n")
    numbers = [int(m.group(1)) for m in re.finditer(r"^PokerStars (?:Game|Hand) #(\d+):", text, re.M)]
    return lines, numbers


LINES, NUMBERS = _log()
HEADS = [i for i, line in enumerate(LINES) if line.startswith("PokerStars ")]
BODY = [i for i, line in enumerate(LINES) if i not in HEADS and line.strip()]


def _entries(lines: list[str]) -> list[int | None]:
    """The hand number of every entry the audit reports, in order."""
    out: list[int | None] = []
    for chunk in split_log("log.txt", "\n".join(lines).encode("utf-8")):
        report = audit_read(read_any(chunk), BOOK, chunk.index)
        read = report.read
        out.append(read.hand.hand if read.hand is not None else (read.known or {}).get("hand"))
    return out


def test_the_log_as_it_is_gives_each_hand_once():
    assert len(NUMBERS) == 10 and _entries(LINES) == NUMBERS


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(BODY), max_size=25, unique=True))
def test_line_deletions_never_lose_merge_or_invent_a_hand(deleted):
    lines = [line for i, line in enumerate(LINES) if i not in set(deleted)]
    assert _entries(lines) == NUMBERS


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(HEADS + BODY), max_size=12))
def test_line_duplications_never_lose_merge_or_invent_a_hand(duplicated):
    twice = set(duplicated)
    lines: list[str] = []
    for i, line in enumerate(LINES):
        lines.append(line)
        if i in twice:
            lines.append(line)
    assert _entries(lines) == NUMBERS


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(HEADS[1:]), st.integers(0, 40)), max_size=5,
                unique_by=lambda t: t[0]))
def test_splices_never_merge_two_hands(splices):
    """A header run onto the line before it (cut at any point, the blank lines between the
    hands dropped), as when two files are joined mid-line: still its own hand."""
    cut = dict(splices)
    lines: list[str] = []
    for i, line in enumerate(LINES):
        if i in cut:
            while lines and not lines[-1].strip():
                lines.pop()
            prev = lines.pop() if lines else ""
            lines.append(prev[:cut[i]] + line)
        else:
            lines.append(line)
    assert _entries(lines) == NUMBERS
