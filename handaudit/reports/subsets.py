"""Clean subsets: ``--write-valid DIR`` / ``--write-invalid DIR``.

The hands without an error finding (``valid``) or with one (``invalid`` and ``unreadable``) are
written, in input order, to ``DIR/valid.phhs`` / ``DIR/invalid.phhs``. Each hand's original text
is copied byte for byte under a new table header; only a final line end is added to a hand whose
text lacks one, so that the next header starts a line. Table names are ``1``, ``2``, ... in
output order, so they are unique however many sources and repeated keys the input has; the
header line says where the hand came from, as a TOML comment, and ``DIR/valid.keys.csv`` maps
each new table name to its origin::

    [1]  # source: samples/mixed.phhs  hand_key: "12"  hand_index: 11  status: valid

    key,source,hand_key,hand_index,status
    1,samples/mixed.phhs,12,11,valid

The comment is one line of printable text whatever the names hold: the source is already in
its report form (:func:`~handaudit.grammar.sources.report_path`), and a control character of a
table name (a newline, a carriage return, ESC, ...) is written as an escape (``\\x0a``,
:func:`~handaudit.grammar.sources.printable`), so no name can end the comment, start a line of
TOML, or put a byte TOML forbids in a comment; the file reads back with the same hands. The
``keys.csv`` map keeps the table name exactly (CSV quotes a newline).

A hand with no text to copy (too large to read, or unreadable bytes outside any table) is not
written; it is counted in ``skipped``. A hand of a site's log (handaudit/importers/) is written
as its PHH conversion (``handaudit convert``), the site's text being no PHH; one the importer
cannot read has no text to copy.

Both files are written under hidden temporary names of this run, created new (``O_EXCL``,
``O_NOFOLLOW``, relative to the directory's descriptor), and renamed to their names when the run
ends: a symbolic link planted at ``valid.phhs`` is replaced, never written through.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from ..core.status import INVALID, VALID
from ..grammar.sources import printable
from ..grammar.writer import hand_text
from ..importers import read_site
from ..importers.common import is_site_chunk
from .layout import OutputError, ReportDir, cannot


class SubsetWriter:
    """Appends hands to ``DIR/<name>.phhs`` and their origins to ``DIR/<name>.keys.csv``."""

    def __init__(self, directory: str | os.PathLike, name: str):
        self.dir = Path(directory)
        self.name = name
        self.path = self.dir / f"{name}.phhs"
        self.map_path = self.dir / f"{name}.keys.csv"
        self._where = ReportDir(directory, create=True)
        token = f"{os.getpid()}.{os.urandom(4).hex()}"
        self._names = [(f".{name}.phhs.{token}.tmp", self.path.name), (f".{name}.keys.csv.{token}.tmp", self.map_path.name)]
        try:
            self._out = self._where.create(None, self._names[0][0])
            self._map_file = io.TextIOWrapper(self._where.create(None, self._names[1][0]), encoding="utf-8",
                                              errors="backslashreplace", newline="")
        except BaseException:
            self._discard()
            raise
        self._map = csv.writer(self._map_file)
        self._map.writerow(["key", "source", "hand_key", "hand_index", "status"])
        self.written = 0
        self.skipped = 0

    def _discard(self) -> None:
        for tmp, _final in self._names:
            try:
                self._where.unlink(None, tmp)
            except (OSError, OutputError):
                pass
        self._where.close()

    def add(self, source: str, hand_key: str, hand_index: int, status: str, data: bytes) -> None:
        if not data.strip():
            self.skipped += 1
            return
        self.written += 1
        key = str(self.written)
        header = (f"[{key}]  # source: {printable(source)}  hand_key: \"{printable(hand_key)}\"  "
                  f"hand_index: {hand_index}  status: {status}\n")
        self._out.write(header.encode("utf-8"))
        self._out.write(data)
        if not data.endswith(b"\n"):
            self._out.write(b"\n")
        self._map.writerow([key, source, hand_key, hand_index, status])

    def close(self) -> None:
        """Close both files and give them their names (temporaries removed if that fails)."""
        if self._where.fd < 0:
            return
        try:
            failed = None
            for f, (tmp, _final) in ((self._out, self._names[0]), (self._map_file, self._names[1])):
                try:
                    f.close()
                except OSError as err:
                    failed = failed or cannot("write", str(self.dir / tmp), err)
            if failed is not None:
                raise failed
            for tmp, final in self._names:
                self._where.rename(None, tmp, final)
        except BaseException:
            self._discard()
            raise
        self._where.close()


class Subsets:
    """Routes each audited hand to the valid or the invalid writer (either may be absent)."""

    def __init__(self, valid_dir: str | None = None, invalid_dir: str | None = None):
        self.valid = SubsetWriter(valid_dir, VALID) if valid_dir else None
        self.invalid = SubsetWriter(invalid_dir, INVALID) if invalid_dir else None

    @property
    def active(self) -> bool:
        return self.valid is not None or self.invalid is not None

    def add(self, chunk, status: str) -> None:
        writer = self.valid if status == VALID else self.invalid
        if writer is not None:
            data = chunk.data
            if is_site_chunk(data):  # a site log's hand: written as PHH (the convert command's text)
                hand = read_site(chunk).hand
                data = hand_text(hand).encode("utf-8") if hand is not None else b""
            writer.add(chunk.source, chunk.hand_key, chunk.index, status, data)

    def close(self) -> None:
        for w in (self.valid, self.invalid):
            if w is not None:
                w.close()

    def describe(self) -> list[str]:
        out = []
        for w in (self.valid, self.invalid):
            if w is not None:
                line = f"{w.written:,} {w.name} hands written to {w.path} (origins: {w.map_path})"
                if w.skipped:
                    line += f"; {w.skipped:,} without text not written"
                out.append(line)
        return out
