"""The replay's phases and shared constants (used by the engine and its two rule mixins)."""

DEAL, DRAW, BET, SHOWDOWN, OVER = "deal", "draw", "bet", "showdown", "over"
UNKNOWN_STACK = 10**30  # an `inf` starting stack: never all in
