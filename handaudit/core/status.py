"""The words of a verdict, defined once: a hand's status and a finding's severity.

Module-level ``Final`` strings: compiled, a comparison with one costs what it did with the literal.
"""

from __future__ import annotations

from typing import Final

# A hand's status (the contract's ``status``): no finding of severity error; some; not read at all.
VALID: Final = "valid"
INVALID: Final = "invalid"
UNREADABLE: Final = "unreadable"
STATUSES: Final = (VALID, INVALID, UNREADABLE)

# A finding's severity, and their order (worst last).
ERROR: Final = "error"
WARNING: Final = "warning"
INFO: Final = "info"
SEVERITY_RANK = {INFO: 0, WARNING: 1, ERROR: 2}
