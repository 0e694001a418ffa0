"""The line-by-line .phhs splitter handaudit used before 2026-11-30, kept as a test oracle.

The reader's splitter (handaudit/grammar/sources.py, ``_Splitter``) now looks only at the lines
that can matter; tests/grammar/test_sources.py checks that it cuts every text exactly as this
one, which looks at every line. Not used by handaudit itself.
"""

from __future__ import annotations

import typing
import zlib
from collections.abc import Iterator

from handaudit.grammar.sources import _BLANK_OR_COMMENT, _HEADER, _READ_LINE, MAX_HAND_BYTES, Chunk, SeenKeys


def split_tables(path: str, reader: typing.BinaryIO) -> Iterator[Chunk]:
    seen = SeenKeys()
    index = 0
    key: str | None = None  # None: before the first header
    start_line = 1
    parts: list[bytes] = []
    size = 0
    overflow = False
    preamble_line = 0  # first line of non-comment content before any header
    in_string: bytes | None = None  # inside a ''' or \"\"\" multi-line string
    line_no = 0

    def flush() -> Chunk:
        nonlocal index
        data = b"".join(parts)
        problem = None
        again = seen.add(key or "")
        if overflow:
            problem = ("syntax-error", f"hand [{key}] is larger than {MAX_HAND_BYTES} bytes; not read")
            data = b""
        elif again:
            problem = ("duplicate-hand", f"table [{key}] appears again at line {start_line - 1}; this copy is not read")
        chunk = Chunk(path, key or "", index, data, start_line, problem)
        index += 1
        return chunk

    while True:
        try:
            piece = reader.readline(_READ_LINE)
        except (OSError, EOFError, zlib.error) as err:
            if key is not None:
                yield flush()
            yield Chunk(path, "", index, b"", line_no + 1, ("syntax-error", f"cannot read the rest of the file after line {line_no}: {err}"))
            return
        if not piece:
            break
        whole_line = piece.endswith(b"\n") or len(piece) < _READ_LINE
        if whole_line:
            line_no += 1
        # Only a line that starts with '[' (after blanks) can be a header: only it is matched.
        if in_string is None and whole_line and len(piece) < 4096 and piece.lstrip(b" \t").startswith(b"["):
            m = _HEADER.match(piece)
            if m:
                if key is not None:
                    yield flush()
                elif preamble_line:
                    yield Chunk(path, "", index, b"", preamble_line,
                                ("syntax-error", f"content before the first hand table, from line {preamble_line}; not read"))
                    index += 1
                raw = m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
                key = raw.decode("utf-8", "replace")
                start_line = line_no + 1
                parts, size, overflow = [], 0, False
                continue
        # where a multi-line string may open or close (find, not `in`: CPython 3.11's bytes
        # `in` first tries the operand as an integer and formats a TypeError for every call)
        if piece.find(b"''") >= 0 or piece.find(b'""') >= 0:
            for quote in (b"'''", b'"""'):
                if in_string in (None, quote):
                    if piece.count(quote) % 2:
                        in_string = None if in_string else quote
        if key is None:
            if not preamble_line and not _BLANK_OR_COMMENT.match(piece):
                preamble_line = line_no or 1
            continue
        if not overflow:
            size += len(piece)
            if size > MAX_HAND_BYTES:
                overflow, parts = True, []
            else:
                parts.append(piece)
    if key is not None:
        yield flush()
    elif preamble_line:
        yield Chunk(path, "", index, b"", preamble_line, ("syntax-error", "no hand table ([1], [2], ...) found; the text is not a .phhs hand list"))
    else:
        yield Chunk(path, "", index, b"", 1, ("no-hands", "the file holds no hand"))
