"""handaudit: audit poker hand histories written in PHH.

Reads every hand exactly, replays every action under a chosen rulebook, settles every pot to the
chip, compares the result with the payouts the file records, and writes the audit as Parquet.

``audit(paths, rulebook=...)`` yields one :class:`HandReport` per input hand;
``audit_to_parquet(paths, out_dir, ...)`` writes the report tables (in parallel) and returns the
run's summary; ``to_dataframes(out_dir)`` reads them back as pandas DataFrames.
"""

import gc as _gc

# The collector is held off while the package's modules load: their classes, functions and
# tables are all kept, so its passes over them find nothing, and cost some 4 ms of every run's
# start (docs/performance.md, "Start-up"). It is turned back on as it was found.
_collecting = _gc.isenabled()
_gc.disable()
try:
    from .api import HandReport, audit, audit_read
finally:
    if _collecting:
        _gc.enable()

__all__ = ["HandReport", "audit", "audit_read", "audit_to_parquet", "to_dataframes"]
__version__ = "0.1.0"


def __getattr__(name: str):
    # The Parquet side pulls in pyarrow; load it only when asked for.
    if name == "audit_to_parquet":
        from .run.local import audit_to_parquet

        return audit_to_parquet
    if name == "to_dataframes":
        from .api import to_dataframes

        return to_dataframes
    raise AttributeError(f"module 'handaudit' has no attribute {name!r}")
