"""Which findings a run reports, and at what severity: ``--select``, ``--ignore``, ``--severity``.

Lint conventions (ruff, sqlfluff): every code is reported unless a selection says otherwise.
``select`` names the codes reported (all when empty), ``ignore`` removes codes from them, and
``severity`` gives a code another severity (``winnings-gross=warning``). A hand's status follows
the findings kept: a hand whose only errors are ignored is valid; a hand that cannot be read stays
unreadable whatever is ignored. What is left out is never lost: each hand's report carries the
codes it dropped, and the run's summary and manifest count them (:class:`Selection.apply`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, Final

from ..core.status import ERROR, INFO, WARNING
from ..core.value import Value
from .codes import CODES
from .finding import Finding

LEVELS: Final = (ERROR, WARNING, INFO)


class SelectionError(ValueError):
    """A selection names a code or a level that does not exist (one line for the user)."""


def _known(code: str, where: str) -> str:
    code = code.strip()
    if code not in CODES:
        raise SelectionError(f"{where}: unknown finding code {code!r} (handaudit rulebooks --codes lists them)")
    return code


def codes_of(values: Iterable[str], where: str) -> tuple[str, ...]:
    """The codes of ``values``, each of which may be a comma-separated list, checked and sorted."""
    out: set[str] = set()
    for value in values:
        out.update(_known(c, where) for c in value.split(",") if c.strip())
    return tuple(sorted(out))


def severities_of(values: Iterable[str], where: str) -> tuple[tuple[str, str], ...]:
    """``CODE=LEVEL`` strings (each may be a comma-separated list) as sorted pairs, checked."""
    out: dict[str, str] = {}
    for value in values:
        for item in value.split(","):
            if not item.strip():
                continue
            code, sep, level = item.partition("=")
            if not sep:
                raise SelectionError(f"{where}: {item.strip()!r} is not CODE=LEVEL (LEVEL: error, warning or info)")
            level = level.strip().lower()
            if level not in LEVELS:
                raise SelectionError(f"{where}: {item.strip()!r}: the level must be error, warning or info")
            out[_known(code, where)] = level
    return tuple(sorted(out.items()))


class Selection(Value):
    """The codes a run reports and the severities it gives them (empty: everything, unchanged).

    A value (handaudit/core/value.py): it travels to worker processes with the run's
    configuration and is applied once per hand by the per-hand loop.
    """

    __slots__ = ("select", "ignore", "severity", "active", "_severity")
    FIELDS: ClassVar[tuple[str, ...]] = ("select", "ignore", "severity")

    def __init__(self, select: Sequence[str] = (), ignore: Sequence[str] = (),
                 severity: Sequence[tuple[str, str]] = ()) -> None:
        self.select: Final = tuple(select)
        self.ignore: Final = tuple(ignore)
        self.severity: Final = tuple(severity)
        self.active: Final = bool(self.select or self.ignore or self.severity)
        self._severity: Final = dict(self.severity)

    def keeps(self, code: str) -> bool:
        return (not self.select or code in self.select) and code not in self.ignore

    def apply(self, findings: tuple[Finding, ...]) -> tuple[tuple[Finding, ...], tuple[str, ...]]:
        """(the findings kept, at their selected severity; the codes of those left out, one per finding)."""
        if not self.active:
            return findings, ()
        kept: list[Finding] = []
        dropped: list[str] = []
        for f in findings:
            if not self.keeps(f.code):
                dropped.append(f.code)
                continue
            level = self._severity.get(f.code)
            if level is not None and level != f.severity:
                f = Finding(f.code, f.message, f.action_index, f.actor, f.rule, f.ruling, f.line, f.column, level)
            kept.append(f)
        return tuple(kept), tuple(dropped)

    def describe(self) -> dict[str, object]:
        """The selection as the manifest records it."""
        return {"select": list(self.select), "ignore": list(self.ignore), "severity": dict(self.severity)}


EVERYTHING: Final = Selection()
