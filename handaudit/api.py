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
from .run import hand_loop
from .run.arguments import path_list, rulebook_arg, severity_list, string_list

__all__ = ["HandReport", "audit", "audit_read"]


def audit_read(read, rulebook, index: int = 0, selection=None) -> HandReport:
    """Replay and settle one read hand (a ``ReadResult``) under a loaded ``Rulebook``
    (:func:`handaudit.run.hand_loop.audit_read`), its arguments checked: a TypeError names the one
    of the wrong type."""
    from .findings.selection import EVERYTHING, Selection
    from .grammar.result import ReadResult
    from .rules.rulebook import Rulebook

    if not isinstance(read, ReadResult):
        raise TypeError(f"read: expected a ReadResult (a hand as read), not {type(read).__name__}")
    if not isinstance(rulebook, Rulebook):
        raise TypeError(f"rulebook: expected a loaded Rulebook (handaudit.rules.rulebook.load_rulebook), "
                        f"not {type(rulebook).__name__}")
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"index: expected an int, not {type(index).__name__}")
    if selection is None:
        selection = EVERYTHING
    elif not isinstance(selection, Selection):
        raise TypeError(f"selection: expected a Selection, not {type(selection).__name__}")
    return hand_loop.audit_read(read, rulebook, index, selection)


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

    # the arguments, checked before the generator's first hand (a TypeError names the argument)
    given = path_list(paths)
    book = load_rulebook(rulebook_arg(rulebook), string_list(overrides, "overrides"))
    levels = severity_list(severity)
    selection = Selection(codes_of(string_list(select, "select"), "select"),
                          codes_of(string_list(ignore, "ignore"), "ignore"), severities_of(levels, "severity"))
    files, repeats = drop_repeats(expand_inputs(given))
    for note in repeats:
        warnings.warn(note, stacklevel=2)
    site_hands = SiteHands(site_hand_of)
    for path in files:
        for chunk in read_inputs(path):
            yield audit_chunk(site_hands.check(chunk), book, selection)


def to_dataframes(out_dir, tables=None) -> dict:
    """Every table (or those named) of the Parquet report in ``out_dir`` as pandas DataFrames
    (:func:`handaudit.reports.to_dataframes`), its arguments checked: a directory that is not a
    report is an error, not empty tables."""
    from .reports import to_dataframes as read
    from .reports.layout import TABLE_NAMES
    from .run.arguments import report_dir_arg, table_list

    directory = report_dir_arg(out_dir)
    return read(directory, TABLE_NAMES if tables is None else table_list(tables))
