"""JSON Lines output: one contract object per hand, with amounts written as exact decimals.

The standard library's ``json`` cannot write a :class:`~decimal.Decimal` as a number (only as a
string, or through a float, which rounds). :func:`dumps` is a small serializer for the values a
hand report holds (dict, list, tuple, str, int, bool, None, Decimal, JSONNumber): a Decimal is
written as its exact positional text (``Decimal('26.85')`` -> ``26.85``, ``Decimal('0.10')`` ->
``0.10``), so a reader parsing the number as a decimal gets exactly the amount the hand history
wrote; a :class:`~handaudit.reports.contract.JSONNumber` is that text already. A float never reaches it from
handaudit; one given anyway is written with ``repr`` (shortest round-trip). Anything else is
written as the JSON string of its ``str``, as ``json.dumps(default=str)`` would.

Every text it writes is one line, whatever the strings hold: besides the escapes JSON requires
(``"``, ``\\``, U+0000-U+001F), the characters that line-splitting readers and terminals take
as line ends or controls are written as ``\\uNNNN`` escapes: the C1 controls U+0080-U+009F
(U+0085 NEL among them), U+2028, U+2029, and lone surrogates (which are not UTF-8).
``str.splitlines()`` on the output thus gives one line per hand, and ``json.loads`` the original
strings. An all-ASCII line (nearly every one) needs no look: ``str.isascii`` reads a flag.

It is compiled with mypyc: the standard encoder (Python 3.11) is slow per character written
and calls back into Python for each Decimal (docs/performance.md); this writer copies member names
from a cache and strings through the C escaper of the ``json`` module.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Final

from .contract import JSONNumber, JSONObject, hand_json
from .hand_report import HandReport

try:  # the C accelerator of the json module: the same escapes as json.dumps(ensure_ascii=False)
    from _json import encode_basestring as _encode_str  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    from json.encoder import py_encode_basestring as _encode_str  # type: ignore[assignment]

# Containers nested deeper than this are refused (as circular): a report object is 4 deep.
_MAX_DEPTH: Final = 200

# Where a value stands: alone or after a member name (0), first in a list (1, after '['), later
# in a list (2, after ','). The writer puts the bracket or comma in the value's own piece where
# it has that piece ready (a cached form): each piece is a cost in the join.
_LEADS: Final[tuple[str, ...]] = ("", "[", ",")  # typed variable-length: mypyc keeps a tuple object
_NULL: Final[tuple[str, ...]] = ("null", "[null", ",null")
_TRUE: Final[tuple[str, ...]] = ("true", "[true", ",true")
_FALSE: Final[tuple[str, ...]] = ("false", "[false", ",false")
_SMALL_INTS: Final[list[tuple[str, ...]]] = [tuple(lead + str(i) for lead in ("", "[", ",")) for i in range(256)]  # player numbers
# Member names written so far, as '{"name":' (by where the object stands, as above) and
# ',"name":'. A report has a few dozen names; the bound keeps arbitrary dicts given to dumps
# from growing the cache without end.
_FIRST: Final[tuple[dict[str, str], ...]] = ({}, {}, {})
_NEXT: Final[dict[str, str]] = {}
_MAX_NAMES: Final = 4096
# Strings written so far (up to this length), as JSON strings; a full cache starts again.
_STRINGS: Final[dict[str, str]] = {}
_MAX_STRINGS: Final = 4096
_CACHED_STRING_LEN: Final = 80
# Raw in JSON, but line ends to str.splitlines() or controls to a terminal, or not UTF-8.
# (the surrogates by chr(): mypyc refuses them in a string literal)
_UNSAFE: Final = re.compile("[\x80-\x9f\u2028\u2029" + chr(0xD800) + "-" + chr(0xDFFF) + "]")


def report_line(report: HandReport) -> str:
    """The JSONL line (without newline) of one report: ``dumps(report.to_json())``, with no
    Decimals or dicts made (JSONNumbers and JSONObjects instead)."""
    return dumps(hand_json(report, True))


def dumps(obj: object) -> str:
    """One JSON text, compact, UTF-8 characters kept, Decimals exact."""
    out: list[str] = []
    _write(obj, out, 0, 0)
    text = "".join(out)
    if text.isascii():
        return text
    return _UNSAFE.sub(_u_escape, text)


def _u_escape(m: re.Match[str]) -> str:
    """A character as a JSON ``\\uNNNN`` escape (these never stand outside a string)."""
    return f"\\u{ord(m.group()):04x}"


def _write(obj: object, out: list[str], depth: int, lead: int) -> None:
    if isinstance(obj, str):
        if lead:
            out.append(_LEADS[lead])
        out.append(_string(obj))
    elif obj is None:
        out.append(_NULL[lead])
    elif isinstance(obj, JSONNumber):
        out.append(obj.forms[lead])
    elif isinstance(obj, JSONObject):
        _write_object(obj, out, depth + 1, lead)
    elif type(obj) is int:  # the exact type, tested on the object: no unboxing and boxing again
        if 0 <= obj < 256:
            out.append(_SMALL_INTS[obj][lead])
            return
        if lead:
            out.append(_LEADS[lead])
        out.append(str(obj))
    elif obj is True:
        out.append(_TRUE[lead])
    elif obj is False:
        out.append(_FALSE[lead])
    elif isinstance(obj, dict):
        _write_dict(obj, out, depth + 1, lead)
    elif isinstance(obj, list):
        _write_list(obj, out, depth + 1, lead)
    elif isinstance(obj, tuple):
        _write_list(list(obj), out, depth + 1, lead)
    else:
        if lead:
            out.append(_LEADS[lead])
        if isinstance(obj, Decimal):
            out.append(_decimal_text(obj))
        elif isinstance(obj, int):  # a subclass (not bool): its value, as json writes it
            out.append(int.__repr__(obj))
        elif isinstance(obj, float):
            if not math.isfinite(obj):
                raise ValueError(f"cannot write {obj} as a JSON number")
            out.append(float.__repr__(obj))
        else:
            out.append(_encode_str(str(obj)))


def _write_list(obj: list, out: list[str], depth: int, lead: int) -> None:
    if depth > _MAX_DEPTH:
        raise ValueError("nesting too deep or circular")
    if lead:
        out.append(_LEADS[lead])
    if not obj:
        out.append("[]")
        return
    item_lead = 1
    for item in obj:
        _write(item, out, depth, item_lead)
        item_lead = 2
    out.append("]")


def _write_dict(obj: dict, out: list[str], depth: int, lead: int) -> None:
    if depth > _MAX_DEPTH:
        raise ValueError("nesting too deep or circular")
    if not obj:
        out.append(_LEADS[lead] + "{}")
        return
    names = _FIRST[lead]
    first = True
    for key, value in obj.items():
        if isinstance(key, str):
            name = names.get(key)
            if name is None:
                name = _name(key, names, (_LEADS[lead] + "{") if first else ",")
        else:
            name = ((_LEADS[lead] + "{") if first else ",") + _encode_str(_key_text(key)) + ":"
        out.append(name)
        names = _NEXT
        first = False
        _write(value, out, depth, 0)
    out.append("}")


def _write_object(obj: JSONObject, out: list[str], depth: int, lead: int) -> None:
    """A JSONObject, written as the dict of its members would be."""
    if depth > _MAX_DEPTH:
        raise ValueError("nesting too deep or circular")
    shape = obj.shape
    values = obj.values
    out.append(shape.first[lead])
    _write(values[0], out, depth, 0)
    names = shape.rest
    for k in range(len(names)):
        out.append(names[k])
        _write(values[k + 1], out, depth, 0)
    out.append("}")


def _string(s: str) -> str:
    """A JSON string; short ones (statuses, shares, paths, codes) repeat, so they are cached."""
    if len(s) > _CACHED_STRING_LEN:
        return _encode_str(s)
    text = _STRINGS.get(s)
    if text is None:
        if len(_STRINGS) >= _MAX_STRINGS:
            _STRINGS.clear()
        text = _encode_str(s)
        _STRINGS[s] = text
    return text


def _name(key: str, names: dict[str, str], lead: str) -> str:
    """A member name as written (its lead: brace or comma, quoted name, colon), cached."""
    name = lead + _encode_str(key) + ":"
    if len(names) < _MAX_NAMES:
        names[key] = name
    return name


def _key_text(key: object) -> str:
    """A non-string member name as json.dumps writes it."""
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    if isinstance(key, float):
        if not math.isfinite(key):
            raise ValueError(f"cannot write {key} as a JSON member name")
        return float.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _decimal_text(d: Decimal) -> str:
    if not d.is_finite():
        raise ValueError(f"cannot write {d} as a JSON number")
    text = format(d, "f")  # positional, exact, keeps trailing zeros ('0.10')
    return "0" if text == "-0" else text


def loads(text: str):
    """Parse JSON with numbers that have a fraction read as exact Decimals (tests, consumers)."""
    return json.loads(text, parse_float=Decimal)
