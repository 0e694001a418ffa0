"""What the reader hands on for one input hand: :class:`ReadResult`."""

from __future__ import annotations

from typing import ClassVar, Final

from ..core.hand import Hand
from ..core.value import Value
from ..findings.finding import Finding

_READ_RESULT_FIELDS: Final = ("source", "hand_key", "hand", "findings", "text", "line", "known")


class ReadResult(Value):
    """What the reader hands on for one input hand: the Hand (None when unreadable) and findings.

    A value (see :class:`~handaudit.core.value.Value`), built once per hand. ``known``: for an
    unreadable hand, what its text said before it failed (a site hand's ``hand`` number,
    ``table``, ``venue``, ``event``), or None: the report still names the hand.
    """

    __slots__ = _READ_RESULT_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _READ_RESULT_FIELDS

    def __init__(self, source: str, hand_key: str, hand: Hand | None, findings: tuple[Finding, ...],
                 text: str = "", line: int = 1, known: dict | None = None) -> None:
        self.source: Final = source
        self.hand_key: Final = hand_key
        self.hand: Final = hand
        self.findings: Final = findings
        self.text: Final = text
        self.line: Final = line
        self.known: Final = known
