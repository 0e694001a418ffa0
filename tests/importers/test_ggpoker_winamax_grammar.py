"""The grammars (importers/ggpoker.lark, winamax.lark) are the formats' documentation: every line
of the shared samples of each site is a form the grammar reads (a seated name at its start
replaced by PLAYER), and what the grammar takes for a line that is no action (an event, a summary
line) is no action to the importer either."""

from __future__ import annotations

import re

import pytest

from handaudit.importers.common import decode, split_lines
from handaudit.importers.site_grammar import SiteGrammar

from helpers import CORPUS

SITES = {"ggpoker": ("Poker Hand #", re.compile(r"Seat \d+: (.+) \([^()]* in chips[^()]*\)")),
         "winamax": ("Winamax Poker - ", re.compile(r"Seat \d+: (.+) \([^()]*\)$"))}
BROKEN = {"InValidHand_1.txt"}  # its header and markers misspelt on purpose (the source's test)


def _hands(site: str):
    head, _ = SITES[site]
    for path in sorted((CORPUS / "sites" / site).rglob("*.txt")):
        if path.name in BROKEN:
            continue
        text, _ = decode(path.read_bytes())
        hand: list[str] = []
        for line in split_lines(text):
            if line.startswith(head) and hand:
                yield hand
                hand = []
            if line.strip():
                hand.append(line.rstrip())
        if hand:
            yield hand


@pytest.mark.parametrize("site", sorted(SITES))
def test_every_sample_line_is_a_form_of_the_grammar(site):
    if not (CORPUS / "sites" / site).is_dir():
        pytest.skip("no samples")
    grammar = SiteGrammar(f"{site}.lark")
    seat = SITES[site][1]
    shapes: dict[str, str] = {}
    for hand in _hands(site):
        names = sorted({m.group(1) for line in hand[:12] if (m := seat.match(line))}, key=len, reverse=True)
        for line in hand:
            shape = line
            for name in names:
                shape = shape.replace(name, "NAME")
            shape = re.sub(r"\d", "0", shape)
            if shape not in shapes:
                shapes[shape] = grammar.rule(line, names)
    assert len(shapes) > 60
    assert [s for s, rule in shapes.items() if not rule] == []


def test_lines_that_are_no_action_are_told_from_actions():
    g = SiteGrammar("ggpoker.lark")
    assert g.rule("Hero: folds", ["Hero"]) == "fold" and not g.accepts("Hero: folds", ["Hero"])
    assert g.accepts("Hero has timed out", ["Hero"])
    w = SiteGrammar("winamax.lark")
    assert w.rule("Hero folds", ["Hero"]) == "fold" and w.accepts("Hero leaves the table", ["Hero"])
