"""The replay's phases and shared constants (used by every link of the engine's class chain)."""

from typing import Final

DEAL: Final = "deal"
DRAW: Final = "draw"
BET: Final = "bet"
SHOWDOWN: Final = "showdown"
OVER: Final = "over"
UNKNOWN_STACK: Final = 10**30  # an `inf` starting stack: never all in
