"""handaudit: audit poker hand histories written in PHH.

Reads every hand exactly, replays every action under a chosen rulebook, settles every pot to the
chip, compares the result with the payouts the file records, and writes the audit as Parquet.
"""

from .audit import HandReport, audit, audit_read

__all__ = ["HandReport", "audit", "audit_read"]
__version__ = "0.1.0"
