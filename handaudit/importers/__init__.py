"""Site logs -> hands: one module (and grammar) per site, the same Hand values the PHH reader makes.

:func:`read_any` is the one place a hand's text goes to the PHH reader or to a site's importer:
a chunk whose text starts with a site's hand header (:func:`.common.is_site_chunk`) is a site
hand, read by that site's importer (the registry, :mod:`.sites`), anything else PHH. The files are told apart by content in :mod:`.inputs`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable

from ..grammar.chunk import Chunk
from ..grammar.duplicates import SiteHand, site_hand
from ..grammar.reader import read_chunk
from ..grammar.result import ReadResult
from .common import head_index, is_site_chunk, site_log_hand
from .sites import HEADS, SITES


def read_site(chunk: Chunk) -> ReadResult:
    """A site hand's chunk -> ReadResult, by the importer of the site whose header it starts with
    (the registry, :mod:`.sites`). A chunk with no header of a known site (a problem chunk: text
    before the first header, a file with none) goes to the first site's importer, which reports
    its problem."""
    i = head_index(chunk.data)
    if i < 0:
        return _site_reader(SITES[0].module)(chunk, SITES[0].heads[0][1])
    _, venue, site = HEADS[i]
    return _site_reader(SITES[site].module)(chunk, venue)


@functools.cache
def _site_reader(module: str) -> Callable[[Chunk, str], ReadResult]:
    """A site importer's ``read_hand``, its module imported at the site's first hand: compiling
    its regular expressions is some 2 ms of a start, which a run of PHH files does without
    (docs/performance.md). Cached (an import statement per hand would cost about 1,500
    instructions)."""
    reader: Callable[[Chunk, str], ReadResult] = importlib.import_module(f"{__name__}.{module}").read_hand
    return reader


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
