"""JSON Lines output: one contract object per hand, with amounts written as exact decimals.

The standard library's ``json`` cannot write a :class:`~decimal.Decimal` as a number (only as a
string, or through a float, which rounds). :func:`dumps` is a small serializer for the values a
hand report holds (dict, list, tuple, str, int, bool, None, Decimal): a Decimal is written as its
exact positional text (``Decimal('26.85')`` -> ``26.85``, ``Decimal('0.10')`` -> ``0.10``), so a
reader parsing the number as a decimal gets exactly the amount the hand history wrote. A float
never reaches it from handaudit; one given anyway is written with ``repr`` (shortest round-trip).
"""

from __future__ import annotations

import json
from decimal import Decimal

try:  # the C accelerator of the json module
    from _json import encode_basestring as _encode_str  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    from json.encoder import py_encode_basestring as _encode_str  # type: ignore[assignment]


def _decimal_text(d: Decimal) -> str:
    if not d.is_finite():
        raise ValueError(f"cannot write {d} as a JSON number")
    text = format(d, "f")  # positional, exact, keeps trailing zeros ('0.10')
    return "0" if text == "-0" else text


# The standard encoder (C) writes everything but Decimals; each Decimal goes out as a JSON
# string holding a marker and its exact text (``"\u000026.85"``), and the marker strings are
# then turned back into bare numbers (``26.85``). The marker is a NUL character, which no text
# handaudit writes can contain: the reader refuses hand text with NUL in it, and paths cannot
# hold one. So the encoded ``"\u0000`` (quote, backslash-u escape of NUL) opens a marker string
# and nothing else (a literal backslash in a string is written ``\\``), and the marker string
# ends at the next quote (its text is digits, '-' and '.').
_MARK = "\x00"
_OPEN = '"\\u0000'
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False,
                            default=lambda obj: _MARK + _decimal_text(obj) if isinstance(obj, Decimal) else str(obj))


def dumps(obj: object) -> str:
    """One JSON text, compact, UTF-8 characters kept, Decimals exact."""
    parts = _ENCODER.encode(obj).split(_OPEN)
    if len(parts) == 1:
        return parts[0]
    out = [parts[0]]
    for part in parts[1:]:
        end = part.index('"')  # the marker string's closing quote
        out.append(part[:end])
        out.append(part[end + 1 :])
    return "".join(out)


def loads(text: str):
    """Parse JSON with numbers that have a fraction read as exact Decimals (tests, consumers)."""
    return json.loads(text, parse_float=Decimal)


def report_line(report) -> str:
    """The JSONL line (without newline) of one :class:`~handaudit.audit.HandReport`."""
    return dumps(report.to_json())
