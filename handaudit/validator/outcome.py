"""What the replay hands to the settlement and the reports.

:class:`ActionRecord` is one row of ``handaudit explain`` and of the ``actions`` report table;
:class:`Replay` is the whole replayed hand: findings, per-player money and cards.
"""

from __future__ import annotations

from typing import ClassVar, Final

# ActionRecord.kind values are defined in core (the settlement reads them too) and named here as
# well, for the replay's modules.
from ..core.records import (
    K_BET, K_BRING_IN, K_CALL, K_CHECK, K_COMPLETE, K_DEAL_BOARD, K_DEAL_HOLE, K_DISCARD, K_FOLD, K_MUCK, K_NOOP,
    K_RAISE, K_SHOW, K_STAND_PAT,
)
from ..core.value import Value
from ..findings.finding import Finding

__all__ = ["K_BET", "K_BRING_IN", "K_CALL", "K_CHECK", "K_COMPLETE", "K_DEAL_BOARD", "K_DEAL_HOLE", "K_DISCARD",
           "K_FOLD", "K_MUCK", "K_NOOP", "K_RAISE", "K_SHOW", "K_STAND_PAT", "ActionRecord", "Replay"]



_RECORD_FIELDS: Final = ("index", "street", "actor", "kind", "amount", "to", "pot_before", "to_call", "min_to",
                         "max_to", "all_in")


class ActionRecord(Value):
    """One action as replayed. Amounts in the hand's minor units.

    ``amount``: chips this action put in (a call's or raise's added chips), None for no chips.
    ``to``: for bets and raises, the total the player's round bet was brought to (as ruled).
    ``pot_before``: all chips in the middle before the action (antes, blinds, earlier bets).
    ``to_call``: chips the actor needed to call when acting (0: could check).
    ``min_to`` / ``max_to``: legal bet/raise-to range for the actor at that moment (None when
    the actor could not bet or raise).

    A value: compared, hashed and pickled by its fields, never changed once made. A plain class
    rather than a named tuple because one is built per action: compiled (setup.py), building
    one is native, where a named tuple's constructor stays interpreted (docs/performance.md).
    """

    __slots__ = _RECORD_FIELDS  # pure Python; compiled, the class is a native (C) layout anyway
    FIELDS: ClassVar[tuple[str, ...]] = _RECORD_FIELDS

    def __init__(self, index: int, street: str | None, actor: str | None, kind: str, amount: int | None = None,
                 to: int | None = None, pot_before: int = 0, to_call: int | None = None,
                 min_to: int | None = None, max_to: int | None = None, all_in: bool = False) -> None:
        self.index: Final = index
        self.street: Final = street
        self.actor: Final = actor
        self.kind: Final = kind
        self.amount: Final = amount
        self.to: Final = to
        self.pot_before: Final = pot_before
        self.to_call: Final = to_call
        self.min_to: Final = min_to
        self.max_to: Final = max_to
        self.all_in: Final = all_in


_REPLAY_FIELDS: Final = ("findings", "records", "complete", "contributions", "dead", "folded", "all_in", "hole",
                         "up", "board", "shown", "showdown", "order_at_showdown")


class Replay(Value):
    """A replayed hand.

    Per-player tuples are in PHH order. ``contributions``: every chip each player put in
    (antes, blinds, dead blinds, bring-in, bets), before any uncalled chips are returned.
    ``dead``: the part of each contribution that was posted dead (a missed blind); it stays in
    the pot but never counted towards a call. ``folded``: the player folded. ``hole``: each
    player's final cards (after draws; UNKNOWN for ``??``), ``up``: which of them were dealt
    face up (stud). ``shown``: True when the player showed at showdown, False when mucked,
    None when the history has no showdown action for them. ``complete``: the history reaches
    the end of the hand. ``showdown``: two or more players were still in at the end.
    ``all_in``: the player has no chips left. ``order_at_showdown``: players in the order the
    history shows or mucks them.

    A value (see :class:`~handaudit.core.value.Value`) rather than a frozen dataclass: one is made
    per hand, and compiled, a frozen dataclass's constructor runs interpreted.
    """

    __slots__ = _REPLAY_FIELDS  # pure Python; compiled, the class is a native (C) layout anyway
    FIELDS: ClassVar[tuple[str, ...]] = _REPLAY_FIELDS

    def __init__(self, findings: tuple[Finding, ...], records: tuple[ActionRecord, ...], complete: bool,
                 contributions: tuple[int, ...], dead: tuple[int, ...], folded: tuple[bool, ...],
                 all_in: tuple[bool, ...], hole: tuple[tuple[int, ...], ...], up: tuple[tuple[bool, ...], ...],
                 board: tuple[int, ...], shown: tuple[bool | None, ...], showdown: bool,
                 order_at_showdown: tuple[int, ...] = ()) -> None:
        self.findings: Final = findings
        self.records: Final = records
        self.complete: Final = complete
        self.contributions: Final = contributions
        self.dead: Final = dead
        self.folded: Final = folded
        self.all_in: Final = all_in
        self.hole: Final = hole
        self.up: Final = up
        self.board: Final = board
        self.shown: Final = shown
        self.showdown: Final = showdown
        self.order_at_showdown: Final = order_at_showdown
