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
import math
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


def _write(obj, out: list) -> None:
    # Ordered by frequency in hand reports.
    if isinstance(obj, str):
        out.append(_encode_str(obj))
    elif obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif isinstance(obj, int):
        out.append(int.__repr__(obj))
    elif isinstance(obj, dict):
        if not obj:
            out.append("{}")
            return
        out.append("{")
        first = True
        for key, value in obj.items():
            if not first:
                out.append(",")
            first = False
            out.append(_encode_str(key if isinstance(key, str) else str(key)))
            out.append(":")
            _write(value, out)
        out.append("}")
    elif isinstance(obj, (list, tuple)):
        if not obj:
            out.append("[]")
            return
        out.append("[")
        first = True
        for value in obj:
            if not first:
                out.append(",")
            first = False
            _write(value, out)
        out.append("]")
    elif isinstance(obj, Decimal):
        out.append(_decimal_text(obj))
    elif isinstance(obj, float):
        if not math.isfinite(obj):
            raise ValueError(f"cannot write {obj} as a JSON number")
        out.append(float.__repr__(obj))
    else:
        # dates and times from PHH fields and anything else: their text
        out.append(_encode_str(str(obj)))


def dumps(obj) -> str:
    """One JSON text, compact, UTF-8 characters kept, Decimals exact."""
    out: list[str] = []
    _write(obj, out)
    return "".join(out)


def loads(text: str):
    """Parse JSON with numbers that have a fraction read as exact Decimals (tests, consumers)."""
    return json.loads(text, parse_float=Decimal)


def report_line(report) -> str:
    """The JSONL line (without newline) of one :class:`~handaudit.audit.HandReport`."""
    return dumps(report.to_json())
