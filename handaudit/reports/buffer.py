"""The report tables' rows buffered as columns, in compiled code, for the Parquet writer.

:func:`handaudit.reports.rows.table_rows` gives each hand's rows as tuples; a
:class:`ReportBuffer` appends each value to its column's list here, so the writer
(:mod:`handaudit.reports.parquet`) gets whole columns without a Python loop over rows. A string
column is kept as dictionary codes (small ints, one list of its distinct strings): the writer
turns the codes into an Arrow dictionary array, which converts and encodes some four times faster
than a Python ``str`` per row (docs/performance.md, "The Parquet path"). No pyarrow here: a JSONL
run never imports it.
"""

from __future__ import annotations


class TableBuffer:
    """One table's buffered rows: ``values[i]`` per column, or, for a string column (``strings[i]``),
    ``codes[i]`` (index into ``words[i]``, None for null). Codes stay valid until
    :meth:`take_words` starts new dictionaries (the writer does so after each row group)."""

    def __init__(self, strings: list[bool]) -> None:
        self.width = len(strings)
        self.strings = strings
        self.values: list[list[object]] = [[] for _ in strings]
        self.codes: list[list[object]] = [[] for _ in strings]
        self.index: list[dict[object, int]] = [{} for _ in strings]
        self.words: list[list[object]] = [[] for _ in strings]
        self.nulls: list[int] = [0 for _ in strings]  # null codes since the last take()
        self.rows = 0

    def add(self, rows: list[tuple]) -> None:
        width = self.width
        strings = self.strings
        for row in rows:
            if len(row) != width:
                raise ValueError(f"a row of {len(row)} values for a table of {width} columns")
            for i in range(width):
                v = row[i]
                if strings[i]:
                    if v is None:
                        self.codes[i].append(None)
                        self.nulls[i] += 1
                    else:
                        index = self.index[i]
                        code = index.get(v)
                        if code is None:
                            words = self.words[i]
                            code = len(words)
                            index[v] = code
                            words.append(v)
                        self.codes[i].append(code)
                else:
                    self.values[i].append(v)
        self.rows += len(rows)

    def take(self) -> tuple[list[list[object]], list[list[object]], list[int], list[int]]:
        """(values, codes, null codes, dictionary sizes) of each column for the rows buffered
        since the last take; the buffer starts empty (the dictionaries stay)."""
        out = (self.values, self.codes, self.nulls, [len(w) for w in self.words])
        self.values = [[] for _ in self.strings]
        self.codes = [[] for _ in self.strings]
        self.nulls = [0 for _ in self.strings]
        self.rows = 0
        return out

    def take_words(self) -> list[list[object]]:
        """Each string column's distinct strings, by code; new dictionaries from here on."""
        words = self.words
        self.words = [[] for _ in self.strings]
        self.index = [{} for _ in self.strings]
        return words

    def clear(self) -> None:
        self.take()
        self.take_words()


class ReportBuffer:
    """The buffers of every table, in the order of :data:`handaudit.reports.layout.TABLE_NAMES`."""

    def __init__(self, strings: list[list[bool]], batch_rows: int) -> None:
        self.tables: list[TableBuffer] = [TableBuffer(s) for s in strings]
        self.batch_rows = batch_rows

    def add(self, rows: tuple) -> bool:
        """Buffer one hand's rows (one list of row tuples per table); True when some table has
        ``batch_rows`` rows buffered (time for the writer to take them)."""
        due = False
        tables = self.tables
        for t in range(len(tables)):
            table = tables[t]
            table.add(rows[t])
            if table.rows >= self.batch_rows:
                due = True
        return due
