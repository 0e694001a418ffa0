"""Damage to a GGPoker or Winamax log never loses, merges or invents a hand: after random line
deletions, duplications, truncations and splices (hands joined without their blank lines, or one
cut short and the next following at once), every header line left is one reported hand, with
the site hand id its header names, and nothing else is reported but the text before the first
header; a report without a hand always says why (an error finding)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handaudit.importers import read_any, site_hand_of
from handaudit.importers.common import split_log
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from importers.test_ggpoker_lines import CASH as GG
from importers.test_winamax_lines import CASH as WM

BOOK = load_rulebook("tda-2026")
HEADS = {"gg": "Poker Hand #", "wm": "Winamax Poker - "}


def _log(site: str, n: int) -> list[str]:
    """``n`` distinct hands of the site, one list of lines."""
    lines: list[str] = []
    for k in range(n):
        text = GG.replace("HD1000001", f"HD10000{k:02d}") if site == "gg" else \
            WM.replace("7000001-12-", f"7000001-{k + 1}-")
        lines.extend(text.rstrip("\n").split("\n"))
        lines.append("")
    return lines


def _check(site: str, lines: list[str]) -> None:
    data = "\n".join(lines).encode("utf-8")
    chunks = split_log("x.txt", data)
    heads = []
    last = -1
    for i, line in enumerate(lines):
        if line.lstrip("\ufeff").startswith(HEADS[site]):
            if last >= 0 and lines[last] == line and not any(x.strip() for x in lines[last + 1:i]):
                last = i  # a header written twice is one hand (common.split_log)
                continue
            heads.append(line)
            last = i
    first = next((i for i, line in enumerate(lines) if line.startswith(HEADS[site])), len(lines))
    preamble = any(line.strip() for line in lines[:first])
    assert len(chunks) == len(heads) + (1 if preamble else 0)
    ids = []
    for chunk in chunks:
        report = audit_read(read_any(chunk), BOOK, chunk.index)
        if report.read.hand is None:
            assert any(f.severity == "error" for f in report.findings), report.findings
        key = site_hand_of(chunk.data)
        if key is not None:
            ids.append(key[2])
            if report.read.hand is not None:
                assert str(report.read.hand.fields["hand"]) == key[2]
    for head in heads:  # every header's id is reported as often as headers name it
        hand_id = head.split("#", 1)[1].split(":")[0].split(" - ")[0]
        if any(ch.isdigit() for ch in hand_id):
            assert ids.count(hand_id) == [h.split("#", 1)[1].split(":")[0].split(" - ")[0] for h in heads].count(hand_id)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["gg", "wm"]), st.integers(1, 4), st.lists(st.integers(0, 10_000), max_size=8),
       st.lists(st.integers(0, 10_000), max_size=4))
def test_line_deletions_and_duplications_never_lose_merge_or_invent(site, n, deleted, duplicated):
    lines = _log(site, n)
    for d in duplicated:
        i = d % len(lines)
        lines.insert(i, lines[i])
    for d in deleted:
        if lines:
            del lines[d % len(lines)]
    _check(site, lines)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["gg", "wm"]), st.integers(2, 4), st.lists(st.integers(1, 10_000), min_size=1, max_size=3))
def test_splices_never_merge_hands(site, n, cuts):
    """A hand cut short at any line with the next hand's header at once after it (no blank line),
    or every blank line between hands gone."""
    lines = _log(site, n)
    for c in cuts:
        starts = [i for i, line in enumerate(lines) if line.startswith(HEADS[site])]
        if len(starts) < 2:
            break
        k = c % (len(starts) - 1)
        a, b = starts[k], starts[k + 1]
        cut = a + 1 + c % max(1, b - a - 1)
        del lines[cut:b]
    _check(site, lines)
    _check(site, [line for line in lines if line.strip()])


def test_random_truncations_and_byte_flips_never_crash():
    rng = random.Random(41)
    for site in ("gg", "wm"):
        data = bytearray("\n".join(_log(site, 2)).encode("utf-8"))
        for _ in range(150):
            cut = bytearray(data[:rng.randrange(len(data))])
            for _ in range(rng.randrange(4)):
                if cut:
                    cut[rng.randrange(len(cut))] = rng.randrange(256)
            for chunk in split_log("x.txt", bytes(cut)):
                report = audit_read(read_any(chunk), BOOK, chunk.index)
                assert report.read.hand is not None or any(f.severity == "error" for f in report.findings)
