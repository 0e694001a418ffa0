"""The Finding value: one irregularity handaudit found in a hand (code, where, why, ruling).

The catalogue of codes is :mod:`handaudit.findings.codes`; a finding's default severity is its
code's.
"""

from __future__ import annotations

from typing import ClassVar, Final

from ..core.value import Value
from .codes import CODES

_FINDING_FIELDS = ("code", "message", "action_index", "actor", "rule", "ruling", "line", "column", "severity")


class Finding(Value):
    """One irregularity: where (action index, or line/column), what (code), why (rule), ruling.

    ``severity`` defaults to the code's (:data:`CODES`). A value (handaudit/core/value.py): built
    natively when compiled, where a frozen dataclass's constructor stays interpreted.
    """

    __slots__ = _FINDING_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _FINDING_FIELDS

    def __init__(self, code: str, message: str, action_index: int | None = None, actor: str | None = None,
                 rule: str | None = None, ruling: str | None = None, line: int | None = None,
                 column: int | None = None, severity: str = "") -> None:
        self.code: Final = code
        self.message: Final = message
        self.action_index: Final = action_index
        self.actor: Final = actor
        self.rule: Final = rule
        self.ruling: Final = ruling
        self.line: Final = line
        self.column: Final = column
        self.severity: Final = severity or CODES[code].severity
