"""Hand histories of sites handaudit has no importer for, told by their hand header lines, so that
a file of another site's format is said to be one, once per hand it holds (an unreadable entry
each, ``site-format-not-read``), never folded into one entry nor passed over in silence.

Each site writes one header line per hand; the patterns below are those lines' beginnings, as
the shared samples (../shared/corpus/sites/<site>) show them. Only a file with no PokerStars-
format header is looked at this way (:func:`.common.split_log`).
"""

from __future__ import annotations

import re
from typing import Final

# (pattern of a hand's first line, the site's name)
_HEADS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"Full Tilt Poker Game #\d+"), "Full Tilt Poker"),
    (re.compile(r"\*{5} (?:888poker|888\.\w+|LuckyAcePoker\.com|Pacific Poker|Cassava) Hand History for Game \d+"),
     "888poker"),
    (re.compile(r"#Game No : \d+"), "888poker"),
    (re.compile(r"\*{5} Hand History for Game \d+"), "partypoker"),
    (re.compile(r"Game #\d+ starts\."), "partypoker"),
    (re.compile(r"Hand #\d+ - [^-]+\([^)]*\) - "), "Winning Poker Network"),
    (re.compile(r"Game started at: \d"), "Winning Poker Network"),
)
# A file's first line that is another site's but no hand (a summary): one entry for the file.
_OTHER_FILES: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"\*{5} Cassava Tournament Summary"), "888poker"),
)
SNIFF: Final = re.compile(r"(?m)^\s*(?:\ufeff)?(?:Full Tilt Poker Game #|\*{5} [^\n]*Hand History for Game|#Game No :|"
                          r"Game started at: |\*{5} Cassava Tournament Summary)")


def foreign_head(line: str) -> str | None:
    """The site whose hand header ``line`` is, or None."""
    for pattern, site in _HEADS:
        if pattern.match(line):
            return site
    return None


def foreign_file(line: str) -> str | None:
    """The site whose non-hand file (a summary) starts with ``line``, or None."""
    for pattern, site in _OTHER_FILES:
        if pattern.match(line):
            return site
    return None


def looks_foreign(head: bytes) -> bool:
    """A file's first bytes hold another site's hand header (detection: such a file is read, to
    say what it is)."""
    return SNIFF.search(head.decode("utf-8", "replace")) is not None


def message(site: str, line: str) -> str:
    """The finding's message for one hand of ``site``."""
    number = re.search(r"#\s*:?\s*([A-Z]*\d+)|gamecode=\"(\d+)\"|HandId: #([\d-]+)|Game (\d+)", line)
    which = next((g for g in number.groups() if g), "") if number else ""
    return (f"a {site} hand{' #' + which if which else ''}: handaudit reads PokerStars-format logs and PHH, not "
            f"{site}'s format; not read")
