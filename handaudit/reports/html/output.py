"""What the commands need around the HTML report: where it goes, the check of that place before a
run, and the temporary Parquet report ``check --html`` uses without ``--out``."""

from __future__ import annotations

import os
import shutil
import tempfile

from ..layout import OutputError


def default_path(directory: str) -> str:
    """``report DIR`` without ``-o``: ``DIR.html`` beside the directory (never inside the report,
    which a later run's ``--out`` would leave stale)."""
    return os.path.normpath(os.path.abspath(directory)).rstrip(os.sep) + ".html"


def check_target(path: str, flag: str) -> None:
    """Refuse, before any work, an HTML path that cannot be written: a directory, a device, a
    FIFO, a link, a missing folder, an empty name (reports/safe_file.py)."""
    from ..safe_file import check_target as check

    check(path, flag)


def temporary_report() -> str:
    """A fresh directory for the Parquet report ``check --html`` builds when ``--out`` is not given."""
    return tempfile.mkdtemp(prefix="handaudit-html-")


def remove_temporary(directory: str | None) -> None:
    if directory:
        shutil.rmtree(directory, ignore_errors=True)


def describe(written) -> str:
    """One line saying what was written."""
    return (f"HTML report: {written.path} ({written.bytes / 1e6:.1f} MB, {written.hands:,} hands, "
            f"{written.pages:,} hand pages, {written.seconds:.1f} s)")


def explain_html(reports: list, file: str, out: str) -> str:
    """``explain FILE --hand K --html OUT``: one hand's printable page; the line to print."""
    from . import write_hand

    if len(reports) != 1:
        keys = ", ".join(r.read.hand_key or "?" for r in reports[:10]) + (", ..." if len(reports) > 10 else "")
        raise OutputError(f"{file}: {len(reports)} hands match; --html writes one hand's page: give --hand KEY "
                          f"(keys: {keys})")
    check_target(out, "--html")
    size = write_hand(reports[0], out)
    return f"hand page: {out} ({size:,} bytes)"
