"""The replay's phases and shared constants (used by every link of the engine's class chain).

Phases are small ints rather than strings: the replay tests the phase several times per
action, and compiled an int comparison is one machine instruction where a string comparison
is a call.
"""

from typing import Final

DEAL: Final = 0
DRAW: Final = 1
BET: Final = 2
SHOWDOWN: Final = 3
OVER: Final = 4
UNKNOWN_STACK: Final = 10**30  # an `inf` starting stack: never all in
NO_RAISE: Final = -1  # the raise range's bounds when the player may not bet or raise
