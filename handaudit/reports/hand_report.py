"""The report of one hand (:class:`HandReport`): what was read, the findings, the replay and the
settlement, and the contract's JSON object for it. The writers (JSONL, table rows, the summary)
render it; :func:`handaudit.run.hand_loop.audit_read` makes it.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from ..core.hand import Hand
from ..core.status import ERROR, INVALID, UNREADABLE, VALID
from ..core.value import Value
from ..findings.finding import Finding
from ..grammar.result import ReadResult
from ..settlement import Settlement
from ..validator.outcome import Replay
from .contract import hand_json

_REPORT_FIELDS: Final = ("read", "rulebook", "findings", "replay", "settlement", "index", "ignored")


class HandReport(Value):
    """Everything handaudit knows about one input hand.

    ``findings`` holds the reader's, the replay's and the settlement's findings in that order.
    ``replay`` and ``settlement`` are None when the hand is unreadable; ``index`` is the hand's
    0-based position in its source file; ``ignored`` the codes of the findings the run's selection
    left out (``--ignore``, ``--select``: findings/selection.py), one per finding. A value (handaudit/core/value.py): one is built per hand,
    natively when compiled, where a frozen dataclass's constructor stays interpreted.
    """

    __slots__ = _REPORT_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _REPORT_FIELDS

    def __init__(self, read: ReadResult, rulebook: str, findings: tuple[Finding, ...], replay: Replay | None = None,
                 settlement: Settlement | None = None, index: int = 0, ignored: tuple[str, ...] = ()) -> None:
        self.read: Final = read
        self.rulebook: Final = rulebook
        self.findings: Final = findings
        self.replay: Final = replay
        self.settlement: Final = settlement
        self.index: Final = index
        self.ignored: Final = ignored

    @property
    def source(self) -> str:
        return self.read.source

    @property
    def hand_key(self) -> str:
        return self.read.hand_key

    @property
    def hand(self) -> Hand | None:
        return self.read.hand

    @property
    def status(self) -> str:
        if self.read.hand is None:
            return UNREADABLE
        return INVALID if any(f.severity == ERROR for f in self.findings) else VALID

    @property
    def complete(self) -> bool:
        return bool(self.replay is not None and self.replay.complete)

    @property
    def payout_check(self) -> str | None:
        """The settlement's check of the recorded payouts; for a read hand without one,
        ``not-recorded`` when it records neither finishing stacks nor winnings, else
        ``undetermined``; None for an unreadable hand. The JSON object, the ``hands`` table
        and the run's summary all read it here."""
        if self.settlement is not None:
            return self.settlement.payout_check
        hand = self.read.hand
        if hand is None:
            return None
        return "not-recorded" if hand.finishing_stacks is None and hand.winnings is None else "undetermined"

    def to_json(self, text: bool = False) -> Any:
        """The contract's JSON object for this hand (:func:`handaudit.reports.contract.hand_json`)."""
        return hand_json(self, text)
