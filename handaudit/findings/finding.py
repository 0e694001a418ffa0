"""The Finding value: one irregularity handaudit found in a hand (code, where, why, ruling).

The catalogue of codes is :mod:`handaudit.findings.codes`; a finding's default severity is its
code's.
"""

from __future__ import annotations

from typing import ClassVar, Final

from ..core.value import Value
from .codes import CODES

_FINDING_FIELDS = ("code", "message", "action_index", "actor", "rule", "ruling", "line", "column", "severity")


# The message of a ``site-encoding`` finding: said by a site importer that read a log as
# Windows-1252, and by the settlement for a converted hand that carries the note (one text for
# both, here where both rooms may import it).
ENCODING_MESSAGE: Final = ("the file is not UTF-8: read as Windows-1252, the code page the site wrote its older "
                           "logs in")


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
