"""The kinds of a replayed action (``ActionRecord.kind``): what an action turned out to be once
replayed, as ``handaudit explain`` and the ``actions`` report table name it.

A vocabulary, so in ``core``: the replay writes these words and the settlement (the rake's
first-round test) and the reports read them, without the settlement importing the replay.
"""

from __future__ import annotations

from typing import Final

K_DEAL_HOLE: Final = "deal-hole"
K_DEAL_BOARD: Final = "deal-board"
K_BRING_IN: Final = "bring-in"
K_COMPLETE: Final = "complete"
K_BET: Final = "bet"
K_RAISE: Final = "raise"
K_CHECK: Final = "check"
K_CALL: Final = "call"
K_FOLD: Final = "fold"
K_DISCARD: Final = "discard"
K_STAND_PAT: Final = "stand-pat"
K_SHOW: Final = "show"
K_MUCK: Final = "muck"
K_NOOP: Final = "no-op"
