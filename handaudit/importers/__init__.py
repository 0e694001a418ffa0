"""Site logs -> hands: one module (and grammar) per site, the same Hand values the PHH reader makes.

:func:`read_any` is the one place a hand's text goes to the PHH reader or to a site's importer:
a chunk whose text starts with a site's hand header (:func:`.common.is_site_chunk`) is a site
hand, anything else PHH. The files are told apart by content in :mod:`.inputs`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from ..grammar.chunk import Chunk
from ..grammar.duplicates import SiteHand, site_hand
from ..grammar.reader import read_chunk
from ..grammar.result import ReadResult
from .common import is_site_chunk, site_log_hand, site_of_head


def read_site(chunk: Chunk) -> ReadResult:
    """A site hand's chunk -> ReadResult (PokerStars and the sites that write its format)."""
    venue = site_of_head(chunk.data) or "PokerStars"
    return _site_reader()(chunk, venue)


@functools.cache
def _site_reader() -> Callable[[Chunk, str], ReadResult]:
    """The PokerStars importer's ``read_hand``, imported at the first site hand: compiling its
    regular expressions is some 2 ms of a start, which a run of PHH files does without
    (docs/performance.md). Cached (an import statement per hand would cost about 1,500
    instructions)."""
    from .pokerstars import read_hand

    return read_hand


def read_any(chunk: Chunk) -> ReadResult:
    """A chunk of any input -> ReadResult: a site's hand to its importer, the rest to the PHH reader."""
    if is_site_chunk(chunk.data):
        return read_site(chunk)
    return read_chunk(chunk)


def site_hand_of(data: bytes) -> SiteHand | None:
    """The site hand (venue, table, hand number) a chunk of any input holds, for the
    ``duplicate-hand`` check (:class:`~handaudit.grammar.duplicates.SiteHands`): a site log's
    from its header and table lines, a PHH hand's from its ``venue``, ``table`` and ``hand``."""
    if is_site_chunk(data):
        return site_log_hand(data)
    return site_hand(data)
