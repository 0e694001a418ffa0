"""The library entry points: ``import handaudit; handaudit.audit(...)``.

``audit(paths, rulebook="tda-2026")`` yields one :class:`~handaudit.reports.hand_report.HandReport`
per input hand, in input order; ``audit_read(read, book)`` audits one read hand;
``audit_to_parquet`` (:mod:`handaudit.run.local`) writes the Parquet report and ``to_dataframes``
(:mod:`handaudit.reports`) reads it back. The CLI, the runners and the writers are clients of the
same per-hand loop (:mod:`handaudit.run.hand_loop`).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator, Mapping

from .reports.hand_report import HandReport
from .run.hand_loop import audit_read

__all__ = ["HandReport", "audit", "audit_read"]


def audit(paths: Iterable[str], rulebook: str = "tda-2026", overrides: Iterable[str] = (), *,
          select: Iterable[str] = (), ignore: Iterable[str] = (),
          severity: Mapping[str, str] | Iterable[str] = ()) -> Iterator[HandReport]:
    """Audit every hand of ``paths`` (files, directories, ``-``) in input order.

    ``rulebook`` is a built-in name or a TOML file; ``overrides`` are ``KEY=VALUE`` strings as
    given to ``--set``; ``select``, ``ignore`` and ``severity`` (``{"winnings-gross": "warning"}`` or
    ``"CODE=LEVEL"`` strings) choose the findings reported as ``--select``, ``--ignore`` and
    ``--severity`` do (:mod:`handaudit.findings.selection`; an unknown code raises
    ``SelectionError``), each report's ``ignored`` naming what was left out. Each hand is isolated as ``handaudit check`` isolates it
    (:func:`handaudit.run.hand_loop.audit_chunk`): a failure of handaudit itself on one hand becomes
    that hand's report, with an ``internal-error`` finding, and the generator goes on with the
    next hand (``HANDAUDIT_DEBUG=1`` raises instead). A path that cannot be read at all raises
    :class:`~handaudit.grammar.chunk.SourceError`, as it makes ``check`` exit with status 2.
    """
    from .findings.selection import Selection, codes_of, severities_of
    from .grammar.duplicates import SiteHands
    from .grammar.sources import drop_repeats
    from .importers import site_hand_of
    from .importers.inputs import expand_inputs, read_inputs
    from .rules.rulebook import load_rulebook
    from .run.hand_loop import audit_chunk

    book = load_rulebook(rulebook, list(overrides))
    levels = [f"{k}={v}" for k, v in severity.items()] if isinstance(severity, Mapping) else list(severity)
    selection = Selection(codes_of(select, "select"), codes_of(ignore, "ignore"), severities_of(levels, "severity"))
    files, repeats = drop_repeats(expand_inputs(list(paths)))
    for note in repeats:
        warnings.warn(note, stacklevel=2)
    site_hands = SiteHands(site_hand_of)
    for path in files:
        for chunk in read_inputs(path):
            yield audit_chunk(site_hands.check(chunk), book, selection)
